public import FrameTrace

extension Recorder {
    /// Runs `body` inside a span whose arguments are computed when it ends, from its own start and
    /// end, and returns what `body` returns.
    ///
    /// For work that is judged against a deadline only known to the caller, such as a render
    /// server's pass that must say how far its start was from the render deadline and how long
    /// its result waited for the vsync that presented it. The span nests with the spans inside
    /// `body` as ``withSpan(_:category:arguments:_:)`` does; `argumentsAtEnd` is called only
    /// while recording.
    ///
    /// ```swift
    /// recorder.withSpan("composite", category: .render) {
    ///     composite()
    /// } argumentsAtEnd: { start, end in
    ///     [FrameContract.Key.untilDeadline: .int(deadline - start)]
    /// }
    /// ```
    /// - Parameters:
    ///   - name: A static name.
    ///   - category: The budget category.
    ///   - body: The work to measure.
    ///   - argumentsAtEnd: Given the span's start and end in nanoseconds on ``clock`` (the time
    ///     line of ``RecorderClock/now()``), returns its arguments.
    /// - Returns: The body's result.
    /// - Throws: Whatever `body` throws; the span is recorded either way.
    public func withSpan<Result, Failure: Error>(
        _ name: StaticString, category: Category = .other, _ body: () throws(Failure) -> Result,
        argumentsAtEnd: (_ start: Int64, _ end: Int64) -> SpanArguments
    ) throws(Failure) -> Result {
        guard isEnabled else { return try body() }
        #if canImport(os)
            let signpost = isMirroringToSignposts ? beginSignpost(name, category: category) : 0
            defer { if signpost != 0 { endSignpost(name, category: category, id: signpost) } }
        #endif
        let stamp = clock.timestamp()
        let start = clock.now()
        defer {
            // The raw readings bound the span, so it encloses its children however counter ticks
            // are converted later; the nanosecond readings are what the arguments are relative to.
            let endStamp = max(stamp, clock.timestamp())
            let end = max(start, clock.now())
            let attachment = storeAttachment(argumentsAtEnd(start, end))
            let (bits, length) = nameBits(name)
            push(
                start: stamp, end: endStamp, name: bits, meta: packMeta(.span, category, nameLength: length),
                extra: attachment)
        }
        return try body()
    }

    /// Records one frame on the two frame timeline tracks (FrameTrace's `FrameContract.Timeline`),
    /// so Perfetto and chrome://tracing show the frame and whether it was late without framescope.
    ///
    /// Each track is exported as async slices in category `frame-timeline`, one id per slice so
    /// that the overlapping slices of consecutive frames never share one:
    /// - **Expected Timeline**: a slice named `Expected Timeline` from the frame's vsync to its
    ///   expected presentation, with the frame's `index`.
    /// - **Actual Timeline**: a slice named `Actual Timeline` from the start of the frame's work to
    ///   its presentation, with `index`, `hitch-cause` and `late-ns`, and inside it, over the same
    ///   time, a slice named by the outcome: `on time`, `late: commit`, `late: render`. Viewers name
    ///   an async track after the first slice on its id, so the outer slice names the track and
    ///   the inner one says what happened.
    /// - **One track per lane** the entry lists (`Actual Timeline: main`, `Actual Timeline:
    ///   render`): the lane's work for the frame, with `index` and `late-ns` past its deadline.
    ///
    /// The slices are recorded on the calling thread's buffer; times are nanoseconds on ``clock``.
    /// - Parameter frame: What happened to the frame.
    public func recordFrameTimeline(_ frame: FrameTimelineEntry) {
        guard isEnabled else { return }
        let index = JSONValue.int(Int64(frame.index))
        let expected = storeAttachment([FrameContract.Key.index: index])
        let (expectedName, expectedLength) = nameBits(FrameContract.Timeline.expectedTrack)
        push(
            start: frame.vsync, end: max(frame.vsync, frame.expectedPresentation), name: expectedName,
            meta: packMeta(.timelineSlice, .frameTimeline, nameLength: expectedLength) | nanosecondsFlag,
            extra: expected)
        let actual = storeAttachment(
            [
                FrameContract.Key.index: index,
                FrameContract.Timeline.causeKey: .string(frame.cause.identifier),
                FrameContract.Timeline.lateKey: .int(frame.lateNanoseconds),
            ], timelineCause: frame.cause)
        let (actualName, actualLength) = nameBits(FrameContract.Timeline.actualTrack)
        push(
            start: frame.start, end: max(frame.start, frame.presentation), name: actualName,
            meta: packMeta(.timelineSlice, .frameTimeline, nameLength: actualLength) | nanosecondsFlag, extra: actual)
        for lane in frame.lanes {
            let arguments = storeAttachment([
                FrameContract.Key.index: index,
                FrameContract.Timeline.lateKey: .int(max(0, lane.end &- lane.deadline)),
            ])
            let (laneName, laneLength) = nameBits(FrameContract.Timeline.laneTrack(lane.lane))
            push(
                start: lane.start, end: max(lane.start, lane.end), name: laneName,
                meta: packMeta(.timelineSlice, .frameTimeline, nameLength: laneLength) | nanosecondsFlag,
                extra: arguments)
        }
    }
}

/// One frame as the frame timeline tracks show it: when it was expected, when its work ran, when
/// it was presented and why late. Times are nanoseconds on the recorder's clock.
///
/// ```swift
/// recorder.recordFrameTimeline(FrameTimelineEntry(
///     index: 12, vsync: v, expectedPresentation: v + 2 * interval,
///     start: workStart, presentation: presented, cause: .render))
/// ```
public struct FrameTimelineEntry: Sendable, Hashable {
    /// The frame's index (the frame span's `index`).
    public var index: Int
    /// The vsync the frame started on.
    public var vsync: Int64
    /// When the frame would have been presented had every lane met its deadline.
    public var expectedPresentation: Int64
    /// When the frame's work started.
    public var start: Int64
    /// The vsync that presented the frame.
    public var presentation: Int64
    /// The lane that missed its deadline first, or `HitchCause.none` when the frame was on time.
    public var cause: HitchCause
    /// Each lane's work for the frame, recorded on a track of its own
    /// (FrameTrace's `FrameContract.Timeline.laneTrack(_:)`); empty for none.
    public var lanes: [LaneWork]

    /// One lane's work for a frame: when it ran and when it was due (nanoseconds on the
    /// recorder's clock).
    public struct LaneWork: Sendable, Hashable {
        /// The lane the work ran in, which also names its track (`Actual Timeline: render`).
        public var lane: Lane
        /// When the lane's work for the frame started, in nanoseconds on the recorder's clock.
        public var start: Int64
        /// When the lane's work for the frame ended, in nanoseconds on the recorder's clock.
        public var end: Int64
        /// When the lane's work was due, in nanoseconds on the recorder's clock; the lane's slice
        /// records how far ``end`` went past it as `late-ns` (0 when it was done in time).
        public var deadline: Int64

        /// Creates a lane's work.
        /// - Parameters:
        ///   - lane: The lane the work ran in.
        ///   - start: When the work started, in nanoseconds on the recorder's clock.
        ///   - end: When the work ended, in nanoseconds on the recorder's clock.
        ///   - deadline: When the work was due, in nanoseconds on the recorder's clock.
        public init(lane: Lane, start: Int64, end: Int64, deadline: Int64) {
            self.lane = lane
            self.start = start
            self.end = end
            self.deadline = deadline
        }
    }

    /// Creates an entry; all times are nanoseconds on the recorder's clock.
    /// - Parameters:
    ///   - index: The frame's index (the frame span's `index`).
    ///   - vsync: The vsync the frame started on.
    ///   - expectedPresentation: When the frame would have been presented had every lane met its
    ///     deadline.
    ///   - start: When the frame's work started.
    ///   - presentation: The vsync that presented the frame.
    ///   - cause: The lane that missed its deadline first, or `.none` when the frame was on time.
    ///   - lanes: Each lane's work for the frame, one track each; empty records no lane tracks.
    public init(
        index: Int, vsync: Int64, expectedPresentation: Int64, start: Int64, presentation: Int64, cause: HitchCause,
        lanes: [LaneWork] = []
    ) {
        self.index = index
        self.vsync = vsync
        self.expectedPresentation = expectedPresentation
        self.start = start
        self.presentation = presentation
        self.cause = cause
        self.lanes = lanes
    }

    /// Nanoseconds from the expected presentation to the actual one; 0 when on time.
    public var lateNanoseconds: Int64 { max(0, presentation &- expectedPresentation) }

    /// The name of the actual slice: `on time`, or `late: ` and the cause (`late: render`).
    public var outcomeName: String { cause == .none ? "on time" : "late: \(cause.identifier)" }
}
