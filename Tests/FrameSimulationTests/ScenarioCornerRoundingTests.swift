import FrameScope
import FrameSupport
import FrameTrace
import Testing

@testable import FrameSimulation

@Suite("corner-rounding scenario")
struct CornerRoundingScenarioTests {
    func run(_ strategy: CornerRoundingScenario.Strategy, frames: Int = 30) -> (
        CornerRoundingScenario, Trace, ThreadKey
    ) {
        let (scenario, trace, main, _) = runWithSummary(strategy, frames: frames)
        return (scenario, trace, main)
    }

    func runWithSummary(_ strategy: CornerRoundingScenario.Strategy, frames: Int = 30)
        -> (CornerRoundingScenario, Trace, ThreadKey, DisplayLoop.Summary)
    {
        let (recorder, meter) = virtualTime()  // work priced by the reference device: the same outcome on any host
        let scenario = CornerRoundingScenario(strategy: strategy, seed: 3, photoCount: 5)
        let summary = DisplayLoop(
            recorder: recorder,
            configuration: DisplayConfiguration(frameCount: frames, workerCount: 2, waitsForBackgroundWork: true),
            meter: meter
        ).run(scenario)
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
        let reference = CornerRoundingScenario(strategy: .offscreenClip, seed: 4, photoCount: 3).renderedScreen(
            atOffset: 130)
        #expect(
            reference
                != Bitmap(
                    width: reference.width, height: reference.height, filledWith: CornerRoundingScenario.background))
        for strategy in CornerRoundingScenario.Strategy.allCases.dropFirst() {
            let screen = CornerRoundingScenario(strategy: strategy, seed: 4, photoCount: 3).renderedScreen(
                atOffset: 130)
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
        let values = offscreen.compactMap { event in trace.arguments(of: event).first?.value.doubleValue }
        #expect(values.contains { $0 > 0 }, "images on screen are rendered offscreen")
    }

    @Test("The grid is sized like a phone's: 18 to 21 thumbnails of 234 x 234 px on screen at every offset")
    func gridIsScreenSized() {
        for offset in stride(from: 0.0, through: 1_000, by: 7.5) {
            let tiles = CornerRoundingScenario.tilesOnScreen(atOffset: offset)
            #expect((18...21).contains(tiles.count), "\(tiles.count) thumbnails at offset \(offset)")
            #expect(Set(tiles.map(\.tile)).count == tiles.count)
        }
        #expect(CornerRoundingScenario.thumbnailSide * CornerRoundingScenario.scale == 234)
    }

    /// What the render lane reported in each frame, from its counters in recording order (one of
    /// each per frame): images composited, offscreen passes, offscreen, blended and copied pixels.
    private func renderCounters(_ trace: Trace) -> [String: [Double]] {
        var values: [String: [Double]] = [:]
        for event in trace.events where event.phase == .counter && trace.category(of: event) == "render" {
            values[trace.name(of: event), default: []].append(trace.arguments(of: event).first?.value.doubleValue ?? -1)
        }
        return values
    }

    @Test(
        "On a manual clock, offscreen-clip does one offscreen pass per visible thumbnail on the render server every frame; pre-rendered strategies none",
        arguments: CornerRoundingScenario.Strategy.allCases)
    func offscreenPassPerVisibleImage(strategy: CornerRoundingScenario.Strategy) throws {
        let frames = 10
        let recorder = Recorder(clock: .manual(ManualClock(start: 1_000_000)))
        let configuration = DisplayConfiguration(
            frameRate: .standard, frameCount: frames, workerCount: 2, waitsForBackgroundWork: true)
        let scenario = CornerRoundingScenario(strategy: strategy, seed: 3, photoCount: 5)
        let summary = DisplayLoop(recorder: recorder, configuration: configuration).run(scenario)
        let trace = recorder.snapshot()
        let main = recorder.mainThreadKey
        #expect(summary.lateFramesByCause.isEmpty, "on a manual clock work takes no time")
        let counters = renderCounters(trace)
        let composited = try #require(counters["composited images"])
        let passes = try #require(counters["offscreen passes"])
        let offscreenPixels = try #require(counters["offscreen pixels"])
        let blended = try #require(counters["blended pixels"])
        let copied = try #require(counters["copied pixels"])
        try #require([composited, passes, offscreenPixels, blended, copied].allSatisfy { $0.count == frames })
        // Frame 0 asks the workers for the thumbnails; from frame 1 on, every visible one is shown.
        var offset = 0.0
        for frame in 0..<frames {
            offset += CornerRoundingScenario.scrollSpeed * Double(configuration.frameRate.intervalNanoseconds) / 1e9
            let visible = CornerRoundingScenario.tilesOnScreen(atOffset: offset).count
            if frame >= 1 { #expect(composited[frame] == Double(visible), "frame \(frame)") }
        }
        let thumbnailPixels = Double(234 * 234)
        let offscreenSpans = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "offscreen pass" }
        #expect(offscreenSpans.allSatisfy { trace.category(of: $0) == "render" && $0.thread != main })
        switch strategy {
        case .offscreenClip:
            #expect(passes == composited, "one offscreen pass per composited thumbnail, every frame")
            #expect(offscreenPixels == composited.map { $0 * thumbnailPixels }, "each pass renders the whole thumbnail")
            #expect(offscreenSpans.count == Int(composited.reduce(0, +)))
            #expect(composited.dropFirst().allSatisfy { $0 >= 18 })
        case .prerenderedOpaque, .prerenderedTransparent, .cornerMaskOverlay:
            #expect(passes.allSatisfy { $0 == 0 } && offscreenPixels.allSatisfy { $0 == 0 } && offscreenSpans.isEmpty)
            #expect(copied.dropFirst().allSatisfy { $0 > 0 } || blended.dropFirst().allSatisfy { $0 > 0 })
        }
        if strategy == .prerenderedOpaque {
            #expect(blended.allSatisfy { $0 == 0 }, "opaque thumbnails are copied, never blended")
        }
        // Each distinct photo is prepared once, on a worker, never per frame.
        #expect(scenario.preparedImages <= 5)
    }

    @Test(
        "Pre-rendering strategies prepare each distinct image once, off the main thread",
        arguments: [
            CornerRoundingScenario.Strategy.prerenderedOpaque, .prerenderedTransparent,
        ])
    func prerenderingPreparesOnce(strategy: CornerRoundingScenario.Strategy) throws {
        let (scenario, trace, main, summary) = runWithSummary(strategy)
        let prepares = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode and prepare image" }
        let statistics = scenario.cache.statistics
        #expect(statistics.misses > 0 && statistics.hits > 0, "photos repeat in the grid")
        #expect(prepares.count == statistics.misses, "every miss prepares exactly once")
        // The loop waits for its workers at the end, so every preparation finished; the ones
        // that finished after the last frame's apply never reached the cache.
        #expect(scenario.preparedImages + summary.unappliedResults == statistics.misses)
        #expect(statistics.count == scenario.preparedImages, "no key is prepared twice")
        #expect(statistics.count <= 5, "at most one entry per distinct image")
        #expect(prepares.allSatisfy { $0.thread != main && trace.category(of: $0) == "corner-rounding" })
        let decodes = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode PNG" }
        #expect(
            decodes.count == prepares.count
                && decodes.allSatisfy { trace.category(of: $0) == "image-decode" && $0.thread != main })
        let draws = trace.events.filter {
            $0.phase == .complete && trace.category(of: $0) == "render" && trace.name(of: $0).contains("pre-rendered")
        }
        #expect(draws.count == 30 && draws.allSatisfy { $0.thread != main })
        let rate = trace.metadata.extra.first { $0.key == "cache-hit-rate" }?.value.doubleValue
        #expect(rate == statistics.hitRate)
    }
}
