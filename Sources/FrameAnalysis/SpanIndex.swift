import FrameTrace

/// A half-open time range in nanoseconds.
struct TimeRange: Hashable {
    var start: Int64
    var end: Int64
}

/// A span on one thread: a `complete` event (the reader turns `B`/`E` pairs into these).
struct Span {
    var start: Int64
    var end: Int64
    var name: Symbol
    var category: Symbol
    var arguments: UInt32
}

/// The trace's spans grouped by thread and sorted for sweeping: by start, longer first on ties.
struct SpanIndex {
    private(set) var byThread: [ThreadKey: [Span]] = [:]
    private var busy: [ThreadKey: Int64] = [:]

    /// - Parameter workKinds: For a Chrome trace, the table that replaces each span's category
    ///   with its kind of work (``ChromeWorkKind``); `nil` keeps the trace's categories.
    init(trace: Trace, workKinds: WorkKindTable? = nil) {
        for event in trace.events where event.phase == .complete {
            let span = Span(
                start: event.timestamp, end: event.timestamp.addingSaturating(max(0, event.duration)), name: event.name,
                category: event.category, arguments: event.arguments)
            byThread[event.thread, default: []].append(span)
        }
        for key in byThread.keys {
            byThread[key]!.sort { ($0.start, $1.end) < ($1.start, $0.end) }
            workKinds?.assignKinds(to: &byThread[key]!)
            busy[key] = SpanIndex.busyIntervals(of: byThread[key]!).reduce(0) { $0.addingSaturating($1.end.subtractingSaturating($1.start)) }
        }
    }

    func spans(on thread: ThreadKey) -> [Span] { byThread[thread] ?? [] }

    func busyTime(on thread: ThreadKey) -> Int64 { busy[thread] ?? 0 }

    /// The union of spans as disjoint ranges in time order. `spans` must be sorted by start.
    static func busyIntervals(of spans: [Span]) -> [TimeRange] {
        var result: [TimeRange] = []
        for span in spans {
            if let last = result.last, span.start <= last.end {
                if span.end > last.end { result[result.count - 1].end = span.end }
            } else {
                result.append(TimeRange(start: span.start, end: span.end))
            }
        }
        return result
    }
}

/// Self time: each moment of a thread's busy time belongs to the innermost span open then.
enum SelfTime {
    /// A stretch of one span's self time.
    struct Segment {
        var start: Int64
        var end: Int64
        var name: Symbol
        var category: Symbol
        var duration: Int64 { end.subtractingSaturating(start) }
    }

    /// Calls `emit` with every self-time segment of `spans` (sorted by start, longer first), in
    /// time order. Segments are disjoint and cover exactly the union of the spans. A span that
    /// partially overlaps its parent is clipped to the parent's end (the reader flags those).
    static func sweep(_ spans: [Span], _ emit: (Segment) -> Void) {
        struct Open {
            var end: Int64
            var cursor: Int64
            var name: Symbol
            var category: Symbol
        }
        var stack: [Open] = []

        func closeUntil(_ time: Int64) {
            while let top = stack.last, top.end <= time {
                if top.end > top.cursor { emit(Segment(start: top.cursor, end: top.end, name: top.name, category: top.category)) }
                stack.removeLast()
                if !stack.isEmpty { stack[stack.count - 1].cursor = max(stack[stack.count - 1].cursor, top.end) }
            }
        }

        for span in spans {
            closeUntil(span.start)
            var end = span.end
            if let top = stack.last {
                end = min(end, top.end)
                if span.start > top.cursor {
                    emit(Segment(start: top.cursor, end: span.start, name: top.name, category: top.category))
                }
                stack[stack.count - 1].cursor = max(top.cursor, end)
            }
            guard end > span.start || stack.isEmpty else { continue }
            stack.append(Open(end: end, cursor: span.start, name: span.name, category: span.category))
        }
        closeUntil(.max)
    }
}
