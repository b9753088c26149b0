/// Centres a child in the space it is given, like Texture's `ASCenterLayoutSpec`.
///
/// On a finite axis the spec takes the largest size allowed and centres the child in it (the
/// sizing options shrink it to the child instead); on an unbounded axis it takes the child's size.
/// A centred axis lays the child out from a minimum of zero, so it keeps its own size.
package struct CenterSpec: LayoutElement {
    /// Which axes to centre on.
    package enum Centering: Hashable, Sendable {
        /// Horizontally only.
        case x
        /// Vertically only.
        case y
        /// Both ways.
        case xy
    }

    /// Which axes the spec shrinks to the child's size instead of filling the range.
    package enum Sizing: Hashable, Sendable {
        /// Fill the range's maximum on finite axes.
        case `default`
        /// Take the child's width.
        case minimumWidth
        /// Take the child's height.
        case minimumHeight
        /// Take the child's width and height.
        case minimumSize
    }

    /// Which axes to centre on.
    package var centering: Centering
    /// Which axes to shrink to the child.
    package var sizing: Sizing
    /// The child.
    package var child: any LayoutElement

    /// Creates a centre spec.
    /// - Parameters:
    ///   - centering: Which axes to centre on; both by default.
    ///   - sizing: Which axes to shrink to the child; none by default.
    ///   - child: The child.
    package init(centering: Centering = .xy, sizing: Sizing = .default, child: any LayoutElement) {
        self.centering = centering
        self.sizing = sizing
        self.child = child
    }

    /// Lays out the child and centres it.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The spec's size and the centred child.
    package func layout(in range: SizeRange) -> SpecLayout {
        let centersX = centering != .y
        let centersY = centering != .x
        var sublayout = child.layout(
            in: SizeRange(
                min: LayoutSize(width: centersX ? 0 : range.min.width, height: centersY ? 0 : range.min.height),
                max: range.max
            ))
        var size = range.clamp(
            LayoutSize(
                width: range.max.width.isFinite ? range.max.width : sublayout.size.width,
                height: range.max.height.isFinite ? range.max.height : sublayout.size.height
            ))
        if sizing == .minimumWidth || sizing == .minimumSize {
            size.width = max(range.min.width, min(size.width, sublayout.size.width))
        }
        if sizing == .minimumHeight || sizing == .minimumSize {
            size.height = max(range.min.height, min(size.height, sublayout.size.height))
        }
        sublayout.position = LayoutPoint(
            x: centersX ? (size.width - sublayout.size.width) / 2 : 0,
            y: centersY ? (size.height - sublayout.size.height) / 2 : 0
        )
        return SpecLayout(size: size, sublayouts: [sublayout])
    }
}
