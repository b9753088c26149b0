import FrameTrace
import Testing

@testable import FrameAnalysis

/// An Android app's threads and frame ids, and its frames without FrameTimeline: the UI thread is
/// the thread whose tid is the pid, and `DrawFrame(s) <id>` on the RenderThread pairs with
/// `Choreographer#doFrame <id>` as trace processor's `android/frames/timeline.sql` pairs them.
@Suite("Android apps: the UI thread, the RenderThread, and frames paired by vsync id")
struct AndroidAppTests {
    static let app: Int64 = 4000
    static let ui = ThreadKey(processID: app, threadID: app)
    static let render = ThreadKey(processID: app, threadID: 4010)
    static let other = ThreadKey(processID: 900, threadID: 900)

    /// An app whose RenderThread is busier than its UI thread, with nested doFrames as Android 13+
    /// writes them (`Choreographer#doFrame - resynced to …` inside the frame's own), and another
    /// process's `DrawFrame` that must not count for the app.
    static func trace(drawNames: (Int) -> String = { "DrawFrames \(1000 + $0)" }) -> Trace {
        var trace = Trace()
        trace.setThread(TraceThread(key: ui, name: "com.example.app", sortIndex: 0))
        trace.setThread(TraceThread(key: render, name: "RenderThread", sortIndex: 1))
        trace.setThread(TraceThread(key: other, name: "launcher", sortIndex: 2))
        func span(_ name: String, _ thread: ThreadKey, _ start: Double, _ end: Double) {
            trace.append(
                .complete, name: name, category: "", thread: thread, timestamp: ms(start), duration: ms(end) - ms(start)
            )
        }
        let p = 16.666667
        for index in 0..<6 {
            let vsync = Double(index) * 2 * p
            let uiEnd = vsync + (index == 2 ? 20 : 4)
            span("Choreographer#doFrame \(1000 + index)", ui, vsync, uiEnd)
            span("Choreographer#doFrame - resynced to \(1001 + index) in 0.0ms", ui, vsync + 0.5, uiEnd - 0.5)
            // Draws of frame 3 are written before frame 2's: pairing is by id, not by time.
            let drawStart = uiEnd + 0.2
            let drawCost = index == 4 ? 25.0 : 12.0
            span(drawNames(index), render, drawStart, drawStart + drawCost)
            if index == 1 { span(drawNames(index), render, drawStart + drawCost + 0.5, drawStart + drawCost + 2.5) }
            span("DrawFrame \(1000 + index)", other, drawStart, drawStart + 30)
        }
        return trace
    }

    @Test("The UI thread is the thread whose tid is the pid, though the RenderThread is busier, and the rule says so")
    func uiThread() {
        let report = FrameAnalyzer.analyze(Self.trace())
        #expect(report.method.mainThread == Self.ui)
        #expect(report.method.mainThreadRule == .androidUIThread)
        var options = AnalysisOptions()
        options.mainThread = Self.render
        #expect(
            FrameAnalyzer.analyze(Self.trace(), options: options).method.mainThread == Self.render,
            "--main-thread overrides")
    }

    @Test(
        "Without FrameTimeline, DrawFrames <id> on the app's RenderThread is the render lane of doFrame <id>, every one summed"
    )
    func renderLaneByID() {
        let report = FrameAnalyzer.analyze(Self.trace())
        #expect(report.method.frameSource == .frameMarkers)
        #expect(report.frames.count == 6, "a nested resynced doFrame is not a frame of its own")
        for (index, frame) in report.frames.enumerated() {
            let render = frame.lane(.render)
            #expect(render != nil, "frame \(index) has a render lane")
            let expected = (index == 4 ? ms(25) : ms(12)) + (index == 1 ? ms(2) : 0)
            #expect(
                render?.costNanoseconds == expected,
                "frame \(index): the app's DrawFrames of its id, summed; not the launcher's")
        }
    }

    @Test("DrawFrame without an id pairs with the doFrame it starts after (timeline_maxsdk28)")
    func renderLaneByTime() {
        let report = FrameAnalyzer.analyze(Self.trace(drawNames: { _ in "DrawFrame" }))
        #expect(report.frames.count == 6)
        #expect(report.frames.allSatisfy { $0.lane(.render) != nil })
        #expect(report.frames[4].lane(.render)?.costNanoseconds == ms(25))
    }

    @Test("Frame ids are read as trace processor reads them: the second word, cast as SQLite casts text")
    func frameIDs() {
        let cases: [(String, Int64?)] = [
            ("Choreographer#doFrame 123", 123), ("Choreographer#doFrame 123 extra", 123),
            ("Choreographer#doFrame  7", nil),
            ("Choreographer#doFrame - resynced to 1234 in 20.0ms", nil), ("Choreographer#doFrame", nil),
            ("Choreographer#doFrame -1", nil), ("Choreographer#doFrame 0", nil), ("Choreographer#doFrame 12abc", 12),
            ("Choreographer#doFrame 99999999999999999999", Int64.max), ("Choreographer#doFrame -42", -42),
        ]
        for (name, id) in cases {
            #expect(AndroidApp.frameID(in: Substring(name), prefix: AndroidApp.doFramePrefix) == id, "\(name)")
        }
        #expect(AndroidApp.frameID(in: "DrawFrames 5", prefix: AndroidApp.drawFramePrefix) == 5)
        #expect(AndroidApp.frameID(in: "DrawFrame 5", prefix: AndroidApp.drawFramePrefix) == 5)
        #expect(
            AndroidApp.frameID(in: "drawFrame 5", prefix: AndroidApp.drawFramePrefix) == nil,
            "names match by case, as GLOB does")
    }

    @Test(
        "android-doframe-depth: the frame ids of doFrames at depth 0 and 1, as test_android_frames_get_frame_table_with_id expects"
    )
    func frameTableDepth() throws {
        let trace = try AndroidFrameTimelineTests.read("android-doframe-depth")
        let expected = try AndroidFrameTimelineTests.expected("android-doframe-depth")
        let pid = try #require(expected["app_pid"]?.integerValue)
        let spans = SpanIndex(trace: trace, workKinds: nil)
        let table = AndroidApp.slicesByFrameID(
            prefix: AndroidApp.doFramePrefix, trace: trace, spans: spans, processID: pid)
        let rows = expected["android_frames_get_frame_table_with_id"]?.arrayValue ?? []
        #expect(table.keys.sorted() == rows.compactMap { $0["frame_id"]?.integerValue }.sorted())
        #expect(table.values.allSatisfy { $0.count == 1 && $0[0].thread == ThreadKey(processID: pid, threadID: pid) })
    }
}
