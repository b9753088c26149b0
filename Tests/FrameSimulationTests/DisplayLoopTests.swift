import FrameScope
import FrameSupport
import FrameTrace
import Testing

@testable import FrameSimulation

/// Every frame sorts an array on the main thread and hands a checksum to the workers and a blend
/// to the render server. On a manual clock the sort takes a quarter of a frame interval, and every
/// third frame's two and a half intervals, whatever the machine's speed.
private final class UnevenScenario: Scenario {
    /// (the frame that asked for the work, the frame that applied its result)
    var applied: [(submitted: Int, applied: Int)] = []
    private var currentFrame = -1
    private var generator = SeededGenerator(seed: 3)

    func frame(_ context: FrameContext) {
        currentFrame = context.frameIndex
        let values = (0..<2_000).map { _ in generator.next() }
        let sorted = context.recorder.withSpan("sort", category: .layout) {
            context.recorder.clock.manualClock?.advance(
                by: .nanoseconds(context.interval * (context.frameIndex % 3 == 2 ? 10 : 1) / 4))
            return values.sorted()
        }
        let index = context.frameIndex
        context.inBackground("checksum", category: .imageDecode, work: { sorted.reduce(0, &+) }) { [weak self] _ in
            // Results are applied at the start of a frame, before that frame's own work.
            guard let self else { return }
            self.applied.append((index, self.currentFrame + 1))
        }
        context.onRenderServer("blend") { _ = sorted.prefix(64).reduce(0, ^) }
    }
}

@Suite("Display loop")
struct DisplayLoopTests {
    @Test("After an overrun the next frame starts at the first vsync after the work ends", arguments: [60, 120])
    func missedVsyncsFollowTheDevice(refreshRate: Int) throws {
        let recorder = Recorder(clock: .manual(ManualClock(start: 1_000_000)))
        let configuration = DisplayConfiguration(
            frameRate: FrameRate(hertz: Double(refreshRate)), frameCount: 9, workerCount: 2)
        let scenario = UnevenScenario()
        let summary = DisplayLoop(recorder: recorder, configuration: configuration).run(scenario)
        let trace = recorder.snapshot()
        let interval = configuration.frameRate.intervalNanoseconds

        let frames = trace.events.filter {
            $0.phase == .complete && trace.name(of: $0) == "frame" && $0.thread == recorder.mainThreadKey
        }
        .sorted { $0.timestamp < $1.timestamp }
        try #require(frames.count == 9)
        var vsyncs: [Int64] = []
        for frame in frames {
            let arguments = trace.arguments(of: frame)
            let since = try #require(arguments["since-vsync-ns"]?.integerValue)
            #expect(since >= 0, "a frame never starts before its vsync")
            #expect(arguments["budget-ns"]?.integerValue == interval)
            vsyncs.append(frame.timestamp - since)
        }
        var missed = 0
        for index in 1..<frames.count {
            let gap = vsyncs[index] - vsyncs[index - 1]
            #expect(gap % interval == 0 && gap > 0, "vsyncs lie on one grid")
            let end = frames[index - 1].endTimestamp
            let expected = max(vsyncs[index - 1] + interval, vsyncs[0] + ((end - vsyncs[0]) / interval + 1) * interval)
            #expect(
                vsyncs[index] == expected, "frame \(index) starts at the first vsync after frame \(index - 1) ended")
            missed += Int(gap / interval) - 1
        }
        // The last frame's overrun misses vsyncs too: ceil(overrun / P).
        let lastOverrun = frames[frames.count - 1].endTimestamp - (vsyncs[vsyncs.count - 1] + interval)
        if lastOverrun > 0 { missed += Int((lastOverrun + interval - 1) / interval) }
        #expect(summary.missedVsyncs == missed)
        // Frames 2, 5 and 8 each end two and a half intervals after their vsync: the frame after
        // starts three vsyncs later, missing two.
        #expect(missed == 6)
        let (light, heavy) = (interval / 4, interval * 10 / 4)
        #expect(frames.map(\.duration) == [light, light, heavy, light, light, heavy, light, light, heavy])
        #expect(summary.frames == 9)
    }

    @Test("Background results come back in a later frame, linked by a flow, and the render lane composites each frame")
    func backgroundAndRenderLanes() throws {
        let recorder = Recorder()
        let scenario = UnevenScenario()
        let configuration = DisplayConfiguration(frameCount: 6, workerCount: 2, waitsForBackgroundWork: true)
        let summary = DisplayLoop(recorder: recorder, configuration: configuration).run(scenario)
        let trace = recorder.snapshot()
        // Each frame's work is applied at the start of the next; the last frame's never is.
        #expect(scenario.applied.map(\.submitted) == [0, 1, 2, 3, 4])
        #expect(scenario.applied.allSatisfy { $0.applied == $0.submitted + 1 }, "\(scenario.applied)")
        #expect(summary.unappliedResults == 1)

        let names = Set(trace.threads.values.compactMap(\.name))
        #expect(names.isSuperset(of: ["main", "worker-1", "worker-2", "render-server-1"]))
        let composites = trace.events.filter { trace.name(of: $0) == "composite" && trace.category(of: $0) == "render" }
        #expect(composites.count == 6)
        let starts = trace.events.filter { $0.phase == .flowStart }
        let ends = trace.events.filter { $0.phase == .flowEnd }
        #expect(starts.count == scenario.applied.count)
        #expect(Set(starts.map(\.id)) == Set(ends.map(\.id)))
        #expect(ends.allSatisfy { $0.thread == recorder.mainThreadKey && $0.bindingPoint == .enclosing })
        let frames = trace.events.filter { trace.name(of: $0) == "frame" && $0.thread == recorder.mainThreadKey }
        let checksums = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "checksum" }
        for start in starts {
            let end = try #require(ends.first { $0.id == start.id })
            let appliedDuring = try #require(
                frames.firstIndex { $0.timestamp <= end.timestamp && end.timestamp <= $0.endTimestamp })
            // The flow starts inside the background span that produced the result, which began
            // after the frame that asked for it had started: an earlier frame than the one applying it.
            let producer = try #require(
                checksums.first {
                    $0.thread == start.thread && $0.timestamp <= start.timestamp && start.timestamp <= $0.endTimestamp
                })
            let askedDuring = try #require(frames.lastIndex { $0.timestamp <= producer.timestamp })
            #expect(start.timestamp < end.timestamp)
            #expect(askedDuring < appliedDuring, "applied in a later frame than the one that asked for it")
        }
        let applies = trace.events.filter { trace.name(of: $0) == "apply" && $0.thread == recorder.mainThreadKey }
        #expect(applies.count == scenario.applied.count)
    }
}
