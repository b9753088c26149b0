import Testing
import FrameScope
import FrameTrace
@testable import FrameWorkloads

@Suite("feed-scroll scenario")
struct FeedScrollScenarioTests {
    func run(_ strategy: FeedScrollScenario.Strategy, frames: Int = 40) -> (FeedScrollScenario, Trace, ThreadKey) {
        let recorder = Recorder()
        let scenario = FeedScrollScenario(strategy: strategy, seed: 21)
        _ = DisplayLoop(recorder: recorder, configuration: DisplayConfiguration(frameCount: frames, workerCount: 2)).run(scenario)
        return (scenario, recorder.snapshot(), recorder.mainThreadKey)
    }

    @Test("Every strategy lays out the cells it showed exactly as manual layout does", arguments: FeedScrollScenario.Strategy.allCases)
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
            let layoutSpans = trace.events.filter { $0.phase == .complete && trace.name(of: $0).hasPrefix("layout cell") }
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
