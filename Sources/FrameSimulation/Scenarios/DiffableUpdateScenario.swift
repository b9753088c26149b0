import FrameScope
import FrameSupport
import FrameTrace

/// Technique 5: a restaurant-detail list receiving state updates while it scrolls, updated either
/// by reloading everything on the main thread or by diffing identifier snapshots off it.
///
/// Every few frames a state change arrives (price changes, sold-out toggles, new reviews, removed
/// dishes: about 5% of rows). With `reload`, the main thread rebuilds, rebinds and re-measures
/// every row. With `snapshot-diff`, a worker builds the identifier snapshot and diffs it against
/// the one on screen; the main thread then binds and measures only inserted and reconfigured rows.
/// Updates that arrive while a diff is in flight are coalesced into the next one, so diffs always
/// apply in order. Every frame also lays out the rows in the viewport as the list scrolls.
package final class DiffableUpdateScenario: Scenario {
    /// How list updates are applied.
    package enum Strategy: String, CaseIterable, Sendable {
        /// Rebuild, rebind and re-measure every row on the main thread.
        case reload
        /// Snapshot and diff on a worker; apply only the changes on the main thread.
        case snapshotDiff = "snapshot-diff"
    }

    static let descriptor = ScenarioDescriptor(
        name: "diffable-update",
        summary: "a 1,000-row restaurant list receiving state updates every 6 frames while it scrolls",
        strategies: [
            .init(
                name: Strategy.reload.rawValue, summary: "rebuild, rebind and re-measure every row on the main thread"),
            .init(
                name: Strategy.snapshotDiff.rawValue,
                summary: "diff identifier snapshots on a worker, apply only changes on main"),
        ],
        make: { name, seed in Strategy(rawValue: name).map { DiffableUpdateScenario(strategy: $0, seed: seed) } })

    /// The strategy in use.
    package let strategy: Strategy
    /// Rows on screen, in sections.
    package private(set) var rows: [[RowViewModel]]
    /// The latest model, which the rows catch up with.
    package private(set) var latestMenu: RestaurantMenu
    /// The model the rows on screen show.
    package private(set) var shownMenu: RestaurantMenu
    private var shownSnapshot: SnapshotDiffWorkload.Snapshot
    private var isDiffInFlight = false
    private var generator: SeededGenerator
    private let updateEvery: Int
    private var scrollOffset = 0.0

    /// Creates the scenario with its list built and on screen.
    /// - Parameters:
    ///   - strategy: How updates are applied.
    ///   - seed: Fixes the menu and its updates.
    ///   - rowCount: Rows in the list.
    ///   - updateEvery: Frames between state updates.
    package init(strategy: Strategy, seed: UInt64, rowCount: Int = 1_000, updateEvery: Int = 6) {
        precondition(updateEvery >= 1, "updateEvery must be at least 1")
        self.strategy = strategy
        self.updateEvery = updateEvery
        generator = SeededGenerator(seed: seed)
        let menu = RestaurantMenu(rowCount: rowCount, using: &generator)
        latestMenu = menu
        shownMenu = menu
        rows = ListReloadWorkload.reload(menu)
        shownSnapshot = SnapshotDiffWorkload.makeSnapshot(of: menu)
    }

    /// Whether the rows on screen show the latest model.
    package var isUpToDate: Bool { shownMenu == latestMenu }

    package func frame(_ context: FrameContext) {
        let recorder = context.recorder
        if context.frameIndex > 0, context.frameIndex % updateEvery == 0 {
            recorder.recordInstant("state update", category: .input)
            latestMenu = recorder.withSpan("update model", category: .other) {
                latestMenu.applyingRandomUpdate(changing: 0.05, using: &generator)
            }
            switch strategy {
            case .reload:
                let menu = latestMenu
                rows = recorder.withSpan("reload list", category: .diffApply) { ListReloadWorkload.reload(menu) }
                shownMenu = menu
                shownSnapshot = SnapshotDiffWorkload.makeSnapshot(of: menu)
            case .snapshotDiff:
                startDiffIfNeeded(context)
            }
        }
        layoutVisibleRows(recorder)
    }

    private func startDiffIfNeeded(_ context: FrameContext) {
        guard !isDiffInFlight, shownMenu != latestMenu else { return }
        isDiffInFlight = true
        let target = latestMenu
        let base = shownSnapshot
        let revision = shownMenu.revision
        context.inBackground("snapshot and diff", category: .diffApply) {
            let snapshot = SnapshotDiffWorkload.makeSnapshot(of: target, changedSince: revision)
            return (snapshot, SnapshotDiffWorkload.diff(from: base, to: snapshot))
        } then: { [self] (snapshot, diff) in
            SnapshotDiffWorkload.applyOnMain(diff, to: &rows, menu: target)
            shownSnapshot = snapshot
            shownMenu = target
            isDiffInFlight = false
            startDiffIfNeeded(context)
        }
    }

    /// Scrolls 12 points and finds the rows in a 667-point viewport from their heights.
    private func layoutVisibleRows(_ recorder: Recorder) {
        scrollOffset += 12
        let rowCount = rows.reduce(0) { $0 + $1.count }
        let visible = recorder.withSpan("layout visible rows", category: .layout) {
            WorkMeter.measure(.layoutRows) { (visibleRows(), units: rowCount) }
        }
        recorder.recordCounter("visible rows", value: Double(visible), category: .layout)
    }

    /// The rows in a 667-point viewport at the scroll offset.
    private func visibleRows() -> Int {
        let total = rows.reduce(0.0) { $0 + $1.reduce(0.0) { $0 + $1.height } }
        let top = total > 667 ? scrollOffset.truncatingRemainder(dividingBy: total - 667) : 0
        var y = 0.0
        var count = 0
        for section in rows {
            for row in section {
                if y + row.height > top, y < top + 667 { count += 1 }
                y += row.height
            }
        }
        return count
    }
}
