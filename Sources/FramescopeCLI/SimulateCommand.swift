import FrameAnalysis
import FrameScope
import FrameTrace
import FrameWorkloads
import Foundation

/// `framescope simulate`: runs one scenario with one strategy in the simulated display loop.
enum SimulateCommand: Command {
    static let options: Set<String> = ["strategy", "fps", "frames", "seed", "out", "workers"]
    static let flags: Set<String> = []
    static var help: String {
        var text = """
            USAGE: framescope simulate SCENARIO [--strategy S] [--fps N] [--frames N] [--seed N] [--workers N] --out TRACE

            Runs real workloads frame by frame on a simulated display: a vsync grid drives the main
            thread in real time, a worker pool runs background work, a render-server thread
            composites each frame. Writes a Chrome trace and prints the frame report's summary.

            OPTIONS:
              --strategy S   How the scenario does its work (default: the first listed).
              --fps N        Refresh rate, 1-240 Hz (default: 60; 120 for ProMotion-style displays).
              --frames N     Frames to run, 1-100000 (default: 180).
              --seed N       Fixes the generated content (default: 1).
              --workers N    Background worker threads (default: the core count).
              --out TRACE    Where to write the trace (required).

            SCENARIOS AND STRATEGIES:
            """
        // One column as wide as the longest strategy name: names are never cut.
        let width = ScenarioCatalog.all.flatMap(\.strategies).map(\.name.count).max() ?? 0
        for scenario in ScenarioCatalog.all {
            text += "\n  \(scenario.name): \(scenario.summary)\n"
            for strategy in scenario.strategies {
                text += "    \(strategy.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(strategy.summary)\n"
            }
        }
        return text
    }

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError("simulate takes one scenario: \(ScenarioCatalog.all.map(\.name).joined(separator: ", "))")
        }
        guard let descriptor = ScenarioCatalog.scenario(named: name) else {
            throw UsageError("unknown scenario '\(name)'; choose one of \(ScenarioCatalog.all.map(\.name).joined(separator: ", "))")
        }
        let strategy = try arguments.choice(
            "strategy", among: descriptor.strategies.map(\.name), default: descriptor.strategies[0].name)
        guard let out = arguments.value("out") else { throw UsageError("simulate needs --out TRACE") }
        let settings = try RunSettings(arguments, defaultFrames: 180)
        let run = try ScenarioRun.execute(descriptor, strategy: strategy, settings: settings, tracePath: out)
        print(run.report.text(source: out))
        print("wrote \(out)")
        return .success
    }
}

/// Loop settings shared by `simulate` and `demo`.
struct RunSettings {
    var refreshRate: Int
    var frames: Int
    var seed: UInt64
    var workers: Int?

    init(_ arguments: ParsedArguments, defaultFrames: Int) throws(UsageError) {
        refreshRate = try arguments.integer("fps", default: 60, in: 1...240)
        frames = try arguments.integer("frames", default: defaultFrames, in: 1...100_000)
        seed = UInt64(try arguments.integer("seed", default: 1, in: 0...Int.max))
        workers = arguments.value("workers") == nil ? nil : try arguments.integer("workers", default: 1, in: 1...256)
    }
}

/// One scenario run: the loop, the trace file, the report.
struct ScenarioRun {
    var report: FrameReport
    var summary: DisplayLoop.Summary

    /// Runs a scenario on this (main) thread, writes its trace and analyses it.
    static func execute(_ descriptor: ScenarioDescriptor, strategy: String, settings: RunSettings, tracePath: String) throws -> ScenarioRun {
        guard let scenario = descriptor.make(strategy, settings.seed) else {
            throw UsageError("unknown strategy '\(strategy)' for \(descriptor.name)")
        }
        let configuration = DisplayConfiguration(refreshRate: settings.refreshRate, frameCount: settings.frames, workerCount: settings.workers)
        let recorder = Recorder(configuration: .init(
            perThreadCapacity: 1 << 20, frameInterval: .nanoseconds(configuration.frameIntervalNanoseconds)))
        recorder.annotate("scenario", .string(descriptor.name))
        recorder.annotate("strategy", .string(strategy))
        recorder.annotate("seed", .int(Int64(settings.seed)))
        recorder.annotate("refresh-rate", .int(Int64(settings.refreshRate)))
        let loop = DisplayLoop(recorder: recorder, configuration: configuration)
        let started = Date()
        var lastProgress = started
        let summary = loop.run(scenario) { done in
            let now = Date()
            if now.timeIntervalSince(lastProgress) >= 1 || (done == settings.frames && now.timeIntervalSince(started) >= 1) {
                progress("  \(descriptor.name) / \(strategy): frame \(done) of \(settings.frames)")
                lastProgress = now
            }
        }
        do {
            try recorder.writeChromeJSON(to: tracePath)
        } catch {
            throw InputError("cannot write trace: \(error)")
        }
        return ScenarioRun(report: FrameAnalyzer.analyze(recorder.snapshot()), summary: summary)
    }
}
