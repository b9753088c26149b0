@_spi(FramescopeInternals) import FrameTrace

extension FrameAnalyzer {
    /// Frames and where they came from.
    struct FoundFrames {
        var source: FrameReport.FrameSource
        var detail: FrameReport.SourceDetail
        var frames: [FrameReport.Frame]
        /// Work in the pipeline's lanes that a source states apart from its frames' own lanes
        /// (every Chrome reporter's stages), for the hold rule.
        var laneWork: [LaneWork] = []
        /// The late frames' needs, where the source decides lateness itself (Chrome's dropped frames).
        var needs: [LaneNeed] = []
        /// Holds to name when no lane was busy at a frame's need (Chrome: the stage that overran most).
        var fallbackHolds: [Int: FrameReport.HitchHold] = [:]
        /// Chrome's `DroppedFrame` events in the analysed process.
        var chromeDroppedFrameEvents: Int? = nil
        /// An Android app's start as the trace marks it (``AndroidAppStart``).
        var appStartMark: FrameReport.AppStartMark? = nil
        /// Whether ``fallbackHolds`` are the late frames' holds as the source states them
        /// (Apple's hitches), not a fallback.
        var holdsDecided = false
        /// The Instruments recording the frames come from, when they do.
        var apple: AppleRecording? = nil
    }

    static func findFrames(
        trace: Trace, spans: SpanIndex, main: ThreadKey?, mainSpans: [Span], chrome: ChromeFrameEvents?,
        interval: Int64,
        options: AnalysisOptions
    ) -> FoundFrames {
        if let frameCategory = trace.symbols.lookup(FrameContract.frameCategory) {
            // Counted first and handed over: the frame spans are copied once, at their size.
            var frameSpans: [Span] = []
            frameSpans.reserveCapacity(mainSpans.reduce(0) { $0 + ($1.category == frameCategory ? 1 : 0) })
            for span in mainSpans where span.category == frameCategory { frameSpans.append(span) }
            if !frameSpans.isEmpty {
                let spanCount = frameSpans.count
                let frames = spanFrames(consume frameSpans, trace: trace, interval: interval)
                let found = FoundFrames(
                    source: .frameSpans, detail: .frameSpans(frames: frames.count, nested: spanCount - frames.count),
                    frames: frames)
                guard AppleRecording.isInstruments(trace) else { return found }
                return AppleRecording(trace: trace).frames(spanFrames: found, interval: interval) ?? found
            }
        }
        if AppleRecording.isInstruments(trace),
            let found = AppleRecording(trace: trace).frames(spanFrames: nil, interval: interval)
        {
            return found
        }
        if let chrome, let found = chrome.frames(interval: interval) { return found }
        if let found = AndroidFrameTimeline.frames(
            trace: trace, spans: spans, processID: options.processID ?? main?.processID, interval: interval)
        {
            return found
        }
        if let found = markerFrames(
            trace: trace, spans: spans, main: main, interval: interval, names: options.frameMarkers)
        {
            return found
        }
        return FoundFrames(
            source: .estimated,
            detail: .estimated,
            frames: estimatedFrames(busy: SpanIndex.busyIntervals(of: mainSpans), interval: interval))
    }

    /// Estimated frames: each maximal stretch of main-thread work is one frame, assumed to start
    /// on a vsync (the most favourable phase). Nothing in the trace says when the app wanted to
    /// draw, so only what the main thread provably cost counts: a stretch that fits in `P` is on
    /// time, and a longer one is late by exactly what it ran past `P`, the vsyncs it blocked.
    static func estimatedFrames(busy: [TimeRange], interval: Int64) -> [FrameReport.Frame] {
        busy.enumerated().map { index, range in
            FrameReport.Frame(
                index: index, vsync: range.start, deadline: range.start.addingSaturating(interval),
                workStart: range.start,
                commitEnd: range.end, outcome: .estimated)
        }
    }

    /// Frames from explicit `frame` spans. A span's vsync is its start minus its `since-vsync-ns`
    /// argument and its deadline the vsync plus `budget-ns` (the frame API writes both, relative
    /// to the span so they survive rebasing); without them, the span's start is its vsync and
    /// `P` its budget.
    static func spanFrames(_ spans: consuming [Span], trace: Trace, interval: Int64) -> [FrameReport.Frame] {
        var sorted = spans
        sorted.sort { ($0.start, $0.end) < ($1.start, $1.end) }  // in place when the caller handed its array over
        var frames: [FrameReport.Frame] = []
        frames.reserveCapacity(sorted.count)
        frames.adviseHugePages()
        // The last frame's commit, kept apart: reading `frames.last` copies the whole frame.
        var lastCommitEnd: Int64?
        for span in sorted {
            // A frame span inside another frame span is not a frame of its own.
            if let lastCommitEnd, span.start < lastCommitEnd { continue }
            let arguments = trace.argumentLists[Int(span.arguments)]
            var vsync = span.start
            if let since = arguments[FrameContract.Key.sinceVsync]?.integerValue, since >= 0 {
                vsync = span.start.subtractingSaturating(since)
            }
            let budget = arguments[FrameContract.Key.budget]?.integerValue.flatMap { $0 > 0 ? $0 : nil } ?? interval
            var frame = FrameReport.Frame(
                index: frames.count, vsync: vsync, deadline: vsync.addingSaturating(budget), workStart: span.start,
                commitEnd: span.end)
            frame.sourceIndex = arguments[FrameContract.Key.index]?.integerValue
            frames.append(frame)
            lastCommitEnd = frame.commitEnd
        }
        return frames
    }
}
