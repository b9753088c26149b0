/// Gives a child a fixed height-to-width ratio, like Texture's `ASRatioLayoutSpec`.
///
/// From the range's finite maximum width (and height), the spec forms the candidate sizes with
/// the ratio, clamps them to the range, and lays the child out at exactly the candidate closest
/// to the ratio (the width-based one on a tie). With no finite maximum it cannot apply the ratio
/// and passes the range through.
///
/// ```swift
/// RatioSpec(ratio: 9.0 / 16.0, child: grid) // a 16:9 grid, as wide as offered
/// ```
package struct RatioSpec: LayoutElement {
    /// Height divided by width.
    package var ratio: Double
    /// The child.
    package var child: any LayoutElement

    /// Creates a ratio spec.
    /// - Parameters:
    ///   - ratio: Height divided by width; must be positive.
    ///   - child: The child.
    package init(ratio: Double, child: any LayoutElement) {
        precondition(ratio > 0, "a ratio must be positive")
        self.ratio = ratio
        self.child = child
    }

    /// Lays out the child at the size closest to the ratio.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The child's size and layout.
    package func layout(in range: SizeRange) -> SpecLayout {
        let byWidth =
            range.max.width.isFinite
            ? range.clamp(LayoutSize(width: range.max.width, height: ratio * range.max.width)) : nil
        let byHeight =
            range.max.height.isFinite
            ? range.clamp(LayoutSize(width: range.max.height / ratio, height: range.max.height)) : nil
        let best: LayoutSize? =
            switch (byWidth, byHeight) {
            case (let width?, let height?): deviation(height) < deviation(width) ? height : width
            case (let width, let height): width ?? height
            }
        let sublayout = child.layout(in: best.map { SizeRange(exactly: $0) } ?? range)
        return SpecLayout(size: sublayout.size, sublayouts: [sublayout])
    }

    private func deviation(_ size: LayoutSize) -> Double {
        abs(size.height / size.width - ratio)
    }
}
