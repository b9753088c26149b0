import FrameScope
import FrameSupport
import FrameTrace

/// Technique 4: a Facebook Paper–style zoom between a row of small cards and full-screen cards,
/// driven by a scripted stream of pan gestures, finished two ways.
///
/// Every frame the main thread handles the touch samples that arrived since the last frame,
/// advances the finishing animation, and interpolates every card's frame between the two
/// ``CardLayouts`` at the transition's progress (`interpolate card frames`, category `layout`).
/// The gestures come from a seeded ``PanGesture/script(using:cardCount:until:after:)`` sampled
/// at the display rate, each sample a few milliseconds before its vsync; both strategies get the
/// same touches at the same times.
///
/// Every touch sample is recorded as a `pan` instant in category `input`, in the frame that
/// handles or drops it, with `since-input-ns` (from the touch to the instant) and `phase`
/// (`began`, `moved`, `ended`); a dropped one also carries `ignored: true`. Frame analysis turns
/// these into input latency (see `FrameAnalyzer.inputFigures(of:frames:)`).
///
/// When a gesture starts a transition, the cards it can show (``CardLayouts/cardsShown(aroundFocus:)``)
/// need their photos: PNG files drawn and encoded when the scenario is made, decoded for real and
/// downsampled to the full-screen card size.
///
/// - `naive`: on release the transition finishes with a fixed 0.6 s ease-out animation and the
///   gesture is disabled until it ends; a gesture whose touch-down falls in that window is
///   dropped whole (a disabled recognizer does not pick up a touch already in progress). At the
///   start of a transition the main thread decodes the photos of the cards it can show that are
///   not on screen already (`decode card images`, with nested `decode PNG` and `downsample`
///   spans, all `image-decode`); photos of cards that leave that set are released.
/// - `responsive`: on release an interruptible ``DampedSpring`` (response 0.35 s, damping ratio
///   0.85) finishes the transition, integrated every frame; a new touch stops it where it is and
///   the finger takes over, so no touch is dropped. Photos are decoded on workers with
///   ``FrameContext/inBackground(_:category:work:then:)`` and shown when they arrive; a
///   decoded-photo cache keyed by photo means a photo is decoded at most once per run.
///
/// A card on screen whose photo is not decoded yet shows a placeholder, counted in
/// ``placeholders`` and the `placeholder cards` counter.
package final class PaperTransitionScenario: Scenario {
    /// How the transition finishes and where photos are decoded.
    package enum Strategy: String, CaseIterable, Sendable {
        /// Fixed animation with the gesture disabled; photos decoded on the main thread.
        case naive
        /// Interruptible spring; photos decoded on workers, cached.
        case responsive
    }

    static let descriptor = ScenarioDescriptor(
        name: "paper-transition",
        summary: "a Paper-style zoom of 24 cards driven by scripted pans (real PNG decode of the cards' photos)",
        strategies: [
            .init(
                name: Strategy.naive.rawValue,
                summary: "fixed 0.6 s animation, gesture disabled until it ends; decode on main"),
            .init(name: Strategy.responsive.rawValue, summary: "interruptible spring; decode on workers into a cache"),
        ],
        make: { name, seed in Strategy(rawValue: name).map { PaperTransitionScenario(strategy: $0, seed: seed) } })

    /// The screen in points.
    package static let viewport = LayoutSize(width: 375, height: 667)
    /// The naive strategy's fixed finishing animation, in seconds.
    package static let fixedAnimationSeconds = 0.6
    /// The responsive strategy's spring.
    package static let spring = DampedSpring(response: 0.35, dampingRatio: 0.85)

    /// The strategy in use.
    package let strategy: Strategy
    /// The two layouts.
    package let layouts: CardLayouts
    /// The transition's state.
    package private(set) var transition: ZoomTransition
    /// The card the transition zooms on.
    package private(set) var focus: Int
    /// Touch samples handled.
    package private(set) var handledTouches = 0
    /// Touch samples dropped because the gesture was disabled.
    package private(set) var ignoredTouches = 0
    /// Photos decoded so far (on either thread), counting only decodes that finished and were applied.
    package private(set) var decodedPhotos = 0
    /// Cards on screen with no photo to show yet, summed over frames.
    package private(set) var placeholders = 0
    /// The card frames of the last frame.
    package private(set) var cardFrames: [LayoutRect]
    private let photoFiles: [[UInt8]]
    private let cardPhotos: [Int]
    private let photoSize: (width: Int, height: Int)
    private var gestures: [PanGesture]
    private var scriptGenerator: SeededGenerator
    private var leadGenerator: SeededGenerator
    private let isScripted: Bool
    private var pending: [TouchSample] = []
    private var nextGesture = 0
    private var firstVsync: Int64?
    private var isCurrentGestureDropped = false
    /// naive: decoded photos of the cards that can be shown, by card.
    private var onScreen: [Int: Bitmap] = [:]
    /// responsive: decoded photos by photo, and photos being decoded.
    private var cache: [Int: Bitmap] = [:]
    private var inFlight: Set<Int> = []

    /// Creates the scenario resting in the row layout, drawing and encoding its photos.
    /// - Parameters:
    ///   - strategy: How the transition finishes and where photos are decoded.
    ///   - seed: Fixes the photos, which card shows which, and the gesture script.
    ///   - cardCount: Cards in the collection.
    ///   - photoCount: Distinct photos; cards share them.
    ///   - photoFileSize: The size of each PNG file, in pixels.
    ///   - photoSize: The size photos are decoded and downsampled to, in pixels (the full-screen card).
    ///   - gestures: A fixed gesture script instead of the seeded one.
    package init(
        strategy: Strategy, seed: UInt64, cardCount: Int = 24, photoCount: Int = 8,
        photoFileSize: (width: Int, height: Int) = (750, 1334), photoSize: (width: Int, height: Int) = (375, 667),
        gestures: [PanGesture]? = nil
    ) {
        precondition(cardCount >= 1 && photoCount >= 1, "the collection needs at least one card and one photo")
        precondition(photoSize.width >= 1 && photoSize.height >= 1, "photos must have a size")
        self.strategy = strategy
        layouts = CardLayouts(cardCount: cardCount, viewport: Self.viewport)
        transition = ZoomTransition(
            finish: strategy == .naive ? .fixedAnimation(seconds: Self.fixedAnimationSeconds) : .spring(Self.spring),
            travel: layouts.rowTop)
        focus = 0
        var generator = SeededGenerator(seed: seed)
        let photoSeeds = (0..<photoCount).map { _ in generator.next() }
        photoFiles = EncodedFiles.cached(
            "paper-transition seed=\(seed) photos=\(photoCount) size=\(photoFileSize.width)x\(photoFileSize.height)"
        ) {
            photoSeeds.map { photoSeed in
                var photoGenerator = SeededGenerator(seed: photoSeed)
                return PNGEncoder.encodeOpaque(
                    SyntheticImage.photo(
                        width: photoFileSize.width, height: photoFileSize.height, using: &photoGenerator))
            }
        }
        cardPhotos = (0..<cardCount).map { _ in Int.random(in: 0..<photoCount, using: &generator) }
        self.photoSize = photoSize
        scriptGenerator = SeededGenerator(seed: generator.next())
        leadGenerator = SeededGenerator(seed: generator.next())
        isScripted = gestures != nil
        self.gestures = gestures ?? []
        cardFrames = layouts.frames(focus: 0, progress: 0)
    }

    /// The photo a card shows.
    package func photo(ofCard card: Int) -> Int { cardPhotos[card] }

    package func frame(_ context: FrameContext) {
        let recorder = context.recorder
        let origin = firstVsync ?? context.vsync
        firstVsync = origin
        let tick = Int((context.vsync - origin) / context.interval)
        transition.advance(to: context.vsync)
        queueTouches(upTo: tick, interval: context.interval, now: Double(context.vsync - origin) / 1e9)
        while let sample = pending.first, sample.tick <= tick {
            pending.removeFirst()
            handle(
                sample, inputTime: origin + Int64(sample.tick) * context.interval - sample.leadNanoseconds,
                context: context)
        }
        let (focus, progress) = (self.focus, transition.progress)
        let layouts = layouts
        cardFrames = recorder.withSpan("interpolate card frames", category: .layout) {
            WorkMeter.measure(.interpolateCards) {
                (layouts.frames(focus: focus, progress: progress), units: layouts.cardCount)
            }
        }
        let visible = layouts.visibleCards(in: cardFrames)
        let missing = visible.filter { card in
            switch strategy {
            case .naive: onScreen[card] == nil
            case .responsive: cache[cardPhotos[card]] == nil
            }
        }.count
        placeholders += missing
        recorder.recordCounter("transition progress", value: progress, category: .layout)
        recorder.recordCounter("placeholder cards", value: Double(missing), category: .imageDecode)
    }

    /// Moves the samples of every gesture starting before the next second into the queue.
    private func queueTouches(upTo tick: Int, interval: Int64, now: Double) {
        if !isScripted {
            gestures += PanGesture.script(
                using: &scriptGenerator, cardCount: layouts.cardCount, until: now + 1, after: gestures.last)
        }
        while nextGesture < gestures.count, gestures[nextGesture].start <= now + 1 {
            pending += gestures[nextGesture].samples(interval: interval, using: &leadGenerator)
            nextGesture += 1
        }
        pending.sort { $0.tick < $1.tick }
    }

    private func handle(_ sample: TouchSample, inputTime: Int64, context: FrameContext) {
        if sample.phase == .began {
            isCurrentGestureDropped = !transition.begin(at: context.vsync)
            if !isCurrentGestureDropped, transition.progress < 0.5 {
                focus = min(layouts.cardCount - 1, max(0, sample.gesture.focusCard))
            }
        }
        let recorder = context.recorder
        if isCurrentGestureDropped {
            ignoredTouches += 1
            let since = recorder.clock.now() - inputTime
            recorder.recordInstant(
                "pan", category: .input,
                arguments: [
                    "phase": .string(sample.phase.rawValue), FrameContract.Key.sinceInput: .int(since),
                    FrameContract.Key.ignored: .bool(true),
                ])
            return
        }
        handledTouches += 1
        let since = recorder.clock.now() - inputTime
        recorder.recordInstant(
            "pan", category: .input,
            arguments: ["phase": .string(sample.phase.rawValue), FrameContract.Key.sinceInput: .int(since)])
        switch sample.phase {
        case .began: startTransition(context)
        case .moved: transition.move(translation: sample.translation)
        case .ended:
            transition.end(translation: sample.translation, velocity: sample.gesture.velocity, at: context.vsync)
        }
    }

    /// Gets the photos of the cards the transition can show.
    private func startTransition(_ context: FrameContext) {
        let cards = layouts.cardsShown(aroundFocus: focus)
        let recorder = context.recorder
        let size = photoSize
        switch strategy {
        case .naive:
            let needed = cards.filter { onScreen[$0] == nil }
            onScreen = onScreen.filter { cards.contains($0.key) }
            guard !needed.isEmpty else { return }
            recorder.withSpan("decode card images", category: .imageDecode) {
                for card in needed {
                    guard let photo = Self.decode(photoFiles[cardPhotos[card]], size: size, recorder: recorder) else {
                        continue
                    }
                    onScreen[card] = photo
                    decodedPhotos += 1
                }
            }
        case .responsive:
            for photo in Set(cards.map { cardPhotos[$0] }).sorted()
            where cache[photo] == nil && !inFlight.contains(photo) {
                inFlight.insert(photo)
                let file = photoFiles[photo]
                context.inBackground("decode card image", category: .imageDecode) {
                    Self.decode(file, size: size, recorder: recorder)
                } then: { [self] bitmap in
                    inFlight.remove(photo)
                    guard let bitmap else { return }
                    cache[photo] = bitmap
                    decodedPhotos += 1
                }
            }
        }
    }

    /// Decodes a photo and downsamples it to the card size; `nil` if the file does not decode
    /// (never for the files this scenario makes).
    static func decode(_ file: [UInt8], size: (width: Int, height: Int), recorder: Recorder?) -> Bitmap? {
        ScenarioImage.decode(file, toWidth: size.width, height: size.height, recorder: recorder)
    }
}
