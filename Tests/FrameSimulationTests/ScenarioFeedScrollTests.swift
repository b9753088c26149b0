import FrameScope
import FrameSupport
import FrameTrace
import Testing

@testable import FrameSimulation

@Suite("feed-scroll scenario")
struct FeedScrollScenarioTests {
    /// Small photos: debug builds decode slowly, and what is tested is where decoding runs. Each
    /// frame waits for the background work asked for before it, so results arrive in the next
    /// frame however fast the machine decodes.
    func run(_ strategy: FeedScrollScenario.Strategy, decode: FeedScrollScenario.Decode = .background, frames: Int = 40)
        -> (FeedScrollScenario, Trace, ThreadKey)
    {
        let (recorder, meter) = virtualTime()  // work priced by the reference device: the same outcome on any host
        let scenario = FeedScrollScenario(
            strategy: strategy, decode: decode, seed: 21, avatarCount: 3, photoCount: 5, photoSize: (96, 72))
        _ = DisplayLoop(
            recorder: recorder,
            configuration: DisplayConfiguration(frameCount: frames, workerCount: 2, waitsForBackgroundWork: true),
            meter: meter
        ).run(scenario)
        return (scenario, recorder.snapshot(), recorder.mainThreadKey)
    }

    @Test("Strategy names: a layout strategy, optionally +decode-main; anything else is rejected")
    func strategyNames() {
        #expect(FeedScrollScenario.parseStrategy("manual-main")! == (.manualMain, .background))
        #expect(FeedScrollScenario.parseStrategy("specs-background+decode-main")! == (.specsBackground, .main))
        for bad in [
            "", "+decode-main", "manual-main+decode-background", "manual", "manual-main+decode-main+decode-main",
        ] {
            #expect(FeedScrollScenario.parseStrategy(bad) == nil, "\(bad)")
        }
        let names = ScenarioCatalog.scenario(named: "feed-scroll")!.strategies.map(\.name)
        #expect(names.count == 6 && names.allSatisfy { FeedScrollScenario.parseStrategy($0) != nil })
    }

    @Test("Decoding on main: every decode runs on the main thread, inside the frame that shows the cell")
    func decodeOnMain() throws {
        let (scenario, trace, main) = run(.manualMain, decode: .main)
        let decodes = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode PNG" }
        #expect(
            !decodes.isEmpty && decodes.allSatisfy { $0.thread == main && trace.category(of: $0) == "image-decode" })
        #expect(decodes.count == scenario.decodedImages)
        let offMain = trace.events.filter { $0.thread != main && trace.category(of: $0) == "image-decode" }
        #expect(offMain.isEmpty, "no image-decode work on any other thread")
        let statistics = scenario.imageCache.statistics
        #expect(statistics.misses == scenario.decodedImages, "each miss decodes once")
        #expect(statistics.hits > 0, "avatars repeat across cells")
        #expect(scenario.imagePlaceholders == 0, "a visible cell never waits for its images")
        try expectImagesMatchDisplaySize(scenario)
    }

    @Test("Decoding in the background: no decode on main, and every decoded image reaches its cells")
    func decodeInBackground() throws {
        for strategy in FeedScrollScenario.Strategy.allCases {
            let (scenario, trace, main) = run(strategy, decode: .background)
            let decodes = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode PNG" }
            #expect(!decodes.isEmpty && decodes.allSatisfy { $0.thread != main }, "\(strategy)")
            let mainDecodeWork = trace.events.filter {
                $0.phase == .complete && $0.thread == main && trace.category(of: $0) == "image-decode"
            }
            #expect(mainDecodeWork.allSatisfy { trace.name(of: $0) == "apply" }, "only the loop's apply step on main")
            // Workers finish every job before the run ends; those finished after the last frame never reached a cell.
            #expect(decodes.count >= scenario.decodedImages && scenario.decodedImages > 0)
            #expect(scenario.imageCache.statistics.count == scenario.decodedImages, "no image decoded twice")
            try expectImagesMatchDisplaySize(scenario)
            if strategy != .specsBackground {
                #expect(
                    scenario.shownImages.keys.contains { scenario.layouts[$0] == nil },
                    "decoded ahead of layout: \(strategy)")
            }
        }
    }

    @Test(
        "Decoding in the background: every image whose decode has been applied is held by every cell that asked for it")
    func backgroundDecodesReachTheirCells() throws {
        for strategy in FeedScrollScenario.Strategy.allCases {
            let (scenario, _, _) = run(strategy, decode: .background, frames: 30)
            var held = 0
            for (cell, keys) in scenario.requestedImageKeys {
                for (element, key) in keys {
                    guard let decoded = scenario.imageCache.peek(key) else { continue }
                    #expect(scenario.shownImages[cell]?[element] == decoded, "\(strategy) cell \(cell) \(element)")
                    held += 1
                }
            }
            #expect(held > scenario.decodedImages, "images repeat across cells: \(strategy)")
        }
    }

    @Test("The same seed gives the same content and the same images")
    func deterministic() throws {
        let (first, _, _) = run(.manualMain, decode: .main, frames: 20)
        let (second, _, _) = run(.manualMain, decode: .main, frames: 20)
        #expect(first.layouts == second.layouts)
        #expect(first.shownImages == second.shownImages)
    }

    /// The image sizes of a cell as its layout gives them, or as manual layout would.
    func expectedImageSizes(_ scenario: FeedScrollScenario, cell: Int) throws -> [FeedCellElement: LayoutSize] {
        let width = FeedScrollScenario.viewport.width
        let layout = scenario.layouts[cell] ?? ManualLayoutEngine().layout(scenario.content(at: cell), width: width)
        let metrics = FeedCellMetrics.standard.imageSizes(of: scenario.content(at: cell), cellWidth: width)
        var sizes: [FeedCellElement: LayoutSize] = [:]
        for element in metrics.keys { sizes[element] = try #require(layout[element]).size }
        return sizes
    }

    /// Every shown bitmap has its element's size in pixels (2x), fitted inside the source, whether
    /// or not the cell has been laid out yet.
    func expectImagesMatchDisplaySize(_ scenario: FeedScrollScenario) throws {
        #expect(!scenario.shownImages.isEmpty)
        for (cell, images) in scenario.shownImages {
            let sizes = try expectedImageSizes(scenario, cell: cell)
            for (element, bitmap) in images {
                let size = try #require(sizes[element])
                let source = element == .avatar ? (96, 96) : (96, 72)
                let expected = ScenarioImage.fittedSize(
                    displayWidth: max(1, Int((size.width * 2).rounded())),
                    displayHeight: max(1, Int((size.height * 2).rounded())),
                    sourceWidth: source.0, sourceHeight: source.1)
                #expect(bitmap.width == expected.width && bitmap.height == expected.height, "cell \(cell) \(element)")
            }
        }
    }

    @Test("Image sizes from the content alone match every layout engine's image frames")
    func imageSizesMatchLayout() throws {
        var generator = SeededGenerator(seed: 5)
        let width = FeedScrollScenario.viewport.width
        for _ in 0..<40 {
            let content = FeedCellContent.random(using: &generator)
            let sizes = FeedCellMetrics.standard.imageSizes(of: content, cellWidth: width)
            #expect(sizes.count == 1 + content.imageAspectRatios.count)
            let layouts =
                [ManualLayoutEngine().layout(content, width: width), SpecLayoutEngine().layout(content, width: width)]
                + [try ConstraintLayoutEngine().layout(content, width: width)]
            for layout in layouts {
                for (element, size) in sizes {
                    let frame = try #require(layout[element])
                    #expect(
                        abs(frame.size.width - size.width) < 1e-6 && abs(frame.size.height - size.height) < 1e-6,
                        "\(element)")
                }
            }
        }
    }

    @Test("Fitting a display size into a smaller source keeps the aspect and never enlarges")
    func fittedSize() {
        #expect(
            ScenarioImage.fittedSize(displayWidth: 686, displayHeight: 343, sourceWidth: 960, sourceHeight: 720) == (
                686, 343
            ))
        #expect(
            ScenarioImage.fittedSize(displayWidth: 586, displayHeight: 1172, sourceWidth: 960, sourceHeight: 720) == (
                360, 720
            ))
        #expect(
            ScenarioImage.fittedSize(displayWidth: 200, displayHeight: 100, sourceWidth: 96, sourceHeight: 72) == (
                96, 48
            ))
    }

    @Test(
        "Every strategy lays out the cells it showed exactly as manual layout does",
        arguments: FeedScrollScenario.Strategy.allCases)
    func layoutsAgreeWithManualLayout(strategy: FeedScrollScenario.Strategy) throws {
        let (scenario, _, _) = run(strategy)
        #expect(scenario.layouts.count >= 3, "scrolling 40 frames at 3,000 pt/s shows several cells")
        let manual = ManualLayoutEngine()
        for (index, layout) in scenario.layouts {
            let expected = manual.layout(scenario.content(at: index), width: FeedScrollScenario.viewport.width)
            #expect(layout.isApproximatelyEqual(to: expected), "cell \(index)")
        }
    }

    @Test("Main-thread strategies lay cells out on main; specs-background lays them out on workers")
    func whereLayoutRuns() throws {
        for strategy in FeedScrollScenario.Strategy.allCases {
            let (scenario, trace, main) = run(strategy)
            let layoutSpans = trace.events.filter {
                $0.phase == .complete && trace.name(of: $0).hasPrefix("layout cell")
            }
            let batches = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "layout specs batch" }
            switch strategy {
            case .constraintsMain, .manualMain:
                #expect(!layoutSpans.isEmpty && layoutSpans.allSatisfy { $0.thread == main })
                #expect(batches.isEmpty)
            case .specsBackground:
                #expect(!batches.isEmpty && batches.allSatisfy { $0.thread != main })
                #expect(layoutSpans.count == scenario.lateCells, "every main-thread layout is a counted late cell")
            }
        }
    }
}
