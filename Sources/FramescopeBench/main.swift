// framescope-bench: prints figures, never asserts on speed. Run in release mode:
//   swift run -c release framescope-bench [recorder|layout|diff|imaging|reader|perfetto|robust|rows|all]   (from the repository root)
//   swift run -c release framescope-bench make-trace PATH [EVENTS]   (writes the reader's synthetic trace)
//   swift run -c release framescope-bench make-category-trace PATH [FRAMES] [CATEGORIES]   (the many-category trace)
//   swift run -c release framescope-bench analyze PATH [REPETITIONS]   (read once as report reads, then the analysis alone)
//   swift run -c release framescope-bench read PATH [REPETITIONS] [--worker]   (the reader alone, every argument, one thread
//       or with its worker thread; for perf)
//   swift run -c release framescope-bench calibrate [FRAMES]   (virtual time's cost model, fitted on this machine)
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
        workerThread: arguments.contains("--worker"))
}
if arguments.first == "calibrate" {
    runCalibration(frames: arguments.count > 1 ? Int(arguments[arguments.startIndex + 1]) ?? 60 : 60)
}
let selected = Set(arguments.isEmpty ? ["all"] : arguments)
func wants(_ name: String) -> Bool { selected.contains("all") || selected.contains(name) }

print("# framescope-bench")
if wants("recorder") { runRecorderBenchmarks() }
if wants("layout") { runLayoutBenchmarks() }
if wants("diff") { runDiffBenchmarks() }
if wants("imaging") { runImagingBenchmarks() }
if wants("reader") { runReaderBenchmarks(generatedEvents: 1_000_000) }
if wants("perfetto") { runPerfettoBenchmarks(generatedEvents: 1_000_000) }
if wants("rows") { runRowsBenchmarks() }
if wants("robust") {
    runRobustnessBenchmarks()
    runAnalysisScalingBenchmarks()
    runCompareBenchmarks()
}
