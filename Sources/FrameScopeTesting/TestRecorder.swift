public import FrameScope
public import FrameTrace

/// A recorder for your own tests: time moves only when the test says so, and what was recorded
/// comes back as plain values to assert on, as swift-log's test handler does for logs.
///
/// Hand ``recorder`` to the code under test, advance ``clock`` inside the work it measures (or
/// let the code run: without an advance every span takes 0 ns), then read ``spans``:
///
/// ```swift
/// let test = TestRecorder()
/// let loader = ThumbnailLoader(recorder: test.recorder)
/// loader.decode(photo)                       // records "decode" in .imageDecode
/// #expect(test.spans(named: "decode").count == 1)
/// #expect(test.spans(in: .imageDecode).allSatisfy { $0.threadName != "main" })
/// ```
public final class TestRecorder: Sendable {
    /// The recorder to give the code under test.
    public let recorder: Recorder
    /// Its clock: every timestamp is this clock's reading.
    public let clock: ManualClock

    /// Creates a recorder on a manual clock at `start` nanoseconds, with room for `capacity`
    /// events per thread (more are counted in ``droppedEvents``).
    ///
    /// The thread that creates it plays the app's main thread: its spans are on the thread named
    /// `main`, and the analysis finds the frames it records with `withFrame` (a test framework runs
    /// a test on a thread of its own, which is not the process's main thread). In an `async` test,
    /// record frames in synchronous code, or call the recorder's `designateCurrentThreadAsMain()`
    /// on the thread that records them, since a suspension can move the test to another thread.
    /// - Parameters:
    ///   - start: The clock's first reading, in nanoseconds.
    ///   - capacity: Events each thread can hold; rounded up to a power of two, at least 1.
    public init(start: Int64 = 0, capacity: Int = 1 << 16) {
        clock = ManualClock(start: start)
        recorder = Recorder(configuration: Recorder.Configuration(perThreadCapacity: capacity), clock: .manual(clock))
        recorder.designateCurrentThreadAsMain()
    }

    /// Moves the clock forward, as work taking `duration` would.
    ///
    /// Call it inside the span being measured to give that span (and every span around it) the
    /// duration.
    /// - Parameter duration: How far to move ``clock``; not negative.
    public func advance(by duration: Duration) { clock.advance(by: duration) }

    /// Every span recorded so far, by start time (an enclosing span before the spans inside it);
    /// the recorder keeps them, so later calls see them again.
    ///
    /// That is every span that ended on the thread it began on, whether written as a closure or
    /// as an `Interval`; a span that ended on another thread is exported as an async pair and is
    /// not listed.
    public var spans: [RecordedSpan] {
        let trace = recorder.snapshot()
        return trace.events.filter { $0.phase == .complete }
            .map { RecordedSpan(event: $0, in: trace) }
            .sorted { ($0.start, -$0.duration) < ($1.start, -$1.duration) }
    }

    /// The spans named `name`.
    /// - Parameter name: The exact name to look for.
    /// - Returns: The matching spans of ``spans``, in its order.
    public func spans(named name: String) -> [RecordedSpan] { spans.filter { $0.name == name } }

    /// The spans in `category`.
    /// - Parameter category: The category to look for, compared by name.
    /// - Returns: The matching spans of ``spans``, in its order.
    public func spans(in category: FrameScope.Category) -> [RecordedSpan] {
        spans.filter { $0.category == category.name }
    }

    /// The frames recorded with the recorder's `withFrame` methods: spans in the frame category.
    public var frames: [RecordedSpan] { spans.filter { $0.category == FrameContract.frameCategory } }

    /// Events the recorder could not keep because a thread's buffer was full.
    public var droppedEvents: Int64 { recorder.droppedEventCounts.values.reduce(0, +) }
}

/// One recorded span, as values.
public struct RecordedSpan: Sendable, Hashable, CustomStringConvertible {
    /// Its name.
    public var name: String
    /// Its category's name.
    public var category: String
    /// The name of the thread it ran on, when the thread was named.
    public var threadName: String?
    /// When it began, in nanoseconds on the recorder's clock.
    public var start: Int64
    /// How long it took, in nanoseconds.
    public var duration: Int64
    /// Its arguments.
    public var arguments: [Argument]

    /// When it ended, in nanoseconds on the recorder's clock.
    public var end: Int64 { start &+ duration }

    init(event: TraceEvent, in trace: Trace) {
        name = trace.name(of: event)
        category = trace.category(of: event)
        threadName = trace.threadName(event.thread)
        start = event.timestamp
        duration = event.duration
        arguments = trace.arguments(of: event)
    }

    /// `decode [image-decode] on worker-1 at 0 ns for 3000000 ns`.
    public var description: String {
        "\(name) [\(category)] on \(threadName ?? "an unnamed thread") at \(start) ns for \(duration) ns"
    }
}
