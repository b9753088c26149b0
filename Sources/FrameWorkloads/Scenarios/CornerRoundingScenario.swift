import FrameScope
import FrameTrace
import Synchronization

/// Technique 3: a feed of rounded avatars and photos scrolled at a steady fling, the corners
/// rounded four ways.
///
/// Every cell shows a circular avatar (a 96 × 96 px PNG shown at 40 pt) and a photo with 12 pt
/// corners. The PNG files are drawn from the seed and encoded when the scenario is made, outside
/// every frame; during the run they are decoded for real. When a cell enters the prefetch window
/// (two screens below the visible area) the main thread looks each of its images up in a
/// ``RoundedImageCache`` keyed by image, size, corner radius and strategy. On a miss a worker
/// decodes the PNG, downsamples it to display size and does the strategy's one-time preparation
/// (`decode and prepare image`, category `corner-rounding`, with the decode and downsample as
/// nested `image-decode` spans); the result goes into the cache and to every cell waiting for it.
/// A cell that asks for an image already being prepared waits for that job instead of starting
/// another. Avatars repeat across cells far more often than photos, so the cache's hit rate is
/// whatever the feed's repetition gives; it is recorded as the `cache hit rate` counter and in the
/// trace metadata as `cache-hit-rate`.
///
/// Every frame the main thread handles the pan and places the visible images; compositing them
/// into the framebuffer is render-server work, queued with ``FrameContext/onRenderServer(_:work:)``
/// and recorded in the `render` category, for every strategy:
///
/// - `offscreen-clip`: `cornerRadius` with clipping. Every frame rasterizes each image's mask,
///   renders the image through it offscreen and blends the result, even though no image changed.
/// - `prerendered-opaque`: prepared once on a worker with the background colour baked into the
///   corners; every frame copies rows, no blending.
/// - `prerendered-transparent`: prepared once with transparent corners; every frame blends
///   every pixel of every image.
/// - `corner-mask-overlay`: the unclipped image is copied and a corner overlay (the rectangle
///   minus the rounded rectangle, in the background colour) is blended over the four corner
///   squares only.
///
/// An image that is not prepared yet when its cell is on screen is left out (a placeholder), and
/// counted.
public final class CornerRoundingScenario: Scenario {
    /// How corners are rounded.
    public enum Strategy: String, CaseIterable, Sendable {
        /// Offscreen clip on the render lane, every frame.
        case offscreenClip = "offscreen-clip"
        /// Pre-rendered once with an opaque background; copied every frame.
        case prerenderedOpaque = "prerendered-opaque"
        /// Pre-rendered once with transparent corners; blended every frame.
        case prerenderedTransparent = "prerendered-transparent"
        /// Image copied and a corner-mask overlay blended every frame.
        case cornerMaskOverlay = "corner-mask-overlay"

        /// The imaging strategy that does the work.
        public var cornerRounding: CornerRoundingStrategy {
            switch self {
            case .offscreenClip: .offscreenClip
            case .prerenderedOpaque: .prerenderedOpaque
            case .prerenderedTransparent: .prerenderedTransparent
            case .cornerMaskOverlay: .cornerMaskOverlay
            }
        }
    }

    static let descriptor = ScenarioDescriptor(
        name: "corner-rounding",
        summary: "a feed of rounded avatars and photos (real PNG decode) scrolled at 2,000 pt/s, composited at 2x",
        strategies: [
            .init(name: Strategy.offscreenClip.rawValue, summary: "clip offscreen and blend on the render lane every frame"),
            .init(name: Strategy.prerenderedOpaque.rawValue, summary: "pre-render once on a worker with an opaque background; copy every frame"),
            .init(name: Strategy.prerenderedTransparent.rawValue, summary: "pre-render once on a worker, transparent corners; blend every frame"),
            .init(name: Strategy.cornerMaskOverlay.rawValue, summary: "copy the image, blend a corner-mask overlay on the corners every frame"),
        ],
        make: { name, seed in Strategy(rawValue: name).map { CornerRoundingScenario(strategy: $0, seed: seed) } })

    /// The screen in points.
    public static let viewport = LayoutSize(width: 375, height: 667)
    /// Pixels per point.
    public static let scale = 2
    /// Scroll speed in points per second.
    public static let scrollSpeed = 2_000.0
    /// The height of a cell in points.
    public static let cellHeight = 240.0
    /// The colour behind every image: a solid, unchanging feed background.
    public static let background = Pixel(red: 242, green: 242, blue: 247)

    /// What a cell shows, by slot.
    public enum Slot: Hashable, Sendable, CaseIterable {
        /// The author's avatar: 40 × 40 pt at (16, 12), a circle.
        case avatar
        /// The photo: 295 × 200 pt at (64, 12), 12 pt corners.
        case photo

        /// The frame within the cell, in points.
        var frame: (x: Int, y: Int, width: Int, height: Int) {
            switch self {
            case .avatar: (16, 12, 40, 40)
            case .photo: (64, 12, 295, 200)
            }
        }

        /// The corner radius in points.
        var cornerRadius: Double { self == .avatar ? 20 : 12 }
    }

    /// The strategy in use.
    public let strategy: Strategy
    /// The cache of prepared images.
    public let cache = RoundedImageCache(capacity: 256)
    /// Images prepared by a worker so far (cache misses that finished).
    public private(set) var preparedImages = 0
    /// Requests that joined a preparation already in flight for the same key.
    public private(set) var joinedRequests = 0
    /// Image slots on screen with nothing to show yet, summed over frames.
    public private(set) var placeholders = 0
    /// The scroll offset in points.
    public private(set) var offset = 0.0
    /// The framebuffer the render lane composites into (`viewport × scale` pixels).
    public let framebuffer: Framebuffer
    private let avatarFiles: [[UInt8]]
    private let photoFiles: [[UInt8]]
    private var cells: [(avatar: Int, photo: Int)] = []
    private var generator: SeededGenerator
    private var requestedCells = 0
    private var shown: [Int: [Slot: RoundedImage]] = [:]
    private var waiting: [RoundedImageCache.Key: [(cell: Int, slot: Slot)]] = [:]

    /// Creates the scenario at the top of the feed, drawing and encoding its PNG files.
    /// - Parameters:
    ///   - strategy: How corners are rounded.
    ///   - seed: Fixes the images and which cell shows which.
    ///   - avatarCount: Distinct avatars (authors) in the feed.
    ///   - photoCount: Distinct photos in the feed.
    public init(strategy: Strategy, seed: UInt64, avatarCount: Int = 8, photoCount: Int = 24) {
        precondition(avatarCount >= 1 && photoCount >= 1, "the feed needs at least one avatar and one photo")
        self.strategy = strategy
        generator = SeededGenerator(seed: seed)
        avatarFiles = (0..<avatarCount).map { [generator] index in
            var generator = SeededGenerator(seed: generator.seedForImage(index, of: .avatar))
            return PNGEncoder.encodeOpaque(SyntheticImage.avatar(side: 96, using: &generator))
        }
        photoFiles = (0..<photoCount).map { [generator] index in
            var generator = SeededGenerator(seed: generator.seedForImage(index, of: .photo))
            return PNGEncoder.encodeOpaque(SyntheticImage.photo(width: 720, height: 480, using: &generator))
        }
        framebuffer = Framebuffer(
            width: Int(Self.viewport.width) * Self.scale, height: Int(Self.viewport.height) * Self.scale, background: Self.background)
    }

    /// The PNG file an image slot of a cell shows.
    func file(for cell: Int, slot: Slot) -> [UInt8] {
        let (avatar, photo) = self.cell(at: cell)
        return slot == .avatar ? avatarFiles[avatar] : photoFiles[photo]
    }

    /// The cache key of the image in a slot of a cell.
    func key(for cell: Int, slot: Slot) -> RoundedImageCache.Key {
        let (avatar, photo) = self.cell(at: cell)
        let frame = slot.frame
        return RoundedImageCache.Key(
            imageID: slot == .avatar ? "avatar/\(avatar)" : "photo/\(photo)", width: frame.width * Self.scale,
            height: frame.height * Self.scale, cornerRadius: slot.cornerRadius * Double(Self.scale), strategy: strategy.cornerRounding,
            background: Self.background)
    }

    private func cell(at index: Int) -> (avatar: Int, photo: Int) {
        while cells.count <= index {
            cells.append((Int.random(in: 0..<avatarFiles.count, using: &generator), Int.random(in: 0..<photoFiles.count, using: &generator)))
        }
        return cells[index]
    }

    public func frame(_ context: FrameContext) {
        let recorder = context.recorder
        recorder.instant("pan", category: .input)
        offset += Self.scrollSpeed * Double(context.interval) / 1e9
        prefetch(context)
        let placements = recorder.withSpan("place visible images", category: .layout) { visiblePlacements(at: offset) }
        let framebuffer = framebuffer
        let draw: @Sendable () -> Void = {
            let work = framebuffer.redraw(placements)
            recorder.counter("offscreen pixels", value: Double(work.offscreenPixels), category: .render)
            recorder.counter("blended pixels", value: Double(work.blendedPixels), category: .render)
            recorder.counter("copied pixels", value: Double(work.copiedPixels), category: .render)
        }
        switch strategy {
        case .offscreenClip: context.onRenderServer("offscreen clip and blend", work: draw)
        case .prerenderedOpaque: context.onRenderServer("copy pre-rendered images", work: draw)
        case .prerenderedTransparent: context.onRenderServer("blend pre-rendered images", work: draw)
        case .cornerMaskOverlay: context.onRenderServer("copy images, blend corner overlays", work: draw)
        }
    }

    /// Requests the images of every cell that entered the prefetch window.
    private func prefetch(_ context: FrameContext) {
        let horizon = offset + 3 * Self.viewport.height
        while Double(requestedCells) * Self.cellHeight < horizon {
            for slot in Slot.allCases { request(cell: requestedCells, slot: slot, context: context) }
            requestedCells += 1
        }
    }

    private func request(cell: Int, slot: Slot, context: FrameContext) {
        let key = key(for: cell, slot: slot)
        if waiting[key] != nil {
            waiting[key]!.append((cell, slot))
            joinedRequests += 1
            return
        }
        if let image = cache.cachedImage(for: key) {
            shown[cell, default: [:]][slot] = image
        } else {
            waiting[key] = [(cell, slot)]
            let file = file(for: cell, slot: slot)
            let recorder = context.recorder
            context.inBackground("decode and prepare image", category: .cornerRounding) {
                Self.prepare(file, for: key, recorder: recorder)
            } then: { [self] image in
                preparedImages += 1
                guard let image else { waiting[key] = nil; return }
                cache.insert(image, for: key)
                for (cell, slot) in waiting.removeValue(forKey: key) ?? [] { shown[cell, default: [:]][slot] = image }
            }
        }
        let hitRate = cache.statistics.hitRate
        context.recorder.counter("cache hit rate", value: hitRate, category: .cornerRounding)
        context.recorder.annotate("cache-hit-rate", .double(hitRate))
    }

    /// The one-time work for an image: decode, downsample to display size, prepare for the
    /// strategy. `nil` when the file does not decode (never for the files this scenario makes).
    static func prepare(_ file: [UInt8], for key: RoundedImageCache.Key, recorder: Recorder?) -> RoundedImage? {
        guard let sized = ScenarioImage.decode(file, toWidth: key.width, height: key.height, recorder: recorder) else { return nil }
        return RoundedImage(image: sized, cornerRadius: key.cornerRadius, strategy: key.strategy, background: key.background)
    }

    /// The prepared images on screen at `offset`, with their positions in framebuffer pixels.
    private func visiblePlacements(at offset: Double) -> [Framebuffer.Placement] {
        var placements: [Framebuffer.Placement] = []
        var index = max(0, Int(offset / Self.cellHeight))
        while Double(index) * Self.cellHeight < offset + Self.viewport.height {
            let top = Double(index) * Self.cellHeight - offset
            for slot in Slot.allCases {
                let frame = slot.frame
                guard top + Double(frame.y + frame.height) > 0, top + Double(frame.y) < Self.viewport.height else { continue }
                guard let image = shown[index]?[slot] else {
                    placeholders += 1
                    continue
                }
                placements.append(
                    .init(image: image, x: frame.x * Self.scale, y: Int(((top + Double(frame.y)) * Double(Self.scale)).rounded(.down))))
            }
            index += 1
        }
        return placements
    }

    /// Draws the screen at `offset` with every visible image prepared synchronously on the calling
    /// thread, through the same preparation and compositing as a run, without touching the cache
    /// or the trace: the reference picture a run's framebuffer converges to.
    public func renderedScreen(atOffset offset: Double) -> Bitmap {
        var placements: [Framebuffer.Placement] = []
        var index = max(0, Int(offset / Self.cellHeight))
        while Double(index) * Self.cellHeight < offset + Self.viewport.height {
            let top = Double(index) * Self.cellHeight - offset
            for slot in Slot.allCases {
                let frame = slot.frame
                guard let image = Self.prepare(file(for: index, slot: slot), for: key(for: index, slot: slot), recorder: nil) else { continue }
                placements.append(
                    .init(image: image, x: frame.x * Self.scale, y: Int(((top + Double(frame.y)) * Double(Self.scale)).rounded(.down))))
            }
            index += 1
        }
        let screen = Framebuffer(width: framebuffer.width, height: framebuffer.height, background: Self.background)
        screen.redraw(placements)
        return screen.contents
    }

    /// The render lane's framebuffer: redrawn from the background colour every frame.
    public final class Framebuffer: Sendable {
        /// A prepared image and where its top-left corner goes, in pixels.
        public struct Placement: Sendable {
            /// The image.
            public var image: RoundedImage
            /// The column of its left edge.
            public var x: Int
            /// The row of its top edge; negative when scrolled partly off the top.
            public var y: Int
        }

        /// The width in pixels.
        public let width: Int
        /// The height in pixels.
        public let height: Int
        private let blank: Bitmap
        private let bitmap: Mutex<Bitmap>

        init(width: Int, height: Int, background: Pixel) {
            self.width = width
            self.height = height
            blank = Bitmap(width: width, height: height, filledWith: background)
            bitmap = Mutex(blank)
        }

        /// Clears to the background and composites `placements` in order.
        /// - Returns: The pixel work the strategy did.
        @discardableResult
        func redraw(_ placements: [Placement]) -> CompositingWork {
            bitmap.withLock { bitmap in
                bitmap = blank
                var total = CompositingWork()
                for placement in placements {
                    let work = placement.image.draw(into: &bitmap, atX: placement.x, y: placement.y)
                    total.copiedPixels += work.copiedPixels
                    total.blendedPixels += work.blendedPixels
                    total.offscreenPixels += work.offscreenPixels
                }
                return total
            }
        }

        /// The pixels drawn last.
        public var contents: Bitmap { bitmap.withLock { $0 } }
    }
}

extension SeededGenerator {
    /// A seed for image `index` of a kind, derived without advancing this generator, so adding
    /// images of one kind does not change the others.
    fileprivate func seedForImage(_ index: Int, of slot: CornerRoundingScenario.Slot) -> UInt64 {
        var copy = self
        let salt: UInt64 = slot == .avatar ? 0xA5A5 : 0x5A5A
        for _ in 0...(index % 3) { _ = copy.next() }
        return copy.next() ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15) ^ salt
    }
}
