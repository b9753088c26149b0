import Foundation
import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing
@testable import FrameAnalysis

/// Android's frames from Perfetto traces: FrameTimeline's verdicts as trace processor's diff tests
/// expect them, with lanes from the app's own slices. The fixtures and their expected files come
/// from `tools/make_perfetto_fixtures.py` (see `Tests/FrameTraceTests/Fixtures/perfetto`).
@Suite("Android frames from FrameTimeline: causes, lanes and missed frames as Perfetto counts them")
struct AndroidFrameTimelineTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FrameTraceTests/Fixtures/perfetto")

    static func read(_ name: String) throws -> Trace {
        try ChromeTraceReader.read(contentsOf: folder.appendingPathComponent("\(name).pftrace").path)
    }

    static func expected(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: folder.appendingPathComponent("\(name).expected.json"))))
    }

    /// What each jank type and overrunning lane mean as a framescope cause: written out here from
    /// the issue's mapping, not taken from the code under test.
    static func expectedCause(jank: String, lane: String?) -> HitchCause {
        switch jank {
        case "None": .none
        case "App Deadline Missed": lane == "render" ? .render : .commit
        case "SurfaceFlinger CPU Deadline Missed", "SurfaceFlinger GPU Deadline Missed": .compositor
        case "Buffer Stuffing": .bufferStuffing
        case "Display HAL": .displayHAL
        case "Prediction Error": .predictionError
        default: .unknown
        }
    }

    @Test("android-app-frames: one frame per token, lanes from doFrame and DrawFrames, the cause FrameTimeline gives")
    func appFrames() throws {
        let report = FrameAnalyzer.analyze(try Self.read("android-app-frames"))
        let expected = try Self.expected("android-app-frames")
        let frames = expected["frames"]?.arrayValue ?? []
        #expect(report.method.frameSource == .frameTimeline)
        #expect(report.frames.count == frames.count)
        for (frame, want) in zip(report.frames, frames) {
            let token = want["token"]?.integerValue ?? -1
            let jank = want["jank_type"]?.stringValue ?? ""
            #expect(frame.vsync == want["vsync_ts"]?.integerValue, "token \(token)")
            #expect(frame.deadline == want["deadline_ts"]?.integerValue, "token \(token)")
            #expect(frame.lane(.main)?.costNanoseconds == want["doFrame"]?["dur"]?.integerValue, "token \(token): main lane")
            #expect(frame.lane(.render)?.costNanoseconds == want["DrawFrames"]?["dur"]?.integerValue, "token \(token): render lane")
            if jank == "Dropped Frame" {
                #expect(frame.outcome == .dropped, "token \(token)")
                #expect(frame.overrun > 0 && frame.hitchCause == .unknown, "token \(token)")
            } else {
                let cause = Self.expectedCause(jank: jank, lane: want["overrun_lane"]?.stringValue)
                #expect(frame.hitchCause == cause, "token \(token) (\(jank)): \(frame.hitchCause)")
                #expect((frame.overrun > 0) == (cause != .none), "token \(token): late exactly when FrameTimeline says")
            }
            if frame.hitchCause == .commit || frame.hitchCause == .render {
                // The hold names the app slice that overran.
                #expect(frame.hitchHold?.lane == frame.hitchCause.lane)
                #expect(frame.hitchHold?.stage == (frame.hitchCause == .commit ? "Choreographer#doFrame" : "DrawFrames"))
            }
        }
        // The report's text says where the frames came from and what the lanes are.
        let text = report.text(source: "android-app-frames.pftrace")
        #expect(text.contains("Android FrameTimeline"))
        #expect(text.contains("SurfaceFlinger, due at"))
    }

    @Test("frame-timeline-metric: per process, framescope's late frames and causes agree with trace processor's frame timeline metric")
    func metric() throws {
        let trace = try Self.read("frame-timeline-metric")
        let expected = try Self.expected("frame-timeline-metric")
        let processes = expected["metric"]?["process"]?.arrayValue ?? []
        #expect(processes.count == 4)
        var missedApp = 0
        for process in processes {
            let pid = try #require(process["pid"]?.integerValue)
            var options = AnalysisOptions()
            options.processID = pid
            let report = FrameAnalyzer.analyze(trace, options: options)
            let frames = report.frames
            let late = frames.filter { $0.overrun > 0 }
            let app = late.filter { $0.hitchCause == .commit || $0.hitchCause == .render }.count
            let surfaceFlinger = late.filter { [.compositor, .displayHAL, .predictionError].contains($0.hitchCause) }.count
            #expect(report.method.frameSource == .frameTimeline)
            #expect(frames.count == process["total_frames"]?.integerValue.map(Int.init), "process \(pid): frames (distinct tokens)")
            #expect(late.count == process["missed_frames"]?.integerValue.map(Int.init), "process \(pid): missed frames")
            #expect(app == process["missed_app_frames"]?.integerValue.map(Int.init), "process \(pid): missed app frames")
            #expect(surfaceFlinger == process["missed_sf_frames"]?.integerValue.map(Int.init), "process \(pid): missed SurfaceFlinger frames")
            #expect(frames.filter { $0.outcome == .dropped }.count == process["dropped_frames"]?.integerValue.map(Int.init), "process \(pid): dropped")
            missedApp += app
        }
        #expect(missedApp == expected["metric"]?["missed_app_frames"]?.integerValue.map(Int.init))
    }

    @Test("frame-timeline-events: without --process the app with the most surface frames is analysed, and named")
    func choosesTheApp() throws {
        let report = FrameAnalyzer.analyze(try Self.read("frame-timeline-events"))
        #expect(report.method.frameSource == .frameTimeline)
        guard case .androidFrameTimeline(let frames, let processID, _, let mainSliceName, _, _) = report.method.frameSourceDetail else {
            Issue.record("frames from FrameTimeline, not \(report.method.frameSourceDetail)")
            return
        }
        #expect(processID == 1000)
        #expect(frames == report.frames.count)
        #expect(mainSliceName == "Choreographer#doFrame")
        // Every frame FrameTimeline calls on time is on time; every late one has a cause.
        for frame in report.frames {
            #expect((frame.overrun > 0) == (frame.hitchCause != .none), "frame \(frame.index)")
        }
    }

    @Test("A FrameTimeline trace converted to JSON and read back gives the same frames")
    func throughJSON() throws {
        let trace = try Self.read("android-app-frames")
        let json = try ChromeTraceReader.read(bytes: trace.chromeJSON())
        let direct = FrameAnalyzer.analyze(trace)
        let converted = FrameAnalyzer.analyze(json)
        #expect(converted.method.frameSource == .frameTimeline)
        #expect(converted.frames.map(\.hitchCause) == direct.frames.map(\.hitchCause))
        #expect(converted.frames.map(\.overrun) == direct.frames.map(\.overrun))
        #expect(converted.summary == direct.summary)
    }
}
