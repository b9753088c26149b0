// framescope-bench: prints figures, never asserts on speed. Run in release mode:
//   swift run -c release framescope-bench [recorder|layout|diff|imaging|reader|robust|all]   (from the repository root)
//   swift run -c release framescope-bench make-trace PATH [EVENTS]   (writes the reader's synthetic trace)
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "make-trace", arguments.count >= 2 {
    let events = arguments.count > 2 ? Int(arguments[arguments.startIndex + 2]) ?? 1_000_000 : 1_000_000
    writeSyntheticTrace(events: events, to: arguments[arguments.startIndex + 1])
}
let selected = Set(arguments.isEmpty ? ["all"] : arguments)
func wants(_ name: String) -> Bool { selected.contains("all") || selected.contains(name) }

print("# framescope-bench")
if wants("recorder") { runRecorderBenchmarks() }
if wants("layout") { runLayoutBenchmarks() }
if wants("diff") { runDiffBenchmarks() }
if wants("imaging") { runImagingBenchmarks() }
if wants("reader") { runReaderBenchmarks(generatedEvents: 1_000_000) }
if wants("robust") {
    runRobustnessBenchmarks()
    runAnalysisScalingBenchmarks()
    runCompareBenchmarks()
}
