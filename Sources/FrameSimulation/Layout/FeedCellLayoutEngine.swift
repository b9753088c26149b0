/// A way of laying out a feed cell: constraint solving, manual frames, or layout specs.
///
/// Every engine must produce the same frames for the same content and width (to within the
/// tolerance ``FeedCellLayout`` documents); they differ in how they get there and what that costs.
/// An engine is a value with no shared state, so any engine can be called from any thread.
package protocol FeedCellLayoutEngine: Sendable {
    /// A short name for reports and benchmark figures, such as `"manual"`.
    var name: String { get }

    /// Lays out one cell.
    /// - Parameters:
    ///   - content: What the cell shows.
    ///   - width: The cell's width in points; the engines agree for widths of 320 and up.
    /// - Returns: The frames and the cell's height.
    /// - Throws: Whatever the engine's method reports; only ``ConstraintLayoutEngine`` can fail.
    func layout(_ content: FeedCellContent, width: Double) throws -> FeedCellLayout
}
