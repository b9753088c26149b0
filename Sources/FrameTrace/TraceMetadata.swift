/// What the producer of a trace says about how it was made.
///
/// framescope writes these fields into the object form's `metadata` and into a `framescope` `M`
/// event (so the streaming array form carries them too), and reads them back to learn the frame
/// interval and main thread without flags. Traces from other tools usually have none of them.
public struct TraceMetadata: Sendable, Hashable {
    /// The program that wrote the trace, e.g. `framescope`.
    public var producer: String?
    /// The producer's version.
    public var producerVersion: String?
    /// The clock timestamps come from: `tsc`, `cntvct`, `mach-absolute-time`, `monotonic`,
    /// `manual`, `virtual` (the simulated display on priced work) or `cpu-time` (the simulated
    /// display on thread CPU time).
    public var clock: String?
    /// ``clock`` of a trace recorded on the simulated display's virtual time, where each piece of
    /// work took what a simulated device's cost model prices the work it counted at.
    public static let virtualClock = "virtual"
    /// ``clock`` of a trace recorded on the simulated display's CPU time, where each piece of work
    /// took its thread's CPU time.
    public static let cpuTimeClock = "cpu-time"
    /// The frame interval of the simulated vsync grid, in nanoseconds.
    public var frameIntervalNanoseconds: Int64?
    /// The thread the producer recorded as the main (UI) thread.
    public var mainThread: ThreadKey?
    /// Events dropped because a thread's buffer was full, per thread. Absent threads dropped none.
    public var droppedEvents: [ThreadKey: Int64]
    /// Further scalar facts (scenario, strategy, seed, ...), in the order they were set.
    public var extra: [Argument]

    /// Creates metadata; every field is optional.
    /// - Parameters:
    ///   - producer: The program that wrote the trace.
    ///   - producerVersion: The producer's version.
    ///   - clock: The clock the timestamps come from, such as `monotonic` or ``virtualClock``.
    ///   - frameIntervalNanoseconds: The frame interval of the vsync grid, in nanoseconds.
    ///   - mainThread: The thread the producer recorded as the main (UI) thread.
    ///   - droppedEvents: Events dropped per thread because a buffer was full.
    ///   - extra: Further scalar facts, in the order to write them.
    public init(
        producer: String? = nil, producerVersion: String? = nil, clock: String? = nil,
        frameIntervalNanoseconds: Int64? = nil, mainThread: ThreadKey? = nil,
        droppedEvents: [ThreadKey: Int64] = [:], extra: [Argument] = []
    ) {
        self.producer = producer
        self.producerVersion = producerVersion
        self.clock = clock
        self.frameIntervalNanoseconds = frameIntervalNanoseconds
        self.mainThread = mainThread
        self.droppedEvents = droppedEvents
        self.extra = extra
    }

    /// The total number of dropped events over all threads.
    public var totalDroppedEvents: Int64 { droppedEvents.values.reduce(0, +) }

    /// Whether no field is set.
    public var isEmpty: Bool { self == TraceMetadata() }
}
