public import FrameTrace
import Synchronization

extension Recorder {
    /// Runs `body` as one frame of the app's main-thread work and returns what it returns.
    ///
    /// A frame is structure, not a cost: the span is recorded in category ``Category/frame`` with
    /// the frame contract's arguments (FrameTrace's `FrameContract`), so `framescope report`
    /// finds exactly this frame, its vsync and its deadline, and counts the time inside it that no
    /// child span covers as the frame's unattributed time. Give every frame its own vsync and
    /// deadline: on a variable-refresh display (ProMotion at 120, 80 or 48 Hz) the budget changes
    /// frame by frame, and each frame is judged against its own.
    ///
    /// Both times are relative, so they map onto any platform clock. With `CADisplayLink`:
    ///
    /// ```swift
    /// @objc func step(_ link: CADisplayLink) {
    ///     let now = CACurrentMediaTime()
    ///     Recorder.shared.withFrame(
    ///         sinceVsync: .seconds(now - link.timestamp),
    ///         budget: .seconds(link.targetTimestamp - link.timestamp)
    ///     ) {
    ///         advanceAnimations(to: link.targetTimestamp)
    ///         view.layoutIfNeeded()
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - sinceVsync: How long ago the frame's vsync was (`now − CADisplayLink.timestamp`); not
    ///     negative.
    ///   - budget: The time from the vsync to the frame's deadline
    ///     (`targetTimestamp − timestamp`); positive.
    ///   - index: The frame's number, if the app counts frames.
    ///   - body: The frame's main-thread work.
    /// - Returns: The body's result.
    /// - Throws: Whatever `body` throws; the frame is recorded either way.
    /// - Precondition: `sinceVsync` is not negative and `budget` is positive.
    public func withFrame<Result, Failure: Error>(
        sinceVsync: Duration = .zero, budget: Duration, index: Int? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(sinceVsync >= .zero, "a frame cannot start before its vsync")
        precondition(budget > .zero, "a frame's budget must be positive")
        guard isEnabled else { return try body() }
        #if canImport(os)
            // Begun before the clock is read, as a span's signpost is, so the signpost encloses the
            // frame; the caller measured `sinceVsync` before the call, so the message has it already.
            let signpost =
                isMirroringToSignposts
                ? beginFrameSignpost(
                    SignpostMessage.Frame(
                        index: index.map(Int64.init), sinceVsyncNanoseconds: sinceVsync.nanosecondCount,
                        budgetNanoseconds: budget.nanosecondCount)) : 0
            defer { if signpost != 0 { endSignpost(FrameContract.frameSpanName, category: .frame, id: signpost) } }
        #endif
        let stamp = clock.timestamp()
        let start = clock.now()
        return try recordFrame(
            stamp: stamp, start: start, vsync: start &- sinceVsync.nanosecondCount,
            deadline: start &- sinceVsync.nanosecondCount &+ budget.nanosecondCount, index: index, body)
    }

    /// Runs `body` as one frame whose vsync and deadline are readings of this recorder's
    /// ``clock``, in nanoseconds: for loops that keep their own vsync grid on the recorder's
    /// clock, such as framescope's simulated display.
    ///
    /// ```swift
    /// recorder.withFrame(vsync: vsync, deadline: vsync + interval, index: frameNumber) {
    ///     scenario.frame(context)
    /// }
    /// ```
    /// - Parameters:
    ///   - vsync: The frame's vsync on the recorder's clock; not after the call.
    ///   - deadline: When the frame must be committed; after `vsync`.
    ///   - index: The frame's number.
    ///   - body: The frame's main-thread work.
    /// - Returns: The body's result.
    /// - Throws: Whatever `body` throws; the frame is recorded either way.
    /// - Precondition: `deadline > vsync`.
    public func withFrame<Result, Failure: Error>(
        vsync: Int64, deadline: Int64, index: Int? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(deadline > vsync, "a frame's deadline must follow its vsync")
        guard isEnabled else { return try body() }
        #if canImport(os)
            // Begun before the frame's clock read, with the time since `vsync` read just before it
            // (without moving a virtual clock, so the recording is the same mirrored or not).
            let signpost =
                isMirroringToSignposts
                ? beginFrameSignpost(
                    SignpostMessage.Frame(
                        index: index.map(Int64.init), sinceVsyncNanoseconds: clock.reading() &- vsync,
                        budgetNanoseconds: deadline &- vsync)) : 0
            defer { if signpost != 0 { endSignpost(FrameContract.frameSpanName, category: .frame, id: signpost) } }
        #endif
        let stamp = clock.timestamp()
        return try recordFrame(stamp: stamp, start: clock.now(), vsync: vsync, deadline: deadline, index: index, body)
    }

    /// Records the frame span between `stamp` and the clock's raw reading after `body`, so it
    /// nests with the spans inside it however the clock's ticks are later converted; `start` is
    /// the same moment in nanoseconds, the time line of `vsync` and `deadline`.
    ///
    /// With the signpost mirror on, both callers begin the frame's signpost interval before their
    /// clock reads and end it after this returns, so the interval encloses the frame.
    private func recordFrame<Result, Failure: Error>(
        stamp: Int64, start: Int64, vsync: Int64, deadline: Int64, index: Int?, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Relative to the span's own start, so the frame survives rebasing of timestamps.
        var arguments: [Argument] = []
        if let index { arguments.append(Argument(FrameContract.Key.index, .int(Int64(index)))) }
        arguments.append(Argument(FrameContract.Key.sinceVsync, .int(max(0, start &- vsync))))
        arguments.append(Argument(FrameContract.Key.budget, .int(max(1, deadline &- vsync))))
        defer {
            let end = max(stamp, clock.timestamp())
            let attachment = storeAttachment(SpanArguments(arguments))
            let (bits, length) = nameBits(FrameContract.frameSpanName)
            push(
                start: stamp, end: end, name: bits, meta: packMeta(.span, .frame, nameLength: length), extra: attachment
            )
        }
        return try body()
    }

    /// The display's nominal frame rate, whose interval is written into exported traces, or `nil`
    /// when none is stated (the default). Analysis prefers each frame's own budget, then `--fps`,
    /// then this.
    ///
    /// Set it when the app learns the display's refresh rate (`UIScreen.maximumFramesPerSecond`):
    ///
    /// ```swift
    /// Recorder.shared.frameRate = FrameRate(hertz: 120)   // a frame every 8,333,333 ns
    /// ```
    public var frameRate: FrameRate? {
        get { frameRateStorage.withLockAnnounced { $0 } }
        set { frameRateStorage.withLockAnnounced { $0 = newValue } }
    }

    /// The display's nominal frame interval written into exported traces: ``frameRate``'s
    /// interval, or `nil` when none is stated.
    ///
    /// Deprecated: assign ``frameRate`` instead; `FrameRate(interval:)` makes one from an interval.
    /// - Precondition: a new value is positive or `nil`.
    @available(*, deprecated, message: "use frameRate; FrameRate(interval:) makes one from an interval")
    public var frameInterval: Duration? {
        get { frameRate?.interval }
        set {
            precondition(newValue.map { $0 > .zero } ?? true, "a frame interval must be positive")
            frameRate = newValue.flatMap(FrameRate.init(interval:))
        }
    }

    /// Sets the nominal frame interval written into exported traces.
    ///
    /// Deprecated: assign ``frameRate`` instead.
    /// - Parameter interval: The display's nominal frame interval, or `nil` for none; positive.
    @available(*, deprecated, message: "assign frameRate; FrameRate(interval:) makes one from an interval")
    public func setFrameInterval(_ interval: Duration?) { frameInterval = interval }
}
