import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// A real Android recording, `nowinandroid__trace.perfetto-trace` in the third-party corpus (a
/// 120 Hz phone, FrameTimeline without the app's doFrame/DrawFrame slices, no process tree), read
/// as an Android engineer reads it: the display's period from the trace, Android's janky share,
/// causes in Android's words and frames findable by their vsync ids.
@Suite("A real Android recording reads as Android's tools read it")
struct AndroidRecordingTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/traces/third-party/nowinandroid__trace.perfetto-trace").path

    @Test(
        "nowinandroid: 8.33 ms from FrameTimeline, 16 janky frames (2.2%), no lane blamed for work it did not do",
        .enabled(if: FileManager.default.fileExists(atPath: path), "the third-party corpus is not beside this clone"))
    func nowInAndroid() throws {
        let report = FrameAnalyzer.analyze(try TraceReader.read(contentsOf: Self.path))
        // The period: expected frame starts 8.33 ms apart, not vsync id differences, not 60 Hz.
        #expect(report.method.frameIntervalSource.identifier == "android-frame-timeline")
        #expect((8_300_000...8_360_000).contains(report.method.frameRate.intervalNanoseconds))
        // Android's headline: 16 of 739 frames janky.
        #expect(report.summary.frameCount == 739 && report.summary.lateFrames == 16)
        #expect(ReportFormat.percent(report.summary.jankyShare) == "2.2%")
        // No cause names a lane whose cost is 0; SurfaceFlinger marked every display frame on time.
        for frame in report.frames where frame.hitchCause != .none {
            if let lane = frame.hitchCause.lane {
                #expect((frame.lane(lane)?.costNanoseconds ?? 0) > 0, "frame #\(frame.index): \(frame.hitchCause)")
            }
        }
        #expect(report.frames.filter { $0.hitchCause == .appDeadlineMissed }.count == 16)
        #expect(report.lanes.first { $0.lane == .compositor }?.lateFrames == 0)
        #expect(report.lanes.first { $0.lane == .main } == nil, "no doFrame slices: no main lane")
        // Names from the trace: FrameTimeline's layer names the app.
        #expect(report.method.mainThreadName == "com.google.samples.apps.nowinandroid.demo")
        #expect(report.method.mainThreadRule == .androidUIThread)
        // The worst frames are findable in Perfetto: their vsync ids and jank types, in text and HTML.
        let text = report.text(source: "nowinandroid")
        let html = report.html(source: "nowinandroid")
        for entry in report.worstFrames {
            let android = try #require(entry.frame.android)
            #expect(text.contains("\(android.token)") && html.contains("\(android.token)"))
            #expect(html.contains(android.verdictPhrase))
        }
        #expect(text.contains("App Deadline Missed"))
        // Diagnostics a user should look at: not the service's per-packet uid and pid.
        #expect(!report.diagnostics.contains { $0.message.contains("field 3:") || $0.message.contains("field 79:") })
        #expect(report.summary.backgroundOutsideFramesNanoseconds >= 0)
    }

    @Test(
        "nowinandroid: the app start is the frames a reader counts to reportFullyDrawn, its janky frames and their hitch time",
        .enabled(if: FileManager.default.fileExists(atPath: path), "the third-party corpus is not beside this clone"))
    func appStart() throws {
        let trace = try TraceReader.read(contentsOf: Self.path)
        // The mark as a reader finds it in Perfetto's UI: the app's reportFullyDrawn slice.
        let marks = trace.events.filter {
            $0.phase == .complete && trace.symbols[$0.name].hasPrefix("reportFullyDrawn") && $0.thread.processID == 9305
        }
        let mark = try #require(marks.map(\.timestamp).min())
        let report = FrameAnalyzer.analyze(trace)
        let s = report.summary
        let stated = try #require(s.appStartMark)
        #expect(stated.name == "reportFullyDrawn" && stated.time == mark)
        #expect(stated.afterFirstVsync == mark - report.frames[0].vsync)
        // Counted by hand: every frame up to the first one done after the mark.
        let last = try #require(report.frames.firstIndex { $0.commitEnd > mark })
        #expect(stated.lastFrame == last && s.appStartFrames == last + 1)
        let janky = report.frames[...last].filter { $0.android?.isJanky == true }
        #expect(s.appStartJankyFrames == janky.count)
        // Their hitch time: the union of their spans past their deadlines.
        var covered = Int64.min
        var hitch: Int64 = 0
        for span in janky.map({ ($0.deadline, $0.deadline + $0.lateness(interval: 1)) }).sorted(by: <)
        where span.1 > covered {
            hitch += span.1 - max(span.0, covered)
            covered = span.1
        }
        #expect(s.appStartHitchNanoseconds == hitch)
        #expect(hitch <= s.hitchNanoseconds)
        // The reading: the five janky frames in the first 220 ms are the start's, about
        // 223 ms of hitch time between them.
        let early = janky.filter { $0.vsync - report.frames[0].vsync < 220_000_000 }
        #expect(early.count == 5)
        var earlyCovered = Int64.min
        var earlyHitch: Int64 = 0
        for span in early.map({ ($0.deadline, $0.deadline + $0.lateness(interval: 1)) }).sorted(by: <)
        where span.1 > earlyCovered {
            earlyHitch += span.1 - max(span.0, earlyCovered)
            earlyCovered = span.1
        }
        #expect((220_000_000...226_000_000).contains(earlyHitch), "\(earlyHitch)")
        // The text says which frames, which mark, and what fell in them.
        let text = report.text(source: "nowinandroid", wide: true)
        #expect(
            text.contains(
                "frames #0-#\(last), to the first done after reportFullyDrawn "
                    + "(\(ReportFormat.milliseconds(mark - report.frames[0].vsync)) after #0's vsync): "
                    + "\(janky.count) janky, \(ReportFormat.milliseconds(hitch)) of hitch time"))
        // Every line of the default text fits a 100-column terminal, counted in bytes as awk does.
        let narrow = report.text(source: Self.path)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.utf8.count <= FrameReport.terminalWidth })
        #expect(narrow.contains("jank type; present | top spans"))
    }

    @Test("Frames at irregular times give no period to trust: FrameTimeline's spacing is used only when most agree")
    func irregularSpacing() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FrameTraceReaderTests/Fixtures/perfetto")
        // android-frames-stdlib's frames are hand-placed (3 of 20 spacings agree); android-app-frames'
        // are on a 33.33 ms grid.
        let irregular = FrameAnalyzer.analyze(
            try TraceReader.read(contentsOf: folder.appendingPathComponent("android-frames-stdlib.pftrace").path))
        #expect(irregular.method.frameIntervalSource == .defaultRate)
        let regular = FrameAnalyzer.analyze(
            try TraceReader.read(contentsOf: folder.appendingPathComponent("android-app-frames.pftrace").path))
        #expect(regular.method.frameIntervalSource.identifier == "android-frame-timeline")
        var options = AnalysisOptions()
        options.frameRate = FrameRate(intervalNanoseconds: 10_000_000)
        let overridden = FrameAnalyzer.analyze(
            try TraceReader.read(contentsOf: folder.appendingPathComponent("android-app-frames.pftrace").path),
            options: options)
        #expect(overridden.method.frameIntervalSource.identifier == "option", "--fps stays an override")
    }
}
