/// A leaf node with an optional preferred size: an image view, a button, the avatar, or a spacer.
///
/// Like an `ASDisplayNode` with `style.preferredSize`, it takes its preferred width and height
/// where it has them, clamped to the range; on an axis without one it takes the smallest size
/// allowed, so a stretching or growing parent decides. A box without an element is a spacer.
///
/// ```swift
/// BoxNode(element: .avatar, width: 48, height: 48)
/// StackChild(BoxNode(), flexGrow: 1) // a flexible spacer
/// ```
package struct BoxNode: LayoutElement {
    /// The cell element this node shows, or `nil` for a spacer.
    package var element: FeedCellElement?
    /// The preferred width, if any.
    package var width: Double?
    /// The preferred height, if any.
    package var height: Double?

    /// Creates a box.
    /// - Parameters:
    ///   - element: The cell element it shows; `nil` for a spacer.
    ///   - width: The preferred width; `nil` to take the range's minimum.
    ///   - height: The preferred height; `nil` to take the range's minimum.
    package init(element: FeedCellElement? = nil, width: Double? = nil, height: Double? = nil) {
        self.element = element
        self.width = width
        self.height = height
    }

    /// Creates a box with a preferred size.
    /// - Parameters:
    ///   - element: The cell element it shows.
    ///   - size: The preferred size.
    package init(element: FeedCellElement, size: LayoutSize) {
        self.init(element: element, width: size.width, height: size.height)
    }

    /// Takes the preferred size, clamped to the range; the minimum where there is none.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: A leaf layout.
    package func layout(in range: SizeRange) -> SpecLayout {
        let size = range.clamp(LayoutSize(width: width ?? range.min.width, height: height ?? range.min.height))
        return SpecLayout(size: size, element: element)
    }
}
