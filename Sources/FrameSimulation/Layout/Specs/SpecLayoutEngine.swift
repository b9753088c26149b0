/// Lays out the feed cell the Texture way: a tree of layout specs, computable on any thread.
///
/// ``layoutSpec(for:width:)`` declares the cell as Texture code would in
/// `layoutSpecThatFits:`, and ``layout(_:width:)`` lays the tree out for the width:
///
/// ```
/// Overlay
/// ├─ Inset 12
/// │  └─ Stack → spacing 10, align start
/// │     ├─ avatar 48×48
/// │     └─ Stack ↓ align stretch (basis 0, grow 1)
/// │        ├─ Stack → align center: name (max 60%) · handle (shrink 1, before 4) · spacer (grow 1)
/// │        │                        · timestamp (before 6) · menu 16×16 (before 6)
/// │        ├─ body (before 2)
/// │        ├─ Ratio (before 8): one image, or a grid: Stack → of Stack ↓ columns (basis 0, grow 1)
/// │        └─ Stack → justify spaceBetween (before 8): reply · repost · like · share
/// └─ Inset (top ∞, left 70): separator, height 0.5, pushed to the bottom
/// ```
///
/// Specs are `Sendable` values and laying out is a pure function, so cells can be laid out on
/// background threads in parallel, as Texture does ahead of the visible area;
/// the batch form of `layout(_:width:)` does that for many cells at once.
package struct SpecLayoutEngine: FeedCellLayoutEngine {
    /// The design the layout follows.
    package var metrics: FeedCellMetrics

    /// Creates the engine.
    /// - Parameter metrics: The design; the standard one by default.
    package init(metrics: FeedCellMetrics = .standard) {
        self.metrics = metrics
    }

    /// `"spec"`.
    package var name: String { "spec" }

    /// Declares the cell's layout spec tree.
    /// - Parameters:
    ///   - content: What the cell shows.
    ///   - width: The cell's width, used only for the name's maximum width (Texture's
    ///     `style.maxWidth` as a fraction of the column).
    /// - Returns: The root spec, to be laid out with a range exactly `width` wide.
    package func layoutSpec(for content: FeedCellContent, width: Double) -> any LayoutElement {
        let m = metrics
        let header = StackSpec(
            direction: .horizontal, alignItems: .center,
            children: [
                StackChild(
                    TextNode(
                        element: .name, label: m.label(.name, of: content),
                        maxWidth: m.maximumNameWidthFraction * m.columnWidth(forCellWidth: width)
                    )),
                StackChild(
                    TextNode(element: .handle, label: m.label(.handle, of: content)),
                    flexShrink: 1, spacingBefore: m.nameHandleSpacing
                ),
                StackChild(BoxNode(), flexGrow: 1),
                StackChild(
                    TextNode(element: .timestamp, label: m.label(.timestamp, of: content)),
                    spacingBefore: m.minimumHandleTimestampSpacing
                ),
                StackChild(
                    BoxNode(element: .menu, width: m.menuSize, height: m.menuSize),
                    spacingBefore: m.timestampMenuSpacing),
            ])
        var column = [
            StackChild(header),
            StackChild(
                TextNode(element: .body, label: m.label(.body, of: content)), spacingBefore: m.headerBodySpacing),
        ]
        if let media = mediaSpec(for: content) {
            column.append(StackChild(media, spacingBefore: m.sectionSpacing))
        }
        let actions = StackSpec(
            direction: .horizontal, justifyContent: .spaceBetween,
            children: FeedAction.allCases.map {
                StackChild(BoxNode(element: $0.element, size: m.actionButtonSize(count: content.count(for: $0))))
            })
        column.append(StackChild(actions, spacingBefore: m.sectionSpacing))

        let cell = InsetSpec(
            insets: LayoutInsets(all: m.padding),
            child: StackSpec(
                direction: .horizontal, spacing: m.avatarSpacing, alignItems: .start,
                children: [
                    StackChild(BoxNode(element: .avatar, width: m.avatarSize, height: m.avatarSize)),
                    StackChild(
                        StackSpec(direction: .vertical, alignItems: .stretch, children: column), flexGrow: 1,
                        flexBasis: 0),
                ]
            ))
        let separator = InsetSpec(
            insets: LayoutInsets(top: .infinity, left: m.columnLeft, bottom: 0, right: 0),
            child: BoxNode(element: .separator, height: m.separatorThickness)
        )
        return OverlaySpec(child: cell, overlay: separator)
    }

    /// Lays out one cell: declares its spec tree and lays it out exactly `width` wide.
    /// - Parameters:
    ///   - content: What the cell shows.
    ///   - width: The cell's width in points.
    /// - Returns: The frames and the cell's height.
    /// - Complexity: One pass over the tree; each node is laid out once or twice.
    package func layout(_ content: FeedCellContent, width: Double) -> FeedCellLayout {
        WorkMeter.measure(.specLayout) {
            let root = layoutSpec(for: content, width: width).layout(
                in: SizeRange(
                    min: LayoutSize(width: width, height: 0), max: LayoutSize(width: width, height: .infinity)
                ))
            var layout = FeedCellLayout(size: root.size)
            root.forEachFrame { element, frame in layout[element] = frame }
            return (layout, units: content.measuredCharacters)
        }
    }

    /// Lays out many cells on background tasks in parallel and returns them in order.
    ///
    /// Cells are handed out in batches of ``batchSize``, the way Texture lays out a batch of
    /// rows ahead of the visible area; each batch is one child task of a task group, so the
    /// work spreads over the cooperative thread pool.
    /// - Parameters:
    ///   - contents: The cells' contents.
    ///   - width: The width of every cell.
    /// - Returns: One layout per content, in the same order.
    package func layout(_ contents: [FeedCellContent], width: Double) async -> [FeedCellLayout] {
        await withTaskGroup(of: (Int, [FeedCellLayout]).self) { group in
            for start in stride(from: 0, to: contents.count, by: Self.batchSize) {
                let batch = contents[start..<min(start + Self.batchSize, contents.count)]
                group.addTask { (start, batch.map { layout($0, width: width) }) }
            }
            var layouts = [FeedCellLayout?](repeating: nil, count: contents.count)
            for await (start, batch) in group {
                for (offset, layout) in batch.enumerated() { layouts[start + offset] = layout }
            }
            return layouts.map { $0! }
        }
    }

    /// How many cells one background task lays out.
    package static let batchSize = 8

    /// One image at its (capped) ratio, or a 16:9 grid of columns; `nil` without images.
    private func mediaSpec(for content: FeedCellContent) -> (any LayoutElement)? {
        let m = metrics
        let ratios = content.imageAspectRatios
        switch ratios.count {
        case 0:
            return nil
        case 1:
            return RatioSpec(ratio: m.singleImageHeightRatio(aspectRatio: ratios[0]), child: BoxNode(element: .image0))
        default:
            let columns = FeedCellMetrics.imageGridColumns[ratios.count].map { column in
                StackChild(
                    StackSpec(
                        direction: .vertical, spacing: m.imageSpacing, alignItems: .stretch,
                        children: column.map {
                            StackChild(BoxNode(element: .image($0)), flexGrow: 1, flexBasis: 0)
                        }), flexGrow: 1, flexBasis: 0)
            }
            return RatioSpec(
                ratio: m.imageGridHeightRatio,
                child: StackSpec(
                    direction: .horizontal, spacing: m.imageSpacing, alignItems: .stretch, children: columns
                ))
        }
    }
}
