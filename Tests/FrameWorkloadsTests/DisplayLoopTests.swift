import Testing
import FrameScope
import FrameTrace
@testable import FrameWorkloads

/// Every third frame sorts a large array on the main thread (far longer than a frame at any
/// refresh rate, in any build); every frame hands a checksum to the workers and a blend to the
/// render server.
private final class UnevenScenario: Scenario {
    var applied: [Int] = []
    private var generator = SeededGenerator(seed: 3)

    func frame(_ context: FrameContext) {
        let count = context.frameIndex % 3 == 2 ? 400_000 : 2_000
        let values = (0..<count).map { _ in generator.next() }
        let sorted = context.recorder.withSpan("sort", category: .layout) { values.sorted() }
        let index = context.frameIndex
        context.inBackground("checksum", category: .imageDecode, work: { sorted.reduce(0, &+) }) { [weak self] _ in
            self?.applied.append(index)
        }
        context.onRenderServer("blend") { _ = sorted.prefix(64).reduce(0, ^) }
    }
}

@Suite("Display loop")
struct DisplayLoopTests {
    @Test("After an overrun the next frame starts at the first vsync after the work ends", arguments: [60, 120])
    func missedVsyncsFollowTheDevice(refreshRate: Int) throws {
        let recorder = Recorder()
        let configuration = DisplayConfiguration(refreshRate: refreshRate, frameCount: 9, workerCount: 2)
        let scenario = UnevenScenario()
        let summary = DisplayLoop(recorder: recorder, configuration: configuration).run(scenario)
        let trace = recorder.snapshot()
        let interval = configuration.frameIntervalNanoseconds

        let frames = trace.events.filter { $0.phase == .complete && trace.name(of: $0) == "frame" && $0.thread == recorder.mainThreadKey }
            .sorted { $0.timestamp < $1.timestamp }
        try #require(frames.count == 9)
        var vsyncs: [Int64] = []
        for frame in frames {
            let arguments = trace.arguments(of: frame)
            let since = try #require(arguments["since-vsync-ns"]?.integer)
            #expect(since >= 0, "a frame never starts before its vsync")
            #expect(arguments["budget-ns"]?.integer == interval)
            vsyncs.append(frame.timestamp - since)
        }
        var missed = 0
        for index in 1..<frames.count {
            let gap = vsyncs[index] - vsyncs[index - 1]
            #expect(gap % interval == 0 && gap > 0, "vsyncs lie on one grid")
            let end = frames[index - 1].endTimestamp
            let expected = max(vsyncs[index - 1] + interval, vsyncs[0] + ((end - vsyncs[0]) / interval + 1) * interval)
            #expect(vsyncs[index] == expected, "frame \(index) starts at the first vsync after frame \(index - 1) ended")
            missed += Int(gap / interval) - 1
        }
        // The last frame's overrun misses vsyncs too: ceil(overrun / P).
        let lastOverrun = frames[frames.count - 1].endTimestamp - (vsyncs[vsyncs.count - 1] + interval)
        if lastOverrun > 0 { missed += Int((lastOverrun + interval - 1) / interval) }
        #expect(summary.missedVsyncs == missed)
        #expect(missed >= 3, "each heavy frame overran by at least one vsync")
        #expect(summary.frames == 9)
    }

    @Test("Background results come back in a later frame, linked by a flow, and the render lane composites each frame")
    func backgroundAndRenderLanes() throws {
        let recorder = Recorder()
        let scenario = UnevenScenario()
        let summary = DisplayLoop(recorder: recorder, configuration: DisplayConfiguration(frameCount: 6, workerCount: 2)).run(scenario)
        let trace = recorder.snapshot()
        #expect(scenario.applied.count + summary.unappliedResults == 6)
        #expect(Set(scenario.applied).count == scenario.applied.count, "each result is applied once")

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
        for start in starts {
            let end = try #require(ends.first { $0.id == start.id })
            let producedDuring = frames.firstIndex { $0.timestamp <= start.timestamp && start.timestamp < $0.endTimestamp }
            let appliedDuring = try #require(frames.firstIndex { $0.timestamp <= end.timestamp && end.timestamp <= $0.endTimestamp })
            #expect(start.timestamp < end.timestamp)
            #expect(producedDuring.map { $0 < appliedDuring } ?? true, "applied in a later frame than the one it ran in")
        }
        let applies = trace.events.filter { trace.name(of: $0) == "apply" && $0.thread == recorder.mainThreadKey }
        #expect(applies.count == scenario.applied.count)
    }
}
