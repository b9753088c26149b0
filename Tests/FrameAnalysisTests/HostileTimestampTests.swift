import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// Regression fixtures for every place where timestamps, durations or arguments read from a trace
/// used to overflow and trap: read → analyse → render → compare → check must finish on each, with
/// figures that still mean what their labels say.
@Suite("Hostile timestamps")
struct HostileTimestampTests {
    /// One fixture per trap site found by hand and by the pipeline fuzzer.
    static let fixtures = [
        "overflow-grid-deadline.json",  // the estimate's deadline past Int64.max
        "overflow-busy-and-category-totals.json",  // per-thread busy sum, category totals
        "overflow-frame-deadline.json",  // frame-span deadline and since-vsync-ns
        "overflow-since-input.json",  // since-input-ns
        "overflow-frame-totals.json",  // per-frame main-thread totals
        "overflow-percentile-and-pooled-totals.json",  // percentile totals, compare's pooled totals
        "overflow-chrome-sequence.json",  // Chrome frame sequence steps
        "time-beyond-limit.json",  // the issue's input: beyond the reader's bound
    ]

    @Test("Times beyond ±2^60 ns are dropped with a diagnostic naming the event; times at the bound are kept")
    func timeLimit() throws {
        let beyond = try analysisFixture("time-beyond-limit.json")
        #expect(beyond.events.isEmpty)
        let diagnostic = try #require(beyond.diagnostics.first { $0.kind == .invalidEvent })
        #expect(diagnostic.eventIndex == 0)
        #expect(diagnostic.message.contains("2^60 ns"))
        let atBound = try analysisFixture("overflow-grid-deadline.json")
        #expect(atBound.events.count == 2)
        // 1,152,921,504,606,846 µs: the largest whole microsecond count within the bound.
        let whole = TraceEvent.timeLimitNanoseconds / 1_000 * 1_000
        #expect(atBound.events.map(\.duration) == [whole, whole])
    }

    @Test("Read, analyse, render, compare and check finish with bounded figures", arguments: fixtures)
    func pipeline(_ name: String) throws {
        let trace = try analysisFixture(name)
        for fps in [nil, 1.0, 1000.0] as [Double?] {
            let report = FrameAnalyzer.analyze(
                trace, options: AnalysisOptions(frameRate: fps.map(FrameRate.init(hertz:))))
            #expect(!report.text(source: name).isEmpty)
            #expect(!report.markdown(source: name).isEmpty)
            #expect(!report.jsonValue(source: name).description.isEmpty)
            for category in report.categories {
                #expect((0...1).contains(category.budgetShare ?? 0), "\(category.name): a share of the measured time")
                #expect(category.mainNanoseconds >= 0 && category.backgroundNanoseconds >= 0)
            }
            for frame in report.frames {
                #expect(frame.mainThreadNanoseconds >= 0)
                #expect(frame.deadline >= frame.vsync)
            }
            #expect(report.summary.hitchTimeRatio <= 1000, "hitch time cannot exceed the measured time")
            #expect(report.summary.lateFrames <= report.summary.frameCount)
            let comparison = Comparison(
                base: [report, report], head: [report], baseSources: ["a", "b"], headSources: ["c"])
            #expect(!comparison.text().isEmpty)
            let budget = try Budget.parse(
                #"{"version": 1, "fps": 60, "limits": {"hitch-time-ratio": 5, "main-thread-ms": {"p95": 16}, "overrun-ms": {"max": 0}}}"#
            )
            let check = BudgetCheck(
                budgetSource: "b.json", traces: [.init(name: name, source: name, report: report, budget: budget)])
            #expect(!check.text().isEmpty)
        }
    }
}
