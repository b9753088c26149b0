package import FrameTrace

/// Choices the analysis cannot always read from the trace.
package struct AnalysisOptions: Sendable {
    /// The frame rate (`--fps`): when set, it wins over the trace's metadata and over a rate
    /// derived from the trace's frame events; `nil` lets the trace say, else
    /// ``FrameTrace/FrameRate/standard`` (60 Hz).
    package var frameRate: FrameRate?
    /// The main thread, overriding every other rule (`--main-thread PID:TID`).
    package var mainThread: ThreadKey?
    /// The process to analyse (`--process PID`): its main thread is the one named like a main
    /// thread (`CrRendererMain` for a Chrome renderer), else its busiest. Wins over every rule
    /// but ``mainThread``.
    package var processID: Int64? = nil
    /// How many worst frames to list (`--top`).
    package var worstFrameCount: Int
    /// Names of spans or instants that mark frames (`--frame-marker NAME`), tried after
    /// framescope's frame spans and Chrome's frame events, before the built-in markers.
    package var frameMarkers: [String]
    /// Who asked for ``frameRate``: the options themselves (the CLI's `--fps`) or a budget.
    package var frameRateRequester: FrameReport.FrameIntervalSource.Requester
    /// Whether a large trace (50,000 spans or more) is analysed on all cores (the default) when
    /// the process may use two or more (its CPU affinity and quota counted); the report is the
    /// same either way. Turn it off in a program that already keeps every core busy.
    package var usesAllCores = true

    /// Creates options.
    package init(
        frameRate: FrameRate? = nil, mainThread: ThreadKey? = nil, worstFrameCount: Int = 5,
        frameMarkers: [String] = [],
        frameRateRequester: FrameReport.FrameIntervalSource.Requester = .option
    ) {
        precondition(worstFrameCount >= 0, "worstFrameCount must not be negative")
        self.frameRate = frameRate
        self.mainThread = mainThread
        self.worstFrameCount = worstFrameCount
        self.frameMarkers = frameMarkers
        self.frameRateRequester = frameRateRequester
    }
}
