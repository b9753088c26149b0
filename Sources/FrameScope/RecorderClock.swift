public import CFrameScope
import FrameTrace
public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a recorder's timestamps come from: the CPU's invariant counter, the monotonic clock, or
/// a manual clock for tests.
///
/// ``counter`` records ticks of the cheapest invariant counter the machine has (x86-64 `rdtsc`
/// when CPUID reports an invariant TSC, arm64 `cntvct_el0`, Apple `mach_absolute_time`): about
/// half the cost of `clock_gettime`. Ticks are converted to monotonic-clock nanoseconds at export,
/// along a line through a calibration point taken when the first recorder started and one taken
/// at every export, as Tracy does; exported times are on the monotonic clock either way. Traces
/// say which clock recorded them in their metadata (`clock`: `tsc`, `cntvct`,
/// `mach-absolute-time`, `monotonic` or `manual`).
///
/// ```swift
/// let manual = ManualClock()
/// let recorder = Recorder(clock: .manual(manual))
/// recorder.withSpan("layout", category: .layout) { manual.advance(by: .milliseconds(3)) }
/// ```
public struct RecorderClock: Sendable {
    @usableFromInline
    let manual: ManualClock?
    /// Whether recorded timestamps are counter ticks, converted to nanoseconds at export.
    @usableFromInline
    let readsCounter: Bool

    /// The system's monotonic clock (`CLOCK_MONOTONIC`; `CLOCK_UPTIME_RAW` on Apple platforms).
    public static let monotonic = RecorderClock(manual: nil, readsCounter: false)

    /// The CPU's invariant counter, or `nil` on a machine without one.
    public static let counter: RecorderClock? =
        CounterCalibration.kind == FS_COUNTER_NONE ? nil : RecorderClock(manual: nil, readsCounter: true)

    /// The cheapest clock this machine offers: ``counter`` when there is one, else ``monotonic``.
    /// Recorders use it unless given another.
    public static let fastest: RecorderClock = counter ?? monotonic

    /// A clock that moves only when told to, so traces are identical on every machine.
    /// - Parameter clock: The manual clock to read; the caller keeps it to advance it.
    /// - Returns: A recorder clock whose readings are `clock`'s, in nanoseconds.
    public static func manual(_ clock: ManualClock) -> RecorderClock {
        RecorderClock(manual: clock, readsCounter: false)
    }

    /// The current time in nanoseconds: the manual clock's reading, else the monotonic clock.
    ///
    /// Exported timestamps are on this time line whichever clock recorded them, so a frame's vsync
    /// or deadline computed from `now()` lines up with the spans in the trace.
    /// - Returns: Nanoseconds on the monotonic clock (from an arbitrary origin, such as boot), or
    ///   the manual clock's reading.
    @inlinable
    public func now() -> Int64 {
        if let manual { return manual.nanoseconds }
        return fs_monotonic_ns()
    }

    /// The current time like ``now()``, except that a virtual clock is not moved on by this reading:
    /// for the signpost mirror, whose readings must leave the recording as it would have been.
    func reading() -> Int64 {
        if let manual {
            return manual.followsThreadCPUTime ? manual.ownerReading() : manual.value.load(ordering: .relaxed)
        }
        return fs_monotonic_ns()
    }

    /// The raw reading the hot path records: counter ticks for ``counter``, else nanoseconds.
    @inlinable
    @inline(__always)
    func timestamp() -> Int64 {
        if readsCounter { return fs_counter_ticks() }
        if let manual { return manual.nanoseconds }
        return fs_monotonic_ns()
    }

    /// The manual clock this clock reads, or `nil`: loops that wait for a time, such as a
    /// simulated display waiting for its next vsync, advance it instead of waiting.
    public var manualClock: ManualClock? { manual }

    /// `tsc`, `cntvct`, `mach-absolute-time`, `monotonic`, `manual`, `virtual` (a simulation's
    /// priced time, ``ManualClock/virtual(start:)``) or `cpu-time` (a thread-CPU-time manual
    /// clock), as written in trace metadata.
    public var name: String {
        if let manual { return manual.name }
        return readsCounter ? CounterCalibration.counterName : "monotonic"
    }
}

/// A reading of the counter and of the monotonic clock taken together.
struct CalibrationPoint: Sendable, Equatable {
    var ticks: Int64
    var nanoseconds: Int64
}

/// Converts counter ticks to monotonic nanoseconds along the line through two calibration points.
///
/// Between the points the error is the points' own (tens of nanoseconds); beyond the last point it
/// grows with the distance, so exports take a fresh point before converting.
struct TickConversion: Sendable, Equatable {
    let origin: CalibrationPoint
    let nanosecondsPerTick: Double

    /// The line through `first` and `last`; a flat line at `first` when they share a tick.
    init(from first: CalibrationPoint, to last: CalibrationPoint) {
        origin = first
        let ticks = last.ticks &- first.ticks
        let nanoseconds = last.nanoseconds &- first.nanoseconds
        nanosecondsPerTick = ticks > 0 && nanoseconds >= 0 ? Double(nanoseconds) / Double(ticks) : 0
    }

    /// The monotonic time of a counter reading, saturating at the limits of `Int64`.
    func nanoseconds(ticks: Int64) -> Int64 {
        // Differences from the origin keep full precision: 60 s of a 3 GHz counter is 1.8e11 ticks,
        // far inside a Double's 53-bit mantissa.
        let (delta, overflow) = ticks.subtractingReportingOverflow(origin.ticks)
        let offset =
            overflow ? (ticks < origin.ticks ? -9.2e18 : 9.2e18) : (Double(delta) * nanosecondsPerTick).rounded()
        guard offset.magnitude < 9.2e18 else { return offset < 0 ? .min : .max }
        let (sum, sumOverflow) = origin.nanoseconds.addingReportingOverflow(Int64(offset))
        if sumOverflow { return offset < 0 ? .min : .max }
        return sum
    }
}

/// The process-wide calibration of the counter against the monotonic clock.
enum CounterCalibration {
    /// The counter this machine offers.
    static let kind: fs_counter_kind = fs_counter_available()

    static var counterName: String {
        switch kind {
        case FS_COUNTER_TSC: "tsc"
        case FS_COUNTER_CNTVCT: "cntvct"
        case FS_COUNTER_MACH_ABSOLUTE: "mach-absolute-time"
        default: "monotonic"
        }
    }

    /// The first point (when the first counter recorder started) and the latest (the last export).
    private static let points = Mutex<(first: CalibrationPoint, latest: CalibrationPoint)?>(nil)

    /// Takes the first calibration point if none was taken yet; recorders call it when they start.
    static func start() {
        points.withLockAnnounced { points in
            if points == nil {
                let point = measurePoint()
                points = (point, point)
            }
        }
    }

    /// Takes a fresh point and returns the conversion through the first point and it.
    static func refresh() -> TickConversion {
        let point = measurePoint()
        return points.withLockAnnounced { points in
            let first = points?.first ?? point
            // Concurrent exports can finish their measurements out of order; keep the later one.
            let latest = points.map { $0.latest.ticks > point.ticks ? $0.latest : point } ?? point
            points = (first, latest)
            return TickConversion(from: first, to: latest)
        }
    }

    /// Reads the clock between two counter readings, several times, and keeps the tightest
    /// bracket: its midpoint is when the clock was read, to within half the bracket.
    static func measurePoint() -> CalibrationPoint {
        var best = CalibrationPoint(ticks: 0, nanoseconds: 0)
        var bestWidth = Int64.max
        for _ in 0..<16 {
            let before = fs_counter_ticks()
            let nanoseconds = fs_monotonic_ns()
            let after = fs_counter_ticks()
            let width = after &- before
            if width >= 0, width < bestWidth {
                bestWidth = width
                best = CalibrationPoint(ticks: before &+ width / 2, nanoseconds: nanoseconds)
            }
        }
        return best
    }
}

/// A clock that moves only when told to: by ``advance(by:)`` and ``set(nanoseconds:)``, and, for a
/// thread-CPU-time clock (``threadCPUTime(start:)``), by the CPU time of the thread that set it
/// last.
///
/// A plain manual clock makes traces identical on every machine: work takes exactly what a test
/// advances the clock by. A thread-CPU-time clock is the simulated display's **virtual time**: the
/// thread that last called ``set(nanoseconds:)`` owns the clock, and while it runs, the clock moves
/// with that thread's own CPU time (`CLOCK_THREAD_CPUTIME_ID`), not with the wall clock. Time the
/// thread spends preempted by other processes does not count, so a run's timeline depends on the
/// work it did, not on how busy the host was. Other threads read the time as of the owner's last
/// reading. Work runs one lane at a time on such a clock (see `DisplayLoop`).
///
/// ```swift
/// let virtual = ManualClock.threadCPUTime()
/// let recorder = Recorder(clock: .manual(virtual))
/// virtual.set(nanoseconds: 0)          // this thread owns the clock from 0
/// recorder.withSpan("layout", category: .layout) { layOutCells() }   // as long as it computed
/// ```
public final class ManualClock: Sendable {
    @usableFromInline
    let value: Atomic<Int64>
    /// For a thread-CPU-time clock: the owning thread and its CPU time at the last reading.
    @usableFromInline
    let owner = Mutex(CPUTimeOwner())
    /// Whether the clock moves with its owning thread's CPU time.
    public let followsThreadCPUTime: Bool
    /// The clock's name in trace metadata: `manual`, `virtual` or `cpu-time`.
    public let name: String
    /// What each reading moves the clock on by: 1 ns for a virtual clock, else 0.
    @usableFromInline
    let nanosecondsPerReading: Int64

    /// Creates a clock at `start` nanoseconds, named `manual` in trace metadata; it moves only
    /// through ``advance(by:)`` and ``set(nanoseconds:)``.
    /// - Parameter start: The first reading, in nanoseconds.
    public convenience init(start: Int64 = 0) {
        self.init(start: start, name: "manual", followsThreadCPUTime: false)
    }

    private init(start: Int64, name: String, followsThreadCPUTime: Bool, nanosecondsPerReading: Int64 = 0) {
        value = Atomic(start)
        self.name = name
        self.followsThreadCPUTime = followsThreadCPUTime
        self.nanosecondsPerReading = nanosecondsPerReading
    }

    /// A clock that, once a thread sets it, moves with that thread's CPU time: the simulated
    /// display's CPU-time mode. Traces name it `cpu-time` (FrameTrace's
    /// `TraceClock.cpuTime`).
    ///
    /// A thread takes ownership with ``set(nanoseconds:)``; readings on any other thread return the
    /// clock's value without moving it.
    /// - Parameter start: The reading before any thread owns it, in nanoseconds.
    /// - Returns: A new clock that follows its owning thread's CPU time.
    public static func threadCPUTime(start: Int64 = 0) -> ManualClock {
        ManualClock(start: start, name: TraceClock.cpuTime.rawValue, followsThreadCPUTime: true)
    }

    /// A manual clock for a simulation's virtual time, which moves by what the simulation advances
    /// it by (the priced cost of the work it counted) and by 1 ns at every reading, as a real clock
    /// moves while it is read: a span that starts after another has ended starts after it, and a
    /// span that ends inside another ends before it, so viewers that add times in floating point
    /// never see two spans share a boundary and mis-nest them. Traces name it `virtual`
    /// (FrameTrace's `TraceClock.virtual`), so a report can say how its time was made.
    /// - Parameter start: The reading before the first (which is `start + 1`), in nanoseconds.
    /// - Returns: A new virtual clock.
    public static func virtual(start: Int64 = 0) -> ManualClock {
        ManualClock(
            start: start, name: TraceClock.virtual.rawValue, followsThreadCPUTime: false, nanosecondsPerReading: 1)
    }

    /// The current reading. On a thread-CPU-time clock read by its owner, the owner's CPU time since
    /// its last reading is added first; a virtual clock moves on by 1 ns first.
    @inlinable
    public var nanoseconds: Int64 {
        if followsThreadCPUTime { return ownerReading() }
        if nanosecondsPerReading != 0 { return value.add(nanosecondsPerReading, ordering: .relaxed).newValue }
        return value.load(ordering: .relaxed)
    }

    @usableFromInline
    func ownerReading() -> Int64 {
        owner.withLock { state in
            guard state.isOwned, pthread_equal(state.thread, pthread_self()) != 0 else {
                return value.load(ordering: .relaxed)
            }
            let cpu = threadCPUNanoseconds()
            let elapsed = max(0, cpu - state.cpu)
            state.cpu = cpu
            return value.add(elapsed, ordering: .relaxed).newValue
        }
    }

    /// Moves the clock forward by `duration`.
    /// - Parameter duration: How far to move the clock; rounded down to whole nanoseconds.
    /// - Precondition: `duration` is not negative.
    public func advance(by duration: Duration) {
        let nanoseconds = duration.nanosecondCount
        precondition(nanoseconds >= 0, "a manual clock only moves forward")
        value.add(nanoseconds, ordering: .relaxed)
    }

    /// Sets the clock to `nanoseconds`, which may be earlier than its reading. On a
    /// thread-CPU-time clock the calling thread becomes the owner, whose CPU time moves it from
    /// here.
    /// - Parameter nanoseconds: The clock's new reading.
    public func set(nanoseconds: Int64) {
        guard followsThreadCPUTime else {
            value.store(nanoseconds, ordering: .relaxed)
            return
        }
        owner.withLock { state in
            state = CPUTimeOwner(thread: pthread_self(), cpu: threadCPUNanoseconds(), isOwned: true)
            value.store(nanoseconds, ordering: .relaxed)
        }
    }
}

/// The thread that owns a thread-CPU-time clock, and its CPU time at the last reading.
@usableFromInline
struct CPUTimeOwner: @unchecked Sendable {
    // @unchecked: `pthread_t` is a pointer on Apple platforms; it is only compared, never followed.
    var thread: pthread_t
    var cpu: Int64
    var isOwned: Bool

    init() {
        thread = pthread_self()
        cpu = 0
        isOwned = false
    }

    init(thread: pthread_t, cpu: Int64, isOwned: Bool) {
        self.thread = thread
        self.cpu = cpu
        self.isOwned = isOwned
    }
}
