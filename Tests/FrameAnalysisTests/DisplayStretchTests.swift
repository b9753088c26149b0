import Foundation
import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// A phone that switches display rate mid-recording: the period per stretch from the spacing of
/// FrameTimeline's expected frame starts, and each frame's vsync figures in its stretch's period.
/// The fixture and its expected file come from `tools/make_perfetto_fixtures.py`
/// (`android_rate_switch()`).
@Suite("Display rate per stretch: a 60 to 120 Hz switch judged at each stretch's period")
struct DisplayStretchTests {
    static func read(_ name: String) throws -> Trace { try AndroidFrameTimelineTests.read(name) }
    static func expected(_ name: String) throws -> JSONValue { try AndroidFrameTimelineTests.expected(name) }

    @Test("android-rate-switch: 60 Hz then 120 Hz, each frame's slow verdict and missed vsyncs at its own period")
    func rateSwitch() throws {
        let report = FrameAnalyzer.analyze(try Self.read("android-rate-switch"))
        let expected = try Self.expected("android-rate-switch")
        let stretches = try #require(expected["stretches"]?.arrayValue)
        // The stretches as the trace spaces them, each with its frames.
        #expect(report.method.frameIntervalSource.identifier == "android-frame-timeline")
        #expect(
            report.displayStretches.map { [$0.intervalNanoseconds, Int64($0.frames)] }
                == stretches.map { [$0["period_ns"]?.integerValue ?? -1, $0["frames"]?.integerValue ?? -1] })
        // The headline P is the period of the stretch with the most frames.
        #expect(report.method.frameRate.intervalNanoseconds == expected["frame_interval_ns"]?.integerValue)

        let frames = try #require(expected["frames"]?.arrayValue)
        try #require(report.frames.count == frames.count)
        var slow = 0
        var missed: Int64 = 0
        for (frame, want) in zip(report.frames, frames) {
            let token = want["token"]?.integerValue
            #expect(frame.android?.token == token)
            #expect(frame.displayInterval == want["period_ns"]?.integerValue, "token \(token ?? -1)")
            #expect(
                frame.missedVsyncs(interval: report.method.frameRate.intervalNanoseconds)
                    == want["missed_vsyncs"]?.integerValue, "token \(token ?? -1)")
            #expect(frame.isLate(interval: report.method.frameRate.intervalNanoseconds) == want["janky"]?.boolValue)
            if want["slow"]?.boolValue == true { slow += 1 }
            missed += want["missed_vsyncs"]?.integerValue ?? 0
        }
        #expect(report.summary.slowFrames == slow)
        #expect(report.summary.missedVsyncs == missed)

        // Every output says which source decided and lists the stretches.
        let text = report.text(source: "android-rate-switch.pftrace", wide: true)
        #expect(text.contains("16.67 ms (60 Hz) for 24 frames, 8.33 ms (120 Hz) for 48"))
        #expect(text.contains("slow frames (> one period)"))
        let json = report.jsonValue(source: "android-rate-switch.pftrace")
        let written = try #require(json["method"]?["frame-interval-stretches"]?.arrayValue)
        #expect(written.map { $0["interval-ns"]?.integerValue } == stretches.map { $0["period_ns"]?.integerValue })
        // The rows carry each frame's own period beside its missed vsyncs.
        var rows = ""
        FrameRows.table(report, trace: "android-rate-switch.pftrace", labels: [], metadata: TraceMetadata())
            .writeJSONLines { rows += $0 }
        #expect(rows.contains("\"frame_interval_ms\":16.666667") && rows.contains("\"frame_interval_ms\":8.333333"))
    }

    @Test("--fps overrides the trace's stretches: every frame judged at the rate asked for")
    func fpsOverrides() throws {
        var options = AnalysisOptions()
        options.frameRate = FrameRate(hertz: 60)
        let report = FrameAnalyzer.analyze(try Self.read("android-rate-switch"), options: options)
        #expect(report.method.frameIntervalSource.identifier == "option")
        #expect(report.displayStretches.isEmpty)
        #expect(report.frames.allSatisfy { $0.displayInterval == nil })
        // At 60 Hz throughout: 10 ms late is one missed vsync in both stretches.
        #expect(report.summary.missedVsyncs == 2)
    }

    @Test("Stretches: a faster rate starts at its first spacing; a slower one only when it lasts")
    func stretchStarts() {
        let p120: Int64 = 8_333_333
        let p60: Int64 = 16_666_667
        // 60 Hz, then 120 Hz: the new stretch starts at the first 8.33 ms spacing.
        let faster = Array(repeating: p60, count: 20) + Array(repeating: p120, count: 20)
        #expect(AndroidFrameTimeline.stretchStarts(faster).map(\.first) == [0, 20])
        #expect(AndroidFrameTimeline.stretchStarts(faster).map(\.unit) == [p60, p120])
        // A 120 Hz app that draws every second vsync for a while is not a 60 Hz display...
        let skipping =
            Array(repeating: p120, count: 20) + Array(repeating: p60, count: 16)
            + Array(repeating: p120, count: 20)
        #expect(AndroidFrameTimeline.stretchStarts(skipping).map(\.unit) == [p120])
        // ...unless it lasts four times as long as a faster switch needs.
        let slower = Array(repeating: p120, count: 20) + Array(repeating: p60, count: 40)
        #expect(AndroidFrameTimeline.stretchStarts(slower).map(\.first) == [0, 20])
        // Vsyncs nobody drew (idle gaps of whole periods) do not start a stretch.
        let idle = (0..<60).map { $0 % 10 == 9 ? 5 * p120 : p120 }
        #expect(AndroidFrameTimeline.stretchStarts(idle).map(\.unit) == [p120])
    }
}
