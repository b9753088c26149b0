import Foundation
package import FrameAnalysis
import FrameScope
package import FrameSimulation
import FrameTrace
import FrameTraceReader

/// One scenario run: the display loop on this thread, the trace file, the report.
///
/// ```swift
/// let run = try ScenarioRun.execute(ScenarioCatalog.scenario(named: "corner-rounding")!, strategy: "offscreen-clip",
///                                   settings: RunSettings(), tracePath: "corner.json")
/// run.report.summary.hitchNanoseconds
/// ```
package struct ScenarioRun: Sendable {
    /// The scenario's name.
    package var scenario: String
    /// The strategy's name.
    package var strategy: String
    /// Where its trace is.
    package var tracePath: String
    /// The analysis of the run's trace.
    package var report: FrameReport
    /// What the loop saw.
    package var summary: DisplayLoop.Summary

    /// Frames between two flushes of a streamed run.
    package static let streamFlushFrames = 10

    /// Runs a scenario on the calling thread (which becomes the trace's main thread), writes its
    /// trace and analyses it. With `streaming`, the trace is written through a
    /// ``FrameScope/TraceStream`` flushed every ``streamFlushFrames`` frames, and the report is made
    /// from the file read back.
    /// - Parameters:
    ///   - descriptor: The scenario.
    ///   - strategy: One of its strategies' names.
    ///   - settings: Display, workers, seed and clock.
    ///   - tracePath: Where the trace goes.
    ///   - streaming: Whether to write the trace as the run goes.
    ///   - progress: Called with a line at most once a second while the run takes longer than one.
    /// - Throws: ``SimulationError``: an unknown strategy, a trace that cannot be written or read.
    package static func execute(
        _ descriptor: ScenarioDescriptor, strategy: String, settings: RunSettings, tracePath: String,
        streaming: Bool = false,
        progress: (String) -> Void = { _ in }
    ) throws(SimulationError) -> ScenarioRun {
        try execute(
            descriptor, strategy: strategy, settings: settings, tracePath: tracePath, streaming: streaming,
            costModel: .reference, progress: progress)
    }

    /// ``execute(_:strategy:settings:tracePath:streaming:progress:)`` with a cost model of one's
    /// own for virtual time, or a calibrating ``WorkMeter`` that counts and times the work.
    package static func execute(
        _ descriptor: ScenarioDescriptor, strategy: String, settings: RunSettings, tracePath: String,
        streaming: Bool = false,
        costModel: CostModel, calibrating: WorkMeter? = nil, progress: (String) -> Void = { _ in }
    ) throws(SimulationError) -> ScenarioRun {
        let configuration = DisplayConfiguration(
            frameRate: settings.frameRate, frameCount: settings.frames, workerCount: settings.workerCount)
        let clock: RecorderClock
        var meter = calibrating
        switch settings.clock {
        case .virtual:
            let virtual = ManualClock.virtual()
            clock = .manual(virtual)
            if meter == nil { meter = .pricing(costModel, clock: virtual) }
        case .cpuTime: clock = .manual(.threadCPUTime())
        case .real: clock = .fastest
        }
        // On virtual time the run is deterministic: a fixed process id, with threads that start
        // in order (WorkerPool), makes the same seed write the same bytes.
        let recorder = Recorder(
            configuration: .init(
                perThreadCapacity: 1 << 20, frameRate: settings.frameRate,
                processID: settings.clock == .virtual ? 1 : nil),
            clock: clock)
        recorder.annotate("scenario", .string(descriptor.name))
        recorder.annotate("strategy", .string(strategy))
        recorder.annotate("seed", .int(Int64(settings.seed)))
        let hertz = settings.frameRate.hertz
        recorder.annotate("refresh-rate", hertz == hertz.rounded() ? .int(Int64(hertz)) : .double(hertz))
        if settings.clock == .virtual { recorder.annotate("cost-model", .string(costModel.name)) }
        let loop = DisplayLoop(recorder: recorder, configuration: configuration, meter: meter)
        let stream: TraceStream?
        do {
            stream =
                streaming ? try TraceStream(recorder: recorder, path: tracePath, format: settings.traceFormat) : nil
        } catch {
            throw SimulationError(.cannotWrite, error.description)
        }
        // Made after the stream, so a streamed run has its file from the start, whatever the
        // scenario takes to prepare.
        guard let scenario = descriptor.make(strategy, settings.seed) else {
            throw SimulationError(.unknownStrategy, "unknown strategy '\(strategy)' for \(descriptor.name)")
        }
        var streamError: FileError?
        let started = Date()
        var lastProgress = started
        let summary = loop.run(scenario) { done in
            if let stream, streamError == nil, done % streamFlushFrames == 0 {
                do throws(FileError) { try stream.flush() } catch { streamError = error }
            }
            let now = Date()
            if now.timeIntervalSince(lastProgress) >= 1
                || (done == settings.frames && now.timeIntervalSince(started) >= 1)
            {
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
                try recorder.writeTrace(to: tracePath, format: settings.traceFormat)
            }
        } catch {
            throw SimulationError(.cannotWrite, "cannot write trace: \(error)")
        }
        let run = { (report: FrameReport) in
            ScenarioRun(
                scenario: descriptor.name, strategy: strategy, tracePath: tracePath, report: report, summary: summary)
        }
        guard streaming else { return run(FrameAnalyzer.analyze(recorder.snapshot())) }
        do {
            return run(FrameAnalyzer.analyze(try TraceReader.read(contentsOf: tracePath)))
        } catch {
            throw SimulationError(.cannotRead, "\(tracePath): \(error)")
        }
    }
}
