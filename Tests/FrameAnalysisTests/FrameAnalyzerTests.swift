import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

/// Builds traces by hand in milliseconds so expected figures can be worked out on paper.
struct TraceSketch {
    var trace = Trace()
    let main = ThreadKey(processID: 1, threadID: 1)
    let worker = ThreadKey(processID: 1, threadID: 2)

    init(mainName: String? = "main", metadataMain: Bool = false, interval: Int64? = nil) {
        trace.setThread(TraceThread(key: main, name: mainName, sortIndex: 0))
        trace.setThread(TraceThread(key: worker, name: "worker-1", sortIndex: 1))
        if metadataMain { trace.metadata.mainThread = main }
        trace.metadata.frameIntervalNanoseconds = interval
    }

    mutating func span(
        _ name: String, _ category: String, from start: Double, to end: Double, on thread: ThreadKey? = nil,
        arguments: [Argument] = []
    ) {
        trace.append(
            .complete, name: name, category: category, thread: thread ?? main, timestamp: ms(start),
            duration: ms(end) - ms(start), arguments: arguments)
    }
}

func ms(_ value: Double) -> Int64 { Int64((value * 1_000_000).rounded()) }

@Suite("Frame analysis")
struct FrameAnalyzerTests {
    @Test(
        "Without frame events each stretch of main-thread work is an estimated frame, late only by what it ran past P")
    func estimatedFrames() throws {
        var sketch = TraceSketch()
        let p = 16.666667
        sketch.span("a", "layout", from: 1, to: 6)
        sketch.span("b", "layout", from: 20, to: 40)
        sketch.span("c", "layout", from: 41, to: 42)
        sketch.span("d", "layout", from: 100, to: 101)
        let report = FrameAnalyzer.analyze(sketch.trace)
        #expect(report.method.frameSource == .estimated)
        #expect(report.method.frameIntervalSource == .defaultRate)
        #expect(report.frames.count == 4, "one frame per stretch of work; idle time makes none")
        let late = try #require(report.frames.first { $0.overrun > 0 })
        #expect(late.workStart == ms(20))
        #expect(abs(Double(late.overrun) / 1e6 - (20 - p)) < 1e-3, "late by what the 20 ms stretch ran past P")
        #expect(report.frames.allSatisfy { $0.outcome == .estimated })
        #expect(report.summary.lateFrames == 1)
        #expect(report.summary.missedVsyncs == 1)
        #expect(report.summary.slowFrames == 1)
        #expect(report.summary.frozenFrames == 0)
        #expect(report.frames.map(\.mainThreadNanoseconds) == [ms(5), ms(20), ms(1), ms(1)])
    }

    @Test("Self time gives each moment to the innermost span, so categories add up to the frame's cost")
    func selfTimeByCategory() throws {
        var sketch = TraceSketch()
        sketch.span("frame", "frame", from: 0, to: 10)
        sketch.span("layout", "layout", from: 1, to: 4)
        sketch.span("decode", "image-decode", from: 5, to: 9)
        sketch.span("measure", "layout", from: 6, to: 7)
        let report = FrameAnalyzer.analyze(sketch.trace)
        let frame = try #require(report.frames.first)
        #expect(report.method.frameSource == .frameSpans)
        #expect(frame.mainThreadNanoseconds == ms(10))
        #expect(
            frame.mainByCategory == [
                FrameAnalyzer.unattributedCategory: ms(3), "layout": ms(4), "image-decode": ms(3),
            ],
            "the frame span is structure: its own time is unattributed, not a cost named frame")
        let layout = try #require(report.categories.first { $0.name == "layout" })
        #expect(layout.spanCount == 2)
        #expect(layout.mainNanoseconds == ms(4))
        #expect(report.categories.first?.name == "layout", "largest main-thread cost first")
    }

    @Test("Frame spans take their vsync and budget from since-vsync-ns and budget-ns")
    func frameSpanArguments() throws {
        var sketch = TraceSketch(metadataMain: true, interval: ms(8.333333))
        let budget = Argument("budget-ns", .int(ms(8.333333)))
        sketch.span(
            "frame", "frame", from: 10.5, to: 12, arguments: [Argument("since-vsync-ns", .int(ms(0.5))), budget])
        sketch.span(
            "frame", "frame", from: 18.5, to: 30, arguments: [Argument("since-vsync-ns", .int(ms(0.167))), budget])
        sketch.span("decode", "image-decode", from: 11, to: 21, on: sketch.worker)
        let report = FrameAnalyzer.analyze(sketch.trace)
        #expect(report.method.frameIntervalSource == .traceMetadata)
        #expect(report.method.mainThreadRule == .traceMetadata)
        #expect(report.frames.map(\.vsync) == [ms(10), ms(18.5) - ms(0.167)])
        #expect(report.frames[1].deadline == ms(18.5) - ms(0.167) + ms(8.333333))
        #expect(report.frames[0].overrun < 0)
        #expect(report.frames[1].overrun > 0)
        // The worker's 10 ms split at the second frame's vsync.
        let firstWindow = report.frames[1].vsync - ms(11)
        #expect(report.frames[0].backgroundByCategory["image-decode"] == firstWindow)
        #expect(report.frames[1].backgroundByCategory["image-decode"] == ms(10) - firstWindow)
        #expect(report.categories.first { $0.name == "image-decode" }?.backgroundNanoseconds == ms(10))
    }

    @Test("The main thread comes from the flag, then metadata, then a main-like name, then the busiest thread")
    func mainThreadRules() {
        var named = TraceSketch(mainName: "CrRendererMain")
        named.span("x", "a", from: 0, to: 1)
        named.span("y", "a", from: 0, to: 50, on: named.worker)
        #expect(FrameAnalyzer.analyze(named.trace).method.mainThreadRule == .threadName)
        #expect(FrameAnalyzer.analyze(named.trace).method.mainThread == named.main)

        var anonymous = TraceSketch(mainName: nil)
        anonymous.span("x", "a", from: 0, to: 1)
        anonymous.span("y", "a", from: 0, to: 50, on: anonymous.worker)
        let busiest = FrameAnalyzer.analyze(anonymous.trace)
        #expect(busiest.method.mainThreadRule == .busiestThread)
        #expect(busiest.method.mainThread == anonymous.worker)

        let flagged = FrameAnalyzer.analyze(anonymous.trace, options: AnalysisOptions(mainThread: anonymous.main))
        #expect(flagged.method.mainThreadRule == .option)
        #expect(flagged.method.mainThread == anonymous.main)
    }

    @Test("--fps overrides the interval, and at 120 fps the same work misses more vsyncs")
    func framesPerSecondOption() throws {
        var sketch = TraceSketch()
        sketch.span("work", "layout", from: 0, to: 20)
        let at60 = FrameAnalyzer.analyze(sketch.trace)
        let at120 = FrameAnalyzer.analyze(sketch.trace, options: AnalysisOptions(frameRate: FrameRate(hertz: 120)))
        #expect(at120.method.frameRate.intervalNanoseconds == 8_333_333)
        #expect(at60.summary.missedVsyncs == 1)
        #expect(at120.summary.missedVsyncs == 2)
    }

    @Test("A frame longer than 700 ms is frozen and not also slow")
    func frozenFrame() {
        var sketch = TraceSketch()
        sketch.span("stall", "layout", from: 0, to: 800)
        sketch.span("ok", "layout", from: 801, to: 802)
        let summary = FrameAnalyzer.analyze(sketch.trace).summary
        #expect(summary.frozenFrames == 1)
        #expect(summary.slowFrames == 0)
        #expect(summary.frameCount == 2)
    }

    @Test("Hitch time ratio is hitch milliseconds per measured second, banded as Apple does")
    func hitchTimeRatio() throws {
        var sketch = TraceSketch(interval: ms(10))
        sketch.span("late", "layout", from: 0, to: 12)  // 2 ms late
        sketch.span("idle", "layout", from: 990, to: 991)  // measured ends at the deadline 1000
        let summary = FrameAnalyzer.analyze(sketch.trace).summary
        #expect(summary.hitchNanoseconds == ms(2))
        #expect(summary.measuredNanoseconds == ms(1000))
        #expect(abs(summary.hitchTimeRatio - 2.0) < 1e-9)
        #expect(summary.hitchBand == .good)
        #expect(abs(summary.frameDelaySeconds - 0.002) < 1e-12)
        #expect(FrameAnalyzer.hitchBand(4.999) == .good)
        #expect(FrameAnalyzer.hitchBand(5) == .warning)
        #expect(FrameAnalyzer.hitchBand(9.999) == .warning)
        #expect(FrameAnalyzer.hitchBand(10) == .critical)
    }

    @Test("Worst frames come largest overrun first with their top spans")
    func worstFrames() throws {
        var sketch = TraceSketch(interval: ms(10))
        sketch.span("small", "layout", from: 0, to: 11)
        sketch.span("big", "layout", from: 20, to: 35)
        sketch.span("inner", "image-decode", from: 21, to: 30)
        let report = FrameAnalyzer.analyze(sketch.trace, options: AnalysisOptions(worstFrameCount: 1))
        let worst = try #require(report.worstFrames.first)
        #expect(report.worstFrames.count == 1)
        #expect(worst.frame.workStart == ms(20))
        #expect(worst.topSpans.map(\.name) == ["inner", "big"])
        #expect(worst.topSpans.map(\.nanoseconds) == [ms(9), ms(6)])
    }

    @Test(
        "Ties in a frame's top spans and a thread's top category go by name, not by the order a file named them in",
        arguments: [false, true])
    func tiesGoByName(reversed: Bool) throws {
        // Four spans of 2 ms each in one frame: the top three are the first three names in
        // order, whichever order the trace interns them in (a JSON trace and its Perfetto
        // conversion intern in different orders). On the worker, two categories tie on self time.
        var sketch = TraceSketch(interval: ms(20))
        let names = ["delta", "bravo", "charlie", "alpha"]
        for (index, name) in (reversed ? names.reversed() : names).enumerated() {
            sketch.span(name, "layout", from: Double(index * 2), to: Double(index * 2 + 2))
        }
        let categories = ["zeta", "eta"]
        for (index, category) in (reversed ? categories.reversed() : categories).enumerated() {
            sketch.span("w", category, from: Double(index * 3), to: Double(index * 3 + 3), on: sketch.worker)
        }
        let report = FrameAnalyzer.analyze(sketch.trace, options: AnalysisOptions(worstFrameCount: 1))
        let worst = try #require(report.worstFrames.first)
        #expect(worst.topSpans.map(\.name) == ["alpha", "bravo", "charlie"])
        #expect(worst.topSpans.allSatisfy { $0.nanoseconds == ms(2) })
        let worker = try #require(report.threads.first { $0.key == sketch.worker })
        #expect(worker.topCategory == "eta")
    }

    @Test("The text report prints thresholds from the constants that apply them")
    func thresholdsFromConstants() {
        #expect(HitchBand.legend == "good < 5, warning 5-10, critical >= 10")
        #expect(HitchBand(hitchTimeRatio: HitchBand.warningFrom.nextDown) == .good)
        #expect(HitchBand(hitchTimeRatio: HitchBand.warningFrom) == .warning)
        #expect(HitchBand(hitchTimeRatio: HitchBand.criticalFrom) == .critical)
        #expect(
            ReportFormat.trimmed(700) == "700" && ReportFormat.trimmed(16.666667) == "16.67"
                && ReportFormat.trimmed(2.5) == "2.5")
        var sketch = TraceSketch()
        sketch.span("a", "layout", from: 0, to: 5)
        let text = FrameAnalyzer.analyze(sketch.trace).text(source: "t.json")
        #expect(
            text.contains("frozen frames (> \(ReportFormat.trimmed(Double(FrameAnalyzer.frozenThreshold) / 1e6)) ms)"))
        #expect(text.contains("(\(HitchBand.legend))"))
    }

    @Test("An empty trace reports no frames without failing")
    func emptyTrace() {
        let report = FrameAnalyzer.analyze(Trace())
        #expect(report.frames.isEmpty)
        #expect(report.summary.hitchTimeRatio == 0)
        #expect(report.method.mainThread == nil)
        #expect(report.text(source: "empty").contains("frames"))
    }

    @Test("The text report matches its golden file byte for byte")
    func goldenText() throws {
        var sketch = TraceSketch(metadataMain: true, interval: ms(16.666667))
        // Frame 3 overruns into the next vsync, so the following frame starts one vsync later.
        for (frame, tick) in [0, 1, 2, 3, 5, 6].enumerated() {
            let start = Double(tick) * 16.666667
            let work = frame == 3 ? 25.0 : 4.0 + Double(frame)
            sketch.span("frame", "frame", from: start, to: start + work)
            sketch.span("layout cell", "layout", from: start + 0.5, to: start + work / 2)
            sketch.span("decode avatar", "image-decode", from: start + 1, to: start + 12, on: sketch.worker)
        }
        sketch.trace.diagnostics.append(TraceDiagnostic(.unclosedBegin, eventIndex: 7, "B event 'x' never closed"))
        let report = FrameAnalyzer.analyze(sketch.trace)
        try expectGolden(report.text(source: "sketch.json"), named: "report.txt")
        try expectGolden(report.markdown(source: "sketch.json"), named: "report.md")
    }
}

/// Compares `actual` with `Golden/name`; `FRAMESCOPE_UPDATE_GOLDEN=1` rewrites the file instead.
func expectGolden(_ actual: String, named name: String, filePath: String = #filePath) throws {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
    if ProcessInfo.processInfo.environment["FRAMESCOPE_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
        actual == expected,
        "differs from Golden/\(name); rerun with FRAMESCOPE_UPDATE_GOLDEN=1 after checking the change")
}
