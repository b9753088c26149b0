/// Places children at fixed positions, like Texture's `ASAbsoluteLayoutSpec`.
///
/// Each child is laid out with a range from zero to the space left below and right of its
/// position. The spec fills the range's maximum where it is finite; with ``Sizing/sizeToFit``
/// (or an unbounded axis) it is as large as the children's union instead.
package struct AbsoluteSpec: LayoutElement {
    /// How the spec decides its own size.
    package enum Sizing: Hashable, Sendable {
        /// The range's maximum on finite axes.
        case `default`
        /// The extent of the children.
        case sizeToFit
    }

    /// A child and where it goes.
    package struct Child: Sendable {
        /// The child's top-left corner in the spec.
        package var position: LayoutPoint
        /// The child.
        package var element: any LayoutElement

        /// Places an element.
        /// - Parameters:
        ///   - position: The child's top-left corner in the spec.
        ///   - element: The child.
        package init(at position: LayoutPoint, _ element: any LayoutElement) {
            self.position = position
            self.element = element
        }
    }

    /// How the spec decides its own size.
    package var sizing: Sizing
    /// The children and their positions.
    package var children: [Child]

    /// Creates an absolute spec.
    /// - Parameters:
    ///   - sizing: How the spec decides its size; the range's maximum by default.
    ///   - children: The children and their positions.
    package init(sizing: Sizing = .default, children: [Child]) {
        self.sizing = sizing
        self.children = children
    }

    /// Lays out each child at its position.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The spec's size and the placed children.
    package func layout(in range: SizeRange) -> SpecLayout {
        let sublayouts = children.map { child in
            var sublayout = child.element.layout(
                in: SizeRange(
                    min: .zero,
                    max: LayoutSize(
                        width: range.max.width - child.position.x, height: range.max.height - child.position.y)
                ))
            sublayout.position = child.position
            return sublayout
        }
        var size = range.max
        if sizing == .sizeToFit || !size.width.isFinite {
            size.width = sublayouts.reduce(range.min.width) { max($0, $1.position.x + $1.size.width) }
        }
        if sizing == .sizeToFit || !size.height.isFinite {
            size.height = sublayouts.reduce(range.min.height) { max($0, $1.position.y + $1.size.height) }
        }
        return SpecLayout(size: range.clamp(size), sublayouts: sublayouts)
    }
}
