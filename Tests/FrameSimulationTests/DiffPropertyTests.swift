import FrameSimulation
import Testing

@Suite("SnapshotDiff on random snapshot pairs")
struct DiffPropertyTests {
    /// 8 batches of 400 seeds: 3,200 snapshot pairs.
    static let batches: Range<UInt64> = 0..<8
    static let pairsPerBatch: UInt64 = 400

    @Test("Applying the diff to the old snapshot yields the new one", arguments: batches)
    func applyingYieldsNewSnapshot(batch: UInt64) {
        for seed in seeds(batch) {
            let (old, new) = RandomSnapshots.pair(seed: seed)
            let diff = SnapshotDiff(from: old, to: new)
            var expected = new
            expected.dropMarks(notIn: old)
            #expect(old.applying(diff) == expected, "seed \(seed)")
            let simulated = DiffOracle.simulate(diff, on: old)
            #expect(simulated.map(\.section) == new.sectionIdentifiers, "seed \(seed)")
            #expect(
                simulated.map(\.items) == new.sectionIdentifiers.map(new.itemIdentifiers(inSection:)), "seed \(seed)")
        }
    }

    @Test("Deletes and inserts are exactly the identifiers the oracle finds", arguments: batches)
    func deletesAndInsertsMatchOracle(batch: UInt64) {
        for seed in seeds(batch) {
            let (old, new) = RandomSnapshots.pair(seed: seed)
            let diff = SnapshotDiff(from: old, to: new)
            #expect(Set(diff.itemDeletes.map(\.id)) == DiffOracle.deletedItems(old, new), "seed \(seed)")
            #expect(Set(diff.itemInserts.map(\.id)) == DiffOracle.deletedItems(new, old), "seed \(seed)")
            #expect(Set(diff.sectionDeletes.map(\.id)) == DiffOracle.deletedSections(old, new), "seed \(seed)")
            #expect(Set(diff.sectionInserts.map(\.id)) == DiffOracle.deletedSections(new, old), "seed \(seed)")
        }
    }

    @Test("Move counts equal the minimum the oracle computes", arguments: batches)
    func movesAreMinimal(batch: UInt64) {
        for seed in seeds(batch) {
            let (old, new) = RandomSnapshots.pair(seed: seed)
            let diff = SnapshotDiff(from: old, to: new)
            #expect(diff.itemMoves.count == DiffOracle.minimalItemMoves(old, new), "seed \(seed)")
            #expect(diff.sectionMoves.count == DiffOracle.minimalSectionMoves(old, new), "seed \(seed)")
        }
    }

    @Test("Every change names its identifier's real positions, sorted as documented", arguments: batches)
    func positionsAreRealAndSorted(batch: UInt64) {
        for seed in seeds(batch) {
            let (old, new) = RandomSnapshots.pair(seed: seed)
            let diff = SnapshotDiff(from: old, to: new)
            #expect(diff.itemDeletes.allSatisfy { old.indexPath(of: $0.id) == $0.position }, "seed \(seed)")
            #expect(diff.itemInserts.allSatisfy { new.indexPath(of: $0.id) == $0.position }, "seed \(seed)")
            #expect(
                diff.itemMoves.allSatisfy { old.indexPath(of: $0.id) == $0.from && new.indexPath(of: $0.id) == $0.to },
                "seed \(seed)")
            #expect(
                diff.sectionMoves.allSatisfy {
                    old.indexOfSection($0.id) == $0.from && new.indexOfSection($0.id) == $0.to
                }, "seed \(seed)")
            let reconfigured = new.reconfiguredItemIdentifiers.filter { old.indexPath(of: $0) != nil }
            #expect(Set(diff.itemReconfigures.map(\.id)) == reconfigured, "seed \(seed)")
            #expect(diff.itemReconfigures.allSatisfy { new.indexPath(of: $0.id) == $0.position }, "seed \(seed)")
            #expect(
                isSorted(diff.itemDeletes.map(\.position)) && isSorted(diff.itemInserts.map(\.position)), "seed \(seed)"
            )
            #expect(
                isSorted(diff.itemMoves.map(\.to)) && isSorted(diff.itemReconfigures.map(\.position)), "seed \(seed)")
            #expect(
                isSorted(diff.sectionDeletes.map(\.position)) && isSorted(diff.sectionInserts.map(\.position)),
                "seed \(seed)")
            #expect(isSorted(diff.sectionMoves.map(\.to)), "seed \(seed)")
        }
    }

    private func seeds(_ batch: UInt64) -> Range<UInt64> {
        batch * Self.pairsPerBatch..<(batch + 1) * Self.pairsPerBatch
    }

    private func isSorted<T: Comparable>(_ values: [T]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }
}

extension ListSnapshot {
    /// Removes the marks on items `old` does not hold: a diff carries marks only for items in
    /// both snapshots.
    mutating func dropMarks(notIn old: ListSnapshot) {
        let kept = reconfiguredItemIdentifiers.filter { old.indexPath(of: $0) != nil }
        var rebuilt = ListSnapshot()
        rebuilt.appendSections(sectionIdentifiers)
        for section in sectionIdentifiers {
            rebuilt.appendItems(itemIdentifiers(inSection: section), toSection: section)
        }
        rebuilt.reconfigureItems(Array(kept))
        self = rebuilt
    }
}
