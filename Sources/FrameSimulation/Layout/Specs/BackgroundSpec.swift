/// Puts an element behind a child at the child's size, like Texture's `ASBackgroundLayoutSpec`.
///
/// The child decides the size; the background is laid out to exactly that size and drawn below.
package struct BackgroundSpec: LayoutElement {
    /// The element that decides the size.
    package var child: any LayoutElement
    /// The element behind it.
    package var background: any LayoutElement

    /// Creates a background spec.
    /// - Parameters:
    ///   - child: The element that decides the size.
    ///   - background: The element behind it.
    package init(child: any LayoutElement, background: any LayoutElement) {
        self.child = child
        self.background = background
    }

    /// Lays out the child, then the background at the child's size.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The child's size; the background's layout, then the child's.
    package func layout(in range: SizeRange) -> SpecLayout {
        let content = child.layout(in: range)
        let behind = background.layout(in: SizeRange(exactly: content.size))
        return SpecLayout(size: content.size, sublayouts: [behind, content])
    }
}
