import FrameScope
import FrameSupport
import FrameTrace
import Synchronization

/// Technique 3: a photo grid of rounded thumbnails scrolled at a steady fling, the corners
/// rounded four ways.
///
/// The screen is sized like a phone's photo grid: three columns of 117 × 117 pt thumbnails with
/// 10 pt corners and 6 pt gutters on a 375 × 667 pt screen, composited at 2× (234 × 234 px per
/// thumbnail), so 18 to 21 thumbnails are on screen in every frame and a frame composites about as
/// many pixels as the screen holds. The thumbnails are PNG files (360 × 360 px) drawn from the seed
/// and encoded when the scenario is made, outside every frame; during the run they are decoded for
/// real. When a row of the grid enters the prefetch window (two screens below the visible area)
/// the main thread looks each of its thumbnails up in a ``RoundedImageCache`` keyed by image, size,
/// corner radius and strategy. On a miss a worker decodes the PNG, downsamples it to display size
/// and does the strategy's one-time preparation (`decode and prepare image`, category
/// `corner-rounding`, with the decode and downsample as nested `image-decode` spans); the result
/// goes into the cache and to every tile waiting for it. A tile that asks for an image already
/// being prepared waits for that job instead of starting another. Photos repeat across the grid
/// (a seeded pool), so the cache's hit rate is whatever the grid's repetition gives; it is
/// recorded as the `cache hit rate` counter and in the trace metadata as `cache-hit-rate`.
///
/// Every frame the main thread handles the pan and places the visible thumbnails; compositing them
/// into the framebuffer is render-server work, queued with ``FrameContext/onRenderServer(_:work:)``
/// and recorded in the `render` category, for every strategy, with the `composited images`,
/// `offscreen passes` and pixel counters of each frame:
///
/// - `offscreen-clip`: `cornerRadius` with clipping. Every frame, for every visible thumbnail, an
///   `offscreen pass` span rasterizes the thumbnail's mask, renders the thumbnail through it into
///   an offscreen buffer and blends the result, even though no thumbnail changed.
/// - `prerendered-opaque`: prepared once on a worker with the background colour baked into the
///   corners; every frame copies rows, no blending, no offscreen pass.
/// - `prerendered-transparent`: prepared once with transparent corners; every frame blends
///   every pixel of every thumbnail.
/// - `corner-mask-overlay`: the unclipped thumbnail is copied and a corner overlay (the rectangle
///   minus the rounded rectangle, in the background colour) is blended over the four corner
///   squares only.
///
/// A thumbnail that is not prepared yet when its tile is on screen is left out (a placeholder), and
/// counted.
package final class CornerRoundingScenario: Scenario {
    /// How corners are rounded.
    package enum Strategy: String, CaseIterable, Sendable {
        /// Offscreen clip on the render lane, every frame.
        case offscreenClip = "offscreen-clip"
        /// Pre-rendered once with an opaque background; copied every frame.
        case prerenderedOpaque = "prerendered-opaque"
        /// Pre-rendered once with transparent corners; blended every frame.
        case prerenderedTransparent = "prerendered-transparent"
        /// Image copied and a corner-mask overlay blended every frame.
        case cornerMaskOverlay = "corner-mask-overlay"

        /// The imaging strategy that does the work.
        package var cornerRounding: CornerRoundingStrategy {
            switch self {
            case .offscreenClip: .offscreenClip
            case .prerenderedOpaque: .prerenderedOpaque
            case .prerenderedTransparent: .prerenderedTransparent
            case .cornerMaskOverlay: .cornerMaskOverlay
            }
        }
    }

    static let descriptor = ScenarioDescriptor(
        name: TraceCategory.cornerRounding.name,  // the scenario is named after the work it measures
        summary:
            "a 3-column grid of rounded photo thumbnails (real PNG decode, 18-21 on screen) scrolled at 2,000 pt/s, composited at 2x",
        strategies: [
            .init(
                name: Strategy.offscreenClip.rawValue,
                summary: "an offscreen pass per visible thumbnail on the render lane every frame"),
            .init(
                name: Strategy.prerenderedOpaque.rawValue,
                summary: "pre-render once on a worker with an opaque background; copy every frame"),
            .init(
                name: Strategy.prerenderedTransparent.rawValue,
                summary: "pre-render once on a worker, transparent corners; blend every frame"),
            .init(
                name: Strategy.cornerMaskOverlay.rawValue,
                summary: "copy the image, blend a corner-mask overlay on the corners every frame"),
        ],
        make: { name, seed in Strategy(rawValue: name).map { CornerRoundingScenario(strategy: $0, seed: seed) } })

    /// The screen in points.
    package static let viewport = LayoutSize(width: 375, height: 667)
    /// Pixels per point.
    package static let scale = 2
    /// Scroll speed in points per second.
    package static let scrollSpeed = 2_000.0
    /// Thumbnails per row of the grid.
    package static let columns = 3
    /// The side of a thumbnail in points.
    package static let thumbnailSide = 117
    /// The gutter around thumbnails in points: left of each column, right of the last, above each
    /// row.
    package static let gutter = 6
    /// A thumbnail's corner radius in points.
    package static let cornerRadius = 10.0
    /// The side of the PNG files in pixels (downsampled to `thumbnailSide × scale` on decode).
    package static let fileSide = 360
    /// The height of a row of the grid in points: a thumbnail and the gutter above it.
    package static var rowHeight: Double { Double(thumbnailSide + gutter) }
    /// The colour behind every image: a solid, unchanging grid background.
    package static let background = Pixel(red: 242, green: 242, blue: 247)

    /// The strategy in use.
    package let strategy: Strategy
    /// The cache of prepared images.
    package let cache = RoundedImageCache(capacity: 256)
    /// Images prepared by a worker so far (cache misses that finished).
    package private(set) var preparedImages = 0
    /// Requests that joined a preparation already in flight for the same key.
    package private(set) var joinedRequests = 0
    /// Thumbnails on screen with nothing to show yet, summed over frames.
    package private(set) var placeholders = 0
    /// The scroll offset in points.
    package private(set) var offset = 0.0
    /// The framebuffer the render lane composites into (`viewport × scale` pixels).
    package let framebuffer: Framebuffer
    private let photoFiles: [[UInt8]]
    private var tiles: [Int] = []
    private var generator: SeededGenerator
    private var requestedRows = 0
    private var shown: [Int: RoundedImage] = [:]
    private var waiting: [RoundedImageCache.Key: [Int]] = [:]

    /// Creates the scenario at the top of the grid, drawing and encoding its PNG files.
    /// - Parameters:
    ///   - strategy: How corners are rounded.
    ///   - seed: Fixes the images and which tile shows which.
    ///   - photoCount: Distinct photos in the grid.
    package init(strategy: Strategy, seed: UInt64, photoCount: Int = 30) {
        precondition(photoCount >= 1, "the grid needs at least one photo")
        self.strategy = strategy
        let generator = SeededGenerator(seed: seed)
        self.generator = generator
        photoFiles = EncodedFiles.cached("corner-rounding seed=\(seed) photos=\(photoCount) side=\(Self.fileSide)") {
            (0..<photoCount).map { index in
                var generator = SeededGenerator(seed: generator.seedForImage(index))
                return PNGEncoder.encodeOpaque(
                    SyntheticImage.photo(width: Self.fileSide, height: Self.fileSide, using: &generator))
            }
        }
        framebuffer = Framebuffer(
            width: Int(Self.viewport.width) * Self.scale, height: Int(Self.viewport.height) * Self.scale,
            background: Self.background)
    }

    /// The PNG file a tile shows.
    func file(for tile: Int) -> [UInt8] { photoFiles[photo(at: tile)] }

    /// The cache key of the image a tile shows.
    func key(for tile: Int) -> RoundedImageCache.Key {
        let side = Self.thumbnailSide * Self.scale
        return RoundedImageCache.Key(
            imageID: "photo/\(photo(at: tile))", width: side, height: side,
            cornerRadius: Self.cornerRadius * Double(Self.scale),
            strategy: strategy.cornerRounding, background: Self.background)
    }

    private func photo(at tile: Int) -> Int {
        while tiles.count <= tile { tiles.append(Int.random(in: 0..<photoFiles.count, using: &generator)) }
        return tiles[tile]
    }

    /// The tiles whose thumbnails are at least partly on screen at `offset`, with each one's
    /// top-left corner in framebuffer pixels (the row is negative when scrolled partly off the top).
    package static func tilesOnScreen(atOffset offset: Double) -> [(tile: Int, x: Int, y: Int)] {
        var result: [(tile: Int, x: Int, y: Int)] = []
        var row = max(0, Int(offset / rowHeight))
        while Double(row) * rowHeight < offset + viewport.height {
            let top = Double(row) * rowHeight + Double(gutter) - offset
            if top + Double(thumbnailSide) > 0, top < viewport.height {
                for column in 0..<columns {
                    let x = (gutter + column * (thumbnailSide + gutter)) * scale
                    result.append((row * columns + column, x, Int((top * Double(scale)).rounded(.down))))
                }
            }
            row += 1
        }
        return result
    }

    package func frame(_ context: FrameContext) {
        let recorder = context.recorder
        recorder.recordInstant("pan", category: .input)
        offset += Self.scrollSpeed * Double(context.interval) / 1e9
        prefetch(context)
        let placements = recorder.withSpan("place visible images", category: .layout) {
            WorkMeter.measure(.placeImages) {
                let placements = visiblePlacements(at: offset)
                return (placements, units: placements.count)
            }
        }
        let framebuffer = framebuffer
        let draw: @Sendable () -> Void = {
            let work = framebuffer.redraw(placements, recorder: recorder)
            recorder.recordCounter("composited images", value: Double(placements.count), category: .render)
            recorder.recordCounter("offscreen passes", value: Double(work.offscreenPasses), category: .render)
            recorder.recordCounter("offscreen pixels", value: Double(work.offscreenPixels), category: .render)
            recorder.recordCounter("blended pixels", value: Double(work.blendedPixels), category: .render)
            recorder.recordCounter("copied pixels", value: Double(work.copiedPixels), category: .render)
        }
        switch strategy {
        case .offscreenClip: context.onRenderServer("offscreen clip and blend", work: draw)
        case .prerenderedOpaque: context.onRenderServer("copy pre-rendered images", work: draw)
        case .prerenderedTransparent: context.onRenderServer("blend pre-rendered images", work: draw)
        case .cornerMaskOverlay: context.onRenderServer("copy images, blend corner overlays", work: draw)
        }
    }

    /// Requests the thumbnails of every row that entered the prefetch window.
    private func prefetch(_ context: FrameContext) {
        let horizon = offset + 3 * Self.viewport.height
        while Double(requestedRows) * Self.rowHeight < horizon {
            for column in 0..<Self.columns { request(tile: requestedRows * Self.columns + column, context: context) }
            requestedRows += 1
        }
    }

    private func request(tile: Int, context: FrameContext) {
        let key = key(for: tile)
        if waiting[key] != nil {
            waiting[key]!.append(tile)
            joinedRequests += 1
            return
        }
        if let image = cache.cachedImage(for: key) {
            shown[tile] = image
        } else {
            waiting[key] = [tile]
            let file = file(for: tile)
            let recorder = context.recorder
            context.inBackground("decode and prepare image", category: .cornerRounding) {
                Self.prepare(file, for: key, recorder: recorder)
            } then: { [self] image in
                preparedImages += 1
                guard let image else {
                    waiting[key] = nil
                    return
                }
                cache.insert(image, for: key)
                for tile in waiting.removeValue(forKey: key) ?? [] { shown[tile] = image }
            }
        }
        let hitRate = cache.statistics.hitRate
        context.recorder.recordCounter("cache hit rate", value: hitRate, category: .cornerRounding)
        context.recorder.annotate("cache-hit-rate", .double(hitRate))
    }

    /// The one-time work for an image: decode, downsample to display size, prepare for the
    /// strategy. `nil` when the file does not decode (never for the files this scenario makes).
    static func prepare(_ file: [UInt8], for key: RoundedImageCache.Key, recorder: Recorder?) -> RoundedImage? {
        guard let sized = ScenarioImage.decode(file, toWidth: key.width, height: key.height, recorder: recorder) else {
            return nil
        }
        return RoundedImage(
            image: sized, cornerRadius: key.cornerRadius, strategy: key.strategy, background: key.background)
    }

    /// The prepared thumbnails on screen at `offset`, with their positions in framebuffer pixels.
    private func visiblePlacements(at offset: Double) -> [Framebuffer.Placement] {
        var placements: [Framebuffer.Placement] = []
        for (tile, x, y) in Self.tilesOnScreen(atOffset: offset) {
            guard let image = shown[tile] else {
                placeholders += 1
                continue
            }
            placements.append(.init(image: image, x: x, y: y))
        }
        return placements
    }

    /// Draws the screen at `offset` with every visible thumbnail prepared synchronously on the
    /// calling thread, through the same preparation and compositing as a run, without touching the
    /// cache or the trace: the reference picture a run's framebuffer converges to.
    package func renderedScreen(atOffset offset: Double) -> Bitmap {
        let placements = Self.tilesOnScreen(atOffset: offset).compactMap { tile, x, y in
            Self.prepare(file(for: tile), for: key(for: tile), recorder: nil).map {
                Framebuffer.Placement(image: $0, x: x, y: y)
            }
        }
        let screen = Framebuffer(width: framebuffer.width, height: framebuffer.height, background: Self.background)
        screen.redraw(placements)
        return screen.contents
    }

    /// The render lane's framebuffer: redrawn from the background colour every frame.
    package final class Framebuffer: Sendable {
        /// A prepared image and where its top-left corner goes, in pixels.
        package struct Placement: Sendable {
            /// The image.
            package var image: RoundedImage
            /// The column of its left edge.
            package var x: Int
            /// The row of its top edge; negative when scrolled partly off the top.
            package var y: Int
        }

        /// The width in pixels.
        package let width: Int
        /// The height in pixels.
        package let height: Int
        private let blank: Bitmap
        private let bitmap: Mutex<Bitmap>

        init(width: Int, height: Int, background: Pixel) {
            self.width = width
            self.height = height
            blank = Bitmap(width: width, height: height, filledWith: background)
            bitmap = Mutex(blank)
        }

        /// Clears to the background and composites `placements` in order; with a recorder, each
        /// image drawn through an offscreen pass is an `offscreen pass` span (category `render`).
        /// - Returns: The pixel work the strategy did.
        @discardableResult
        func redraw(_ placements: [Placement], recorder: Recorder? = nil) -> CompositingWork {
            bitmap.withLock { bitmap in
                bitmap = blank
                var total = CompositingWork()
                for placement in placements {
                    if let recorder, placement.image.strategy == .offscreenClip {
                        total += recorder.withSpan("offscreen pass", category: .render) {
                            placement.image.draw(into: &bitmap, atX: placement.x, y: placement.y)
                        }
                    } else {
                        total += placement.image.draw(into: &bitmap, atX: placement.x, y: placement.y)
                    }
                }
                return total
            }
        }

        /// The pixels drawn last.
        package var contents: Bitmap { bitmap.withLock { $0 } }
    }
}

extension SeededGenerator {
    /// A seed for photo `index`, derived without advancing this generator, so adding photos does
    /// not change the others.
    fileprivate func seedForImage(_ index: Int) -> UInt64 {
        var copy = self
        for _ in 0...(index % 3) { _ = copy.next() }
        return copy.next() ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15) ^ 0x5A5A
    }
}
