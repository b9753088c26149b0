import FrameAnalysis
import FrameScope
import FrameSupport
import FrameTrace
import Testing

@testable import FrameSimulation

@Suite("paper-transition scenario")
struct PaperTransitionScenarioTests {
    static let spring = DampedSpring(response: 0.35, dampingRatio: 0.85)
    static let frame: Int64 = 16_666_667

    /// Two pans on card 5 at 60 Hz: up for 0.1 s from 0.05 s (touch-down on tick 3, lift on tick
    /// 10), then down from 0.35 s (tick 21 to 28), well inside the naive 0.6 s animation that the
    /// first one's release starts.
    static let gestures = [
        PanGesture(start: 0.05, duration: 0.1, distance: -300, focusCard: 5),
        PanGesture(start: 0.35, duration: 0.1, distance: 300, focusCard: 5),
    ]

    func run(_ strategy: PaperTransitionScenario.Strategy, frames: Int = 36) -> (
        PaperTransitionScenario, Trace, ThreadKey
    ) {
        let (recorder, meter) = virtualTime()  // work priced by the reference device: the same outcome on any host
        let scenario = PaperTransitionScenario(
            strategy: strategy, seed: 5, photoCount: 4, photoFileSize: (48, 80), photoSize: (24, 40),
            gestures: Self.gestures)
        DisplayLoop(
            recorder: recorder, configuration: DisplayConfiguration(frameCount: frames, workerCount: 2), meter: meter
        ).run(scenario)
        return (scenario, recorder.snapshot(), recorder.mainThreadKey)
    }

    // MARK: - Pure pieces

    @Test("The spring converges on its target at 60 Hz and settles within a second")
    func springConverges() {
        var state = DampedSpring.State(position: 0, velocity: 0)
        var peak = 0.0
        var settledAt: Int?
        for frame in 1...120 {
            state = Self.spring.step(state, toward: 1, seconds: 1.0 / 60)
            peak = max(peak, state.position)
            if settledAt == nil, Self.spring.isSettled(state, at: 1) { settledAt = frame }
        }
        #expect(abs(state.position - 1) < 1e-6)
        #expect(peak > 1 && peak < 1.05, "damping ratio 0.85 overshoots by a few percent")
        #expect((settledAt ?? .max) <= 60)
    }

    @Test("A missed frame's long step lands where the frame-by-frame steps do")
    func springLongStep() {
        let start = DampedSpring.State(position: 0.3, velocity: 2)
        let once = Self.spring.step(start, toward: 1, seconds: 0.25)
        var stepped = start
        for _ in 0..<15 { stepped = Self.spring.step(stepped, toward: 1, seconds: 0.25 / 15) }
        #expect(abs(once.position - stepped.position) < 0.01)
        #expect(Self.spring.step(start, toward: 1, seconds: 0) == start)
    }

    @Test("A new touch interrupts the spring where it is, and the finger takes over from there")
    func springIsInterruptible() throws {
        var zoom = ZoomTransition(finish: .spring(Self.spring), travel: 400)
        let first = zoom.begin(at: 0)
        #expect(first)
        zoom.move(translation: -200)
        #expect(zoom.progress == 0.5)
        zoom.end(translation: -240, velocity: -1_500, at: 0)
        #expect(zoom.velocity == 3.75)
        zoom.advance(to: 3 * Self.frame)
        let midFlight = zoom.progress
        #expect(midFlight > 0.6 && midFlight < 1)
        #expect(zoom.acceptsTouches)
        let second = zoom.begin(at: 3 * Self.frame)
        #expect(second, "a touch during the spring is handled")
        #expect(zoom.progress == midFlight && zoom.isDragging, "no jump: the finger starts where the spring was")
        zoom.advance(to: 10 * Self.frame)
        #expect(zoom.progress == midFlight, "the spring no longer moves it")
        zoom.move(translation: 100)
        #expect(abs(zoom.progress - (midFlight - 0.25)) < 1e-12)
        zoom.end(translation: 120, velocity: 1_200, at: 10 * Self.frame)
        for frame in 11...90 { zoom.advance(to: Int64(frame) * Self.frame) }
        #expect(zoom.progress == 0 && zoom.driver == .idle, "it settles on the end the new gesture headed for")
    }

    @Test("The fixed animation refuses touches until it has run its length")
    func fixedAnimationDisablesTheGesture() {
        var zoom = ZoomTransition(finish: .fixedAnimation(seconds: 0.6), travel: 400)
        let first = zoom.begin(at: 0)
        #expect(first)
        zoom.end(translation: -240, velocity: -1_500, at: 0)
        #expect(!zoom.acceptsTouches)
        zoom.advance(to: 300_000_000)
        #expect(abs(zoom.progress - (0.6 + 0.4 * ZoomTransition.easeOut(0.5))) < 1e-12)
        let duringAnimation = zoom.begin(at: 300_000_000)
        #expect(!duringAnimation, "a touch during the animation is dropped")
        zoom.advance(to: 600_000_000)
        #expect(zoom.progress == 1 && zoom.driver == .idle && zoom.acceptsTouches)
        #expect(ZoomTransition.easeOut(0) == 0 && ZoomTransition.easeOut(1) == 1)
    }

    @Test("Interpolated layouts equal the row at 0 and the zoomed layout at 1")
    func layoutEndpoints() {
        let layouts = CardLayouts(cardCount: 24, viewport: PaperTransitionScenario.viewport)
        for focus in [0, 5, 23] {
            #expect(layouts.frames(focus: focus, progress: 0) == layouts.rowFrames(focus: focus))
            #expect(layouts.frames(focus: focus, progress: 1) == layouts.zoomedFrames(focus: focus))
        }
        let zoomed = layouts.zoomedFrames(focus: 5)
        #expect(zoomed[5] == LayoutRect(x: 0, y: 0, width: 375, height: 667), "the focused card fills the screen")
        #expect(layouts.visibleCards(in: zoomed) == [5])
        #expect(layouts.visibleCards(in: layouts.rowFrames(focus: 5)) == [4, 5, 6])
        let row = layouts.rowFrames(focus: 5)[5]
        #expect(row.maxY == 667 - 2 * layouts.spacing && row.width == 125)
        let half = layouts.frames(focus: 5, progress: 0.5)[5]
        #expect(
            half == LayoutRect(x: row.minX / 2, y: row.minY / 2, width: (125 + 375) / 2, height: (row.height + 667) / 2)
        )
        #expect(layouts.cardsShown(aroundFocus: 0) == [0, 1])
    }

    @Test("The seeded script alternates directions and samples each gesture once per frame")
    func scriptSamples() throws {
        var generator = SeededGenerator(seed: 1)
        let script = PanGesture.script(using: &generator, cardCount: 24, until: 20)
        #expect(script.count > 10)
        #expect(script.first.map { $0.distance < 0 } == true, "the first gesture zooms in")
        #expect(zip(script, script.dropFirst()).allSatisfy { $1.start > $0.start + $0.duration })
        var leads = SeededGenerator(seed: 2)
        let samples = Self.gestures[0].samples(interval: Self.frame, using: &leads)
        #expect(samples.map(\.tick) == Array(3...10))
        #expect(samples.map(\.phase) == [.began] + Array(repeating: .moved, count: 6) + [.ended])
        #expect(samples.last?.translation == -300)
        #expect(samples.allSatisfy { (1_000_000...6_000_000).contains($0.leadNanoseconds) })
    }

    // MARK: - Runs

    @Test("naive drops the touches of a gesture that starts during its fixed animation and decodes on the main thread")
    func naiveRun() throws {
        let (scenario, trace, main) = run(.naive, frames: 60)
        #expect(scenario.ignoredTouches == 8, "the whole second gesture: touch-down, 6 moves, lift")
        #expect(scenario.handledTouches == 8)
        let pans = trace.events.filter { trace.category(of: $0) == "input" && trace.name(of: $0) == "pan" }
        let ignored = pans.filter { trace.arguments(of: $0)["ignored"] == .bool(true) }
        #expect(pans.count == 16 && ignored.count == 8)
        let decodes = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode PNG" }
        #expect(decodes.count == 3, "cards 4, 5 and 6 once, at the start of the first transition")
        #expect(decodes.allSatisfy { $0.thread == main && trace.category(of: $0) == "image-decode" })
        #expect(scenario.transition.progress == 1, "the first gesture zoomed in and the second was dropped")
    }

    @Test("responsive drops no touch, decodes off the main thread once per photo, and follows the second gesture")
    func responsiveRun() throws {
        let (scenario, trace, main) = run(.responsive, frames: 60)
        #expect(scenario.ignoredTouches == 0)
        #expect(scenario.handledTouches == 16)
        let mainDecodeWork = trace.events.filter {
            $0.phase == .complete && $0.thread == main && trace.category(of: $0) == "image-decode"
        }
        #expect(
            mainDecodeWork.allSatisfy { trace.name(of: $0) == "apply" }, "the main thread only applies decoded photos")
        let decodes = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "decode PNG" }
        let photos = Set([4, 5, 6].map(scenario.photo(ofCard:)))
        #expect(decodes.count == photos.count, "one decode per distinct photo, however many cards show it")
        #expect(decodes.allSatisfy { $0.thread != main })
        #expect(scenario.transition.progress < 0.5, "the second gesture took over and headed back to the row")
    }

    @Test("Analysis of a responsive run gives a latency for every handled touch")
    func responsiveLatency() throws {
        let (scenario, trace, _) = run(.responsive)
        let report = FrameAnalyzer.analyze(trace)
        let input = try #require(report.input)
        #expect(input.inputs == scenario.handledTouches)
        #expect(input.ignored == 0 && input.unreflected == 0)
        let latency = try #require(input.latency)
        #expect(latency.count == scenario.handledTouches)
        #expect(latency.p50 >= 1_000_000, "at least the touch's lead before its vsync")
    }
}
