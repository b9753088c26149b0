/// Lays out the feed cell the PinLayout way: each frame computed in turn from its neighbours.
///
/// The code reads top to bottom like the cell: the avatar; the name after it; the menu on the
/// right, centred on the name; the timestamp before the menu; the handle squeezed between the
/// name and the timestamp; the body below the name; the images; the buttons spread over the
/// column; then the height, as a `sizeThatFits` pass would return it, and the separator at the
/// bottom. There is no solver and no tree, only arithmetic and label measurement.
package struct ManualLayoutEngine: FeedCellLayoutEngine {
    /// The design the layout follows.
    package var metrics: FeedCellMetrics

    /// Creates the engine.
    /// - Parameter metrics: The design; the standard one by default.
    package init(metrics: FeedCellMetrics = .standard) {
        self.metrics = metrics
    }

    /// `"manual"`.
    package var name: String { "manual" }

    /// Lays out one cell with sequential frame code.
    /// - Parameters:
    ///   - content: What the cell shows.
    ///   - width: The cell's width in points.
    /// - Returns: The frames and the cell's height.
    /// - Complexity: O(1) frames; the cost is measuring the labels.
    package func layout(_ content: FeedCellContent, width: Double) -> FeedCellLayout {
        WorkMeter.measure(.manualLayout) { (layOut(content, width: width), units: content.measuredCharacters) }
    }

    private func layOut(_ content: FeedCellContent, width: Double) -> FeedCellLayout {
        let m = metrics
        let bounds = LayoutSize(width: width, height: .infinity)
        let columnWidth = m.columnWidth(forCellWidth: width)
        var layout = FeedCellLayout(size: LayoutSize(width: width, height: 0))
        let (avatar, body) = layOutHeaderAndBody(content, in: bounds, columnWidth: columnWidth, into: &layout)
        // The lowest frame so far in the column: the body, then the image or grid below it.
        var media = body
        let ratios = content.imageAspectRatios
        if ratios.count == 1 {
            media =
                Pin(in: bounds).below(of: body).marginTop(m.sectionSpacing)
                .after(of: avatar).marginLeft(m.avatarSpacing).right(m.padding)
                .aspectRatio(ratios[0]).maxHeight(m.maximumSingleImageHeightRatio * columnWidth).frame
            layout[.image0] = media
        } else if ratios.count > 1 {
            media = layOutImageGrid(
                count: ratios.count, in: bounds, columnWidth: columnWidth, avatar: avatar, body: body, into: &layout)
        }
        let lastButton = layOutButtons(
            content, in: bounds, columnWidth: columnWidth, avatar: avatar, media: media, into: &layout)
        layout.size.height = max(avatar.maxY, lastButton.maxY) + m.padding
        layout[.separator] =
            Pin(in: layout.size).bottom()
            .after(of: avatar).marginLeft(m.avatarSpacing).right()
            .height(m.separatorThickness).frame
        return layout
    }

    /// The header (avatar, name, menu, timestamp, handle) and the body text; returns the
    /// avatar's and the body's frames.
    private func layOutHeaderAndBody(
        _ content: FeedCellContent, in bounds: LayoutSize, columnWidth: Double, into layout: inout FeedCellLayout
    ) -> (avatar: LayoutRect, body: LayoutRect) {
        let m = metrics
        let avatar = Pin(in: bounds).top(m.padding).left(m.padding)
            .size(LayoutSize(width: m.avatarSize, height: m.avatarSize)).frame
        let name = Pin(in: bounds).top(m.padding).after(of: avatar).marginLeft(m.avatarSpacing)
            .maxWidth(m.maximumNameWidthFraction * columnWidth)
            .sizeToFit(.widthFlexible, m.label(.name, of: content)).frame
        let menu = Pin(in: bounds).right(m.padding).vCenter(to: name)
            .size(LayoutSize(width: m.menuSize, height: m.menuSize)).frame
        let timestamp = Pin(in: bounds).top(m.padding).before(of: menu).marginRight(m.timestampMenuSpacing)
            .sizeToFit(.widthFlexible, m.label(.timestamp, of: content)).frame
        let handle = Pin(in: bounds).top(m.padding)
            .after(of: name).marginLeft(m.nameHandleSpacing)
            .before(of: timestamp).marginRight(m.minimumHandleTimestampSpacing)
            .sizeToFit(.widthFlexible, m.label(.handle, of: content)).frame
        let body = Pin(in: bounds).below(of: name).marginTop(m.headerBodySpacing)
            .after(of: avatar).marginLeft(m.avatarSpacing).right(m.padding)
            .sizeToFit(.width, m.label(.body, of: content)).frame
        layout[.avatar] = avatar
        layout[.name] = name
        layout[.menu] = menu
        layout[.timestamp] = timestamp
        layout[.handle] = handle
        layout[.body] = body
        return (avatar, body)
    }

    /// A grid of `count` images below the body, in columns; returns the last column's lowest
    /// image.
    private func layOutImageGrid(
        count: Int, in bounds: LayoutSize, columnWidth: Double, avatar: LayoutRect, body: LayoutRect,
        into layout: inout FeedCellLayout
    ) -> LayoutRect {
        let m = metrics
        let columns = FeedCellMetrics.imageGridColumns[count]
        let imageWidth = (columnWidth - Double(columns.count - 1) * m.imageSpacing) / Double(columns.count)
        let gridHeight = m.imageGridHeightRatio * columnWidth
        var previousColumnTop: LayoutRect?
        var lowest = body
        for column in columns {
            let imageHeight = (gridHeight - Double(column.count - 1) * m.imageSpacing) / Double(column.count)
            var above: LayoutRect?
            for index in column {
                var pin = Pin(in: bounds).width(imageWidth).height(imageHeight)
                pin =
                    previousColumnTop.map { pin.after(of: $0).marginLeft(m.imageSpacing) }
                    ?? pin.after(of: avatar).marginLeft(m.avatarSpacing)
                pin =
                    above.map { pin.below(of: $0).marginTop(m.imageSpacing) }
                    ?? pin.below(of: body).marginTop(m.sectionSpacing)
                let image = pin.frame
                layout[.image(index)] = image
                above = image
            }
            previousColumnTop = layout[.image(column[0])]
            lowest = above!
        }
        return lowest
    }

    /// The action buttons below the media, spaced between: the first at the column's left edge,
    /// the last at its right; returns the last one's frame.
    private func layOutButtons(
        _ content: FeedCellContent, in bounds: LayoutSize, columnWidth: Double, avatar: LayoutRect, media: LayoutRect,
        into layout: inout FeedCellLayout
    ) -> LayoutRect {
        let m = metrics
        let buttonSizes = FeedAction.allCases.map { m.actionButtonSize(count: content.count(for: $0)) }
        let gap = (columnWidth - buttonSizes.reduce(0) { $0 + $1.width }) / Double(buttonSizes.count - 1)
        var previousButton: LayoutRect?
        for (action, size) in zip(FeedAction.allCases, buttonSizes) {
            let pin = Pin(in: bounds).below(of: media).marginTop(m.sectionSpacing).size(size)
            let button =
                (previousButton.map { pin.after(of: $0).marginLeft(gap) }
                ?? pin.after(of: avatar).marginLeft(m.avatarSpacing)).frame
            layout[action.element] = button
            previousButton = button
        }
        return previousButton!
    }
}
