import Foundation
import FrameTrace
import FramescopeTestSupport
import Testing

@testable import FrameScope

@Suite("Frame timeline and end-computed arguments")
struct RecorderTimelineTests {
    @Test("A span's end-computed arguments see its own start and end, and it encloses its children")
    func argumentsAtEndSeeTheSpan() throws {
        let clock = ManualClock(start: 5_000)
        let recorder = Recorder(clock: .manual(clock))
        var seen: (start: Int64, end: Int64)?
        let value = recorder.withSpan("composite", category: .render) {
            clock.advance(by: .nanoseconds(100))
            recorder.withSpan("draw", category: .render) { clock.advance(by: .nanoseconds(300)) }
            return 7
        } argumentsAtEnd: { start, end in
            seen = (start, end)
            return ["until-deadline-ns": .int(1_000 - start)]
        }
        #expect(value == 7)
        #expect(seen?.start == 5_000 && seen?.end == 5_400)
        let trace = recorder.snapshot()
        let composite = try #require(trace.events.first { trace.name(of: $0) == "composite" })
        #expect(composite.timestamp == 5_000 && composite.duration == 400)
        #expect(trace.arguments(of: composite)["until-deadline-ns"]?.integerValue == 1_000 - 5_000)
        #expect(trace.events.first { trace.name(of: $0) == "draw" }?.timestamp == 5_100)

        recorder.isEnabled = false
        var called = false
        recorder.withSpan("off", category: .render) {
        } argumentsAtEnd: { _, _ in
            called = true
            return [:]
        }
        #expect(!called, "a disabled recorder never computes the arguments")
    }

    @Test("Timeline slices of overlapping frames get their own ids; the actual slice holds one named by its outcome")
    func overlappingFramesExportAsNestedAsyncSlices() throws {
        let recorder = Self.overlappingFrames()
        let p = Self.interval
        let trace = recorder.snapshot()
        let timeline = trace.events.filter { trace.category(of: $0) == FrameContract.Timeline.category }
        let described = timeline.map {
            "\($0.phase == .asyncBegin ? "b" : "e") \(trace.name(of: $0)) #\($0.id) @\($0.timestamp)"
        }
        // Sorted by time; where a nested pair begins or ends together, outer begins first and ends last.
        #expect(
            described == [
                "b Expected Timeline #1 @0",
                "b Actual Timeline #2 @10",
                "b late: render #2 @10",
                "b Expected Timeline #3 @\(p)",
                "b Actual Timeline #4 @\(p + 10)",
                "b on time #4 @\(p + 10)",
                "e Expected Timeline #1 @\(2 * p)",
                "e late: render #2 @\(3 * p)",
                "e Actual Timeline #2 @\(3 * p)",
                "e Expected Timeline #3 @\(3 * p)",
                "e on time #4 @\(3 * p)",
                "e Actual Timeline #4 @\(3 * p)",
            ])
        let late = try #require(timeline.first { trace.name(of: $0) == "late: render" })
        #expect(trace.arguments(of: late)[FrameContract.Timeline.causeKey]?.stringValue == "render")
        #expect(trace.arguments(of: late)[FrameContract.Timeline.lateKey]?.integerValue == p)
        #expect(trace.arguments(of: late)[FrameContract.Key.index]?.integerValue == 0)
    }

    static let interval: Int64 = 16_666_667

    /// Frame 0 (late: render) and frame 1 (on time), whose timeline slices overlap.
    static func overlappingFrames() -> Recorder {
        let recorder = Recorder(clock: .manual(ManualClock(start: 0)))
        let p = interval
        recorder.recordFrameTimeline(
            FrameTimelineEntry(
                index: 0, vsync: 0, expectedPresentation: 2 * p, start: 10, presentation: 3 * p, cause: .render))
        recorder.recordFrameTimeline(
            FrameTimelineEntry(
                index: 1, vsync: p, expectedPresentation: 3 * p, start: p + 10, presentation: 3 * p, cause: .none))
        return recorder
    }

    @Test(
        "Overlapping frames' timeline slices pass the independent validator",
        .enabled(if: TraceValidator.isAvailable, Comment(rawValue: TraceValidator.missingReason)))
    func overlappingFramesValidate() throws {
        let directory = try TemporaryDirectory()
        try Self.overlappingFrames().writeChromeJSON(to: directory.path("timeline.json"))
        let (status, output) = try TraceValidator.run(
            directory.path("timeline.json"), arguments: ["--expect-cats", "frame-timeline"])
        #expect(status == 0, "\(output)")
    }
}
