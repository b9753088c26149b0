import FrameScope
import FrameSupport
import FrameTrace

/// Techniques 1 and 2: a feed of rich cells (about 15 subviews each) scrolled at a brisk, steady
/// fling, laid out three ways.
///
/// - `constraints-main`: each cell is laid out by the Cassowary constraint solver on the main
///   thread as it comes on screen, as Auto Layout does for self-sizing cells.
/// - `manual-main`: each cell is laid out by sequential pin-style code on the main thread as it
///   comes on screen, as PinLayout does.
/// - `specs-background`: Texture-style layout specs are computed on background workers, in
///   batches of ``batchSize``, for every cell within two screens below the visible area; the main
///   thread only applies finished layouts. A cell that reaches the screen before its background
///   layout has finished is laid out on the main thread (and the trace says so).
///
/// Every frame the main thread handles the pan, moves the content and positions the visible
/// cells' subviews; cells below the laid-out ones are placed with an estimated height until their
/// real height is known, as table views with estimated heights do.
///
/// Images: every cell shows an avatar and its post's photos, real PNG files drawn from a seeded
/// pool (avatars repeat across cells far more than photos) and encoded when the scenario is made,
/// outside every frame. Each image is looked up in a ``DecodedImageCache`` keyed by image and
/// display size in pixels (2x); on a miss it is decoded and downsampled to that size
/// (`decode image`, category `image-decode`, with `decode PNG` and `downsample` nested):
///
/// - decode `background` (the plain strategy names): on a worker, for every cell within two
///   screens below the visible area, laid out or not (image sizes follow from the content alone);
///   the bitmap reaches the cell in a later frame. A cell that asks for an image already being
///   decoded joins that job.
/// - decode `main` (names ending in `+decode-main`): synchronously on the main thread when a
///   visible cell first needs it, as a `cellForRow` that decodes does.
///
/// Visible image slots with no bitmap yet are counted as ``imagePlaceholders`` and, per frame, by
/// the `image placeholders` counter; the cache's hit rate is the `image cache hit rate` counter
/// and the `image-cache-hit-rate` metadata entry.
package final class FeedScrollScenario: Scenario {
    /// How cells are laid out.
    package enum Strategy: String, CaseIterable, Sendable {
        /// Constraint solving on the main thread.
        case constraintsMain = "constraints-main"
        /// Manual layout on the main thread.
        case manualMain = "manual-main"
        /// Layout specs on background workers with a two-screen prefetch window.
        case specsBackground = "specs-background"
    }

    /// Where images are decoded.
    package enum Decode: String, CaseIterable, Sendable {
        /// On workers, prefetching two screens ahead, into the cache.
        case background
        /// On the main thread when a visible cell first needs the image.
        case main
    }

    /// The suffix of strategy names that decode on the main thread.
    package static let decodeMainSuffix = "+decode-main"

    /// The layout strategy and decode placement a strategy name stands for: `LAYOUT` decodes in
    /// the background, `LAYOUT+decode-main` on main; `nil` for any other name.
    package static func parseStrategy(_ name: String) -> (Strategy, Decode)? {
        if name.hasSuffix(decodeMainSuffix) {
            return Strategy(rawValue: String(name.dropLast(decodeMainSuffix.count))).map { ($0, .main) }
        }
        return Strategy(rawValue: name).map { ($0, .background) }
    }

    static let descriptor = ScenarioDescriptor(
        name: "feed-scroll",
        summary: "a feed of ~15-subview cells scrolled at 3,000 pt/s on a 375 x 667 pt screen",
        strategies: [
            .init(
                name: Strategy.constraintsMain.rawValue,
                summary: "Cassowary constraint layout of each cell on the main thread; images decoded on workers"),
            .init(
                name: Strategy.manualMain.rawValue,
                summary: "pin-style manual layout of each cell on the main thread; images decoded on workers"),
            .init(
                name: Strategy.specsBackground.rawValue,
                summary: "layout specs on workers, prefetching two screens ahead; images decoded on workers"),
        ]
            + Strategy.allCases.map {
                .init(
                    name: $0.rawValue + decodeMainSuffix,
                    summary: "as \($0.rawValue), but images decoded on the main thread")
            },
        make: { name, seed in parseStrategy(name).map { FeedScrollScenario(strategy: $0.0, decode: $0.1, seed: seed) } }
    )

    /// Cells per background layout job.
    package static let batchSize = 8
    /// The screen: an iPhone-sized viewport in points.
    package static let viewport = LayoutSize(width: 375, height: 667)
    /// Scroll speed in points per second.
    package static let scrollSpeed = 3_000.0
    /// Height assumed for a cell whose layout is not known yet.
    package static let estimatedHeight = 300.0

    /// The strategy in use.
    package let strategy: Strategy
    /// Where images are decoded.
    package let decode: Decode
    /// Decoded, display-sized images.
    package let imageCache = DecodedImageCache(capacity: 128)
    /// Images decoded so far and handed to their cells.
    package private(set) var decodedImages = 0
    /// Visible image slots with nothing to show yet, summed over frames.
    package private(set) var imagePlaceholders = 0
    /// The bitmaps each cell shows, by element.
    package private(set) var shownImages: [Int: [FeedCellElement: Bitmap]] = [:]
    private let avatarFiles: [[UInt8]]
    private let photoFiles: [[UInt8]]
    private var imageGenerator: SeededGenerator
    private var cellImageIDs: [[FeedCellElement: Int]] = []
    /// The key each image element of a cell was last requested under.
    private(set) var requestedImageKeys: [Int: [FeedCellElement: DecodedImageCache.Key]] = [:]
    private var waitingDecodes: [DecodedImageCache.Key: [(cell: Int, element: FeedCellElement)]] = [:]
    /// Cells laid out so far, by index.
    package private(set) var layouts: [Int: FeedCellLayout] = [:]
    /// Cells laid out on the main thread because their background layout was late.
    package private(set) var lateCells = 0
    private var contents: [FeedCellContent] = []
    private var requested: Set<Int> = []
    private var generator: SeededGenerator
    private var offset = 0.0
    private let constraintEngine = ConstraintLayoutEngine()
    private let manualEngine = ManualLayoutEngine()
    private let specEngine = SpecLayoutEngine()

    /// Creates the scenario at the top of the feed, drawing and encoding its PNG files.
    /// - Parameters:
    ///   - strategy: How cells are laid out.
    ///   - decode: Where images are decoded.
    ///   - seed: Fixes the content, the images and which cell shows which.
    ///   - avatarCount: Distinct avatars (authors).
    ///   - photoCount: Distinct photos.
    ///   - photoSize: The photos' size in pixels (feed photos as uploaded, before downsampling).
    package init(
        strategy: Strategy, decode: Decode = .background, seed: UInt64, avatarCount: Int = 8, photoCount: Int = 16,
        photoSize: (width: Int, height: Int) = (960, 720)
    ) {
        precondition(avatarCount >= 1 && photoCount >= 1, "the feed needs at least one avatar and one photo")
        self.strategy = strategy
        self.decode = decode
        generator = SeededGenerator(seed: seed)
        let pool = Self.imagePool(
            seed: seed, avatarCount: avatarCount, photoCount: photoCount, photoWidth: photoSize.width,
            photoHeight: photoSize.height)
        avatarFiles = pool.avatars
        photoFiles = pool.photos
        imageGenerator = SeededGenerator(seed: seed ^ 0xCE11_1A6E)
    }

    /// The avatars and photos, drawn in that order from one generator and encoded once per process.
    private static func imagePool(seed: UInt64, avatarCount: Int, photoCount: Int, photoWidth: Int, photoHeight: Int)
        -> (avatars: [[UInt8]], photos: [[UInt8]])
    {
        let key =
            "feed-scroll seed=\(seed) avatars=\(avatarCount) photos=\(photoCount) size=\(photoWidth)x\(photoHeight)"
        let files = EncodedFiles.cached(key) {
            var images = SeededGenerator(seed: seed ^ 0x1A6E_5EED)
            let avatars = (0..<avatarCount).map { _ in
                PNGEncoder.encodeOpaque(SyntheticImage.avatar(side: 96, using: &images))
            }
            let photos = (0..<photoCount).map { _ in
                PNGEncoder.encodeOpaque(SyntheticImage.photo(width: photoWidth, height: photoHeight, using: &images))
            }
            return avatars + photos
        }
        return (Array(files[..<avatarCount]), Array(files[avatarCount...]))
    }

    /// The content of cell `index`, generated in order from the seed.
    package func content(at index: Int) -> FeedCellContent {
        while contents.count <= index { contents.append(FeedCellContent.random(using: &generator)) }
        return contents[index]
    }

    package func frame(_ context: FrameContext) {
        let recorder = context.recorder
        recorder.recordInstant("pan", category: .input)
        offset += Self.scrollSpeed * Double(context.interval) / 1e9
        let width = Self.viewport.width
        if strategy == .specsBackground { prefetch(context, width: width) }

        let visible = visibleCells()
        for index in visible where layouts[index] == nil {
            let content = content(at: index)
            switch strategy {
            case .constraintsMain:
                layouts[index] = recorder.withSpan("layout cell (constraints)", category: .layout) {
                    layoutWithConstraints(content, width: width, recorder: recorder)
                }
            case .manualMain:
                layouts[index] = recorder.withSpan("layout cell (manual)", category: .layout) {
                    manualEngine.layout(content, width: width)
                }
            case .specsBackground:
                lateCells += 1
                layouts[index] = recorder.withSpan("layout cell (specs, not prefetched)", category: .layout) {
                    specEngine.layout(content, width: width)
                }
            }
        }
        requestImages(context, visible: visible)
        let placeholdersBefore = imagePlaceholders
        let positioned = recorder.withSpan("position visible subviews", category: .layout) {
            WorkMeter.measure(.positionSubviews) {
                let positioned = positionSubviews(of: visible)
                return (positioned, units: positioned)
            }
        }
        recorder.recordCounter("visible subviews", value: Double(positioned), category: .layout)
        recorder.recordCounter(
            "image placeholders", value: Double(imagePlaceholders - placeholdersBefore), category: .imageDecode)
    }

    // MARK: - Images

    /// Which pool image each image element of cell `index` shows.
    private func imageIDs(of index: Int) -> [FeedCellElement: Int] {
        while cellImageIDs.count <= index {
            let content = content(at: cellImageIDs.count)
            var ids: [FeedCellElement: Int] = [.avatar: Int.random(in: 0..<avatarFiles.count, using: &imageGenerator)]
            for image in content.imageAspectRatios.indices {
                ids[FeedCellElement.image(image)] = Int.random(in: 0..<photoFiles.count, using: &imageGenerator)
            }
            cellImageIDs.append(ids)
        }
        return cellImageIDs[index]
    }

    /// Requests the images of visible cells when decoding on main, or of every cell within two
    /// screens below the visible area when decoding in the background (the window
    /// specs-background lays out in). A laid-out cell's images are requested at its layout's
    /// sizes; a cell not laid out yet, at the sizes its content gives (``FeedCellMetrics/imageSizes(of:cellWidth:)``),
    /// as a prefetching data source knows a target size before the cell exists.
    private func requestImages(_ context: FrameContext, visible: [Int]) {
        var candidates: [Int] = []
        if decode == .main {
            candidates = visible
        } else {
            let horizon = offset + 3 * Self.viewport.height
            var index = 0
            var y = 0.0
            while y < horizon {
                let height = layouts[index]?.size.height ?? Self.estimatedHeight
                if y + height > offset { candidates.append(index) }
                y += height
                index += 1
            }
        }
        var requested = false
        for index in candidates {
            let layout = layouts[index]
            let unlaidSizes =
                layout == nil
                ? FeedCellMetrics.standard.imageSizes(of: content(at: index), cellWidth: Self.viewport.width) : [:]
            for (element, id) in imageIDs(of: index).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                guard let size = layout.map({ $0[element]?.size }) ?? unlaidSizes[element] else { continue }
                let key = Self.imageKey(element, id: id, size: size)
                guard requestedImageKeys[index]?[element] != key else { continue }
                requestedImageKeys[index, default: [:]][element] = key
                requestImage(element, id: id, key: key, cell: index, context: context)
                requested = true
            }
        }
        if requested {
            let hitRate = imageCache.statistics.hitRate
            context.recorder.recordCounter("image cache hit rate", value: hitRate, category: .imageDecode)
            context.recorder.annotate("image-cache-hit-rate", .double(hitRate))
        }
    }

    /// The cache key of pool image `id` shown by `element` at `size` points: its size in pixels at 2x.
    static func imageKey(_ element: FeedCellElement, id: Int, size: LayoutSize) -> DecodedImageCache.Key {
        DecodedImageCache.Key(
            imageID: element == .avatar ? "avatar/\(id)" : "photo/\(id)",
            width: max(1, Int((size.width * 2).rounded())), height: max(1, Int((size.height * 2).rounded())))
    }

    private func requestImage(
        _ element: FeedCellElement, id: Int, key: DecodedImageCache.Key, cell: Int, context: FrameContext
    ) {
        let isAvatar = element == .avatar
        if waitingDecodes[key] != nil {
            waitingDecodes[key]!.append((cell, element))
            return
        }
        if let bitmap = imageCache.bitmap(for: key) {
            shownImages[cell, default: [:]][element] = bitmap
            return
        }
        let file = isAvatar ? avatarFiles[id] : photoFiles[id]
        let recorder = context.recorder
        switch decode {
        case .main:
            let bitmap = recorder.withSpan("decode image", category: .imageDecode) {
                Self.decodeImage(file, to: key, recorder: recorder)
            }
            guard let bitmap else { return }
            imageCache.insert(bitmap, for: key)
            decodedImages += 1
            shownImages[cell, default: [:]][element] = bitmap
        case .background:
            waitingDecodes[key] = [(cell, element)]
            context.inBackground("decode image", category: .imageDecode) {
                Self.decodeImage(file, to: key, recorder: recorder)
            } then: { [self] bitmap in
                let waiting = waitingDecodes.removeValue(forKey: key) ?? []
                guard let bitmap else { return }
                imageCache.insert(bitmap, for: key)
                decodedImages += 1
                for (cell, element) in waiting { shownImages[cell, default: [:]][element] = bitmap }
            }
        }
    }

    /// Decodes a PNG file and downsamples it to the key's size, fitted inside the source.
    static func decodeImage(_ file: [UInt8], to key: DecodedImageCache.Key, recorder: Recorder?) -> Bitmap? {
        ScenarioImage.decode(file, toWidth: key.width, height: key.height, recorder: recorder)
    }

    /// Lays out with constraints; an unsolvable system (which the engine's tests rule out) is
    /// recorded in the trace and the cell falls back to manual layout rather than vanishing.
    private func layoutWithConstraints(_ content: FeedCellContent, width: Double, recorder: Recorder) -> FeedCellLayout
    {
        do {
            return try constraintEngine.layout(content, width: width)
        } catch {
            recorder.recordInstant(
                "constraint layout failed", category: .layout, arguments: ["error": .string("\(error)")])
            return manualEngine.layout(content, width: width)
        }
    }

    /// Submits background layout for cells within two screens below the visible area.
    private func prefetch(_ context: FrameContext, width: Double) {
        let horizon = offset + 3 * Self.viewport.height
        var index = 0
        var y = 0.0
        var batch: [Int] = []
        while y < horizon {
            if layouts[index] == nil, !requested.contains(index) { batch.append(index) }
            y += layouts[index]?.size.height ?? Self.estimatedHeight
            index += 1
        }
        for start in stride(from: 0, to: batch.count, by: Self.batchSize) {
            let indexes = Array(batch[start..<min(start + Self.batchSize, batch.count)])
            let contents = indexes.map(content(at:))
            requested.formUnion(indexes)
            let engine = specEngine
            context.inBackground("layout specs batch", category: .layout) {
                contents.map { engine.layout($0, width: width) }
            } then: { [self] results in
                for (index, layout) in zip(indexes, results) where layouts[index] == nil {
                    layouts[index] = layout
                }
            }
        }
    }

    /// Indexes of cells intersecting the viewport at the current offset.
    private func visibleCells() -> [Int] {
        var visible: [Int] = []
        var index = 0
        var y = 0.0
        let bottom = offset + Self.viewport.height
        while y < bottom {
            let height = layouts[index]?.size.height ?? Self.estimatedHeight
            if y + height > offset { visible.append(index) }
            y += height
            index += 1
        }
        return visible
    }

    /// Computes every visible subview's frame on screen, as setting view frames would; returns
    /// how many subviews were positioned.
    private func positionSubviews(of visible: [Int]) -> Int {
        var y = 0.0
        var next = 0
        var positioned = 0
        var checksum = 0.0
        for index in visible {
            while next < index {
                y += layouts[next]?.size.height ?? Self.estimatedHeight
                next += 1
            }
            guard let layout = layouts[index] else { continue }
            let top = y - offset
            let images = shownImages[index]
            for element in layout.elements {
                if let frame = layout[element] {
                    checksum += frame.origin.y + top + frame.size.width
                    positioned += 1
                    if element == .avatar
                        || (FeedCellElement.image0.rawValue...FeedCellElement.image3.rawValue).contains(
                            element.rawValue)
                    {
                        if let bitmap = images?[element] {
                            checksum += Double(bitmap.width)
                        } else {
                            imagePlaceholders += 1
                        }
                    }
                }
            }
        }
        return checksum.isNaN ? 0 : positioned
    }
}
