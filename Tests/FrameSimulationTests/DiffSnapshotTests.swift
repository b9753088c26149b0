import FrameSimulation
import Testing

@Suite("ListSnapshot")
struct DiffSnapshotTests {
    private func makeSnapshot() -> ListSnapshot<String, Int> {
        var snapshot = ListSnapshot<String, Int>()
        snapshot.appendSections(["starters", "mains"])
        snapshot.appendItems([1, 2, 3], toSection: "starters")
        snapshot.appendItems([4, 5])
        return snapshot
    }

    @Test("Appending builds sections and items in order; items without a section go to the last")
    func appendBuildsLayout() {
        let snapshot = makeSnapshot()
        #expect(snapshot.sectionIdentifiers == ["starters", "mains"])
        #expect(snapshot.itemIdentifiers == [1, 2, 3, 4, 5])
        #expect(snapshot.itemIdentifiers(inSection: "mains") == [4, 5])
        #expect(snapshot.numberOfSections == 2)
        #expect(snapshot.numberOfItems == 5)
        #expect(snapshot.indexPath(of: 5) == ListIndexPath(section: 1, item: 1))
        #expect(snapshot.sectionIdentifier(containingItem: 2) == "starters")
        #expect(snapshot.indexPath(of: 99) == nil)
    }

    @Test("Inserting sections and items lands before or after the anchor")
    func insertRelativeToAnchor() {
        var snapshot = makeSnapshot()
        snapshot.insertSections(["drinks"], beforeSection: "mains")
        snapshot.insertSections(["desserts"], afterSection: "mains")
        snapshot.insertItems([10], beforeItem: 1)
        snapshot.insertItems([11, 12], afterItem: 4)
        snapshot.appendItems([13], toSection: "drinks")
        #expect(snapshot.sectionIdentifiers == ["starters", "drinks", "mains", "desserts"])
        #expect(snapshot.itemIdentifiers(inSection: "starters") == [10, 1, 2, 3])
        #expect(snapshot.itemIdentifiers(inSection: "mains") == [4, 11, 12, 5])
        #expect(snapshot.indexOfSection("desserts") == 3)
        #expect(snapshot.indexPath(of: 13) == ListIndexPath(section: 1, item: 0))
    }

    @Test("Moving an item to another section updates where it is found")
    func moveItemAcrossSections() {
        var snapshot = makeSnapshot()
        snapshot.moveItem(1, afterItem: 5)
        snapshot.moveItem(3, beforeItem: 2)
        #expect(snapshot.itemIdentifiers(inSection: "starters") == [3, 2])
        #expect(snapshot.itemIdentifiers(inSection: "mains") == [4, 5, 1])
        #expect(snapshot.sectionIdentifier(containingItem: 1) == "mains")
    }

    @Test("Moving a section carries its items and reindexes the sections")
    func moveSectionCarriesItems() {
        var snapshot = makeSnapshot()
        snapshot.appendSections(["desserts"])
        snapshot.moveSection("starters", afterSection: "desserts")
        #expect(snapshot.sectionIdentifiers == ["mains", "desserts", "starters"])
        #expect(snapshot.indexPath(of: 2) == ListIndexPath(section: 2, item: 1))
        snapshot.moveSection("starters", beforeSection: "mains")
        #expect(snapshot.sectionIdentifiers == ["starters", "mains", "desserts"])
        #expect(snapshot.indexOfSection("desserts") == 2)
    }

    @Test("Deleting a section deletes its items and their marks, so the identifiers can be reused")
    func deleteSectionDeletesItems() {
        var snapshot = makeSnapshot()
        snapshot.reconfigureItems([2, 4])
        snapshot.deleteSections(["starters"])
        #expect(snapshot.sectionIdentifiers == ["mains"])
        #expect(snapshot.numberOfItems == 2)
        #expect(snapshot.reconfiguredItemIdentifiers == [4])
        #expect(snapshot.indexOfSection("mains") == 0)
        snapshot.appendSections(["starters"])
        snapshot.appendItems([1, 2])
        #expect(snapshot.itemIdentifiers == [4, 5, 1, 2])
    }

    @Test("Deleting items removes them and their marks")
    func deleteItemsClearsMarks() {
        var snapshot = makeSnapshot()
        snapshot.reconfigureItems([2, 3])
        snapshot.deleteItems([2, 5])
        #expect(snapshot.itemIdentifiers == [1, 3, 4])
        #expect(snapshot.reconfiguredItemIdentifiers == [3])
        #expect(snapshot.sectionIdentifier(containingItem: 2) == nil)
    }

    @Test("Equal snapshots hold the same order and the same marks")
    func equalityComparesOrderAndMarks() {
        let snapshot = makeSnapshot()
        var reordered = snapshot
        reordered.moveItem(1, afterItem: 2)
        var marked = snapshot
        marked.reconfigureItems([1])
        #expect(snapshot == makeSnapshot())
        #expect(snapshot != reordered)
        #expect(snapshot != marked)
    }

    @Test("Appending an identifier twice is a precondition failure")
    func duplicateItemTraps() async {
        await #expect(processExitsWith: .failure) {
            var snapshot = ListSnapshot<Int, Int>()
            snapshot.appendSections([0, 1])
            snapshot.appendItems([7], toSection: 0)
            snapshot.appendItems([7], toSection: 1)
        }
    }
}
