import FrameSupport
@_spi(FramescopeInternals) import FrameTrace

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
///
/// Threads are numbered by **slot**: every thread that has an event of any phase, in the order
/// of its first event. Per-thread figures are arrays indexed by slot, so that no pass over the
/// events hashes a ``FrameTrace/ThreadKey`` per event: consecutive events mostly share a thread,
/// and only a change of thread looks its slot up. Each thread's spans are one array of exactly
/// its size, counted before they are copied.
struct SpanIndex {
    /// The threads' slots.
    private var slots = ThreadSlots()
    /// Each slot's spans, sorted by start, longer first (file order on ties).
    private var spansBySlot: [[Span]] = []
    /// Each slot's busy time: the length of the union of its spans.
    private var busyBySlot: [Int64] = []
    /// The distinct categories of the spans (after ``WorkKindTable/assignKinds(to:)``).
    private(set) var categories: CategoryIndex

    /// - Parameter workKinds: For a Chrome trace or an Android one without categories, the table
    ///   that replaces each span's category with its kind of work (``ChromeWorkKind``,
    ///   ``AndroidWorkKind``); `nil` keeps the trace's categories.
    init(trace: Trace, workKinds: WorkKindTable? = nil) {
        // Pass 1: the slots, and how many spans each holds.
        var counts: [Int] = []
        for event in trace.events {
            let slot = slots.slot(of: event.thread)
            if slot == counts.count { counts.append(0) }
            if event.phase == .complete { counts[slot] += 1 }
        }
        spansBySlot = counts.map { count in
            var spans: [Span] = []
            spans.reserveCapacity(count)
            spans.adviseHugePages()
            return spans
        }
        // Pass 2: the spans, in file order within each thread.
        for event in trace.events where event.phase == .complete {
            spansBySlot[slots.slot(of: event.thread)].append(
                Span(
                    start: event.timestamp, end: event.timestamp.addingSaturating(max(0, event.duration)),
                    name: event.name,
                    category: event.category, arguments: event.arguments))
        }
        categories = CategoryIndex(symbolCount: trace.symbols.count)
        busyBySlot = Array(repeating: 0, count: counts.count)
        for slot in spansBySlot.indices where !spansBySlot[slot].isEmpty {
            spansBySlot[slot].sort { ($0.start, $1.end) < ($1.start, $0.end) }
            workKinds?.assignKinds(to: &spansBySlot[slot])
            var busy: Int64 = 0
            SpanIndex.forEachBusyInterval(of: spansBySlot[slot]) {
                busy = busy.addingSaturating($0.end.subtractingSaturating($0.start))
            }
            busyBySlot[slot] = busy
            for span in spansBySlot[slot] { categories.add(span.category) }
        }
    }

    /// The thread of each slot.
    var threads: [ThreadKey] { slots.threads }

    /// The number of spans on all threads.
    var spanCount: Int { spansBySlot.reduce(0) { $0 + $1.count } }

    /// The slot of a thread that has events.
    func slot(of thread: ThreadKey) -> Int? { slots.existingSlot(of: thread) }

    /// The spans of the thread in `slot`.
    func spans(inSlot slot: Int) -> [Span] { spansBySlot[slot] }

    func spans(on thread: ThreadKey) -> [Span] { slot(of: thread).map { spansBySlot[$0] } ?? [] }

    func busyTime(inSlot slot: Int) -> Int64 { busyBySlot[slot] }

    func busyTime(on thread: ThreadKey) -> Int64 { slot(of: thread).map { busyBySlot[$0] } ?? 0 }

    /// Every thread that has events or metadata, as ``FrameTrace/Trace/allThreads`` lists them
    /// (by sort index, then process and thread id), without a pass over the events.
    func allThreads(of trace: Trace) -> [TraceThread] {
        var result = Array(trace.threads.values)
        for thread in threads where trace.threads[thread] == nil { result.append(TraceThread(key: thread)) }
        return result.sorted { ($0.sortIndex ?? Int64.max, $0.key) < ($1.sortIndex ?? Int64.max, $1.key) }
    }

    /// The union of spans as disjoint ranges in time order. `spans` must be sorted by start.
    static func busyIntervals(of spans: [Span]) -> [TimeRange] {
        var result: [TimeRange] = []
        forEachBusyInterval(of: spans) { result.append($0) }
        return result
    }

    /// Calls `body` with each range of the union of `spans`, in time order. `spans` must be
    /// sorted by start.
    static func forEachBusyInterval(of spans: [Span], _ body: (TimeRange) -> Void) {
        var current: TimeRange?
        for span in spans {
            if let range = current, span.start <= range.end {
                if span.end > range.end { current!.end = span.end }
            } else {
                if let range = current { body(range) }
                current = TimeRange(start: span.start, end: span.end)
            }
        }
        if let range = current { body(range) }
    }
}

/// The distinct categories of a trace's spans, numbered densely in order of first appearance,
/// so that per-category sums are arrays indexed by number instead of dictionaries.
struct CategoryIndex {
    /// Per symbol (by raw value), its category number, or -1 when no span has it as category.
    private var numberOfSymbol: [Int32]
    /// The symbol of each category number.
    private(set) var symbols: [Symbol] = []

    init(symbolCount: Int) { numberOfSymbol = Array(repeating: -1, count: symbolCount) }

    /// The number of categories.
    var count: Int { symbols.count }

    /// Numbers `symbol` if it is new.
    mutating func add(_ symbol: Symbol) {
        let raw = Int(symbol.rawValue)
        if raw >= numberOfSymbol.count { numberOfSymbol += repeatElement(-1, count: raw + 1 - numberOfSymbol.count) }
        guard numberOfSymbol[raw] < 0 else { return }
        numberOfSymbol[raw] = Int32(symbols.count)
        symbols.append(symbol)
    }

    /// The number of a span's category. `symbol` must be the category of some span.
    @inline(__always)
    func number(of symbol: Symbol) -> Int { Int(numberOfSymbol[Int(symbol.rawValue)]) }
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
    /// time order. Segments are disjoint, each at least 1 ns long, and cover exactly the union of
    /// the spans. A span that partially overlaps its parent is clipped to the parent's end (the
    /// reader flags those).
    static func sweep(_ spans: [Span], _ emit: (Segment) -> Void) { sweep(spans[...], emit) }

    /// Calls `emit` with every self-time segment of a run of spans, as ``sweep(_:_:)-([Span],_)``
    /// does. A thread's spans swept in runs that each begin where no earlier span is still open
    /// (see ``SelfTimeSweep``) give the same segments, in the same order, as swept at once.
    static func sweep(_ spans: ArraySlice<Span>, _ emit: (Segment) -> Void) {
        struct Open {
            var end: Int64
            var cursor: Int64
            var name: Symbol
            var category: Symbol
        }
        var stack: [Open] = []

        func closeUntil(_ time: Int64) {
            while let top = stack.last, top.end <= time {
                if top.end > top.cursor {
                    emit(Segment(start: top.cursor, end: top.end, name: top.name, category: top.category))
                }
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
