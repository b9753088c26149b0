// fuzz-sources: Sources/FrameTrace Sources/FrameSupport Sources/FrameJSON Sources/FrameTraceReader Sources/FrameParquet Sources/FrameAnalysis
// fuzz-seeds: Tests/FrameAnalysisTests/Fixtures Tests/FrameTraceReaderTests/Fixtures ../shared/traces/third-party
// fuzz-merge-modules: FrameTrace FrameSupport FrameJSON FrameTraceReader FrameParquet FrameAnalysis
// libFuzzer target past the reader: read → analyse (several option sets) → render every format
// → compare → budget check, FrameTrace and FrameAnalysis compiled as one module with this harness.
//
// Besides "no crash, no trap, no hang, no sanitizer report", every report must keep the numbers
// meaningful: budget shares within 0–100%, hitch time at most the measured time, late frames at
// most the frames, no frame with negative main-thread time or a deadline before its vsync.
//
// Run: tools/fuzz.sh pipeline [SECONDS]
import Foundation

private let budget: Budget = {
    do {
        return try Budget.parse(#"{"version": 1, "fps": 60, "limits": {"hitch-time-ratio": 5, "slow-frame-share": 0.05, "frozen-frames": 0, "main-thread-ms": {"p95": 12, "max": 40}, "overrun-ms": {"p95": 0}}}"#)
    } catch {
        fatalError("the harness's budget does not parse: \(error)")
    }
}()

private let optionSets: [AnalysisOptions] = [
    AnalysisOptions(),
    AnalysisOptions(frameRate: FrameRate(hertz: 120), worstFrameCount: 3),
    AnalysisOptions(frameRate: FrameRate(hertz: 1), frameMarkers: ["a", "frame", "DrawFrame"]),
    AnalysisOptions(frameRate: FrameRate(hertz: 1000), mainThread: ThreadKey(processID: 1, threadID: 1)),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let trace = try? TraceReader.read(bytes: input) else { return 0 }
    var reports: [FrameReport] = []
    for options in optionSets {
        let report = FrameAnalyzer.analyze(trace, options: options)
        check(report)
        _ = report.text(source: "fuzz.json")
        _ = report.markdown(source: "fuzz.json")
        _ = report.jsonValue(source: "fuzz.json").description
        reports.append(report)
    }
    let comparison = Comparison(base: [reports[0], reports[1]], head: [reports[2]], baseSources: ["a", "b"], headSources: ["c"])
    _ = comparison.text()
    _ = comparison.markdown()
    let check = BudgetCheck(budgetSource: "budget.json", traces: [.init(name: "fuzz", source: "fuzz.json", report: reports[0], budget: budget)])
    _ = check.text()
    _ = check.markdown()
    return 0
}

private func check(_ report: FrameReport) {
    for category in report.categories {
        if let share = category.budgetShare { precondition((0...1).contains(share), "budget share \(share) for \(category.name)") }
        precondition(category.mainNanoseconds >= 0 && category.backgroundNanoseconds >= 0, "negative time in \(category.name)")
    }
    for frame in report.frames {
        precondition(frame.mainThreadNanoseconds >= 0, "frame \(frame.index): negative main-thread time")
        precondition(frame.deadline >= frame.vsync, "frame \(frame.index): deadline before vsync")
    }
    let summary = report.summary
    precondition(summary.hitchTimeRatio <= 1000.0001, "hitch time ratio \(summary.hitchTimeRatio) ms/s")
    precondition(summary.lateFrames <= summary.frameCount && summary.slowFrames <= summary.frameCount, "more late or slow frames than frames")
}
