import Foundation
import FrameAnalysis
import FrameRuns
import FrameScope
import FrameSimulation
import FrameTrace
import FrameTraceReader

/// `framescope simulate`: runs one scenario with one strategy in the simulated display loop.
enum SimulateCommand: Command {
    static let options: Set<String> = ["strategy", "fps", "frames", "seed", "out", "workers", "clock", "trace-format"]
    static let flags: Set<String> = ["stream"]
    static var help: String {
        var text = """
            USAGE: framescope simulate SCENARIO [--strategy S] [--fps N] [--frames N] [--seed N] [--workers N]
                                  [--clock virtual|cpu-time|real] [--trace-format F] [--stream]
                                  --out TRACE

            Runs real workloads frame by frame on a simulated display: a vsync grid drives the main
            thread on virtual time (or CPU or real time), a worker pool runs background work, a
            render-server thread composites each frame. Writes a trace (Chrome JSON, or Perfetto
            protobuf) and prints the frame report's summary.

            OPTIONS:
              --strategy S   How the scenario does its work (default: the first listed).
              --fps N        Refresh rate, 1-240 Hz (default: 60; 120 for ProMotion-style displays).
              --frames N     Frames to run, 1-100000 (default: 180).
              --seed N       Fixes the generated content (default: 1).
              --clock C      virtual (default): the workloads count the work they do (pixels
                             decoded and drawn, solver operations, rows bound) and a simulated
                             device's cost model prices it; the lanes are laid out one at a time
                             on the device's timeline. The same seed gives the same trace on any
                             host, however busy (trace clock "virtual").
                             cpu-time: as virtual, but each piece of work takes its thread's CPU
                             time on this host (trace clock "cpu-time"; moves a few percent with
                             the host's load).
                             real: the loop waits for each vsync, work takes wall time, and the
                             lanes compete for the host's cores.
              --workers N    Background workers (default: 2 on virtual and CPU time; the core
                             count on real time).
              --out TRACE    Where to write the trace (required). A name ending .pftrace or
                             .perfetto-trace gets Perfetto's protobuf format.
              --trace-format F
                             chrome-json or perfetto, whatever TRACE's name (default: by name;
                             chrome-json otherwise).
              --stream       Write the trace as the run goes (through TraceStream),
                             flushed every \(ScenarioRun.streamFlushFrames) frames with progress on stderr: between
                             flushes the file is a complete trace, so a long run can be watched
                             and killed (see `framescope repair` for a kill mid-flush).

            SCENARIOS AND STRATEGIES:
            """
        // One column as wide as the longest strategy name: names are never cut; summaries wrap
        // under themselves so that every line fits 100 columns.
        let width = ScenarioCatalog.all.flatMap(\.strategies).map(\.name.count).max() ?? 0
        for scenario in ScenarioCatalog.all {
            text += "\n" + wrapped("\(scenario.name): \(scenario.summary)", first: "  ", rest: "    ") + "\n"
            for strategy in scenario.strategies {
                let column = "    \(strategy.name.padding(toLength: width, withPad: " ", startingAt: 0))  "
                text +=
                    wrapped(strategy.summary, first: column, rest: String(repeating: " ", count: column.count)) + "\n"
            }
        }
        return text
    }

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError("simulate takes one scenario: \(ScenarioCatalog.all.map(\.name).joined(separator: ", "))")
        }
        guard let descriptor = ScenarioCatalog.scenario(named: name) else {
            throw UsageError(
                "unknown scenario '\(name)'; choose one of \(ScenarioCatalog.all.map(\.name).joined(separator: ", "))")
        }
        let strategy = try arguments.choice(
            "strategy", among: descriptor.strategies.map(\.name), default: descriptor.strategies[0].name)
        guard let out = arguments.value("out") else { throw UsageError("simulate needs --out TRACE") }
        let settings = try RunSettings(arguments, defaultFrames: 180)
        let run: ScenarioRun
        do {
            run = try ScenarioRun.execute(
                descriptor, strategy: strategy, settings: settings, tracePath: out, streaming: arguments.has("stream"),
                progress: progress)
        } catch {
            throw error.commandLineError
        }
        print(run.report.text(source: out))
        print("wrote \(out)")
        return .success
    }
}

extension RunSettings {
    /// The refresh rates `simulate` and `demo` accept: 1 to 240 Hz, the displays that exist.
    static let commandLineHertz: ClosedRange<Double> = 1...240

    /// The loop settings `simulate` and `demo` share, from their options.
    init(_ arguments: ParsedArguments, defaultFrames: Int) throws(UsageError) {
        let clock = try arguments.choice("clock", among: SimulationClock.allCases, default: .virtual)
        self.init(
            frameRate: try arguments.frameRate("fps", in: Self.commandLineHertz) ?? .standard,
            frames: try arguments.integer("frames", default: defaultFrames, in: 1...100_000),
            seed: UInt64(try arguments.integer("seed", default: 1, in: 0...Int.max)),
            workers: arguments.value("workers") == nil
                ? nil : try arguments.integer("workers", default: 1, in: 1...256),
            clock: clock,
            traceFormat: try arguments.value("trace-format").map { value throws(UsageError) in
                guard let format = TraceFormat(rawValue: value) else {
                    throw UsageError("option '--trace-format' expects chrome-json or perfetto, got '\(value)'")
                }
                return format
            })
    }
}

extension SimulationError {
    /// The CLI's error for it: a usage error for an unknown strategy, else unreadable or unwritable
    /// input or output (exit 3).
    var commandLineError: any Error {
        code == .unknownStrategy ? UsageError(message) : InputError(message)
    }
}
