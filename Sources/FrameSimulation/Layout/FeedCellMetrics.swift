/// The feed cell's design: spacings, fixed sizes and fonts that every layout engine follows.
///
/// This is the design spec the three engines implement, not a layout: it holds only constants
/// and the sizes views report about themselves (a button's intrinsic size, a label's text), the
/// way `UIButton` and `UILabel` report the same sizes to Auto Layout and to manual code. Where
/// each frame goes is left to the engines.
///
/// The cell, with the standard values:
///
/// ```
/// | 12 | avatar 48×48 | 10 | name ·4· handle ···≥6··· time ·6· menu 16×16 | 12 |
///                           body text (wrapped to the column)         ↕ 2 above
///                           images: one, or a 16:9 grid of 2–4         ↕ 8 above
///                           reply ··· repost ··· like ··· share        ↕ 8 above, space between
///                      separator (0.5, from the column to the right edge, at the bottom)
/// ```
///
/// The header's labels share one line height, so the header line is as tall as the name.
package struct FeedCellMetrics: Hashable, Sendable {
    /// Space between the cell's edges and its content.
    package var padding = 12.0
    /// The avatar's width and height.
    package var avatarSize = 48.0
    /// Space between the avatar and the text column.
    package var avatarSpacing = 10.0
    /// Space between the name and the handle.
    package var nameHandleSpacing = 4.0
    /// The least space between the handle and the timestamp.
    package var minimumHandleTimestampSpacing = 6.0
    /// Space between the timestamp and the menu button.
    package var timestampMenuSpacing = 6.0
    /// The menu button's width and height; it is centred on the header line.
    package var menuSize = 16.0
    /// Space between the header line and the body.
    package var headerBodySpacing = 2.0
    /// Space above the images and above the action buttons.
    package var sectionSpacing = 8.0
    /// Space between images in a grid.
    package var imageSpacing = 2.0
    /// A grid of two to four images is this fraction of the column width tall (16:9).
    package var imageGridHeightRatio = 9.0 / 16.0
    /// A single image is at most this fraction of the column width tall (portrait images are cropped).
    package var maximumSingleImageHeightRatio = 1.0
    /// The name is at most this fraction of the column width; the rest of it is truncated.
    package var maximumNameWidthFraction = 0.6
    /// The separator's height.
    package var separatorThickness = 0.5
    /// The width and height of an action button's icon.
    package var actionIconSize = 18.0
    /// Space between an action button's icon and its count.
    package var actionIconTitleSpacing = 4.0
    /// The display name's font.
    package var nameFont = TextMeasurer(fontSize: 16, lineHeight: 20)
    /// The handle's and the timestamp's font.
    package var secondaryFont = TextMeasurer(fontSize: 15, lineHeight: 20)
    /// The body's font.
    package var bodyFont = TextMeasurer(fontSize: 15, lineHeight: 20)
    /// The action counts' font.
    package var actionFont = TextMeasurer(fontSize: 13, lineHeight: 16)

    /// The design as specified above.
    package static let standard = FeedCellMetrics()

    /// How images are arranged in a grid, by image count: columns left to right, each listing
    /// image indices top to bottom. Two images sit side by side, three put one tall image beside
    /// two stacked ones, four make a 2×2 grid read row by row. A single image is not a grid.
    package static let imageGridColumns: [[[Int]]] = [[], [[0]], [[0], [1]], [[0], [1, 2]], [[0, 2], [1, 3]]]

    /// Creates the standard design; change properties to vary it.
    package init() {}

    /// The left edge of the text column, measured from the cell's left edge.
    package var columnLeft: Double {
        padding + avatarSize + avatarSpacing
    }

    /// The width of the text column in a cell `cellWidth` wide.
    /// - Parameter cellWidth: The cell's width.
    /// - Returns: The width left after the padding and the avatar.
    package func columnWidth(forCellWidth cellWidth: Double) -> Double {
        cellWidth - columnLeft - padding
    }

    /// The height / width ratio of a single image: its own, up to the maximum.
    /// - Parameter aspectRatio: The image's width / height.
    /// - Returns: The ratio its frame uses.
    package func singleImageHeightRatio(aspectRatio: Double) -> Double {
        min(1 / aspectRatio, maximumSingleImageHeightRatio)
    }

    /// The size of every image element of `content` (the avatar and each post image) in a cell
    /// `cellWidth` wide, without laying the cell out.
    ///
    /// Image sizes depend only on the column width and the images' aspect ratios, never on text,
    /// so a prefetching data source knows an image's display size before the cell's layout does;
    /// every layout engine gives the same sizes.
    /// - Parameters:
    ///   - content: The cell's content.
    ///   - cellWidth: The cell's width.
    /// - Returns: The avatar's size, and one size per image element the content has.
    package func imageSizes(of content: FeedCellContent, cellWidth: Double) -> [FeedCellElement: LayoutSize] {
        let columnWidth = columnWidth(forCellWidth: cellWidth)
        var sizes: [FeedCellElement: LayoutSize] = [.avatar: LayoutSize(width: avatarSize, height: avatarSize)]
        let ratios = content.imageAspectRatios
        if ratios.count == 1 {
            sizes[.image0] = LayoutSize(
                width: columnWidth, height: min(columnWidth / ratios[0], maximumSingleImageHeightRatio * columnWidth))
        } else if ratios.count > 1 {
            let columns = Self.imageGridColumns[ratios.count]
            let imageWidth = (columnWidth - Double(columns.count - 1) * imageSpacing) / Double(columns.count)
            let gridHeight = imageGridHeightRatio * columnWidth
            for column in columns {
                let imageHeight = (gridHeight - Double(column.count - 1) * imageSpacing) / Double(column.count)
                for index in column { sizes[.image(index)] = LayoutSize(width: imageWidth, height: imageHeight) }
            }
        }
        return sizes
    }

    /// The label that shows a text element of `content`.
    /// - Parameters:
    ///   - element: `.name`, `.handle`, `.timestamp` or `.body`.
    ///   - content: The cell's content.
    /// - Returns: The label with its text, font and line limit (one line for the header, none for the body).
    package func label(_ element: FeedCellElement, of content: FeedCellContent) -> TextLabel {
        switch element {
        case .name: TextLabel(content.displayName, font: nameFont, maxLines: 1)
        case .handle: TextLabel(content.handle, font: secondaryFont, maxLines: 1)
        case .timestamp: TextLabel(content.timestamp, font: secondaryFont, maxLines: 1)
        case .body: TextLabel(content.body, font: bodyFont)
        default: preconditionFailure("\(element) is not a text element")
        }
    }

    /// An action button's intrinsic size: the icon, then the count if it is not zero.
    /// - Parameter count: The count shown beside the icon.
    /// - Returns: Icon, spacing and count title wide; as tall as the taller of icon and title line.
    package func actionButtonSize(count: Int) -> LayoutSize {
        let title = FeedCellContent.compactCount(count)
        let titleWidth = title.isEmpty ? 0 : actionIconTitleSpacing + actionFont.size(of: title).width
        return LayoutSize(width: actionIconSize + titleWidth, height: max(actionIconSize, actionFont.lineHeight))
    }
}
