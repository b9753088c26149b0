// framescope-bench: prints figures, never asserts on speed. Run in release mode:
//   swift run -c release framescope-bench [recorder|layout|diff|imaging|reader|stages|perfetto|robust|rows|all]
//       (from the repository root)
//   swift run -c release framescope-bench make-trace PATH [EVENTS]   (writes the reader's synthetic trace)
//   swift run -c release framescope-bench make-category-trace PATH [FRAMES] [CATEGORIES]   (the many-category trace)
//   swift run -c release framescope-bench stages [PATH ...] [--repetitions N]   (report's stages: read, analysis,
//       text and JSON rendering, end to end, beside simdjson and json.load; no PATH: the generated 1M-event trace
//       and the three largest third-party traces)
//   swift run -c release framescope-bench analyze PATH [REPETITIONS]   (the same stages, one file)
//   swift run -c release framescope-bench read PATH [REPETITIONS] [--worker] [--report]
//       (the reader alone, one thread or with its worker thread, every argument or only those
//       report reads; for perf)
//   swift run -c release framescope-bench xctrace [PATH] [--intervals N]   (the Instruments XML reader beside
//       Python's iterparse, and a child report's peak RSS; no PATH: tools/make_xctrace_export.py writes one)
//   swift run -c release framescope-bench calibrate [FRAMES]   (virtual time's cost model, fitted on this machine)
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "make-trace", arguments.count >= 2 {
    let events = arguments.count > 2 ? Int(arguments[arguments.startIndex + 2]) ?? 1_000_000 : 1_000_000
    writeSyntheticTrace(events: events, to: arguments[arguments.startIndex + 1])
}
if arguments.first == "make-category-trace", arguments.count >= 2 {
    let rest = Array(arguments.dropFirst(2))
    writeManyCategoryTrace(
        frames: rest.first.flatMap { Int($0) } ?? 40_000, categories: rest.dropFirst().first.flatMap { Int($0) } ?? 200,
        to: arguments[arguments.startIndex + 1])
}
if arguments.first == "analyze", arguments.count >= 2 {
    let repetitions = arguments.count > 2 ? Int(arguments[arguments.startIndex + 2]) ?? 5 : 5
    runAnalysisBenchmark(path: arguments[arguments.startIndex + 1], repetitions: repetitions)
}
if arguments.first == "read", arguments.count >= 2 {
    let repetitions = arguments.count > 2 ? Int(arguments[arguments.startIndex + 2]) ?? 5 : 5
    runReadBenchmark(
        path: arguments[arguments.startIndex + 1], repetitions: repetitions,
        workerThread: arguments.contains("--worker"),
        asReportReads: arguments.contains("--report"))
}
if arguments.first == "xctrace" {
    let rest = Array(arguments.dropFirst())
    let flag = rest.firstIndex(of: "--intervals")
    let intervals = flag.flatMap { $0 + 1 < rest.count ? Int(rest[$0 + 1]) : nil } ?? 300_000
    let path = rest.enumerated().first { index, value in !value.hasPrefix("--") && index != flag.map { $0 + 1 } }?.1
    runXctraceBenchmark(path: path, intervals: intervals)
    exit(0)
}
if arguments.first == "calibrate" {
    runCalibration(frames: arguments.count > 1 ? Int(arguments[arguments.startIndex + 1]) ?? 60 : 60)
}
if arguments.first == "stages" {
    let rest = Array(arguments.dropFirst())
    let flag = rest.firstIndex(of: "--repetitions")
    let repetitions = flag.flatMap { rest.index(after: $0) < rest.endIndex ? Int(rest[rest.index(after: $0)]) : nil }
    let paths = rest.enumerated().filter { index, _ in flag.map { index != $0 && index != $0 + 1 } ?? true }.map(\.1)
    runStagesBenchmarks(paths: paths, repetitions: repetitions)
    exit(0)
}
let selected = Set(arguments.isEmpty ? ["all"] : arguments)
func wants(_ name: String) -> Bool { selected.contains("all") || selected.contains(name) }

print("# framescope-bench")
if wants("recorder") { runRecorderBenchmarks() }
if wants("layout") { runLayoutBenchmarks() }
if wants("diff") { runDiffBenchmarks() }
if wants("imaging") { runImagingBenchmarks() }
if wants("reader") { runReaderBenchmarks(generatedEvents: 1_000_000) }
if selected.contains("all") { runStagesBenchmarks(paths: [], repetitions: nil) }
if wants("perfetto") { runPerfettoBenchmarks(generatedEvents: 1_000_000) }
if wants("rows") { runRowsBenchmarks() }
if wants("robust") {
    runRobustnessBenchmarks()
    runAnalysisScalingBenchmarks()
    runCompareBenchmarks()
}
