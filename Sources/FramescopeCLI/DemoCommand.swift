import Foundation
import FrameAnalysis
import FrameRuns
import FrameSimulation

/// Whether this is a debug build, whose figures are not representative.
#if DEBUG
    let isDebugBuild = true
#else
    let isDebugBuild = false
#endif

/// `framescope demo`: runs every scenario with every strategy, prints one comparison table and
/// writes a page with every run's frame timeline.
enum DemoCommand: Command {
    static let options: Set<String> = [
        "out-dir", "frames", "fps", "seed", "workers", "format", "clock", "trace-format",
    ]
    static let flags: Set<String> = ["wide"]
    static let help = """
        USAGE: framescope demo [--out-dir DIR] [--frames N] [--fps N] [--seed N] [--workers N]
                             [--clock virtual|cpu-time|real] [--trace-format chrome-json|perfetto]
                             [--format text|markdown] [--wide]

        Runs every scenario with every strategy in the simulated display loop (real workloads, on
        virtual time unless --clock real), writes one trace per run into DIR, and prints one
        side-by-side table that fits 100 columns: hitch time ratio and the lane that caused most
        of it, p95 of main-thread and of render-lane cost per frame and p95 of input latency; then
        one verdict per scenario (which strategy wins, in which lane, by how much: the figure whose
        best and worst runs are the most frames' worth apart).
        --wide and markdown add slow frames, main-thread milliseconds per frame by category,
        background and render milliseconds per frame interval, background work outside the frames
        and ignored inputs. Writes DIR/index.html: the verdicts, the table, then the frame
        timeline, lanes and tables of every run, one section per run. Progress goes to stderr.

        OPTIONS:
          --out-dir DIR   Where to write the traces (default: framescope-demo).
          --trace-format F
                          chrome-json (default: SCENARIO--STRATEGY.json) or perfetto
                          (SCENARIO--STRATEGY.pftrace: Perfetto's protobuf format).
          --frames N      Frames per run, 1-100000 (default: 60).
          --fps N         Refresh rate, 1-240 Hz (default: 60).
          --seed N        Fixes the generated content (default: 1).
          --clock C       virtual (default): the workloads count the work they do and a
                          simulated device's cost model prices it, lanes laid out one at a time
                          on the device's timeline: the same figures on any host, however busy.
                          cpu-time: as virtual, but each piece of work takes its thread's CPU
                          time on this host (moves a few percent with the host's load).
                          real: the loop waits for each vsync, work takes wall time, and the
                          lanes compete for the host's cores.
          --workers N     Background workers (default: 2 on virtual and CPU time; the core
                          count on real time).
          --format F      text (default) or markdown (every column).
          --wide          Text with every column.
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError("demo takes no positional arguments") }
        let directory = arguments.value("out-dir") ?? "framescope-demo"
        let format = try arguments.choice("format", among: [OutputFormat.text, .markdown], default: .text)
        let settings = try RunSettings(arguments, defaultFrames: 60)
        // On virtual time a debug build prices the same counted work as a release build: the same
        // figures, only slower to produce.
        let unrepresentative = isDebugBuild && settings.clock != .virtual
        let demo: Demo
        let page: String
        do {
            demo = try Demo.run(settings: settings, directory: directory, progress: progress)
            page = try demo.writePage(
                note: unrepresentative ? "Debug build: these figures are not representative." : nil)
        } catch {
            throw error.commandLineError
        }
        let table = demo.table(wide: format == .markdown || arguments.has("wide"))
        printUntrusted(
            format == .markdown
                ? table.markdown() : table.text(maxWidth: arguments.has("wide") ? nil : FrameReport.terminalWidth))
        print(format == .markdown ? "\n**Verdicts, as measured**\n" : "Verdicts, as measured")
        for verdict in demo.verdicts {
            let sentence = verdict.description
            printUntrusted(
                format == .markdown ? "- " + sentence : ReportTable.bulleted(sentence, width: FrameReport.terminalWidth)
            )
        }
        if unrepresentative {
            print(
                "note: this is a debug build, where Swift code runs many times slower than in release: these figures are"
            )
            print("      not representative; for representative figures run: swift run -c release framescope demo")
        }
        print("traces: \(directory)/ (open one in https://ui.perfetto.dev,")
        print(
            "        or run: framescope report \(directory)/<file>\((settings.traceFormat ?? .chromeJSON).fileExtension))"
        )
        print("frame timelines of every run: \(page)")
        return .success
    }
}
