import FrameSimulation
import FrameSupport
import FrameTrace

typealias TestSnapshot = ListSnapshot<Int, Int>
typealias TestDiff = SnapshotDiff<Int, Int>

/// Brute-force answers to what a minimal diff between two snapshots contains, and a step-by-step
/// simulation of the batch-update semantics, for checking ``SnapshotDiff`` against.
enum DiffOracle {
    /// Old items not in the new snapshot, found by scanning.
    static func deletedItems(_ old: TestSnapshot, _ new: TestSnapshot) -> Set<Int> {
        let newItems = new.itemIdentifiers
        return Set(old.itemIdentifiers.filter { !newItems.contains($0) })
    }

    /// Old sections not in the new snapshot, found by scanning.
    static func deletedSections(_ old: TestSnapshot, _ new: TestSnapshot) -> Set<Int> {
        Set(old.sectionIdentifiers.filter { !new.sectionIdentifiers.contains($0) })
    }

    /// The fewest section moves: surviving sections less a longest common subsequence of the
    /// two section orders (quadratic dynamic programming).
    static func minimalSectionMoves(_ old: TestSnapshot, _ new: TestSnapshot) -> Int {
        let surviving = new.sectionIdentifiers.filter { old.sectionIdentifiers.contains($0) }.count
        return surviving - longestCommonSubsequence(old.sectionIdentifiers, new.sectionIdentifiers)
    }

    /// The fewest item moves: every surviving item that changed section, plus, for each section
    /// in both snapshots, the items that stayed in it less a longest common subsequence of its
    /// two item orders.
    static func minimalItemMoves(_ old: TestSnapshot, _ new: TestSnapshot) -> Int {
        var moves = 0
        for section in new.sectionIdentifiers {
            let newItems = new.itemIdentifiers(inSection: section)
            guard old.sectionIdentifiers.contains(section) else {
                moves += newItems.filter { old.itemIdentifiers.contains($0) }.count
                continue
            }
            let oldItems = old.itemIdentifiers(inSection: section)
            let cameFromElsewhere = newItems.filter { !oldItems.contains($0) && old.itemIdentifiers.contains($0) }.count
            let stayed = newItems.filter { oldItems.contains($0) }.count
            moves += cameFromElsewhere + stayed - longestCommonSubsequence(oldItems, newItems)
        }
        return moves
    }

    /// Applies a diff the way UITableView's batch updates are described: removals one at a time
    /// at old positions in descending order, then insertions one at a time at new positions in
    /// ascending order.
    static func simulate(_ diff: TestDiff, on old: TestSnapshot) -> [(section: Int, items: [Int])] {
        var sections = old.sectionIdentifiers.map { (section: $0, items: old.itemIdentifiers(inSection: $0)) }
        let leavingItems = diff.itemDeletes.map(\.position) + diff.itemMoves.map(\.from)
        for path in leavingItems.sorted(by: >) {
            sections[path.section].items.remove(at: path.item)
        }
        var movedSections: [Int: (section: Int, items: [Int])] = [:]
        for index in (diff.sectionDeletes.map(\.position) + diff.sectionMoves.map(\.from)).sorted(by: >) {
            let removed = sections.remove(at: index)
            movedSections[removed.section] = removed
        }
        let arrivingSections =
            diff.sectionInserts.map { ($0.position, (section: $0.id, items: [Int]())) }
            + diff.sectionMoves.map { ($0.to, movedSections[$0.id]!) }
        for (index, section) in arrivingSections.sorted(by: { $0.0 < $1.0 }) {
            sections.insert(section, at: index)
        }
        let arrivingItems = diff.itemInserts.map { ($0.position, $0.id) } + diff.itemMoves.map { ($0.to, $0.id) }
        for (path, item) in arrivingItems.sorted(by: { $0.0 < $1.0 }) {
            sections[path.section].items.insert(item, at: path.item)
        }
        return sections
    }

    private static func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
        var previous = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var current = [0]
            for (j, y) in b.enumerated() {
                current.append(x == y ? previous[j] + 1 : max(previous[j + 1], current[j]))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Random snapshot pairs: an old snapshot and a new one made from it by random edits, or, for
/// one pair in four, an unrelated new snapshot over the same identifiers (heavy reordering).
enum RandomSnapshots {
    static func pair(seed: UInt64) -> (old: TestSnapshot, new: TestSnapshot) {
        var rng = SeededGenerator(seed: seed)
        let old = snapshot(using: &rng)
        if Int.random(in: 0..<4, using: &rng) == 0 {
            return (old, snapshot(using: &rng))
        }
        var new = old
        var nextSection = sectionPool
        var nextItem = itemPool
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            edit(&new, nextSection: &nextSection, nextItem: &nextItem, using: &rng)
        }
        let marks = new.itemIdentifiers.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
        new.reconfigureItems(marks)
        return (old, new)
    }

    private static let sectionPool = 8
    private static let itemPool = 60

    /// Up to 5 sections of up to 10 items, identifiers drawn from the pools in shuffled order.
    private static func snapshot(using rng: inout SeededGenerator) -> TestSnapshot {
        var snapshot = TestSnapshot()
        let sectionIDs = Array(0..<sectionPool).shuffled(using: &rng).prefix(Int.random(in: 0...5, using: &rng))
        let itemIDs = Array(0..<itemPool).shuffled(using: &rng)
        var used = 0
        for section in sectionIDs {
            snapshot.appendSections([section])
            let count = Int.random(in: 0...10, using: &rng)
            snapshot.appendItems(Array(itemIDs[used..<(used + count)]))
            used += count
        }
        snapshot.reconfigureItems(snapshot.itemIdentifiers.filter { _ in Bool.random(using: &rng) })
        return snapshot
    }

    private static func edit(
        _ snapshot: inout TestSnapshot, nextSection: inout Int, nextItem: inout Int, using rng: inout SeededGenerator
    ) {
        let items = snapshot.itemIdentifiers
        let sections = snapshot.sectionIdentifiers
        switch Int.random(in: 0..<7, using: &rng) {
        case 0 where !items.isEmpty:
            snapshot.deleteItems(Array(items.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng))))
        case 1 where !items.isEmpty:
            let anchor = items.randomElement(using: &rng)!
            let fresh = Array(nextItem..<(nextItem + Int.random(in: 1...3, using: &rng)))
            nextItem += fresh.count
            if Bool.random(using: &rng) {
                snapshot.insertItems(fresh, beforeItem: anchor)
            } else {
                snapshot.insertItems(fresh, afterItem: anchor)
            }
        case 2 where !sections.isEmpty:
            snapshot.appendItems([nextItem], toSection: sections.randomElement(using: &rng)!)
            nextItem += 1
        case 3 where items.count >= 2:
            let pair = items.shuffled(using: &rng).prefix(2)
            if Bool.random(using: &rng) {
                snapshot.moveItem(pair.first!, beforeItem: pair.last!)
            } else {
                snapshot.moveItem(pair.first!, afterItem: pair.last!)
            }
        case 4 where !sections.isEmpty:
            snapshot.deleteSections([sections.randomElement(using: &rng)!])
        case 5:
            let fresh = nextSection
            nextSection += 1
            if let anchor = sections.randomElement(using: &rng), Bool.random(using: &rng) {
                snapshot.insertSections([fresh], beforeSection: anchor)
            } else {
                snapshot.appendSections([fresh])
            }
            snapshot.appendItems(Array(nextItem..<(nextItem + 2)), toSection: fresh)
            nextItem += 2
        case 6 where sections.count >= 2:
            let pair = sections.shuffled(using: &rng).prefix(2)
            if Bool.random(using: &rng) {
                snapshot.moveSection(pair.first!, beforeSection: pair.last!)
            } else {
                snapshot.moveSection(pair.first!, afterSection: pair.last!)
            }
        default:
            break
        }
    }
}
