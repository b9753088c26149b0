/// The fast strategy of technique 5: diff snapshots of identifiers off the main thread, then
/// touch only the rows that changed on it.
///
/// ``makeSnapshot(of:changedSince:)`` and ``diff(from:to:)`` are pure value work, fit for a
/// background queue; ``applyOnMain(_:to:menu:)`` is the main-thread part.
///
/// ```swift
/// // background
/// let snapshot = SnapshotDiffWorkload.makeSnapshot(of: next, changedSince: menu.revision)
/// let diff = SnapshotDiffWorkload.diff(from: shown, to: snapshot)
/// // main thread
/// SnapshotDiffWorkload.applyOnMain(diff, to: &rows, menu: next)
/// ```
package enum SnapshotDiffWorkload {
    /// A snapshot of the restaurant list's identifiers.
    package typealias Snapshot = ListSnapshot<RestaurantMenu.SectionID, RestaurantMenu.RowID>
    /// A batch update of the restaurant list.
    package typealias Diff = SnapshotDiff<RestaurantMenu.SectionID, RestaurantMenu.RowID>

    /// Builds the identifier snapshot of a menu's list, marking rows whose model changed after a
    /// revision for reconfigure.
    ///
    /// The snapshot mirrors the list layout described in ``RestaurantMenu``.
    /// - Parameters:
    ///   - menu: The menu to show.
    ///   - revision: The ``RestaurantMenu/revision`` of the menu on screen; `nil` marks nothing.
    /// - Returns: The snapshot.
    /// - Complexity: O(*n*) in the number of rows.
    package static func makeSnapshot(of menu: RestaurantMenu, changedSince revision: Int? = nil) -> Snapshot {
        WorkMeter.measure(.makeSnapshot) { (snapshot(of: menu, changedSince: revision), units: menu.rowCount) }
    }

    private static func snapshot(of menu: RestaurantMenu, changedSince revision: Int?) -> Snapshot {
        let shownRevision = revision ?? .max
        var snapshot = Snapshot()
        var changed: [RestaurantMenu.RowID] = []
        snapshot.appendSections([.header])
        snapshot.appendItems([.header])
        if menu.headerRevision > shownRevision { changed.append(.header) }
        for category in menu.categories {
            snapshot.appendSections([.category(category.id)])
            snapshot.appendItems(category.dishes.map { .dish($0.id) })
            changed += category.dishes.lazy.filter { $0.revision > shownRevision }.map { .dish($0.id) }
        }
        snapshot.appendSections([.reviews])
        snapshot.appendItems(menu.reviews.map { .review($0.id) })
        changed += menu.reviews.lazy.filter { $0.revision > shownRevision }.map { .review($0.id) }
        snapshot.reconfigureItems(changed)
        return snapshot
    }

    /// Computes the batch update between the snapshot on screen and the next one.
    /// - Parameters:
    ///   - old: The snapshot on screen.
    ///   - new: The snapshot to show.
    /// - Returns: `SnapshotDiff(from: old, to: new)`.
    /// - Complexity: See ``SnapshotDiff/init(from:to:)``.
    package static func diff(from old: Snapshot, to new: Snapshot) -> Diff {
        WorkMeter.measure(.diffSnapshots) { (Diff(from: old, to: new), units: old.numberOfItems + new.numberOfItems) }
    }

    /// Applies a diff to the rows on screen, binding and measuring only inserted and
    /// reconfigured rows.
    ///
    /// Afterwards `rows` equals ``ListReloadWorkload/reload(_:)`` of `menu`, at the cost of the
    /// changed rows plus moving the unchanged ones.
    /// - Parameters:
    ///   - diff: The diff from the snapshot of the rows on screen to the snapshot of `menu`.
    ///   - rows: The rows on screen; updated in place.
    ///   - menu: The menu the diff leads to.
    /// - Complexity: See ``SnapshotDiff/applying(to:makeRow:)``, plus one bind and measure per
    ///   inserted or reconfigured row.
    package static func applyOnMain(_ diff: Diff, to rows: inout [[RowViewModel]], menu: RestaurantMenu) {
        WorkMeter.measure(.applyDiff) {
            var bound = 0
            rows = diff.applying(to: rows) { _, path in
                bound += 1
                return RowViewModel(binding: menu, at: path)
            }
            for change in diff.itemReconfigures {
                rows[change.position.section][change.position.item] = RowViewModel(binding: menu, at: change.position)
            }
            return ((), units: bound + diff.itemReconfigures.count)
        }
    }
}
