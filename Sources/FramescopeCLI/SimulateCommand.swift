import FrameAnalysis
import FrameScope
import FrameTrace
import FrameTraceReader
import FrameWorkloads
import Foundation

/// `framescope simulate`: runs one scenario with one strategy in the simulated display loop.
enum SimulateCommand: Command {
    static let options: Set<String> = ["strategy", "fps", "frames", "seed", "out", "workers", "clock"]
    static let flags: Set<String> = ["stream"]
    static var help: String {
        var text = """
            USAGE: framescope simulate SCENARIO [--strategy S] [--fps N] [--frames N] [--seed N] [--workers N]
                                  [--clock real|virtual] [--stream] --out TRACE

            Runs real workloads frame by frame on a simulated display: a vsync grid drives the main
            thread on virtual time (or real time), a worker pool runs background work, a render-server thread
            composites each frame. Writes a Chrome trace and prints the frame report's summary.

            OPTIONS:
              --strategy S   How the scenario does its work (default: the first listed).
              --fps N        Refresh rate, 1-240 Hz (default: 60; 120 for ProMotion-style displays).
              --frames N     Frames to run, 1-100000 (default: 180).
              --seed N       Fixes the generated content (default: 1).
              --clock C      virtual (default): each piece of work takes its thread's CPU
                             time and the lanes are laid out on the simulated device's timeline
                             (trace clock "virtual"), so the host's load does not move a frame.
                             real: the loop waits for each vsync, work takes wall time, and the
                             lanes compete for the host's cores.
              --workers N    Background workers (default: 2 on virtual time; the core count on
                             real time).
              --out TRACE    Where to write the trace (required).
              --stream       Write the trace as the run goes (array form, through TraceStream),
                             flushed every \(ScenarioRun.streamFlushFrames) frames with progress on stderr: between
                             flushes the file is a complete trace, so a long run can be watched
                             and killed (see `framescope repair` for a kill mid-flush).

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
        let run = try ScenarioRun.execute(descriptor, strategy: strategy, settings: settings, tracePath: out, streaming: arguments.has("stream"))
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
    /// Whether the loop runs on virtual time (a thread-CPU-time manual clock) instead of real time.
    var virtualClock: Bool
    /// The simulated device's background workers on virtual time, unless `--workers` says otherwise.
    static let virtualWorkers = 2

    /// `virtual time (2 workers)` or `real time (2 workers)`, for titles.
    var timeDescription: String {
        let count = workers ?? ProcessInfo.processInfo.activeProcessorCount
        return "\(virtualClock ? "virtual" : "real") time (\(count) worker\(count == 1 ? "" : "s"))"
    }

    init(_ arguments: ParsedArguments, defaultFrames: Int) throws(UsageError) {
        virtualClock = try arguments.choice("clock", among: ["virtual", "real"], default: "virtual") == "virtual"
        refreshRate = try arguments.integer("fps", default: 60, in: 1...240)
        frames = try arguments.integer("frames", default: defaultFrames, in: 1...100_000)
        seed = UInt64(try arguments.integer("seed", default: 1, in: 0...Int.max))
        // Virtual time simulates a device, so its default does not depend on the host: 2 workers.
        workers = arguments.value("workers") == nil ? (virtualClock ? RunSettings.virtualWorkers : nil)
            : try arguments.integer("workers", default: 1, in: 1...256)
    }
}

/// One scenario run: the loop, the trace file, the report.
struct ScenarioRun {
    var report: FrameReport
    var summary: DisplayLoop.Summary

    /// Frames between two flushes of a streamed run.
    static let streamFlushFrames = 10

    /// Runs a scenario on this (main) thread, writes its trace and analyses it. With
    /// `streaming`, the trace is written through a ``TraceStream`` flushed every
    /// ``streamFlushFrames`` frames, and the report is made from the file read back.
    static func execute(
        _ descriptor: ScenarioDescriptor, strategy: String, settings: RunSettings, tracePath: String, streaming: Bool = false
    ) throws -> ScenarioRun {
        let configuration = DisplayConfiguration(refreshRate: settings.refreshRate, frameCount: settings.frames, workerCount: settings.workers)
        let recorder = Recorder(
            configuration: .init(perThreadCapacity: 1 << 20, frameInterval: .nanoseconds(configuration.frameIntervalNanoseconds)),
            clock: settings.virtualClock ? .manual(.threadCPUTime()) : .fastest)
        recorder.annotate("scenario", .string(descriptor.name))
        recorder.annotate("strategy", .string(strategy))
        recorder.annotate("seed", .int(Int64(settings.seed)))
        recorder.annotate("refresh-rate", .int(Int64(settings.refreshRate)))
        let loop = DisplayLoop(recorder: recorder, configuration: configuration)
        let stream: TraceStream?
        do {
            stream = streaming ? try TraceStream(recorder: recorder, path: tracePath) : nil
        } catch {
            throw InputError(error.description)
        }
        // Made after the stream, so a streamed run has its file from the start, whatever the
        // scenario takes to prepare.
        guard let scenario = descriptor.make(strategy, settings.seed) else {
            throw UsageError("unknown strategy '\(strategy)' for \(descriptor.name)")
        }
        var streamError: FileError?
        let started = Date()
        var lastProgress = started
        let summary = loop.run(scenario) { done in
            if let stream, streamError == nil, done % streamFlushFrames == 0 {
                do throws(FileError) { try stream.flush() } catch { streamError = error }
            }
            let now = Date()
            if now.timeIntervalSince(lastProgress) >= 1 || (done == settings.frames && now.timeIntervalSince(started) >= 1) {
                let written = stream.map { ", \($0.eventCount) events in \($0.path)" } ?? ""
                progress("  \(descriptor.name) / \(strategy): frame \(done) of \(settings.frames)\(written)")
                lastProgress = now
            }
        }
        do {
            if let streamError { throw streamError }
            if let stream {
                try stream.finish()
            } else {
                try recorder.writeChromeJSON(to: tracePath)
            }
        } catch {
            throw InputError("cannot write trace: \(error)")
        }
        guard streaming else { return ScenarioRun(report: FrameAnalyzer.analyze(recorder.snapshot()), summary: summary) }
        do {
            return ScenarioRun(report: FrameAnalyzer.analyze(try ChromeTraceReader.read(contentsOf: tracePath)), summary: summary)
        } catch {
            throw InputError("\(tracePath): \(error)")
        }
    }
}
