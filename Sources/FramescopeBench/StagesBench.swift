import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace
import FrameTraceReader

/// The stages of one `framescope report` run, in nanoseconds, each timed as `ReportCommand` runs
/// it: the read (only the analysis's argument keys), the analysis (handed the only copy of the
/// trace, `analyze(consume trace)`), and the rendering of the default text table and of
/// `--format json`.
struct ReportStages {
    var read: UInt64
    var analysis: UInt64
    /// The default output: the text table, workflow commands neutralized, with its newline, as
    /// UTF-8 bytes (what `report` writes to standard output or `--out`).
    var text: UInt64
    /// `--format json`, its pieces counted as they come (not written anywhere); 0 when not asked.
    var json: UInt64
    var events: Int
    var textBytes: Int
    var jsonBytes: Int

    /// What `framescope report TRACE` costs in process: read, analyse, render the text table.
    var endToEnd: UInt64 { read + analysis + text }
    /// The same with `--format json` instead of the table.
    var endToEndJSON: UInt64 { read + analysis + json }
}

/// One `framescope report` run on `path`, cut into its stages (see ``ReportStages``); `nil` when
/// the trace cannot be read. `allCores: false` reads and analyses on one thread.
///
/// The one mechanism the benchmarks time `report` with: `stages`, `analyze` and the reader
/// section's end-to-end figures all come from here.
func reportStages(path: String, source: String, allCores: Bool = true, json: Bool = true) -> ReportStages? {
    var options = AnalysisOptions()
    options.usesAllCores = allCores
    let readStart = benchNow()
    // As `ReportCommand.readTrace` reads: only the argument keys the analysis looks at.
    guard
        let trace = try? TraceReader.read(
            contentsOf: path, arguments: .only(FrameAnalyzer.argumentKeys), workerThread: allCores)
    else { return nil }
    let events = trace.events.count
    let analysisStart = benchNow()
    // Handed over, as `report` hands it, so the analysis frees the events when it is done with them.
    let report = FrameAnalyzer.analyze(consume trace, options: options)
    let textStart = benchNow()
    let text = Array((UntrustedText.neutralizingWorkflowCommands(report.text(source: source)) + "\n").utf8)
    let textEnd = benchNow()
    var jsonBytes = 0
    if json { report.writeJSON(source: source) { jsonBytes += $0.count } }
    let jsonEnd = benchNow()
    blackHole(text)
    blackHole(report)
    return ReportStages(
        read: analysisStart - readStart, analysis: textStart - analysisStart, text: textEnd - textStart,
        json: json ? jsonEnd - textEnd : 0, events: events, textBytes: text.count, jsonBytes: jsonBytes)
}

/// Best (and median) of each stage over `repetitions` runs; the end-to-end figures are the best
/// of each run's own sum, not the sum of the bests.
struct StageFigures {
    var runs: [ReportStages]

    func best(_ stage: (ReportStages) -> UInt64) -> Double { Double(runs.map(stage).min() ?? 0) / 1e6 }
    func median(_ stage: (ReportStages) -> UInt64) -> Double {
        let sorted = runs.map(stage).sorted()
        return sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2]) / 1e6
    }
}

/// `framescope-bench stages [PATH ...] [--repetitions N]` (and `analyze PATH [N]`, one file):
/// `report`'s stages, read, analysis, text and JSON rendering, and end to end, each beside
/// simdjson's parse and Python's `json.load` of the same file in the same run. Without paths: the
/// generated 1,000,000-event trace and the three largest files of the third-party corpus.
func runStagesBenchmarks(paths: [String], repetitions: Int?) {
    section("report's stages (read, analysis, render) beside simdjson and json.load, same run")
    var files: [(path: String, label: String, repetitions: Int, generated: Bool)] = paths.map {
        ($0, ($0 as NSString).lastPathComponent, repetitions ?? 5, false)
    }
    var generatedPath: String?
    if paths.isEmpty {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-bench-stages-1000000-events.json"
        ).path
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(makeSyntheticTrace(events: 1_000_000, seed: 0x5EED)))
        generatedPath = path
        files.append((path, "generated 1M events", repetitions ?? 5, true))
        let corpus = thirdPartyCorpus()
        let largest = largestFiles(in: corpus, count: 3)
        if largest.isEmpty {
            print("(third-party corpus not found at \(corpus); skipped)")
        } else {
            print(
                "(third-party: the \(largest.count) largest files of \(corpus); none is 10 MB or more,"
                    + " so no corpus figure speaks for a large trace: the generated one does)")
        }
        for path in largest { files.append((path, (path as NSString).lastPathComponent, repetitions ?? 40, false)) }
    }
    defer { if let generatedPath { try? FileManager.default.removeItem(atPath: generatedPath) } }
    for file in files {
        stages(of: file.path, label: file.label, repetitions: file.repetitions, targets: file.generated)
    }
}

/// The third-party corpus beside the repository (`../shared/traces/third-party`).
private func thirdPartyCorpus() -> String {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/traces/third-party").path
}

/// The `count` largest `.json` files in `directory`, largest first.
private func largestFiles(in directory: String, count: Int) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let sized = names.filter { $0.hasSuffix(".json") }.map { name -> (String, Int) in
        let path = (directory as NSString).appendingPathComponent(name)
        return (path, (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }
    return sized.sorted { ($0.1, $1.0) > ($1.1, $0.0) }.prefix(count).map(\.0)
}

/// Times `report`'s stages on one file, best of `repetitions` (after one run discarded as a
/// warm-up), then simdjson's parse and `json.load` on it. `targets`: issue 55's targets apply
/// (the generated trace only).
private func stages(of path: String, label: String, repetitions: Int, targets: Bool) {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard reportStages(path: path, source: path) != nil else {
        print("\(label): the reader failed")
        return
    }
    var runs: [ReportStages] = []
    for _ in 0..<max(1, repetitions) {
        guard let run = reportStages(path: path, source: path) else { return }
        runs.append(run)
    }
    let figures = StageFigures(runs: runs)
    let count = runs.count
    func line(_ stage: String, _ value: (ReportStages) -> UInt64, _ note: String = "") {
        figure(
            "\(label): \(stage)", figures.best(value), "ms",
            note: "median \(formatFixed(figures.median(value), decimals: 1)) ms\(note.isEmpty ? "" : "; \(note)")")
    }
    figure(
        "\(label): file", Double(size) / 1e6, "MB",
        note:
            "\(runs[0].events) events; text \(runs[0].textBytes) bytes, JSON \(runs[0].jsonBytes) bytes; best of \(count)"
    )
    line("read", \.read, "\(formatFixed(Double(size) / max(figures.best(\.read), 1e-9) / 1e3, decimals: 0)) MB/s")
    line("analysis", \.analysis)
    line("render, text (default)", \.text)
    line("render, --format json", \.json)
    line("end to end (read+analysis+text)", \.endToEnd)
    line("end to end with --format json", \.endToEndJSON)
    let endToEnd = figures.best(\.endToEnd)
    let afterRead = runs.map { Double($0.analysis + $0.text) }.min()! / 1e6
    figure(
        "\(label): after the read (analysis+text)", afterRead, "ms",
        note: "\(formatFixed(afterRead / max(endToEnd, 1e-9) * 100, decimals: 0))% of end to end")
    baselines(
        of: path, label: label, size: size, endToEnd: endToEnd, read: figures.best(\.read),
        json: figures.best(\.json), targets: targets)
}

/// simdjson's parse and `json.load` on the file, beside `report`'s best end to end, read and
/// JSON render times (milliseconds).
private func baselines(
    of path: String, label: String, size: Int, endToEnd: Double, read: Double, json: Double, targets: Bool
) {
    let baselineRepetitions = size > 50_000_000 ? 3 : 20
    if let simdjson = bestPythonSeconds(
        path: path, repetitions: baselineRepetitions + 2, setup: "import simdjson\nparser = simdjson.Parser()",
        parse: "parser.parse(f.read())")
    {
        figure(
            "\(label): simdjson parse (pysimdjson)", simdjson * 1e3, "ms",
            note: "best of \(baselineRepetitions + 2), file read included, in Python")
        figure(
            "\(label): end to end / simdjson", endToEnd / (simdjson * 1e3), "x",
            note: "time ratio\(targets ? "; target <= 1.25 (issue 55)" : "")")
        figure("\(label): read / simdjson", read / (simdjson * 1e3), "x", note: "time ratio")
        figure(
            "\(label): render, --format json / simdjson", json / (simdjson * 1e3), "x",
            note: "time ratio\(targets ? "; target <= 0.4 (issue 55)" : "")")
    } else {
        print("(simdjson skipped: python3 -c \"import simdjson\" failed; pip install pysimdjson)")
    }
    if let python = bestPythonSeconds(
        path: path, repetitions: baselineRepetitions, setup: "import json", parse: "json.load(f)")
    {
        figure("\(label): python json.load", python * 1e3, "ms", note: "best of \(baselineRepetitions)")
        figure(
            "\(label): json.load / end to end", python * 1e3 / endToEnd, "x",
            note: "speed ratio; > 1 means report is faster\(targets ? "; target >= 10" : "")")
    } else {
        print("(python3 not available; json.load skipped)")
    }
}
