import Testing
import FrameScope
import FrameTrace
@testable import FrameWorkloads

@Suite("corner-rounding scenario")
struct CornerRoundingScenarioTests {
    func run(_ strategy: CornerRoundingScenario.Strategy, frames: Int = 30) -> (CornerRoundingScenario, Trace, ThreadKey) {
        let (scenario, trace, main, _) = runWithSummary(strategy, frames: frames)
        return (scenario, trace, main)
    }

    func runWithSummary(_ strategy: CornerRoundingScenario.Strategy, frames: Int = 30)
        -> (CornerRoundingScenario, Trace, ThreadKey, DisplayLoop.Summary)
    {
        let recorder = Recorder()
        let scenario = CornerRoundingScenario(strategy: strategy, seed: 3, avatarCount: 3, photoCount: 4)
        let summary = DisplayLoop(recorder: recorder, configuration: DisplayConfiguration(frameCount: frames, workerCount: 2)).run(scenario)
        return (scenario, recorder.snapshot(), recorder.mainThreadKey, summary)
    }

    @Test("The synthetic PNG files decode back to the bitmaps they were encoded from")
    func encodedFilesRoundTrip() throws {
        var generator = SeededGenerator(seed: 9)
        let avatar = SyntheticImage.avatar(side: 96, using: &generator)
        let photo = SyntheticImage.photo(width: 131, height: 77, using: &generator)
        for image in [avatar, photo] {
            let file = PNGEncoder.encodeOpaque(image)
            #expect(file.count < image.pixels.count, "the fixed-Huffman stream compresses")
            #expect(try PNGDecoder.decode(file) == image)
        }
    }

    @Test("All four strategies put the same pixels on screen, within 1 per channel")
    func strategiesAgree() throws {
        let reference = CornerRoundingScenario(strategy: .offscreenClip, seed: 4, avatarCount: 2, photoCount: 2).renderedScreen(atOffset: 130)
        #expect(reference != Bitmap(width: reference.width, height: reference.height, filledWith: CornerRoundingScenario.background))
        for strategy in CornerRoundingScenario.Strategy.allCases.dropFirst() {
            let screen = CornerRoundingScenario(strategy: strategy, seed: 4, avatarCount: 2, photoCount: 2).renderedScreen(atOffset: 130)
            try #require(screen.width == reference.width && screen.height == reference.height)
            let worst = zip(screen.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(strategy.rawValue) differs from offscreen-clip by \(worst)")
        }
    }

    @Test("offscreen-clip clips and blends on the render lane every frame")
    func offscreenClipRendersEveryFrame() throws {
        let frames = 24
        let (_, trace, main) = run(.offscreenClip, frames: frames)
        let clips = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "offscreen clip and blend" }
        #expect(clips.count == frames)
        #expect(clips.allSatisfy { trace.category(of: $0) == "render" && $0.thread != main })
        #expect(Set(clips.map(\.thread)).count == 1, "one render-server lane")
        let offscreen = trace.events.filter { $0.phase == .counter && trace.name(of: $0) == "offscreen pixels" }
        let values = offscreen.compactMap { event in trace.arguments(of: event).first?.value.number }
        #expect(values.contains { $0 > 0 }, "images on screen are rendered offscreen")
    }

    @Test("Pre-rendering strategies prepare each distinct image once, off the main thread", arguments: [
        CornerRoundingScenario.Strategy.prerenderedOpaque, .prerenderedTransparent,
    ])
    func prerenderingPreparesOnce(strategy: CornerRoundingScenario.Strategy) throws {
        let (scenario, trace, main, summary) = runWithSummary(strategy)
        let prepares = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode and prepare image" }
        let statistics = scenario.cache.statistics
        #expect(statistics.misses > 0 && statistics.hits > 0, "avatars and photos repeat in the feed")
        #expect(prepares.count == statistics.misses, "every miss prepares exactly once")
        // The loop waits for its workers at the end, so every preparation finished; the ones
        // that finished after the last frame's apply never reached the cache.
        #expect(scenario.preparedImages + summary.unappliedResults == statistics.misses)
        #expect(statistics.count == scenario.preparedImages, "no key is prepared twice")
        #expect(statistics.count <= 3 + 4, "at most one entry per distinct image")
        #expect(prepares.allSatisfy { $0.thread != main && trace.category(of: $0) == "corner-rounding" })
        let decodes = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode PNG" }
        #expect(decodes.count == prepares.count && decodes.allSatisfy { trace.category(of: $0) == "image-decode" && $0.thread != main })
        let draws = trace.events.filter { $0.phase == .complete && trace.category(of: $0) == "render" && trace.name(of: $0).contains("pre-rendered") }
        #expect(draws.count == 30 && draws.allSatisfy { $0.thread != main })
        let rate = trace.metadata.extra.first { $0.key == "cache-hit-rate" }?.value.number
        #expect(rate == statistics.hitRate)
    }
}
