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
    /// The clock the timestamps come from, as the producer named it.
    public var clock: TraceClock?
    /// The frame interval of the vsync grid, in nanoseconds, exactly as the trace states it
    /// (a trace from elsewhere may state zero or a negative number); ``frameRate`` is the usable
    /// rate.
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
    ///   - clock: The clock the timestamps come from, such as ``TraceClock/monotonic`` or
    ///     ``TraceClock/virtual``.
    ///   - frameIntervalNanoseconds: The frame interval of the vsync grid, in nanoseconds.
    ///   - mainThread: The thread the producer recorded as the main (UI) thread.
    ///   - droppedEvents: Events dropped per thread because a buffer was full.
    ///   - extra: Further scalar facts, in the order to write them.
    public init(
        producer: String? = nil, producerVersion: String? = nil, clock: TraceClock? = nil,
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

    /// The frame rate of the vsync grid the trace states, or `nil` when it states none or a
    /// frame interval that is not positive.
    ///
    /// Setting it sets ``frameIntervalNanoseconds`` to the rate's
    /// ``FrameRate/intervalNanoseconds``.
    ///
    /// ```swift
    /// if let rate = trace.metadata.frameRate { print("recorded at \(rate)") }   // "recorded at 60 Hz" for 16,666,667 ns
    /// ```
    public var frameRate: FrameRate? {
        get { frameIntervalNanoseconds.flatMap(FrameRate.init(intervalNanoseconds:)) }
        set { frameIntervalNanoseconds = newValue?.intervalNanoseconds }
    }

    /// The total number of dropped events over all threads.
    public var totalDroppedEvents: Int64 { droppedEvents.values.reduce(0, +) }

    /// Whether no field is set.
    public var isEmpty: Bool { self == TraceMetadata() }
}

/// The clock a trace's timestamps come from, by the name its producer wrote: one of framescope's
/// clocks below, or any other name a trace carries (a value, not a closed set, since a trace from
/// another tool may name a clock framescope has never heard of).
///
/// ```swift
/// if trace.metadata.clock?.isSimulated == true { print("times are a simulated device's") }
/// ```
public struct TraceClock: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name as written in trace metadata.
    public let rawValue: String

    /// A clock by the name a trace gives it.
    /// - Parameter rawValue: The name, such as `monotonic`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The x86 timestamp counter, converted to monotonic nanoseconds on export.
    public static let tsc = TraceClock(rawValue: "tsc")
    /// The Arm virtual counter (`cntvct_el0`), converted to monotonic nanoseconds on export.
    public static let cntvct = TraceClock(rawValue: "cntvct")
    /// Apple's `mach_absolute_time`, converted to nanoseconds on export.
    public static let machAbsoluteTime = TraceClock(rawValue: "mach-absolute-time")
    /// The system's monotonic clock, in nanoseconds.
    public static let monotonic = TraceClock(rawValue: "monotonic")
    /// A clock a program advances by hand, as tests do.
    public static let manual = TraceClock(rawValue: "manual")
    /// The simulated display on virtual time: each piece of work took what a simulated device's
    /// cost model prices the work it counted at, so the same seed gives the same times anywhere.
    public static let virtual = TraceClock(rawValue: "virtual")
    /// The simulated display on thread CPU time: each piece of work took its thread's CPU time.
    public static let cpuTime = TraceClock(rawValue: "cpu-time")

    /// Whether the times are a simulated device's (``virtual`` or ``cpuTime``), not wall time.
    public var isSimulated: Bool { self == .virtual || self == .cpuTime }

    /// The name, as ``rawValue``.
    public var description: String { rawValue }
}
