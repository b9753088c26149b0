/// A piece of text with its font and line limit: what a label view measures.
///
/// All three layout engines size the cell's labels through this one type, the way `UILabel`'s
/// `sizeThatFits` serves both Auto Layout (as intrinsic content size) and manual layout.
package struct TextLabel: Hashable, Sendable {
    /// The text shown.
    package var text: String
    /// The measurer for the label's font.
    package var font: TextMeasurer
    /// The most lines shown; `0` for no limit.
    package var maxLines: Int

    /// Creates a label.
    /// - Parameters:
    ///   - text: The text shown.
    ///   - font: The measurer for the label's font.
    ///   - maxLines: The most lines shown; `0` (the default) for no limit.
    package init(_ text: String, font: TextMeasurer, maxLines: Int = 0) {
        self.text = text
        self.font = font
        self.maxLines = maxLines
    }

    /// The label's size when it may be at most `width` wide.
    /// - Parameter width: The width available, in points.
    /// - Returns: The measured size; its width never exceeds `width` (or zero).
    /// - Complexity: O(*n*) in the length of the text.
    package func size(fittingWidth width: Double) -> LayoutSize {
        font.size(of: text, maxWidth: width, maxLines: maxLines)
    }

    /// The label's natural size with unlimited width: Auto Layout's intrinsic content size.
    package var intrinsicSize: LayoutSize {
        size(fittingWidth: .infinity)
    }
}
