public import CFrameScope
public import Synchronization

/// Where a recorder's timestamps come from: the monotonic clock, or a manual clock for tests.
///
/// ```swift
/// let manual = ManualClock()
/// let recorder = Recorder(clock: .manual(manual))
/// recorder.withSpan("layout", category: .layout) { manual.advance(by: .milliseconds(3)) }
/// ```
public struct RecorderClock: Sendable {
    @usableFromInline
    let manual: ManualClock?

    /// The system's monotonic clock (`CLOCK_MONOTONIC`; `CLOCK_UPTIME_RAW` on Apple platforms).
    public static let monotonic = RecorderClock(manual: nil)

    /// A clock that moves only when told to, so traces are identical on every machine.
    public static func manual(_ clock: ManualClock) -> RecorderClock { RecorderClock(manual: clock) }

    /// The current time in nanoseconds.
    @inlinable
    public func now() -> Int64 {
        if let manual { return manual.nanoseconds }
        return fs_monotonic_ns()
    }

    /// `monotonic` or `manual`, as written in trace metadata.
    public var name: String { manual == nil ? "monotonic" : "manual" }
}

/// A clock for tests: it starts at zero and moves only when advanced.
public final class ManualClock: Sendable {
    @usableFromInline
    let value: Atomic<Int64>

    /// Creates a clock reading `start` nanoseconds.
    public init(start: Int64 = 0) { value = Atomic(start) }

    /// The current reading in nanoseconds.
    @inlinable
    public var nanoseconds: Int64 { value.load(ordering: .relaxed) }

    /// Moves the clock forward.
    /// - Precondition: `duration` is not negative.
    public func advance(by duration: Duration) {
        let nanoseconds = duration.nanosecondCount
        precondition(nanoseconds >= 0, "a manual clock only moves forward")
        value.add(nanoseconds, ordering: .relaxed)
    }

    /// Sets the clock to an absolute reading.
    public func set(nanoseconds: Int64) { value.store(nanoseconds, ordering: .relaxed) }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the limits of `Int64`.
    var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }
}
