/// The slow strategy of technique 5: rebuild, rebind and re-measure every row on each change.
///
/// This is the work a `reloadData()` after each state change puts on the main thread: a view
/// model for every row, every string formatted again, every height measured again, whether the
/// row changed or not.
///
/// ```swift
/// var rows = ListReloadWorkload.reload(menu)
/// menu = menu.applyingRandomUpdate(using: &rng)
/// rows = ListReloadWorkload.reload(menu)      // all of it again, on the main thread
/// ```
package enum ListReloadWorkload {
    /// Builds, binds and measures every row of the menu's list.
    /// - Parameter menu: The menu to show.
    /// - Returns: The rows, one array per section.
    /// - Complexity: O(*n*) rows, each bound and measured.
    package static func reload(_ menu: RestaurantMenu) -> [[RowViewModel]] {
        let counts = [1] + menu.categories.map(\.dishes.count) + [menu.reviews.count]
        let rows = counts.reduce(0, +)
        return WorkMeter.measure(.reloadList) {
            let result = counts.enumerated().map { section, count in
                (0..<count).map { RowViewModel(binding: menu, at: ListIndexPath(section: section, item: $0)) }
            }
            return (result, units: rows)
        }
    }
}
