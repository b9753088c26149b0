import Foundation
package import FrameTrace

/// Where a simulated run's time comes from.
package enum SimulationClock: String, Sendable, CaseIterable {
    /// Each piece of work takes what the simulated device's cost model prices the work it counted
    /// at (bytes decoded, pixels drawn, solver operations, rows bound), and the lanes are laid out
    /// one at a time on the device's timeline: the same seed gives the same timeline on any host,
    /// however busy. The default.
    case virtual
    /// As ``virtual``, but each piece of work takes its thread's CPU time: the workloads' real
    /// cost on this host, which moves a few percent with the host's load.
    case cpuTime = "cpu-time"
    /// The loop waits for each vsync, work takes wall time, and the lanes run at once on the
    /// host's cores.
    case real
}

/// How a scenario run is set up: the display, the device's workers, the content and the clock.
///
/// ```swift
/// let settings = RunSettings(frames: 120, clock: .virtual)   // 60 Hz, seed 1, 2 simulated workers
/// let promotion = RunSettings(frameRate: FrameRate(hertz: 120), frames: 240)
/// ```
package struct RunSettings: Sendable, Hashable {
    /// The simulated device's background workers on virtual and CPU time unless told otherwise:
    /// 2, whatever the host has, so that runs agree across machines.
    package static let virtualWorkers = 2

    /// The simulated display's refresh rate.
    package var frameRate: FrameRate
    /// Frames to run.
    package var frames: Int
    /// Fixes the generated content.
    package var seed: UInt64
    /// Background workers; `nil` for the default (``virtualWorkers`` on virtual and CPU time, the
    /// host's core count on real time).
    package var workers: Int?
    /// Where time comes from.
    package var clock: SimulationClock
    /// The format traces are written in; `nil` for the one the trace path's ending chooses
    /// (``FrameTrace/TraceFormat/init(path:)``). The demo names its files with this format's ending.
    package var traceFormat: TraceFormat?

    /// Creates settings.
    /// - Precondition: `frameRate` is within ``FrameTrace/FrameRate/acceptedHertz`` (1 to 1,000 Hz);
    ///   `frames` and `workers` at least 1.
    package init(
        frameRate: FrameRate = .standard, frames: Int = 60, seed: UInt64 = 1, workers: Int? = nil,
        clock: SimulationClock = .virtual,
        traceFormat: TraceFormat? = nil
    ) {
        precondition(FrameRate.acceptedHertz.contains(frameRate.hertz), "frameRate must be 1-1000 Hz")
        precondition(frames >= 1 && (workers ?? 1) >= 1, "frames and workers must be at least 1")
        self.frameRate = frameRate
        self.frames = frames
        self.seed = seed
        self.workers = workers
        self.clock = clock
        self.traceFormat = traceFormat
    }

    /// The workers the run uses.
    package var workerCount: Int {
        workers ?? (clock != .real ? Self.virtualWorkers : ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `virtual time (2 workers)`, `CPU time (2 workers)` or `real time (4 workers)`, for titles.
    package var timeDescription: String {
        let clock = self.clock == .cpuTime ? "CPU" : self.clock.rawValue
        return "\(clock) time (\(workerCount) worker\(workerCount == 1 ? "" : "s"))"
    }
}

/// Why a run could not be done: a code to branch on and a one-line message.
package struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a value that can grow without breaking users (as swift-nio's errors do).
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The strategy is not one of the scenario's.
        package static let unknownStrategy = Code("unknown strategy")
        /// A trace, page or folder could not be written.
        package static let cannotWrite = Code("cannot write")
        /// A streamed trace could not be read back.
        package static let cannotRead = Code("cannot read")
        package var description: String { name }
    }

    /// What went wrong.
    package var code: Code
    /// What and where, in one line.
    package var message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
