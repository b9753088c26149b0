import Foundation
import FrameAnalysis
import FrameJSON
import FrameTrace
import FrameTraceReader

/// Figures for inputs whose shape once made framescope slow: a long flat JSON array (budget
/// files and a trace's top-level `metadata` go through ``JSONValue``) beside the event-array
/// reader on the same number of bytes, and the analysis of a trace with many frames and many
/// categories beside an event-heavy trace.
func runRobustnessBenchmarks() {
    section("Robustness (JSONValue on a flat array vs the event reader, same bytes)")
    var array: [UInt8] = [UInt8(ascii: "[")]
    for index in 0..<150_000 {
        if index > 0 { array.append(UInt8(ascii: ",")) }
        array.append(UInt8(ascii: "0"))
    }
    array.append(UInt8(ascii: "]"))
    let jsonTiming = measure(repetitions: 20, operations: 1) { blackHole(try? JSONValue.parse(array)) }
    let megabytes = Double(array.count) / 1e6
    figure("JSONValue: flat 150k-element array", megabytes, "MB")
    figure(
        "JSONValue: flat 150k-element array, median", jsonTiming.median / 1e6 / megabytes, "ms/MB",
        note: "\(formatFixed(jsonTiming.median / 1e6, decimals: 2)) ms per parse")

    // The event reader on a synthetic trace cut to about the same number of bytes.
    var events = max(1, array.count / 150)
    var trace = makeSyntheticTrace(events: events, seed: 0x5EED)
    if trace.count < array.count {
        events = events * array.count / max(trace.count, 1) + 1
        trace = makeSyntheticTrace(events: events, seed: 0x5EED)
    }
    let traceMegabytes = Double(trace.count) / 1e6
    let readerTiming = measure(repetitions: 20, operations: 1) { blackHole(try? TraceReader.read(bytes: trace)) }
    figure("event reader: synthetic trace", traceMegabytes, "MB", note: "\(events) events")
    figure(
        "event reader: synthetic trace, median", readerTiming.median / 1e6 / traceMegabytes, "ms/MB",
        note: "\(formatFixed(readerTiming.median / 1e6, decimals: 2)) ms per read")
}

/// A trace of `frames` framescope frame spans on the main thread, each with one child span in
/// one of `categories` categories (frame *i* gets category *i* mod `categories`): few events per
/// frame, many categories, the shape that made per-category per-frame work explode.
func makeManyCategoryTrace(frames: Int, categories: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(frames * 150)
    out.append(contentsOf: #"[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}}"#.utf8)
    for index in 0..<frames {
        let start = index * 16_667
        out.append(
            contentsOf: #",{"ph":"X","cat":"frame","name":"frame","pid":1,"tid":1,"ts":\#(start),"dur":9000}"#.utf8)
        out.append(
            contentsOf:
                #",{"ph":"X","cat":"c\#(index % categories)","name":"w","pid":1,"tid":1,"ts":\#(start + 100),"dur":\#(1000 + index % 7000)}"#
                .utf8)
    }
    out.append(UInt8(ascii: "]"))
    return out
}

/// `framescope-bench make-category-trace PATH [FRAMES] [CATEGORIES]`: writes the many-category
/// trace and exits, so that `framescope report` can be run and profiled on it.
func writeManyCategoryTrace(frames: Int, categories: Int, to path: String) -> Never {
    let bytes = makeManyCategoryTrace(frames: frames, categories: max(1, categories))
    // As the CLI's `--out` writes: a device or pipe at `path` (`/dev/null`) is written to, not
    // replaced by a regular file.
    do {
        try OutputFile.replace(path, with: bytes)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    print("wrote \(bytes.count) bytes, \(frames) frames in \(categories) categories, to \(path)")
    exit(0)
}

/// `framescope-bench analyze PATH [REPETITIONS]`: `report`'s stages on one file (read, analysis,
/// text and JSON rendering, end to end), so that the analysis' share of `framescope report` is
/// measured apart from the reader's; the same as `stages PATH`.
func runAnalysisBenchmark(path: String, repetitions: Int) -> Never {
    runStagesBenchmarks(paths: [path], repetitions: repetitions)
    exit(0)
}

/// The reader alone on one file, every argument, on one thread or with its worker thread,
/// `repetitions` times: what `perf record` should look at when reading is slow.
func runReadBenchmark(
    path: String, repetitions: Int, workerThread: Bool = false,
    asReportReads: Bool = false
) -> Never {
    let arguments: TraceReader.ArgumentSelection = asReportReads ? .only(FrameAnalyzer.argumentKeys) : .all
    var samples: [UInt64] = []
    var events = 0
    for _ in 0..<max(1, repetitions) {
        let start = benchNow()
        guard let trace = try? TraceReader.read(contentsOf: path, arguments: arguments, workerThread: workerThread)
        else {
            print("error: cannot read \(path)")
            exit(1)
        }
        samples.append(benchNow() - start)
        events = trace.events.count
    }
    samples.sort()
    figure(
        "read, best of \(samples.count)", Double(samples[0]) / 1e6, "ms",
        note: "\(events) events; median \(formatFixed(Double(samples[samples.count / 2]) / 1e6, decimals: 1)) ms")
    exit(0)
}

/// Analysis time of a trace with many frames and categories beside an event-heavy trace, per
/// 1,000 events, so that the two are comparable: O(n log n) in events keeps them close.
func runAnalysisScalingBenchmarks() {
    section("Analysis cost: many frames x many categories vs an event-heavy trace")
    func analyse(_ label: String, _ bytes: [UInt8], repetitions: Int) {
        guard let trace = try? TraceReader.read(bytes: bytes) else {
            print("\(label): the reader failed")
            return
        }
        var report: FrameReport?
        let timing = measure(repetitions: repetitions, operations: 1) { report = FrameAnalyzer.analyze(trace) }
        let events = trace.events.count
        figure(
            "\(label): analyze, median", timing.median / 1e6, "ms",
            note:
                "\(events) events, \(report?.summary.frameCount ?? 0) frames, \(report?.categories.count ?? 0) categories, \(formatFixed(Double(bytes.count) / 1e6, decimals: 1)) MB"
        )
        figure("\(label): analyze per 1,000 events", timing.median / 1e3 / Double(max(events, 1)), "ms")
    }
    analyse("40k frames x 200 categories", makeManyCategoryTrace(frames: 40_000, categories: 200), repetitions: 5)
    analyse("event-heavy synthetic trace", makeSyntheticTrace(events: 400_000, seed: 0x5EED), repetitions: 5)
}

private let compareOnlyVariable = "FRAMESCOPE_BENCH_COMPARE_ONLY"

/// `compare A A` on the 40k-frame, 200-category trace: the comparison alone (both reports made),
/// end to end in process (read and analyse both sides, compare, render the text), and the peak
/// resident memory of a process that does only that, against one that only reads and analyses.
func runCompareBenchmarks() {
    if let path = ProcessInfo.processInfo.environment[compareOnlyVariable] { compareOnly(path) }
    section("compare A A: 40k frames x 200 categories")
    let bytes = makeManyCategoryTrace(frames: 40_000, categories: 200)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-bench-compare.json").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        print("could not write \(path)")
        return
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard let trace = try? TraceReader.read(contentsOf: path) else {
        print("the reader failed")
        return
    }
    let report = FrameAnalyzer.analyze(trace)
    var comparison: Comparison?
    let statistics = measure(repetitions: 5, operations: 1) {
        comparison = Comparison(base: [report], head: [report], baseSources: ["A"], headSources: ["A"])
    }
    figure(
        "compare: the comparison alone, median of 5", statistics.median / 1e6, "ms",
        note: "\(comparison?.metrics.count ?? 0) metrics, \(report.summary.frameCount) frames a side")
    var endToEnd = UInt64.max
    for _ in 0..<3 {
        let start = benchNow()
        guard let base = try? TraceReader.read(contentsOf: path), let head = try? TraceReader.read(contentsOf: path)
        else { return }
        let result = Comparison(
            base: [FrameAnalyzer.analyze(base)], head: [FrameAnalyzer.analyze(head)], baseSources: [path],
            headSources: [path])
        blackHole(result.text())
        endToEnd = min(endToEnd, benchNow() - start)
    }
    figure(
        "compare: end to end (read, analyse both, compare, text), best of 3", Double(endToEnd) / 1e6, "ms",
        note: "\(formatFixed(Double(bytes.count) / 1e6, decimals: 1)) MB a side; target < 500 ms")
    var environment = ProcessInfo.processInfo.environment
    func peak(_ mode: String) -> Int? {
        environment[compareOnlyVariable] = path + "\n" + mode
        return run(CommandLine.arguments[0], ["robust"], environment: environment)?
            .split(separator: "\n").first { $0.hasPrefix("compare-only ") }
            .flatMap { Int($0.split(separator: " ")[1]) }
    }
    if let analysed = peak("analyse"), let compared = peak("compare"), analysed > 0, compared > 0 {
        figure(
            "compare: peak RSS of a process reading and analysing both sides", Double(analysed) / 1024, "MiB",
            note: "VmHWM")
        figure(
            "compare: peak RSS of a process that also compares", Double(compared) / 1024, "MiB",
            note:
                "\(compared >= analysed ? "+" : "-")\(formatFixed(Double(abs(compared - analysed)) / 1024, decimals: 1)) MiB for the comparison"
        )
    } else {
        print("(peak RSS not measured: no /proc/self/status, or the child run failed)")
    }
}

/// The compare-only mode: read and analyse the file twice, compare when asked, print
/// `compare-only <peak RSS KiB>`, exit.
private func compareOnly(_ request: String) -> Never {
    let parts = request.split(separator: "\n").map(String.init)
    guard parts.count == 2, let base = try? TraceReader.read(contentsOf: parts[0]),
        let head = try? TraceReader.read(contentsOf: parts[0])
    else {
        print("compare-only failed")
        exit(1)
    }
    let reports = (FrameAnalyzer.analyze(base), FrameAnalyzer.analyze(head))
    if parts[1] == "compare" {
        blackHole(Comparison(base: [reports.0], head: [reports.1], baseSources: ["A"], headSources: ["A"]).text())
    }
    blackHole(reports)
    print("compare-only \(peakResidentKilobytes() ?? -1)")
    exit(0)
}
