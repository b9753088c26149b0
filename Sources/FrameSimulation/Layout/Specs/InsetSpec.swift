/// Adds space around a child, like Texture's `ASInsetLayoutSpec`.
///
/// The child is laid out in the range less the insets and placed at the top-left inset. An
/// infinite inset means "as far as possible": the child keeps its own size on that axis and
/// sits against the opposite edge (with both insets of an axis infinite it is centred).
///
/// ```swift
/// // A hairline along the bottom edge, indented 70 pt from the left.
/// InsetSpec(insets: LayoutInsets(top: .infinity, left: 70, bottom: 0, right: 0),
///           child: BoxNode(element: .separator, height: 0.5))
/// ```
package struct InsetSpec: LayoutElement {
    /// The space on each edge; infinite to push the child to the opposite edge.
    package var insets: LayoutInsets
    /// The child.
    package var child: any LayoutElement

    /// Creates an inset spec.
    /// - Parameters:
    ///   - insets: The space on each edge.
    ///   - child: The child.
    package init(insets: LayoutInsets, child: any LayoutElement) {
        self.insets = insets
        self.child = child
    }

    /// Lays out the child inside the insets.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The child's size plus the finite insets, within the range.
    package func layout(in range: SizeRange) -> SpecLayout {
        let horizontal = finiteOrZero(insets.left) + finiteOrZero(insets.right)
        let vertical = finiteOrZero(insets.top) + finiteOrZero(insets.bottom)
        let minWidth = insets.left.isInfinite || insets.right.isInfinite ? 0 : range.min.width
        let minHeight = insets.top.isInfinite || insets.bottom.isInfinite ? 0 : range.min.height
        var sublayout = child.layout(
            in: SizeRange(
                min: LayoutSize(width: max(0, minWidth - horizontal), height: max(0, minHeight - vertical)),
                max: LayoutSize(
                    width: max(0, range.max.width - horizontal), height: max(0, range.max.height - vertical))
            ))
        let size = range.clamp(
            LayoutSize(
                width: finiteOr(sublayout.size.width + insets.left + insets.right, range.max.width),
                height: finiteOr(sublayout.size.height + insets.top + insets.bottom, range.max.height)
            ))
        sublayout.position = LayoutPoint(
            x: position(
                leading: insets.left, trailing: insets.right, outer: range.max.width, inner: sublayout.size.width),
            y: position(
                leading: insets.top, trailing: insets.bottom, outer: range.max.height, inner: sublayout.size.height)
        )
        return SpecLayout(size: size, sublayouts: [sublayout])
    }

    /// Texture's placement on one axis: at the leading inset, else against the trailing one,
    /// else (both infinite) centred.
    private func position(leading: Double, trailing: Double, outer: Double, inner: Double) -> Double {
        if leading.isFinite { return leading }
        let trailingSpace = finiteOr(trailing, (outer - inner) / 2)
        return outer - (trailingSpace + inner)
    }
}

private func finiteOrZero(_ value: Double) -> Double {
    value.isFinite ? value : 0
}

private func finiteOr(_ value: Double, _ fallback: Double) -> Double {
    value.isFinite ? value : fallback
}
