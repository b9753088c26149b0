/// The result of laying out one feed cell: a frame for each element present and the cell's size.
///
/// Frames are in the cell's coordinate space (origin at its top left). An element that the
/// content does not have (the third image of a one-image post) has no frame.
///
/// The three engines compute the same frames by different arithmetic: the constraint solver
/// reaches them through floating-point pivots, so results agree to within rounding, not
/// bit for bit. Compare engines with ``isApproximatelyEqual(to:tolerance:)``; the default
/// tolerance of 0.001 pt is a thousandth of a point, far below a pixel and far above the
/// solver's residue (around 1e-12 pt).
package struct FeedCellLayout: Hashable, Sendable {
    /// The cell's width (as given) and height (as computed, the `sizeThatFits` answer).
    package var size: LayoutSize
    private var frames: [LayoutRect?]

    /// Creates a layout with no element frames yet.
    /// - Parameter size: The cell's size.
    package init(size: LayoutSize) {
        self.size = size
        frames = Array(repeating: nil, count: FeedCellElement.allCases.count)
    }

    /// The frame of an element, or `nil` if the cell does not show it.
    /// - Parameter element: The element.
    package subscript(element: FeedCellElement) -> LayoutRect? {
        get { frames[element.rawValue] }
        set { frames[element.rawValue] = newValue }
    }

    /// The elements that have frames, in ``FeedCellElement`` order.
    package var elements: [FeedCellElement] {
        FeedCellElement.allCases.filter { frames[$0.rawValue] != nil }
    }

    /// The largest difference between any coordinate of the two layouts.
    /// - Parameter other: The layout to compare with.
    /// - Returns: The largest absolute difference over the cell size and every frame's origin
    ///   and size; infinity if the layouts frame different elements.
    package func maximumDeviation(from other: FeedCellLayout) -> Double {
        var deviation = max(abs(size.width - other.size.width), abs(size.height - other.size.height))
        for (mine, theirs) in zip(frames, other.frames) {
            switch (mine, theirs) {
            case (nil, nil):
                continue
            case (let mine?, let theirs?):
                deviation = max(
                    deviation, abs(mine.minX - theirs.minX), abs(mine.minY - theirs.minY),
                    abs(mine.width - theirs.width), abs(mine.height - theirs.height)
                )
            default:
                return .infinity
            }
        }
        return deviation
    }

    /// Whether two layouts frame the same elements at the same places, within a tolerance.
    /// - Parameters:
    ///   - other: The layout to compare with.
    ///   - tolerance: The largest coordinate difference allowed, in points.
    /// - Returns: `true` if ``maximumDeviation(from:)`` is at most `tolerance`.
    package func isApproximatelyEqual(to other: FeedCellLayout, tolerance: Double = 0.001) -> Bool {
        maximumDeviation(from: other) <= tolerance
    }
}
