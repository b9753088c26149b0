import FrameTrace

/// An Android app in a trace: which process is the app, its UI thread and its RenderThread, and
/// the frame ids in its slice names, as Perfetto's trace processor reads them.
///
/// - The **UI thread** is the app's main thread, the thread whose tid equals its pid (trace
///   processor's `is_main_thread`; Macrobenchmark's `process.pid = thread.tid`).
/// - The **RenderThread** is the thread of that process named `RenderThread` (HWUI's), where
///   `DrawFrame(s) <id>` runs; without one, the app's thread other than the UI thread with the
///   most `DrawFrame` slices.
/// - A **frame id** is the vsync id in `Choreographer#doFrame <id>` and `DrawFrame(s) <id>`
///   (``frameID(in:prefix:)``).
enum AndroidApp {
    /// The UI thread's frame slice and the RenderThread's, as names begin (`DrawFrame` matches
    /// `DrawFrames` too, as trace processor's `DrawFrame*` does).
    static let doFramePrefix = "Choreographer#doFrame"
    static let drawFramePrefix = "DrawFrame"
    /// HWUI's render thread name.
    static let renderThreadName = "RenderThread"

    /// The frame id of a slice named `prefix…`, as trace processor's `_get_frame_table_with_id`
    /// reads it: the second word of the name split at single spaces, cast to an integer the way
    /// SQLite casts text (leading blanks, a sign and the digits that follow; no digits is 0;
    /// past Int64 saturates); `nil` when the name does not start with `prefix`, has no second
    /// word, or the id is 0 or -1 (trace processor drops those: `Choreographer#doFrame - resynced
    /// to 1234 in 20.0ms` has none).
    static func frameID(in name: Substring, prefix: String) -> Int64? {
        guard name.hasPrefix(prefix) else { return nil }
        let words = name.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count >= 2 else { return nil }
        var text = words[1].utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            text = text.dropFirst()
        }
        var value: Int64 = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            let digit = Int64(byte - UInt8(ascii: "0"))
            value = value.multipliedSaturating(by: 10).addingSaturating(negative ? -digit : digit)
        }
        return value == 0 || value == -1 ? nil : value
    }

    /// Whether the trace looks like an Android app's: it has `Choreographer#doFrame` slices or
    /// FrameTimeline's surface frames (their argument keys are not always symbols: a recording
    /// with FrameTimeline alone is found by its surface frames).
    static func isAndroid(_ trace: Trace) -> Bool {
        if trace.symbols.lookup(FrameContract.Timeline.category) != nil,
            trace.symbols.lookup(AndroidFrameTimeline.surfaceTokenKey) != nil
        {
            return true
        }
        if trace.symbols.strings.contains(where: { $0.hasPrefix(doFramePrefix) }) { return true }
        return trace.symbols.lookup(FrameContract.Timeline.category) != nil
            && AndroidFrameTimeline.appProcess(trace: trace, preferred: nil) != nil
    }

    /// The app's UI thread: in `processID` when given, else in the process with the most
    /// `Choreographer#doFrame` slices, else in the one with the most FrameTimeline surface
    /// frames; the thread whose tid is the pid, else the thread of that process with the most
    /// `doFrame` slices. `nil` when the trace is not an Android app's or names no such thread.
    static func uiThread(trace: Trace, threads: [TraceThread], spans: SpanIndex, processID: Int64?) -> ThreadKey? {
        guard isAndroid(trace) else { return nil }
        let doFrames = doFrameCounts(trace: trace, spans: spans)
        var process = processID
        if process == nil {
            var byProcess: [Int64: Int] = [:]
            for (thread, count) in doFrames { byProcess[thread.processID, default: 0] += count }
            process =
                byProcess.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
                ?? AndroidFrameTimeline.appProcess(trace: trace, preferred: nil)
        }
        guard let process else { return nil }
        let main = ThreadKey(processID: process, threadID: process)
        if threads.contains(where: { $0.key == main }) || spans.slot(of: main) != nil { return main }
        return doFrames.filter { $0.key.processID == process }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// The app's RenderThread: the thread of `processID` named `RenderThread`, else the thread
    /// of the process other than `ui` with the most `DrawFrame` slices.
    static func renderThread(
        symbols: SymbolTable, threads: [TraceThread], spans: SpanIndex, processID: Int64, ui: ThreadKey?
    ) -> ThreadKey? {
        if let named = threads.filter({ $0.key.processID == processID && $0.name == renderThreadName }).map(\.key).min()
        {
            return named
        }
        var best: (count: Int, key: ThreadKey)?
        for (slot, thread) in spans.threads.enumerated() where thread.processID == processID && thread != ui {
            let count = spans.spans(inSlot: slot).reduce(0) {
                $0 + (symbols[$1.name].hasPrefix(drawFramePrefix) ? 1 : 0)
            }
            if count > 0, best.map({ (count, $0.key) > ($0.count, thread) }) ?? true { best = (count, thread) }
        }
        return best?.key
    }

    /// `Choreographer#doFrame` slices per thread.
    private static func doFrameCounts(trace: Trace, spans: SpanIndex) -> [ThreadKey: Int] {
        var isDoFrame = [Bool](repeating: false, count: trace.symbols.count)
        for (index, string) in trace.symbols.strings.enumerated() where string.hasPrefix(doFramePrefix) {
            isDoFrame[index] = true
        }
        var result: [ThreadKey: Int] = [:]
        for (slot, thread) in spans.threads.enumerated() {
            let count = spans.spans(inSlot: slot).reduce(0) { $0 + (isDoFrame[Int($1.name.rawValue)] ? 1 : 0) }
            if count > 0 { result[thread] = count }
        }
        return result
    }

    /// A slice of the app named with a frame id.
    struct FrameSlice {
        /// The name's first word (`DrawFrames`, `DrawFrame`, `Choreographer#doFrame`).
        var name: Substring
        var thread: ThreadKey
        var start: Int64
        var end: Int64
    }

    /// The process's slices named `prefix <id>` at depth 0 or 1 on their thread, by id, each
    /// id's in start order: trace processor's `_get_frame_table_with_id`, as its diff test
    /// `test_android_frames_get_frame_table_with_id` expects it (a doFrame nested deeper is no
    /// frame's).
    static func slicesByFrameID(prefix: String, trace: Trace, spans: SpanIndex, processID: Int64) -> [Int64:
        [FrameSlice]]
    {
        let idOf: [Int64?] = trace.symbols.strings.map { frameID(in: Substring($0), prefix: prefix) }
        var result: [Int64: [FrameSlice]] = [:]
        for (slot, thread) in spans.threads.enumerated() where thread.processID == processID {
            var open: [Int64] = []  // the ends of the spans around the current one
            for span in spans.spans(inSlot: slot) {
                while let end = open.last, end <= span.start { open.removeLast() }
                let depth = open.count
                open.append(span.end)
                let raw = Int(span.name.rawValue)
                guard depth <= 1, raw < idOf.count, let id = idOf[raw] else { continue }
                let name = trace.symbols[span.name].prefix { $0 != " " }
                result[id, default: []].append(FrameSlice(name: name, thread: thread, start: span.start, end: span.end))
            }
        }
        for id in result.keys { result[id]!.sort { ($0.start, $0.end) < ($1.start, $1.end) } }
        return result
    }
}
