import FrameSimulation
import FrameSupport
import FrameTrace

/// List-update figures (technique 5): a full reload against diffing identifier snapshots, for
/// one update touching about 5% of the rows of lists of 100, 1,000 and 10,000 rows.
func runDiffBenchmarks() {
    for rowCount in [100, 1_000, 10_000] {
        let repetitions = max(20, 30_000 / rowCount)
        section("List update, \(rowCount) rows, one update of ~5% (µs; median over \(repetitions) repetitions)")
        var rng = SeededGenerator(seed: 7)
        let menu = RestaurantMenu(rowCount: rowCount, using: &rng)
        let next = menu.applyingRandomUpdate(using: &rng)
        let shownRows = ListReloadWorkload.reload(menu)
        let shownSnapshot = SnapshotDiffWorkload.makeSnapshot(of: menu)
        let nextSnapshot = SnapshotDiffWorkload.makeSnapshot(of: next, changedSince: menu.revision)
        let diff = SnapshotDiffWorkload.diff(from: shownSnapshot, to: nextSnapshot)

        let reload = measure(repetitions: repetitions, operations: 1) {
            blackHole(ListReloadWorkload.reload(next))
        }
        let snapshot = measure(repetitions: repetitions, operations: 1) {
            blackHole(SnapshotDiffWorkload.makeSnapshot(of: next, changedSince: menu.revision))
        }
        let diffing = measure(repetitions: repetitions, operations: 1) {
            blackHole(SnapshotDiffWorkload.diff(from: shownSnapshot, to: nextSnapshot))
        }
        let apply = measure(repetitions: repetitions, operations: 1) {
            var rows = shownRows
            SnapshotDiffWorkload.applyOnMain(diff, to: &rows, menu: next)
            blackHole(rows)
        }

        let touched =
            diff.itemInserts.count + diff.itemDeletes.count + diff.itemMoves.count + diff.itemReconfigures.count
        figure(
            "row changes in the diff", Double(touched), "changes",
            note:
                "\(diff.itemInserts.count) inserts, \(diff.itemDeletes.count) deletes, \(diff.itemMoves.count) moves, \(diff.itemReconfigures.count) reconfigures"
        )
        figure(
            "reload: rebuild, bind, measure all (main)", reload.median / 1_000, "µs",
            note: "p99 \(formatFixed(reload.p99 / 1_000, decimals: 1))")
        figure(
            "snapshot: build identifiers (background)", snapshot.median / 1_000, "µs",
            note: "p99 \(formatFixed(snapshot.p99 / 1_000, decimals: 1))")
        figure(
            "snapshot: diff (background)", diffing.median / 1_000, "µs",
            note: "p99 \(formatFixed(diffing.p99 / 1_000, decimals: 1))")
        figure(
            "snapshot: apply changed rows (main)", apply.median / 1_000, "µs",
            note: "p99 \(formatFixed(apply.p99 / 1_000, decimals: 1))")
        figure("snapshot: total work", (snapshot.median + diffing.median + apply.median) / 1_000, "µs")
        figure("main thread: reload / apply", reload.median / apply.median, "x")
        figure(
            "all work: reload / snapshot total", reload.median / (snapshot.median + diffing.median + apply.median), "x")
    }
}
