/// A leaf node that shows a label, like Texture's `ASTextNode`.
///
/// It measures its label at the largest width the range allows (and at most ``maxWidth``, like
/// `style.maxWidth`), then clamps the measured size to the range; a stretching parent therefore
/// makes it as wide as the column while its height stays the text's height.
package struct TextNode: LayoutElement {
    /// The cell element this node shows.
    package var element: FeedCellElement
    /// The label to measure.
    package var label: TextLabel
    /// The widest the node may be, whatever the range allows.
    package var maxWidth: Double

    /// Creates a text node.
    /// - Parameters:
    ///   - element: The cell element it shows.
    ///   - label: The label to measure.
    ///   - maxWidth: The widest the node may be; unlimited by default.
    package init(element: FeedCellElement, label: TextLabel, maxWidth: Double = .infinity) {
        self.element = element
        self.label = label
        self.maxWidth = maxWidth
    }

    /// Measures the label within the range.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: A leaf layout.
    /// - Complexity: O(*n*) in the length of the text.
    package func layout(in range: SizeRange) -> SpecLayout {
        var limited = range
        limited.max.width = max(range.min.width, min(range.max.width, maxWidth))
        let measured = label.size(fittingWidth: limited.max.width)
        return SpecLayout(size: limited.clamp(measured), element: element)
    }
}
