import Foundation
import FrameScope
import FrameTrace
import FramescopeTestSupport
import Testing

@testable import FrameSimulation

/// On a manual clock, every frame's main-thread work takes a quarter of an interval and its render
/// work nothing, except where told otherwise, in intervals (`P`). In frame 3 it asks a worker for
/// two results: a quick one (half an interval) and a slow one (1.2 intervals) queued behind it.
private final class LaneScenario: Scenario {
    /// Main-thread time per frame index, in quarters of an interval (default 1).
    var mainQuarters: [Int: Int64] = [:]
    /// Render-server time per frame index, in quarters of an interval (default 0).
    var renderQuarters: [Int: Int64] = [:]
    /// Whether frame 3 asks for the two background results.
    var requestsInFrame3 = false
    /// (job name, the frame that applied its result: results are applied before the frame's own work)
    var applied: [(job: String, frame: Int)] = []
    private var currentFrame = -1

    func frame(_ context: FrameContext) {
        currentFrame = context.frameIndex
        let interval = context.interval
        let clock = context.recorder.clock.manualClock!
        if requestsInFrame3, context.frameIndex == 3 {
            context.inBackground(
                "quick job", category: .imageDecode,
                work: {
                    clock.advance(by: .nanoseconds(interval / 2))
                    return 1
                }
            ) { [unowned self] _ in applied.append(("quick", currentFrame + 1)) }
            context.inBackground(
                "slow job", category: .imageDecode,
                work: {
                    clock.advance(by: .nanoseconds(interval * 12 / 10))
                    return 2
                }
            ) { [unowned self] _ in applied.append(("slow", currentFrame + 1)) }
        }
        let main = mainQuarters[context.frameIndex] ?? 1
        context.recorder.withSpan("work", category: .layout) { clock.advance(by: .nanoseconds(interval * main / 4)) }
        let render = renderQuarters[context.frameIndex] ?? 0
        context.onRenderServer("draw") { clock.advance(by: .nanoseconds(interval * render / 4)) }
    }
}

/// What the trace says about one frame.
private struct RecordedFrame {
    var frame: TraceEvent
    var vsync: Int64
    var composite: TraceEvent
    var compositeArguments: [Argument]
    var actualName: String
    var actualArguments: [Argument]
    var actualBegin: Int64
    var actualEnd: Int64
    var expectedBegin: Int64
    var expectedEnd: Int64
}

@Suite("Display loop lanes")
struct DisplayLoopLaneTests {
    let interval = DisplayConfiguration(frameRate: .standard).frameRate.intervalNanoseconds

    fileprivate func run(_ scenario: LaneScenario, frames: Int = 6, workers: Int = 2) -> (
        Trace, DisplayLoop.Summary, Recorder
    ) {
        let recorder = Recorder(clock: .manual(ManualClock(start: 1_000_000)))
        let configuration = DisplayConfiguration(frameRate: .standard, frameCount: frames, workerCount: workers)
        let summary = DisplayLoop(recorder: recorder, configuration: configuration).run(scenario)
        return (recorder.snapshot(), summary, recorder)
    }

    fileprivate func frames(in trace: Trace, main: ThreadKey) throws -> [RecordedFrame] {
        let spans = trace.events.filter {
            $0.phase == .complete && trace.category(of: $0) == "frame" && $0.thread == main
        }
        var result: [RecordedFrame] = []
        for span in spans.sorted(by: { $0.timestamp < $1.timestamp }) {
            let index = try #require(trace.arguments(of: span)[FrameContract.Key.index]?.integerValue)
            let vsync =
                span.timestamp - (try #require(trace.arguments(of: span)[FrameContract.Key.sinceVsync]?.integerValue))
            let composite = try #require(
                trace.events.first {
                    $0.phase == .complete && trace.name(of: $0) == "composite"
                        && trace.arguments(of: $0)[FrameContract.Key.renderedFrame]?.integerValue == index
                })
            #expect(trace.category(of: composite) == FrameContract.renderCategory)
            let timeline = trace.events.filter {
                trace.category(of: $0) == FrameContract.Timeline.category && $0.phase == .asyncBegin
                    && trace.arguments(of: $0)[FrameContract.Key.index]?.integerValue == index
            }
            let expected = try #require(timeline.first { trace.name(of: $0) == "Expected Timeline" })
            let actual = try #require(timeline.first { trace.name(of: $0) == "Actual Timeline" })
            let outcome = try #require(timeline.first { $0.id == actual.id && trace.name(of: $0) != "Actual Timeline" })
            let expectedEnd = try #require(trace.events.first { $0.phase == .asyncEnd && $0.id == expected.id })
            let actualEnd = try #require(trace.events.first { $0.phase == .asyncEnd && $0.id == actual.id })
            result.append(
                RecordedFrame(
                    frame: span, vsync: vsync, composite: composite, compositeArguments: trace.arguments(of: composite),
                    actualName: trace.name(of: outcome), actualArguments: trace.arguments(of: outcome),
                    actualBegin: actual.timestamp,
                    actualEnd: actualEnd.timestamp, expectedBegin: expected.timestamp,
                    expectedEnd: expectedEnd.timestamp))
        }
        return result
    }

    @Test(
        "A render that ends after its render deadline says so on its span, slips the presentation and is a render hitch"
    )
    func lateRenderIsARenderHitch() throws {
        let scenario = LaneScenario()
        scenario.renderQuarters[2] = 10  // 2.5 P of render work for frame 2
        let (trace, summary, recorder) = run(scenario)
        let frames = try frames(in: trace, main: recorder.mainThreadKey)
        try #require(frames.count == 6)
        let p = interval

        // Frame 2 commits at V + P/4 (on time): S = D = V + P, R = V + 2P. Its render starts at the
        // commit and ends at V + 2.75P, after R: presented at V + 3P, one interval late.
        let late = frames[2]
        let (quarter, render): (Int64, Int64) = (p / 4, p * 10 / 4)
        #expect(late.composite.timestamp == late.vsync + quarter)
        #expect(late.composite.duration == render)
        let untilDeadline: Int64 = 2 * p - quarter
        let untilPresent: Int64 = 3 * p - quarter - render
        #expect(late.compositeArguments[FrameContract.Key.untilDeadline]?.integerValue == untilDeadline)
        #expect(late.compositeArguments[FrameContract.Key.untilPresent]?.integerValue == untilPresent)
        #expect(late.actualName == "late: render")
        #expect(late.actualArguments[FrameContract.Timeline.causeKey]?.stringValue == "render")
        #expect(late.actualArguments[FrameContract.Timeline.lateKey]?.integerValue == p)
        #expect(late.actualBegin == late.frame.timestamp && late.actualEnd == late.vsync + 3 * p)
        #expect(late.expectedBegin == late.vsync && late.expectedEnd == late.vsync + 2 * p)

        // Frame 3 commits on time but its render waits for frame 2's: it starts at V3 + 1.75P,
        // a quarter interval before its deadline, and is on time.
        let queued = frames[3]
        #expect(queued.composite.timestamp == frames[2].vsync + quarter + render)
        #expect(
            queued.compositeArguments[FrameContract.Key.untilDeadline]?.integerValue == 2 * p - (quarter + render - p))
        #expect(queued.actualName == "on time")
        #expect(queued.actualArguments[FrameContract.Timeline.lateKey]?.integerValue == 0)

        // Frame 4 waits for frame 2's render (double buffering): it starts one vsync later.
        #expect(frames[4].vsync == frames[3].vsync + 2 * p)
        #expect(summary.vsyncsWaitedForRender == 1)
        #expect(summary.missedVsyncs == 0)
        #expect(summary.lateFramesByCause == [.render: 1])
        for (index, frame) in frames.enumerated() where index != 2 {
            #expect(frame.actualName == "on time", "frame \(index)")
            let headroom = try #require(frame.compositeArguments[FrameContract.Key.untilDeadline]?.integerValue)
            #expect(headroom >= 0)
            #expect(frame.actualEnd == frame.vsync + 2 * p)
        }
    }

    @Test(
        "A commit after the commit deadline is a commit hitch, even though its render meets the later render deadline")
    func lateCommitIsACommitHitch() throws {
        let scenario = LaneScenario()
        scenario.mainQuarters[2] = 6  // 1.5 P of main-thread work in frame 2
        let (trace, summary, recorder) = run(scenario)
        let frames = try frames(in: trace, main: recorder.mainThreadKey)
        let p = interval

        // Commit at V + 1.5P, after D: S = V + 2P, R = V + 3P; the render takes nothing and the
        // frame is presented at R, one interval after V + 2P.
        let late = frames[2]
        let commit: Int64 = p * 6 / 4
        let untilDeadline: Int64 = 3 * p - commit
        #expect(late.composite.timestamp == late.vsync + commit)
        #expect(late.compositeArguments[FrameContract.Key.untilDeadline]?.integerValue == untilDeadline)
        #expect(late.compositeArguments[FrameContract.Key.untilPresent]?.integerValue == untilDeadline)
        #expect(late.actualName == "late: commit")
        #expect(late.actualArguments[FrameContract.Timeline.causeKey]?.stringValue == "commit")
        #expect(late.actualArguments[FrameContract.Timeline.lateKey]?.integerValue == p)
        #expect(summary.lateFramesByCause == [.commit: 1])
        #expect(summary.missedVsyncs == 1)
        #expect(summary.vsyncsWaitedForRender == 0)
    }

    @Test("A background job requested in frame 3 and applied in frame 5 says how long it waited for a worker")
    func backgroundJobCarriesItsRequestTime() throws {
        let scenario = LaneScenario()
        scenario.requestsInFrame3 = true
        let (trace, _, recorder) = run(scenario, workers: 1)
        let main = recorder.mainThreadKey
        let frames = try frames(in: trace, main: main)
        let p = interval

        // The quick job ends half an interval after frame 3 began: applied by frame 4. The slow
        // one waits for the worker for that half interval, then runs 1.2 intervals, ending after
        // frame 4 began: applied by frame 5.
        #expect(scenario.applied.map(\.job) == ["quick", "slow"])
        #expect(scenario.applied.map(\.frame) == [4, 5])
        let slow = try #require(trace.events.first { $0.phase == .complete && trace.name(of: $0) == "slow job" })
        let quick = try #require(trace.events.first { $0.phase == .complete && trace.name(of: $0) == "quick job" })
        let waited = try #require(trace.arguments(of: slow)[FrameContract.Key.sinceRequest]?.integerValue)
        #expect(waited == p / 2)
        #expect(trace.arguments(of: quick)[FrameContract.Key.sinceRequest]?.integerValue == 0)
        let requested = slow.timestamp - waited
        #expect(
            frames[3].frame.timestamp <= requested && requested <= frames[3].frame.endTimestamp,
            "requested during frame 3")
        #expect(slow.duration == p * 12 / 10)

        // The flow from the slow job ends in an apply span inside frame 5.
        // (The quick job's flow starts where the slow job begins; the slow job's at its end.)
        let flowStart = try #require(
            trace.events.first {
                $0.phase == .flowStart && $0.timestamp == slow.endTimestamp && $0.thread == slow.thread
            })
        let flowEnd = try #require(trace.events.first { $0.phase == .flowEnd && $0.id == flowStart.id })
        #expect(flowEnd.thread == main)
        #expect(frames[5].frame.timestamp <= flowEnd.timestamp && flowEnd.timestamp <= frames[5].frame.endTimestamp)
    }

    @Test("Two simulated workers run two jobs side by side, each on a thread of its own")
    func simulatedWorkersRunSideBySide() throws {
        let scenario = LaneScenario()
        scenario.requestsInFrame3 = true
        let (trace, _, _) = run(scenario, workers: 2)
        let slow = try #require(trace.events.first { $0.phase == .complete && trace.name(of: $0) == "slow job" })
        let quick = try #require(trace.events.first { $0.phase == .complete && trace.name(of: $0) == "quick job" })
        // The slow job no longer queues behind the quick one: both start at their request.
        #expect(trace.arguments(of: slow)[FrameContract.Key.sinceRequest]?.integerValue == 0)
        #expect(trace.arguments(of: quick)[FrameContract.Key.sinceRequest]?.integerValue == 0)
        #expect(slow.thread != quick.thread)
        #expect(Set([slow.thread, quick.thread].map { trace.threadName($0) }) == ["worker-1", "worker-2"])
        #expect(slow.timestamp < quick.endTimestamp, "they overlap in simulated time")
        // Results are applied as before: quick ends within frame 3's interval, slow after frame 4 began.
        #expect(scenario.applied.map(\.job) == ["quick", "slow"])
        #expect(scenario.applied.map(\.frame) == [4, 5])
    }

    /// Eight frames with a late render (frame 2), a late commit (frame 4) and background jobs.
    fileprivate func timelineRun() -> Trace {
        let scenario = LaneScenario()
        scenario.renderQuarters[2] = 10
        scenario.mainQuarters[4] = 6
        scenario.requestsInFrame3 = true
        return run(scenario, frames: 8).0
    }

    @Test(
        "Every frame's four timeline slices (expected, actual, main lane, render lane) open and close once, nest, and share no id with another frame's"
    )
    func timelineTracksNest() throws {
        let trace = timelineRun()

        // In Swift, the rules viewers rely on: every timeline id opens and closes once per slice,
        // its slices nest, and no two frames share an id.
        var open: [UInt64: [String]] = [:]
        var ids: [Int64: Set<UInt64>] = [:]
        for event in trace.events where trace.category(of: event) == FrameContract.Timeline.category {
            switch event.phase {
            case .asyncBegin:
                open[event.id, default: []].append(trace.name(of: event))
                if let index = trace.arguments(of: event)[FrameContract.Key.index]?.integerValue {
                    ids[index, default: []].insert(event.id)
                }
            case .asyncEnd:
                #expect(
                    open[event.id]?.popLast() == trace.name(of: event), "ends close the innermost slice of their id")
            default:
                Issue.record("unexpected \(event.phase) on the timeline")
            }
        }
        #expect(open.values.allSatisfy { $0.isEmpty })
        #expect(ids.count == 8 && ids.values.allSatisfy { $0.count == 4 })
        #expect(Set(ids.values.flatMap { $0 }).count == 32, "four ids per frame, none shared")
        // Each lane's track says how late that lane ran: the render lane in frame 2, the main
        // lane (the commit) in frame 4, and no lane in frame 0.
        func late(_ lane: Lane, frame: Int64) -> Int64? {
            let name = String(describing: FrameContract.Timeline.laneTrack(lane))
            return trace.events.first {
                $0.phase == .asyncBegin && trace.name(of: $0) == name
                    && trace.arguments(of: $0)[FrameContract.Key.index]?.integerValue == frame
            }.flatMap { trace.arguments(of: $0)[FrameContract.Timeline.lateKey]?.integerValue }
        }
        #expect((late(.render, frame: 2) ?? 0) > 0 && late(.main, frame: 2) == 0)
        #expect((late(.main, frame: 4) ?? 0) > 0)
        #expect(late(.main, frame: 0) == 0 && late(.render, frame: 0) == 0)
    }

    @Test(
        "The exported trace with its frame timeline tracks passes the independent validator",
        .enabled(if: TraceValidator.isAvailable, Comment(rawValue: TraceValidator.missingReason)))
    func timelineTracksValidate() throws {
        let trace = timelineRun()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-lanes-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try trace.writeChromeJSON(toFile: path)
        let (status, output) = try TraceValidator.run(
            path,
            arguments: [
                "--expect-threads", "main,worker-1,render-server-1", "--expect-cats", "frame,layout,frame-timeline",
            ])
        #expect(status == 0, "\(output)")
    }
}

/// Work that takes a given amount of its thread's CPU time: main-thread work per frame, and one
/// background job in frame 1.
private final class CPUScenario: Scenario {
    var mainMilliseconds: [Int: Int64] = [:]
    var jobMilliseconds: Int64 = 0
    var appliedInFrame: Int?
    private var currentFrame = -1

    func frame(_ context: FrameContext) {
        currentFrame = context.frameIndex
        if context.frameIndex == 1, jobMilliseconds > 0 {
            let milliseconds = jobMilliseconds
            context.inBackground(
                "cpu job", category: .imageDecode,
                work: {
                    burnThreadCPU(nanoseconds: milliseconds * 1_000_000)
                    return 0
                }
            ) { [unowned self] _ in appliedInFrame = currentFrame + 1 }  // applied before the frame's own work
        }
        let milliseconds = mainMilliseconds[context.frameIndex] ?? 1
        context.recorder.withSpan("work", category: .layout) { burnThreadCPU(nanoseconds: milliseconds * 1_000_000) }
    }
}

@Suite("Display loop on CPU time")
struct DisplayLoopVirtualTimeTests {
    @Test(
        "Work takes its CPU time: 30 ms of main-thread work misses one vsync and is a commit hitch; a 20 ms job lands two frames on"
    )
    func cpuTimeDecidesTheFrames() throws {
        let scenario = CPUScenario()
        scenario.mainMilliseconds[2] = 30
        scenario.jobMilliseconds = 20
        let recorder = Recorder(clock: .manual(.threadCPUTime()))
        let configuration = DisplayConfiguration(frameRate: .standard, frameCount: 6, workerCount: 2)
        let summary = DisplayLoop(recorder: recorder, configuration: configuration).run(scenario)
        // 30 ms is more than one interval (16.67 ms) and less than two, whatever the machine's load.
        #expect(summary.missedVsyncs == 1)
        #expect(summary.lateFramesByCause == [.commit: 1])
        let trace = recorder.snapshot()
        let frames = trace.events.filter { $0.phase == .complete && trace.category(of: $0) == "frame" }.sorted {
            $0.timestamp < $1.timestamp
        }
        try #require(frames.count == 6)
        #expect(frames[2].duration >= 30_000_000)
        #expect(frames[1].duration < 16_000_000)
        // Requested in frame 1 (at about V1 + 1 ms), the job ends about 21 ms after V1: after
        // frame 2's vsync, before frame 3's, so frame 3 applies it.
        let job = try #require(trace.events.first { $0.phase == .complete && trace.name(of: $0) == "cpu job" })
        #expect(job.duration >= 20_000_000)
        #expect(scenario.appliedInFrame == 3)
        #expect(trace.metadata.clock == .cpuTime)
    }
}
