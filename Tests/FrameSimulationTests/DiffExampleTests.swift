import FrameSimulation
import Testing

@Suite("SnapshotDiff examples")
struct DiffExampleTests {
    private func snapshot(_ sections: [(Int, [Int])], marking marks: [Int] = []) -> TestSnapshot {
        var snapshot = TestSnapshot()
        for (section, items) in sections {
            snapshot.appendSections([section])
            snapshot.appendItems(items)
        }
        snapshot.reconfigureItems(marks)
        return snapshot
    }

    private func path(_ section: Int, _ item: Int) -> ListIndexPath {
        ListIndexPath(section: section, item: item)
    }

    @Test("Equal snapshots give an empty diff, whatever the old snapshot marked")
    func identicalSnapshotsGiveEmptyDiff() {
        let old = snapshot([(0, [1, 2, 3]), (1, [4])], marking: [2])
        let diff = SnapshotDiff(from: old, to: snapshot([(0, [1, 2, 3]), (1, [4])]))
        #expect(diff.isEmpty)
    }

    @Test("Moving the first item to the end is one move, not a shift of every other item")
    func firstToLastIsOneMove() {
        let old = snapshot([(0, Array(1...10))])
        let new = snapshot([(0, Array(2...10) + [1])])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.itemMoves == [.init(id: 1, from: path(0, 0), to: path(0, 9))])
        #expect(diff.itemInserts.isEmpty && diff.itemDeletes.isEmpty)
    }

    @Test("Deletes use old index paths and inserts new ones")
    func deletesOldInsertsNew() {
        let old = snapshot([(0, [1, 2, 3]), (1, [4, 5])])
        let new = snapshot([(0, [1, 3]), (1, [6, 4, 5])])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.itemDeletes == [.init(id: 2, position: path(0, 1))])
        #expect(diff.itemInserts == [.init(id: 6, position: path(1, 0))])
        #expect(diff.itemMoves.isEmpty)
    }

    @Test("An item that changes section is a move even when its index stays")
    func crossSectionMove() {
        let old = snapshot([(0, [1, 2]), (1, [3])])
        let new = snapshot([(0, [1]), (1, [2, 3])])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.itemMoves == [.init(id: 2, from: path(0, 1), to: path(1, 0))])
    }

    @Test("A moved section keeps its items without item moves")
    func sectionMoveCarriesItems() {
        let old = snapshot([(0, [1, 2]), (1, [3]), (2, [4])])
        let new = snapshot([(2, [4]), (0, [1, 2]), (1, [3])])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.sectionMoves == [.init(id: 2, from: 2, to: 0)])
        #expect(diff.itemMoves.isEmpty)
        #expect(old.applying(diff) == new)
    }

    @Test("Items of a deleted section that survive elsewhere move; the rest are deleted")
    func deletedSectionItems() {
        let old = snapshot([(0, [1, 2]), (1, [3, 4])])
        let new = snapshot([(1, [3, 4, 2])])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.sectionDeletes == [.init(id: 0, position: 0)])
        #expect(diff.itemDeletes == [.init(id: 1, position: path(0, 0))])
        #expect(diff.itemMoves == [.init(id: 2, from: path(0, 1), to: path(0, 2))])
        #expect(old.applying(diff) == new)
    }

    @Test("Items of an inserted section are listed as inserts")
    func insertedSectionItems() {
        let old = snapshot([(0, [1])])
        let new = snapshot([(5, [7, 8]), (0, [1])])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.sectionInserts == [.init(id: 5, position: 0)])
        #expect(diff.itemInserts.map(\.position) == [path(0, 0), path(0, 1)])
        #expect(old.applying(diff) == new)
    }

    @Test("Marked items present in both snapshots are reconfigured at their new path; marked inserts are not")
    func reconfiguresOnlySurvivors() {
        let old = snapshot([(0, [1, 2, 3])])
        let new = snapshot([(0, [9, 3, 1, 2])], marking: [1, 9])
        let diff = SnapshotDiff(from: old, to: new)
        #expect(diff.itemReconfigures == [.init(id: 1, position: path(0, 2))])
        #expect(diff.itemInserts == [.init(id: 9, position: path(0, 0))])
        #expect(old.applying(diff).reconfiguredItemIdentifiers == [1])
    }

    @Test("Applying to rows carries unchanged rows over and makes rows only for inserts")
    func applyingToRowsMakesOnlyInserts() {
        let old = snapshot([(0, [1, 2, 3]), (1, [4])])
        let new = snapshot([(1, [4, 3]), (0, [5, 1])])
        let diff = SnapshotDiff(from: old, to: new)
        var made: [Int] = []
        let rows = diff.applying(to: [["one", "two", "three"], ["four"]]) { id, _ in
            made.append(id)
            return "new \(id)"
        }
        #expect(rows == [["four", "three"], ["new 5", "one"]])
        #expect(made == [5])
    }
}
