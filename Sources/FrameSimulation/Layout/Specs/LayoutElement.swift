/// Something a layout spec can measure and place: a spec or a node, as in Texture.
///
/// Texture lays out with `layoutThatFits:` on immutable, thread-safe elements, so a whole tree
/// can be laid out on a background thread. Here elements are `Sendable` values and ``layout(in:)``
/// is a pure function of the range, so any number of threads may lay out the same tree at once.
///
/// Unlike Texture, no spec rounds positions or sizes to the pixel grid (Texture floors centring
/// offsets and ratio-derived sides): framescope's layouts are exact, so that three engines that
/// compute the same frames by different arithmetic can be compared to a thousandth of a point.
package protocol LayoutElement: Sendable {
    /// Lays the element out within a size range.
    /// - Parameter range: The smallest and largest size the parent accepts.
    /// - Returns: The element's size (within `range`) and its children's layouts, positioned
    ///   relative to it.
    func layout(in range: SizeRange) -> SpecLayout
}

/// The sizes a parent accepts from a child, like Texture's `ASSizeRange`.
///
/// A maximum may be infinite (the parent will grow to fit); a minimum is finite.
package struct SizeRange: Hashable, Sendable {
    /// The smallest acceptable size.
    package var min: LayoutSize
    /// The largest acceptable size.
    package var max: LayoutSize

    /// Creates a range.
    /// - Parameters:
    ///   - min: The smallest acceptable size.
    ///   - max: The largest acceptable size; at least `min` on both axes.
    package init(min: LayoutSize, max: LayoutSize) {
        self.min = min
        self.max = max
    }

    /// Creates a range that accepts exactly one size.
    /// - Parameter size: The size.
    package init(exactly size: LayoutSize) {
        self.init(min: size, max: size)
    }

    /// The size nearest to `size` inside the range, axis by axis (`ASSizeRangeClamp`).
    /// - Parameter size: A wanted size.
    /// - Returns: `size` clamped to the range.
    package func clamp(_ size: LayoutSize) -> LayoutSize {
        LayoutSize(
            width: Swift.max(min.width, Swift.min(max.width, size.width)),
            height: Swift.max(min.height, Swift.min(max.height, size.height))
        )
    }
}

/// The result of laying out an element: its size, its position in its parent, and its children.
///
/// Like Texture's `ASLayout`, a layout is a tree in which each position is relative to the
/// parent; ``forEachFrame(_:)`` flattens it into frames in the root's coordinate space.
package struct SpecLayout: Sendable {
    /// The element's size.
    package var size: LayoutSize
    /// The element's top-left corner in its parent; set by the parent.
    package var position: LayoutPoint
    /// The cell element this layout is the frame of, for nodes that are views.
    package var element: FeedCellElement?
    /// The children's layouts.
    package var sublayouts: [SpecLayout]

    /// Creates a layout at the origin.
    /// - Parameters:
    ///   - size: The element's size.
    ///   - element: The cell element it frames, if it is a view.
    ///   - sublayouts: The children's layouts, positioned relative to this one.
    package init(size: LayoutSize, element: FeedCellElement? = nil, sublayouts: [SpecLayout] = []) {
        self.size = size
        position = .zero
        self.element = element
        self.sublayouts = sublayouts
    }

    /// Calls `body` with the frame of every element in the tree, in the root's coordinates, parents first.
    /// - Parameter body: Receives each element and its frame.
    /// - Complexity: O(*n*) in the number of layouts in the tree.
    package func forEachFrame(_ body: (FeedCellElement, LayoutRect) -> Void) {
        visit(origin: .zero, body)
    }

    private func visit(origin: LayoutPoint, _ body: (FeedCellElement, LayoutRect) -> Void) {
        let corner = LayoutPoint(x: origin.x + position.x, y: origin.y + position.y)
        if let element { body(element, LayoutRect(origin: corner, size: size)) }
        for sublayout in sublayouts { sublayout.visit(origin: corner, body) }
    }
}
