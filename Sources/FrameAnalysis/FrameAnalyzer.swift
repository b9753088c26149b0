public import FrameTrace

/// Choices the analysis cannot always read from the trace.
public struct AnalysisOptions: Sendable {
    /// Frames per second to assume when the trace's metadata does not say (`--fps`); `nil` means 60.
    public var framesPerSecond: Double?
    /// The main thread, overriding every other rule (`--main-thread PID:TID`).
    public var mainThread: ThreadKey?
    /// How many worst frames to list (`--top`).
    public var worstFrameCount: Int

    /// Creates options.
    public init(framesPerSecond: Double? = nil, mainThread: ThreadKey? = nil, worstFrameCount: Int = 5) {
        precondition(framesPerSecond.map { $0 > 0 } ?? true, "framesPerSecond must be positive")
        precondition(worstFrameCount >= 0, "worstFrameCount must not be negative")
        self.framesPerSecond = framesPerSecond
        self.mainThread = mainThread
        self.worstFrameCount = worstFrameCount
    }
}

/// Finds the frames in a trace and says where each frame's budget went.
///
/// ```swift
/// let trace = try ChromeTraceReader.read(contentsOf: "run.json")
/// let report = FrameAnalyzer.analyze(trace)
/// print(report.summary.hitchTimeRatio)
/// ```
public enum FrameAnalyzer {
    /// A frozen frame lasts longer than this (700 ms).
    public static let frozenThreshold: Int64 = 700_000_000

    /// Names that mark a thread as a UI main thread in traces from other tools.
    public static let mainThreadNames: Set<String> = [
        "main", "main thread", "mainthread", "crrenderermain", "crbrowsermain", "ui thread", "ui", "com.apple.main-thread",
    ]

    /// Analyses a trace.
    ///
    /// - Frame interval `P`: the trace's metadata, else `options.framesPerSecond`, else 60 fps.
    /// - Main thread: `options.mainThread`, else the trace's metadata, else a thread named like a
    ///   main thread, else the thread with the most busy time.
    /// - Frames: the main thread's `frame`-category spans when there are any; otherwise a vsync
    ///   grid over the main thread's busy time: work that starts between two vsyncs forms a frame
    ///   whose deadline is the second; work that runs past it makes the frame late; idle vsyncs
    ///   make no frame.
    /// - Input latency: events in category `input`, measured to the end of the frame that
    ///   reflects them (see ``inputFigures(of:frames:)``); no input section without them.
    /// - Parameters:
    ///   - trace: The trace, from any producer.
    ///   - options: Overrides for what the trace does not say.
    /// - Returns: The report.
    /// - Complexity: O(*n* log *n*) in the trace's events.
    public static func analyze(_ trace: Trace, options: AnalysisOptions = AnalysisOptions()) -> FrameReport {
        let (interval, intervalSource) = frameInterval(of: trace, options: options)
        let spans = SpanIndex(trace: trace)
        let (main, mainRule) = mainThread(of: trace, spans: spans, options: options)
        let mainSpans = main.map { spans.spans(on: $0) } ?? []
        let frameCategory = trace.symbols.lookup("frame")
        let frameSpans = mainSpans.filter { $0.category == frameCategory && frameCategory != nil }
        var frames: [FrameReport.Frame]
        let boundaries: String
        if frameSpans.isEmpty {
            frames = gridFrames(busy: SpanIndex.busyIntervals(of: mainSpans), interval: interval)
            boundaries = "vsync grid"
        } else {
            frames = spanFrames(frameSpans, trace: trace, interval: interval)
            boundaries = "frame spans"
        }
        var accounting = FrameAccounting(frames: frames)
        var categoryTotals: [Symbol: CategoryTotals] = [:]
        for (thread, threadSpans) in spans.byThread {
            let isMain = thread == main
            SelfTime.sweep(threadSpans) { segment in
                categoryTotals[segment.category, default: CategoryTotals()].add(segment.duration, isMain: isMain)
                accounting.add(segment, category: trace.symbols[segment.category], isMain: isMain)
            }
            for span in threadSpans { categoryTotals[span.category, default: CategoryTotals()].spanCount += 1 }
        }
        frames = accounting.frames
        let method = FrameReport.Method(
            frameIntervalNanoseconds: interval, frameIntervalSource: intervalSource, mainThread: main,
            mainThreadName: main.flatMap { trace.threadName($0) }, mainThreadRule: mainRule, frameBoundaries: boundaries)
        let summary = summarize(frames, interval: interval, mainOutside: accounting.mainOutsideFrames)
        let categories = categoryTotals.map { symbol, totals in
            let name = trace.symbols[symbol]
            return FrameReport.CategoryFigures(
                name: name, spanCount: totals.spanCount, mainNanoseconds: totals.main, backgroundNanoseconds: totals.background,
                budgetShare: frames.isEmpty ? 0 : Double(totals.main) / (Double(frames.count) * Double(interval)),
                perFrameMain: PercentileSummary(frames.map { $0.mainByCategory[name] ?? 0 }))
        }.sorted { ($0.mainNanoseconds, $0.backgroundNanoseconds, $1.name) > ($1.mainNanoseconds, $1.backgroundNanoseconds, $0.name) }
        let worst = frames.sorted { ($0.overrun, $0.mainThreadNanoseconds, $1.index) > ($1.overrun, $1.mainThreadNanoseconds, $0.index) }
            .prefix(options.worstFrameCount)
            .map { frame in
                FrameReport.WorstFrame(frame: frame, topSpans: topSpans(in: frame, mainSpans: mainSpans, trace: trace))
            }
        let threads = trace.allThreads.map { thread in
            let threadSpans = spans.spans(on: thread.key)
            var selfByCategory: [Symbol: Int64] = [:]
            SelfTime.sweep(threadSpans) { selfByCategory[$0.category, default: 0] += $0.duration }
            let top = selfByCategory.max { ($0.value, $1.key) < ($1.value, $0.key) }
            return FrameReport.ThreadFigures(
                key: thread.key, name: thread.name, isMain: thread.key == main, spanCount: threadSpans.count,
                busyNanoseconds: SpanIndex.busyIntervals(of: threadSpans).reduce(0) { $0 + $1.end - $1.start },
                topCategory: top.map { trace.symbols[$0.key] })
        }.sorted { ($0.isMain ? 0 : 1, -$0.busyNanoseconds, $0.key) < ($1.isMain ? 0 : 1, -$1.busyNanoseconds, $1.key) }
        return FrameReport(
            method: method, frames: frames, summary: summary, categories: categories, worstFrames: Array(worst),
            threads: threads, diagnostics: trace.diagnostics, input: inputFigures(of: trace, frames: frames))
    }

    // MARK: - Choosing P and the main thread

    static func frameInterval(of trace: Trace, options: AnalysisOptions) -> (Int64, String) {
        if let interval = trace.metadata.frameIntervalNanoseconds, interval > 0 { return (interval, "trace metadata") }
        if let fps = options.framesPerSecond { return (Int64((1e9 / fps).rounded()), "--fps \(formatNumber(fps))") }
        return (16_666_667, "default 60 fps")
    }

    static func mainThread(of trace: Trace, spans: SpanIndex, options: AnalysisOptions) -> (ThreadKey?, String) {
        if let chosen = options.mainThread { return (chosen, "--main-thread") }
        if let main = trace.metadata.mainThread { return (main, "trace metadata") }
        let named = trace.allThreads.filter { thread in
            thread.name.map { mainThreadNames.contains($0.lowercased()) } ?? false
        }
        if let best = named.max(by: { spans.busyTime(on: $0.key) < spans.busyTime(on: $1.key) }) {
            return (best.key, "thread name")
        }
        if let busiest = spans.byThread.keys.max(by: { (spans.busyTime(on: $0), $1) < (spans.busyTime(on: $1), $0) }) {
            return (busiest, "busiest thread")
        }
        return (nil, "no threads")
    }

    // MARK: - Frames

    /// Frames from a vsync grid anchored at the first busy interval.
    static func gridFrames(busy: [TimeRange], interval: Int64) -> [FrameReport.Frame] {
        guard let origin = busy.first?.start else { return [] }
        var frames: [FrameReport.Frame] = []
        var index = 0
        while index < busy.count {
            let first = busy[index]
            let tick = (first.start - origin) / interval
            let vsync = origin + tick * interval
            let deadline = vsync + interval
            var end = first.end
            index += 1
            while index < busy.count, busy[index].start < deadline {
                end = max(end, busy[index].end)
                index += 1
            }
            frames.append(
                FrameReport.Frame(
                    index: frames.count, vsync: vsync, deadline: deadline, workStart: first.start, commitEnd: end,
                    mainThreadNanoseconds: 0, mainByCategory: [:], backgroundByCategory: [:]))
        }
        return frames
    }

    /// Frames from explicit `frame` spans. A span's vsync is its start minus its `since-vsync-ns`
    /// argument and its deadline the vsync plus `budget-ns` (framescope's display loop writes
    /// both, relative to the span so they survive rebasing); without them, a grid anchored at the
    /// first frame span gives the vsync and `P` the budget.
    static func spanFrames(_ spans: [Span], trace: Trace, interval: Int64) -> [FrameReport.Frame] {
        let sorted = spans.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        guard let origin = sorted.first?.start else { return [] }
        var frames: [FrameReport.Frame] = []
        for span in sorted {
            // A frame span inside another frame span is not a frame of its own.
            if let last = frames.last, span.start < last.commitEnd { continue }
            let arguments = trace.argumentLists[Int(span.arguments)]
            let vsync: Int64
            if let since = arguments["since-vsync-ns"]?.integer, since >= 0 {
                vsync = span.start - since
            } else {
                vsync = origin + (span.start - origin) / interval * interval
            }
            let budget = arguments["budget-ns"]?.integer.flatMap { $0 > 0 ? $0 : nil } ?? interval
            frames.append(
                FrameReport.Frame(
                    index: frames.count, vsync: vsync, deadline: vsync + budget, workStart: span.start, commitEnd: span.end,
                    mainThreadNanoseconds: 0, mainByCategory: [:], backgroundByCategory: [:]))
        }
        return frames
    }

    static func topSpans(in frame: FrameReport.Frame, mainSpans: [Span], trace: Trace) -> [FrameReport.Contributor] {
        var byName: [Symbol: Int64] = [:]
        let window = TimeRange(start: frame.workStart, end: frame.commitEnd)
        let inside = mainSpans.filter { $0.start < window.end && $0.end > window.start }
        SelfTime.sweep(inside) { segment in
            let clipped = min(segment.end, window.end) - max(segment.start, window.start)
            if clipped > 0 { byName[segment.name, default: 0] += clipped }
        }
        return byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map {
            FrameReport.Contributor(name: trace.symbols[$0.key], nanoseconds: $0.value)
        }
    }

    // MARK: - Summary

    static func summarize(_ frames: [FrameReport.Frame], interval: Int64, mainOutside: Int64) -> FrameReport.Summary {
        var slow = 0, frozen = 0, late = 0
        var missed: Int64 = 0
        var hitch: Int64 = 0
        for frame in frames {
            if frame.duration > frozenThreshold {
                frozen += 1
            } else if frame.duration > interval {
                slow += 1
            }
            if frame.overrun > 0 {
                late += 1
                hitch += frame.overrun
                missed += (frame.overrun + interval - 1) / interval
            }
        }
        let measured = frames.isEmpty ? 0 : max(frames.last!.commitEnd, frames.last!.deadline) - frames.first!.vsync
        let ratio = measured > 0 ? (Double(hitch) / 1e6) / (Double(measured) / 1e9) : 0
        return FrameReport.Summary(
            frameCount: frames.count, slowFrames: slow, frozenFrames: frozen, lateFrames: late, missedVsyncs: missed,
            hitchNanoseconds: hitch, measuredNanoseconds: measured, hitchTimeRatio: ratio, hitchBand: hitchBand(ratio),
            frameDelaySeconds: Double(hitch) / 1e9, mainThreadCost: PercentileSummary(frames.map(\.mainThreadNanoseconds)),
            overrun: PercentileSummary(frames.map(\.overrun)), mainOutsideFramesNanoseconds: mainOutside)
    }

    /// Apple's bands for scrolling hitch time ratio.
    public static func hitchBand(_ ratio: Double) -> String {
        ratio < 5 ? "good" : ratio < 10 ? "warning" : "critical"
    }
}

/// Running per-category totals over the whole trace.
struct CategoryTotals {
    var spanCount = 0
    var main: Int64 = 0
    var background: Int64 = 0

    mutating func add(_ duration: Int64, isMain: Bool) {
        if isMain { main += duration } else { background += duration }
    }
}

/// Assigns self-time segments to frames: main-thread segments to the frame whose work contains
/// them, other threads' segments to the frame windows they overlap (from one frame's vsync to the
/// next frame's vsync).
struct FrameAccounting {
    var frames: [FrameReport.Frame]
    var mainOutsideFrames: Int64 = 0

    init(frames: [FrameReport.Frame]) { self.frames = frames }

    mutating func add(_ segment: SelfTime.Segment, category: String, isMain: Bool) {
        guard !frames.isEmpty else {
            if isMain { mainOutsideFrames += segment.duration }
            return
        }
        if isMain {
            var covered: Int64 = 0
            var index = firstFrame(endingAfter: segment.start) { $0.commitEnd }
            while index < frames.count, frames[index].workStart < segment.end {
                let overlap = min(segment.end, frames[index].commitEnd) - max(segment.start, frames[index].workStart)
                if overlap > 0 {
                    frames[index].mainThreadNanoseconds += overlap
                    frames[index].mainByCategory[category, default: 0] += overlap
                    covered += overlap
                }
                index += 1
            }
            mainOutsideFrames += segment.duration - covered
        } else {
            // The frame whose window holds the segment's start is the last one with vsync <= start.
            var index = max(0, firstFrame(endingAfter: segment.start) { $0.vsync } - 1)
            while index < frames.count, frames[index].vsync < segment.end {
                let windowEnd = index + 1 < frames.count ? frames[index + 1].vsync : max(frames[index].commitEnd, frames[index].deadline)
                let overlap = min(segment.end, windowEnd) - max(segment.start, frames[index].vsync)
                if overlap > 0 { frames[index].backgroundByCategory[category, default: 0] += overlap }
                index += 1
            }
        }
    }

    /// Binary search for the first frame whose key is after `time`.
    /// A closure rather than a key path: key-path projection in this loop cost more than the rest
    /// of the analysis on a 1,000,000-event trace.
    @inline(__always)
    private func firstFrame(endingAfter time: Int64, by key: (FrameReport.Frame) -> Int64) -> Int {
        var low = 0, high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if key(frames[middle]) <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

func formatNumber(_ value: Double) -> String {
    value == value.rounded() ? String(Int64(value)) : String(value)
}
