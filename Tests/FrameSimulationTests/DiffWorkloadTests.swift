import FrameSimulation
import FrameSupport
import FrameTrace
import Testing

@Suite("List update workloads")
struct DiffWorkloadTests {
    @Test("A seed reproduces the same menu and the same updates", arguments: [1, 100, 1_000])
    func menuIsReproducible(rowCount: Int) {
        var first = SeededGenerator(seed: 3)
        var second = SeededGenerator(seed: 3)
        let menu = RestaurantMenu(rowCount: rowCount, using: &first)
        #expect(menu == RestaurantMenu(rowCount: rowCount, using: &second))
        #expect(menu.rowCount == rowCount)
        #expect(menu.applyingRandomUpdate(using: &first) == menu.applyingRandomUpdate(using: &second))
    }

    @Test("An update stamps what it changes with the new revision and keeps sold-out dishes last")
    func updateStampsChanges() {
        var rng = SeededGenerator(seed: 11)
        let menu = RestaurantMenu(rowCount: 2_000, using: &rng)
        let next = menu.applyingRandomUpdate(using: &rng)
        #expect(next.revision == menu.revision + 1)
        let dishes = next.categories.flatMap(\.dishes)
        let changed =
            dishes.filter { $0.revision == next.revision }.count
            + next.reviews.filter { $0.revision == next.revision }.count
        #expect(changed > 0 && changed <= 100)
        for category in next.categories {
            let firstSoldOut = category.dishes.firstIndex(where: \.isSoldOut) ?? category.dishes.count
            #expect(category.dishes[firstSoldOut...].allSatisfy { $0.isSoldOut })
        }
    }

    @Test("Rows match the menu: header first, dishes by category, reviews last")
    func reloadFollowsLayout() throws {
        var rng = SeededGenerator(seed: 5)
        let menu = RestaurantMenu(rowCount: 60, using: &rng)
        let rows = ListReloadWorkload.reload(menu)
        #expect(rows.count == menu.categories.count + 2)
        #expect(rows.map(\.count).reduce(0, +) == 60)
        #expect(rows[0].map(\.id) == [.header])
        #expect(rows[1].map(\.id) == menu.categories[0].dishes.map { .dish($0.id) })
        #expect(rows.last?.map(\.id) == menu.reviews.map { .review($0.id) })
        let dish = try #require(rows[1].first)
        #expect(dish.height > 0)
    }

    @Test("Longer text wraps onto more lines and makes a taller row")
    func heightFollowsText() throws {
        var rng = SeededGenerator(seed: 9)
        var menu = RestaurantMenu(rowCount: 20, using: &rng)
        let path = ListIndexPath(section: 1, item: 0)
        menu.categories[0].dishes[0].details = "Short."
        let short = RowViewModel(binding: menu, at: path)
        menu.categories[0].dishes[0].details = String(repeating: "slow-cooked seasonal greens ", count: 12)
        let long = RowViewModel(binding: menu, at: path)
        #expect(long.height > short.height)
    }

    @Test("The snapshot strategy ends with the same rows as a full reload", arguments: 0..<20)
    func snapshotStrategyMatchesReload(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var menu = RestaurantMenu(rowCount: Int.random(in: 1...300, using: &rng), using: &rng)
        var rows = ListReloadWorkload.reload(menu)
        var shown = SnapshotDiffWorkload.makeSnapshot(of: menu)
        for _ in 0..<10 {
            let next = menu.applyingRandomUpdate(changing: 0.1, using: &rng)
            let snapshot = SnapshotDiffWorkload.makeSnapshot(of: next, changedSince: menu.revision)
            let diff = SnapshotDiffWorkload.diff(from: shown, to: snapshot)
            SnapshotDiffWorkload.applyOnMain(diff, to: &rows, menu: next)
            #expect(rows == ListReloadWorkload.reload(next), "seed \(seed)")
            menu = next
            shown = snapshot
        }
    }

    @Test("The diff of an update touches only the rows it changed")
    func diffTouchesOnlyChangedRows() {
        var rng = SeededGenerator(seed: 21)
        let menu = RestaurantMenu(rowCount: 1_000, using: &rng)
        let next = menu.applyingRandomUpdate(using: &rng)
        let diff = SnapshotDiffWorkload.diff(
            from: SnapshotDiffWorkload.makeSnapshot(of: menu),
            to: SnapshotDiffWorkload.makeSnapshot(of: next, changedSince: menu.revision)
        )
        let touched =
            diff.itemInserts.count + diff.itemDeletes.count + diff.itemMoves.count + diff.itemReconfigures.count
        #expect(touched > 0 && touched <= 2 * 50 + 1)
        #expect(diff.sectionInserts.isEmpty && diff.sectionDeletes.isEmpty && diff.sectionMoves.isEmpty)
    }
}
