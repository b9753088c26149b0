// framescope-bench: prints figures, never asserts on speed. Run in release mode:
//   swift run -c release framescope-bench [recorder|layout|diff|imaging|all]   (from the repository root)
let arguments = CommandLine.arguments.dropFirst()
let selected = Set(arguments.isEmpty ? ["all"] : arguments)
func wants(_ name: String) -> Bool { selected.contains("all") || selected.contains(name) }

print("# framescope-bench")
if wants("recorder") { runRecorderBenchmarks() }
if wants("layout") { runLayoutBenchmarks() }
if wants("diff") { runDiffBenchmarks() }
if wants("imaging") { runImagingBenchmarks() }
