/// The fifteen subviews of a feed cell, the keys of a ``FeedCellLayout``.
///
/// The cell follows the PinLayout benchmark's "realistic feed cell": an avatar, a header line
/// (display name, handle, timestamp, overflow menu), the body text, up to four images, four
/// action buttons and a bottom separator.
package enum FeedCellElement: Int, CaseIterable, Hashable, Sendable {
    /// The author's picture, a fixed square at the top left.
    case avatar
    /// The author's display name, one line, at most a fraction of the text column.
    case name
    /// The author's handle after the name; it is truncated first when the header is too long.
    case handle
    /// The post's age, right-aligned before the menu.
    case timestamp
    /// The overflow menu button at the right end of the header.
    case menu
    /// The post text, wrapped over as many lines as it needs.
    case body
    /// The first image.
    case image0
    /// The second image.
    case image1
    /// The third image.
    case image2
    /// The fourth image.
    case image3
    /// The reply button.
    case reply
    /// The repost button.
    case repost
    /// The like button.
    case like
    /// The share button.
    case share
    /// The hairline at the bottom, from the text column to the right edge.
    case separator

    /// The element showing the image at `index`.
    /// - Parameter index: The image's position in the post, `0..<4`.
    /// - Returns: One of `image0` through `image3`.
    package static func image(_ index: Int) -> FeedCellElement {
        precondition((0..<FeedCellContent.maximumImageCount).contains(index), "a post has at most four images")
        return FeedCellElement(rawValue: image0.rawValue + index)!
    }
}

/// The four action buttons under a post, in their left-to-right order.
package enum FeedAction: CaseIterable, Hashable, Sendable {
    /// Reply to the post.
    case reply
    /// Repost it.
    case repost
    /// Like it.
    case like
    /// Share it.
    case share

    /// The cell element that shows this action's button.
    package var element: FeedCellElement {
        switch self {
        case .reply: .reply
        case .repost: .repost
        case .like: .like
        case .share: .share
        }
    }
}
