import FrameTrace

extension FrameAnalyzer {
    /// Frame markers that need no flag: Android's UI-thread frame callback and its RenderThread's
    /// draw. A name matches when it is the marker or starts with it and a space
    /// (`Choreographer#doFrame 1234567` carries the vsync id).
    package static let builtInFrameMarkers = ["Choreographer#doFrame", "DrawFrame", "DrawFrames"]

    /// Frames from named markers, the first name in `names` then ``builtInFrameMarkers`` that
    /// the trace has.
    ///
    /// A marker **span** is one frame, from its start (its vsync) to its end (its commit), with a
    /// deadline `P` after its start; nested markers of the same name are one frame. Marker spans
    /// on the main thread win; a built-in RenderThread marker (`DrawFrame`) is taken from the
    /// thread with the most of them. Marker **instants** (a Tracy-style frame mark) divide time:
    /// each frame runs from one mark to the next, and is late by what it ran past `P`.
    static func markerFrames(trace: Trace, spans: SpanIndex, main: ThreadKey?, interval: Int64, names: [String])
        -> FoundFrames?
    {
        let builtIn = builtInFrameMarkers.filter { !names.contains($0) }
        for (position, name) in (names + builtIn).enumerated() {
            let isBuiltIn = position >= names.count
            let matching = markerSymbols(trace: trace, name: name, allowSuffix: isBuiltIn)
            guard !matching.isEmpty else { continue }
            if let found = markerSpanFrames(
                matching, name: name, isBuiltIn: isBuiltIn, trace: trace, spans: spans, main: main, interval: interval)
            {
                return found
            }
            // Instants: one frame from each mark to the next.
            var marks: [Int64] = []
            for event in trace.events where event.phase == .instant && matching.contains(event.name) {
                if main == nil || event.thread == main || event.scope != .thread { marks.append(event.timestamp) }
            }
            marks.sort()
            guard marks.count >= 2 else { continue }
            let frames = markFrames(marks, interval: interval)
            guard !frames.isEmpty else { continue }
            return FoundFrames(
                source: .frameMarkers, detail: .markerInstants(name: name),
                frames: frames)
        }
        return nil
    }

    /// Frames from the marker spans named `matching` of the main thread, else of the thread with
    /// the most; `nil` when no thread has one.
    private static func markerSpanFrames(
        _ matching: Set<Symbol>, name: String, isBuiltIn: Bool, trace: Trace, spans: SpanIndex, main: ThreadKey?,
        interval: Int64
    ) -> FoundFrames? {
        var byThread: [ThreadKey: [Span]] = [:]
        for (slot, thread) in spans.threads.enumerated() {
            let marked = spans.spans(inSlot: slot).filter { matching.contains($0.name) }
            if !marked.isEmpty { byThread[thread] = marked }
        }
        let thread =
            main.flatMap { byThread[$0] == nil ? nil : $0 }
            ?? byThread.max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
        guard let thread, let marked = byThread[thread] else { return nil }
        var frames: [FrameReport.Frame] = []
        frames.reserveCapacity(marked.count)
        for span in marked where frames.last.map({ span.start >= $0.commitEnd }) ?? true {
            var frame = FrameReport.Frame(
                index: frames.count, vsync: span.start, deadline: span.start.addingSaturating(interval),
                workStart: span.start,
                commitEnd: span.end)
            // Android's vsync id, which pairs the frame with its RenderThread's DrawFrame.
            if isBuiltIn {
                frame.sourceIndex = AndroidApp.frameID(
                    in: Substring(trace.symbols[span.name]), prefix: AndroidApp.doFramePrefix)
            }
            frames.append(frame)
        }
        let detail = FrameReport.SourceDetail.markerSpans(
            name: name, thread: thread, threadName: trace.threadName(thread) ?? thread.description,
            isMain: thread == main)
        return FoundFrames(source: .frameMarkers, detail: detail, frames: frames)
    }

    /// Frames between sorted marks. A mark is a frame presented (Tracy's FrameMark); the gap to
    /// the next one, rounded to whole vsyncs so that timer jitter is not a hitch, is how long the
    /// frame was shown.
    private static func markFrames(_ marks: [Int64], interval: Int64) -> [FrameReport.Frame] {
        var frames: [FrameReport.Frame] = []
        frames.reserveCapacity(marks.count - 1)
        for (start, end) in zip(marks, marks.dropFirst()) where end > start {
            let gap = end.subtractingSaturating(start)
            let vsyncs = max(1, (gap / interval).addingSaturating((gap % interval) * 2 >= interval ? 1 : 0))
            frames.append(
                FrameReport.Frame(
                    index: frames.count, vsync: start, deadline: start.addingSaturating(interval), workStart: start,
                    commitEnd: start.addingSaturating(vsyncs.multipliedSaturating(by: interval))))
        }
        return frames
    }

    private static func markerSymbols(trace: Trace, name: String, allowSuffix: Bool) -> Set<Symbol> {
        var result: Set<Symbol> = []
        if let exact = trace.symbols.lookup(name) { result.insert(exact) }
        guard allowSuffix else { return result }
        let prefix = name + " "
        for (index, string) in trace.symbols.strings.enumerated() where string.hasPrefix(prefix) {
            result.insert(Symbol(rawValue: UInt32(index)))
        }
        return result
    }
}
