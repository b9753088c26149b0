/// Lays a second element over a child at the child's size, like Texture's `ASOverlayLayoutSpec`.
///
/// The child decides the size; the overlay is laid out to exactly that size and drawn on top.
package struct OverlaySpec: LayoutElement {
    /// The element that decides the size.
    package var child: any LayoutElement
    /// The element laid over it.
    package var overlay: any LayoutElement

    /// Creates an overlay spec.
    /// - Parameters:
    ///   - child: The element that decides the size.
    ///   - overlay: The element laid over it.
    package init(child: any LayoutElement, overlay: any LayoutElement) {
        self.child = child
        self.overlay = overlay
    }

    /// Lays out the child, then the overlay at the child's size.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The child's size; the child's layout, then the overlay's.
    package func layout(in range: SizeRange) -> SpecLayout {
        let content = child.layout(in: range)
        let cover = overlay.layout(in: SizeRange(exactly: content.size))
        return SpecLayout(size: content.size, sublayouts: [content, cover])
    }
}
