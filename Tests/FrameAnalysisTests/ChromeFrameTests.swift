import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// A fixture of this target, read by path (fixtures are not bundled resources).
func analysisFixture(_ name: String) throws -> Trace {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        .appendingPathComponent(name).path
    return try TraceReader.read(contentsOf: path)
}

/// Chrome's own frame accounting: the frames a report finds in a Chrome trace are the ones Chrome
/// recorded for the page's renderer, not a grid laid over its main thread.
@Suite("Chrome frame events")
struct ChromeFrameTests {
    @Test(
        "A smooth 120 Hz animation (287 frames, one dropped, FORKED and NO_UPDATE reporters, browser-process reporters) is good"
    )
    func smoothAnimation() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-smooth-animation.json"))
        #expect(report.method.frameSource == .chromeFrames)
        #expect(report.method.frameRate.intervalNanoseconds == 8_333_333)
        #expect(report.method.mainThread == ThreadKey(processID: 200, threadID: 1))
        #expect(report.summary.frameCount == 287)
        #expect(report.summary.droppedFrames == 1)
        #expect(report.summary.lateFrames == 1)
        #expect(report.summary.slowFrames == 1)
        #expect(report.summary.hitchBand == .good)
        // Main-thread tasks of 6 ms inside 8.33 ms frames are not late.
        #expect(report.frames.filter { $0.outcome == .presented }.allSatisfy { $0.overrun <= 0 })
    }

    @Test("BeginFrame/DrawFrame/DroppedFrame settle as DevTools' queue does: idle BeginFrames are no frames")
    func legacyEvents() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-legacy-frames.json"))
        #expect(report.method.frameSource == .chromeFrames)
        #expect(report.method.frameSourceDetail == .chromeBeginFrames(idleBeginFrames: 3))
        #expect(report.summary.frameCount == 12)
        #expect(report.summary.droppedFrames == 2)
        #expect(report.summary.lateFrames == 2)
        #expect(report.frames.filter { $0.outcome == .presented }.count == 10)
        // A dropped frame is shown one vsync late: exactly one missed vsync each.
        for frame in report.frames where frame.outcome == .dropped {
            #expect(frame.overrun == report.method.frameRate.intervalNanoseconds)
        }
    }

    @Test("An interval forced longer than Chrome's frame spacing cannot make hitch time pass the measured time")
    func overlappingFramesHitchBounded() throws {
        // The pipeline fuzzer's first find: at --fps 1, the dropped frames' late spans overlap.
        let report = FrameAnalyzer.analyze(
            try analysisFixture("chrome-legacy-frames.json"), options: AnalysisOptions(frameRate: FrameRate(hertz: 1)))
        #expect(report.summary.lateFrames == 2)
        #expect(report.summary.hitchNanoseconds <= report.summary.measuredNanoseconds)
        #expect(report.summary.hitchTimeRatio <= 1000)
        // Frame delay stays the plain sum of overruns.
        #expect(report.summary.frameDelaySeconds == 2)
    }

    @Test("check and compare say where each side's frames came from, and compare warns when the sources differ")
    func verdictsNameTheirFrameSource() throws {
        let chrome = FrameAnalyzer.analyze(try analysisFixture("chrome-legacy-frames.json"))
        var sketch = TraceSketch()
        for index in 0..<12 { sketch.span("work", "app", from: Double(index) * 20, to: Double(index) * 20 + 4) }
        let estimated = FrameAnalyzer.analyze(sketch.trace)
        let same = Comparison(base: [chrome], head: [chrome], baseSources: ["a.json"], headSources: ["b.json"])
        #expect(
            same.text().hasPrefix(
                "framescope compare: base a.json, 12 frames (Chrome frame events) vs head b.json, 12 frames (Chrome frame events)\n"
            ))
        #expect(!same.text().contains("warning"))
        let mixed = Comparison(base: [chrome], head: [estimated], baseSources: ["a.json"], headSources: ["b.json"])
        #expect(mixed.text().contains("(estimated frames)\nwarning: base and head found their frames differently"))
        let budget = try Budget.parse(#"{"version": 1, "limits": {"hitch-time-ratio": 5}}"#)
        let check = BudgetCheck(
            budgetSource: "b.json", traces: [.init(name: "a.json", source: "a.json", report: chrome, budget: budget)])
        #expect(
            check.text().contains(
                "a.json: FAIL, 1 of 1 rule exceeded (12 frames from Chrome frame events at 16.67 ms, Chrome BeginFrame interval)"
            ))
    }

    /// Per real Lighthouse recording: the renderer that owns CrRendererMain, and its frames by
    /// PipelineReporter outcome, one per (layer tree, sequence), a presented frame whose FORKED
    /// reporter dropped or partially presented counting as partial.
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var processID: Int64
        var presented: Int
        var partial: Int
        var dropped: Int
        var noUpdate: Int
        var description: String { file }
    }

    static let lighthouse: [Expectation] = [
        // Every partially presented frame in these recordings says it does not affect smoothness:
        // Chrome counts none of them, and neither does framescope (they count as presented).
        .init(
            file: "lighthouse__frames-blocking-time.json", processID: 82927, presented: 3, partial: 0, dropped: 5,
            noUpdate: 1),
        .init(
            file: "lighthouse__frames-iframe.json", processID: 99158, presented: 12, partial: 0, dropped: 4, noUpdate: 7
        ),
        .init(
            file: "lighthouse__frames-intercom-widget.json", processID: 10498, presented: 9, partial: 0, dropped: 38,
            noUpdate: 16),
        .init(
            file: "lighthouse__frames-render-blocking.json", processID: 50116, presented: 1, partial: 0, dropped: 1,
            noUpdate: 1),
        .init(
            file: "lighthouse__frames-user-flow-step0.json", processID: 27446, presented: 5, partial: 0, dropped: 5,
            noUpdate: 38),
        .init(
            file: "lighthouse__frames-user-flow-step3.json", processID: 27446, presented: 45, partial: 0, dropped: 0,
            noUpdate: 14),
        .init(
            file: "lighthouse__frames-user-timing.json", processID: 88357, presented: 8, partial: 0, dropped: 9,
            noUpdate: 38),
    ]

    @Test(
        "Real Lighthouse recordings: the renderer's PipelineReporter frames, by outcome",
        .enabled(
            if: LighthouseCorpus.isAvailable,
            "../shared/traces/third-party is not beside this clone: Lighthouse checks skipped"),
        arguments: lighthouse)
    func lighthouseRecording(_ expected: Expectation) throws {
        let path = LighthouseCorpus.path(expected.file)
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing from the corpus")
        let report = FrameAnalyzer.analyze(try TraceReader.read(contentsOf: path))
        #expect(report.method.frameSource == .chromeFrames)
        #expect(report.method.mainThread?.processID == expected.processID)
        guard case .chromeReporters(let noUpdate, _, _, _) = report.method.frameSourceDetail else {
            Issue.record("frames from PipelineReporter states, not \(report.method.frameSourceDetail)")
            return
        }
        #expect(noUpdate == expected.noUpdate)
        let outcomes = Dictionary(grouping: report.frames, by: \.outcome).mapValues(\.count)
        #expect(outcomes[.presented, default: 0] == expected.presented)
        #expect(outcomes[.partial, default: 0] == expected.partial)
        #expect(outcomes[.dropped, default: 0] == expected.dropped)
        #expect(report.summary.frameCount == expected.presented + expected.partial + expected.dropped)
        #expect(report.summary.droppedFrames == expected.dropped)
        #expect(report.summary.partialFrames == expected.partial)
        // Late frames are exactly Chrome's dropped ones; frames are in vsync order.
        #expect(report.summary.lateFrames == expected.dropped)
        #expect(zip(report.frames, report.frames.dropFirst()).allSatisfy { $0.vsync <= $1.vsync })
        for category in report.categories { #expect((0...1).contains(category.budgetShare ?? 0)) }
    }

    @Test("Frame spans win over Chrome's events; Chrome's events win over named markers and the estimate")
    func sourcePrecedence() throws {
        var trace = try analysisFixture("chrome-legacy-frames.json")
        #expect(
            FrameAnalyzer.analyze(trace, options: AnalysisOptions(frameMarkers: ["Paint"])).method.frameSource
                == .chromeFrames)
        let main = ThreadKey(processID: 200, threadID: 1)
        trace.append(
            .complete, name: "frame", category: FrameContract.frameCategory, thread: main, timestamp: 0,
            duration: 1_000_000,
            arguments: [Argument(FrameContract.Key.budget, .int(16_666_667))])
        let report = FrameAnalyzer.analyze(trace)
        #expect(report.method.frameSource == .frameSpans)
        #expect(report.summary.frameCount == 1)
    }
}
