import Dispatch
import FrameSupport
@_spi(FramescopeInternals) package import FrameTrace

/// Finds the frames in a trace and says where each frame's budget went.
///
/// ```swift
/// let trace = try TraceReader.read(contentsOf: "run.json")
/// let report = FrameAnalyzer.analyze(trace)
/// print(report.summary.hitchTimeRatio)
/// ```
package enum FrameAnalyzer {
    /// A frozen frame lasts longer than this (700 ms).
    package static let frozenThreshold: Int64 = 700_000_000

    /// Names that mark a thread as a UI main thread in traces from other tools, in order of
    /// preference: a browser's UI thread comes last, since a page's frames are the renderer's.
    package static let mainThreadNames: [String] = [
        "main", "main thread", "mainthread", "crrenderermain", "ui thread", "ui", "com.apple.main-thread",
        "crbrowsermain",
    ]

    /// Analyses a trace.
    ///
    /// - Main thread: `options.mainThread`, else an Android app's UI thread (the thread whose tid
    ///   is its pid, in `options.processID` or the app with the most frames), else the trace's
    ///   metadata, else a thread named like a main thread (a renderer's before a browser's), else
    ///   the thread with the most busy time.
    /// - Frame interval `P`: `options.frameRate`, else the trace's metadata, else the rate of
    ///   the trace's own frame events (Chrome's BeginFrame sequence), else 60 fps.
    /// - Frames, from the first source the trace has (``FrameReport/FrameSource``): framescope
    ///   frame spans on the main thread; Chrome's frame accounting in the main thread's process;
    ///   frame markers (`options.frameMarkers`, then Android's `Choreographer#doFrame` and the
    ///   RenderThread's `DrawFrame`); else an estimate in which each stretch of main-thread work is
    ///   a frame that is late only by what it ran past `P`.
    /// - Categories: a Chrome trace's (``ChromeWorkKind/isChromeTrace(_:)``) are its kinds of work
    ///   (``ChromeWorkKind``), and so are those of an Android app's trace whose slices carry no
    ///   categories (``AndroidWorkKind/isUncategorizedAndroidTrace(_:)``, ``AndroidWorkKind``);
    ///   every other trace's are its own.
    /// - Input latency: events in category `input`, measured to the end of the frame that
    ///   reflects them (see ``inputFigures(of:frames:)``); no input section without them.
    /// - Parameters:
    ///   - trace: The trace, from any producer.
    ///   - options: Overrides for what the trace does not say.
    /// - Returns: The report.
    /// - Complexity: O(*n* log *n*) in the trace's events.
    ///
    /// Memory: the analysis keeps only the arguments it reads before it builds its spans, and once
    /// the spans are measured it drops its hold on the trace's events and argument lists before it
    /// fills in the frames. A caller that hands over the only copy (`analyze(consume trace)`, as
    /// `framescope report` does) so frees them then; any other caller keeps its trace as it was.
    package static func analyze(_ trace: consuming Trace, options: AnalysisOptions = AnalysisOptions()) -> FrameReport {
        let parallel = options.usesAllCores && AvailableProcessors.count >= 2
        return analyze(consume trace, options: options, parallelSpans: parallel ? parallelSpans : .max)
    }

    /// The number of spans from which the analysis runs its longest steps on all cores (the
    /// self-time sweep, ``SelfTimeSweep``, and the frames' per-category figures). Below it they
    /// take a few milliseconds at most, less than splitting the work and merging would pay for,
    /// and small traces (the tests', the corpus's) keep the single-threaded path.
    static let parallelSpans = 50_000

    /// Analyses a trace as ``analyze(_:options:)`` does, on all cores from `parallelSpans` spans
    /// (see ``parallelSpans``): tests pass 0 to compare that path's report with the
    /// single-threaded one on small traces.
    static func analyze(_ trace: consuming Trace, options: AnalysisOptions, parallelSpans: Int) -> FrameReport {
        // Chrome traces report kinds of work (script, style, layout, ...) instead of Chrome's
        // trace categories: see ChromeWorkKind. Android's atrace slices have no categories, and
        // report kinds of work (layout, draw, list-bind, ...): see AndroidWorkKind. Other traces
        // keep their categories.
        var trace = trace
        AndroidFrameTimeline.nameApp(in: &trace)
        let workKinds = ChromeWorkKind.nameTable(for: &trace) ?? AndroidWorkKind.nameTable(for: &trace)
        var measured = measure(&trace, workKinds: workKinds, options: options, parallelSpans: parallelSpans)
        // Taken out of `measured`, so that filling the frames in place copies none of them.
        var frames = measured.found.frames
        measured.found.frames = []
        let names = measured.names
        let interval = measured.frameRate.intervalNanoseconds
        let perFrameMain = measured.accounting.finish(
            into: &frames, categoryNames: names.names, spanNames: trace.symbols, onAllCores: measured.onAllCores)
        for (index, hold) in measured.holds {
            frames[index].hitchHold = hold
            frames[index].hitchCause = hold.lane.hitchCause ?? .unknown
        }
        assignLanes(
            &frames, render: measured.render, renderByCategory: measured.renderByCategory, categoryNames: names.names,
            jobs: measured.jobs,
            interval: interval)
        // The lanes' figures and the rest of the report only read the frames: on all cores, the
        // one is made beside the other.
        let onAllCores = measured.onAllCores
        let worstFrameCount = options.worstFrameCount
        let (lanes, figures) = both(onAllCores: onAllCores) { [frames] in
            laneFigures(frames, interval: interval, onAllCores: onAllCores)
        } _: { [frames, measured] in
            ReportFigures(frames, measured: measured, perFrameMain: perFrameMain, worstFrameCount: worstFrameCount)
        }
        var report = FrameReport(
            method: method(of: measured, trace: trace), frames: frames, summary: figures.summary,
            categories: figures.categories, worstFrames: figures.worstFrames,
            threads: measured.threads,
            lanes: lanes,
            backgroundJobs: measured.jobs.sorted { ($0.appliedAt, $0.start) < ($1.appliedAt, $1.start) },
            diagnostics: trace.diagnostics, input: measured.input)
        report.hangs = measured.found.apple?.hangs.sorted { ($0.start, $0.duration) < ($1.start, $1.duration) } ?? []
        return report
    }

    /// How the analysis read the trace: its frame rate, main thread, frame source and clock.
    static func method(of measured: Measurements, trace: Trace) -> FrameReport.Method {
        var method = FrameReport.Method(
            frameRate: measured.frameRate, frameIntervalSource: measured.intervalSource, mainThread: measured.main,
            mainThreadName: measured.main.flatMap { trace.threadName($0) }, mainThreadRule: measured.mainRule,
            frameSource: measured.found.source, frameSourceDetail: measured.found.detail, clock: trace.metadata.clock)
        method.otherRenderers = measured.otherRenderers
        method.renderThread = measured.renderThread
        method.renderThreadName = measured.renderThread.flatMap { trace.threadName($0) }
        return method
    }

    /// The first `count` of `indices` in the order `areInIncreasingOrder` gives, as
    /// `indices.sorted(by:).prefix(count)` (stable: equal elements keep their order) without
    /// sorting the rest: O(*n* · `count`) at worst, O(*n*) comparisons when few come early.
    static func firstInOrder(
        _ count: Int, of indices: Range<Int>, by areInIncreasingOrder: (Int, Int) -> Bool
    ) -> [Int] {
        var first: [Int] = []
        guard count > 0 else { return first }
        first.reserveCapacity(min(count, indices.count) + 1)
        for index in indices {
            // After every kept element that `index` does not come before: a tie keeps input order.
            if first.count == count, !areInIncreasingOrder(index, first[count - 1]) { continue }
            var position = first.count
            while position > 0, areInIncreasingOrder(index, first[position - 1]) { position -= 1 }
            first.insert(index, at: position)
            if first.count > count { first.removeLast() }
        }
        return first
    }

    /// What the analysis measures on a trace's spans, for ``analyze(_:options:)`` to turn into a
    /// report. Measured apart from the report so that the spans are freed before the frames get
    /// their dictionaries.
    struct Measurements {
        var main: ThreadKey?
        var mainRule: FrameReport.MainThreadRule
        var frameRate: FrameRate
        var intervalSource: FrameReport.FrameIntervalSource
        var found: FoundFrames
        var names: CategoryNames
        /// Per category number (``CategoryIndex``), its totals over the trace.
        var totals: [CategoryTotals]
        /// The frames' self time, not yet written into them.
        var accounting: FrameAccounting
        var threads: [FrameReport.ThreadFigures]
        var render: [RenderWork]
        /// The render lane's cost per frame by category name number; `nil` without render work.
        var renderByCategory: Tally.Sums?
        var jobs: [FedJob]
        var input: FrameReport.InputFigures?
        /// Whether the trace is large enough for the analysis to use all cores (``parallelSpans``).
        var onAllCores: Bool
        /// Each late frame's hold, by report position.
        var holds: [Int: FrameReport.HitchHold] = [:]
        /// Chrome renderers other than the analysed one that recorded frames.
        var otherRenderers: [FrameReport.RendererFrames] = []
        /// An Android app's RenderThread (``AndroidApp/renderThread(symbols:threads:spans:processID:ui:)``).
        var renderThread: ThreadKey? = nil
    }

    /// Finds the main thread, the frame interval and the frames, and sweeps each thread's spans
    /// once for its self time: per category, per frame and per thread, in arrays indexed by
    /// category number and thread slot, so that nothing is hashed per span. A large trace's sweep
    /// runs on all cores (``SelfTimeSweep``).
    ///
    /// First the argument lists are narrowed to the keys the analysis reads
    /// (``keepAnalysisArguments(_:)``), before the spans and frames are allocated beside them.
    /// Everything that reads the trace's events or argument lists (the spans, the frames, the
    /// render work, the fed jobs, the input figures) runs next; then `trace` lets go of them
    /// (``Trace/events`` and ``Trace/argumentLists`` come back empty), so that the sweep's tallies
    /// do not add to the trace's memory when the caller handed the trace over.
    static func measure(_ trace: inout Trace, workKinds: WorkKindTable?, options: AnalysisOptions, parallelSpans: Int)
        -> Measurements
    {
        keepAnalysisArguments(&trace)
        let spans = SpanIndex(trace: trace, workKinds: workKinds)
        let onAllCores = spans.spanCount >= parallelSpans
        let allThreads = spans.allThreads(of: trace)
        let (main, mainRule) = mainThread(of: trace, threads: allThreads, spans: spans, options: options)
        let mainSlot = main.flatMap { spans.slot(of: $0) }
        let mainSpans = mainSlot.map { spans.spans(inSlot: $0) } ?? []
        let (frameRate, intervalSource, found) = frameRateAndFrames(
            trace: trace, spans: spans, main: main, mainSpans: mainSpans, options: options)
        let interval = frameRate.intervalNanoseconds
        let frames = found.frames
        let frameCategory = found.source == .frameSpans ? trace.symbols.lookup(FrameContract.frameCategory) : nil
        let names = CategoryNames(spans.categories, frameCategory: frameCategory, trace: trace)
        // Input latency needs only the frames' commit ends, which are final here: on all cores it
        // is measured beside the render work and the fed jobs, which only read the same trace.
        let source = found.source
        let (input, work) = both(onAllCores: onAllCores) { [trace] in
            inputFigures(of: trace, frames: frames)
        } _: { [trace] in
            WorkBesideMain(
                render: renderWork(
                    trace: trace, spans: spans, main: main, frames: frames, source: source, interval: interval),
                jobs: fedJobs(trace: trace, spans: spans, main: main, frames: frames) {
                    categoryName($0, frameCategory: frameCategory, trace: trace)
                })
        }
        // An Android app's RenderThread, found once: the report names it and FrameTimeline holds read it.
        var renderThread: ThreadKey?
        if mainRule == .androidUIThread || found.source == .frameTimeline, let main {
            renderThread = AndroidApp.renderThread(
                symbols: trace.symbols, threads: allThreads, spans: spans, processID: main.processID, ui: main)
        }
        let holds = findHolds(
            found: found, render: work.render, spans: spans, mainSpans: mainSpans, main: main,
            renderThread: renderThread, threads: allThreads,
            interval: interval, names: names, symbols: trace.symbols)
        // Other renderers that drew frames, for the reader to pick one with --process.
        let otherRenderers = otherRendererFrames(
            found: found, main: main, threads: allThreads, spans: spans, trace: trace, interval: interval)
        releaseEventsAndArguments(of: &trace, onAllCores: onAllCores)
        var sums = sweepSelfTime(
            spans, mainSlot: mainSlot, frames: frames, names: names, trace: trace, onAllCores: onAllCores)
        let threads = threadFigures(allThreads, byThread: &sums.byThread, spans: spans, names: names, main: main)
        return Measurements(
            main: main, mainRule: mainRule, frameRate: frameRate, intervalSource: intervalSource, found: found,
            names: names, totals: sums.totals, accounting: sums.accounting,
            threads: threads, render: work.render,
            renderByCategory: renderCategories(work.render, spans: spans, frameCount: frames.count, names: names),
            jobs: work.jobs, input: input,
            onAllCores: onAllCores, holds: holds, otherRenderers: otherRenderers, renderThread: renderThread)
    }

    /// The frame interval `P` (``frameRate(of:options:chrome:main:)``) and the frames
    /// (``findFrames(trace:spans:main:mainSpans:chrome:interval:options:)``).
    static func frameRateAndFrames(
        trace: Trace, spans: SpanIndex, main: ThreadKey?, mainSpans: [Span], options: AnalysisOptions
    ) -> (FrameRate, FrameReport.FrameIntervalSource, FoundFrames) {
        let chrome = main.map { ChromeFrameEvents(trace: trace, processID: $0.processID) }
        var (frameRate, intervalSource) = self.frameRate(
            of: trace, options: options, chrome: chrome, main: main?.processID)
        var found = findFrames(
            trace: trace, spans: spans, main: main, mainSpans: mainSpans, chrome: chrome,
            interval: frameRate.intervalNanoseconds, options: options)
        // An Android recording's stretches at one display rate: each frame takes its stretch's period.
        if case .androidFrameTimeline(let gaps, let atMedian, var stretches) = intervalSource,
            found.source == .frameTimeline
        {
            AndroidFrameTimeline.assign(&stretches, to: &found.frames)
            intervalSource = .androidFrameTimeline(gaps: gaps, atMedian: atMedian, stretches: stretches)
        }
        return (frameRate, intervalSource, found)
    }

    /// The work off the main thread that frames depend on: render work and fed jobs.
    struct WorkBesideMain: Sendable {
        var render: [RenderWork]
        var jobs: [FedJob]
    }

    /// Chrome renderers other than the main thread's that drew frames, for the reader to pick one
    /// with `--process`; none unless the frames are Chrome's.
    static func otherRendererFrames(
        found: FoundFrames, main: ThreadKey?, threads: [TraceThread], spans: SpanIndex, trace: Trace, interval: Int64
    ) -> [FrameReport.RendererFrames] {
        var otherRenderers: [FrameReport.RendererFrames] = []
        guard found.source == .chromeFrames else { return otherRenderers }
        for key in ChromeRenderers.rendererMains(threads, spans: spans) where key.processID != main?.processID {
            guard !otherRenderers.contains(where: { $0.processID == key.processID }),
                let frames = ChromeFrameEvents(trace: trace, processID: key.processID).frames(interval: interval)?
                    .frames, !frames.isEmpty
            else { continue }
            otherRenderers.append(
                FrameReport.RendererFrames(
                    processID: key.processID, frames: frames.count,
                    droppedFrames: frames.reduce(0) { $0 + ($1.outcome == .dropped ? 1 : 0) }))
        }
        return otherRenderers
    }

    /// Lets go of the trace's events and argument lists, now that nothing reads them. On all
    /// cores, the memory is returned on another thread, beside the sweep: for a large trace
    /// handed over, that takes milliseconds the analysis need not wait for.
    static func releaseEventsAndArguments(of trace: inout Trace, onAllCores: Bool) {
        let released = Handover((trace.events, trace.argumentLists))
        trace.events = []
        trace.argumentLists = [[]]
        if onAllCores {
            DispatchQueue.global(qos: .utility).async { _ = released.take() }
        } else {
            _ = released.take()
        }
    }

    /// Every thread's self time swept once, summed per category, per thread and per frame
    /// (``SelfTimeSweep``).
    static func sweepSelfTime(
        _ spans: SpanIndex, mainSlot: Int?, frames: [FrameReport.Frame], names: CategoryNames, trace: Trace,
        onAllCores: Bool
    ) -> SelfTimeSweep.Sums {
        let sweep = SelfTimeSweep(
            spans: spans, mainSlot: mainSlot, nameOfCategory: names.nameOfCategory,
            measureStart: frames.first?.vsync ?? 0,
            measureEnd: frames.last.map { max($0.commitEnd, $0.deadline) } ?? 0)
        return sweep.sweep(
            into: SelfTimeSweep.Sums(
                totals: Array(repeating: CategoryTotals(), count: spans.categories.count),
                byThread: Tally(keyCount: spans.categories.count),
                accounting: FrameAccounting(
                    frames: frames, categoryNameCount: names.names.count, spanNames: trace.symbols)),
            onAllCores: onAllCores)
    }

    /// Each thread's figures, the main thread first, then the busiest.
    static func threadFigures(
        _ allThreads: [TraceThread], byThread: inout Tally, spans: SpanIndex, names: CategoryNames, main: ThreadKey?
    ) -> [FrameReport.ThreadFigures] {
        let selfSums = byThread.finish(groupCount: spans.threads.count)
        // The closures below spell out their types: inferred, the tuple comparisons made this
        // function take 0.3 s to type-check (`-warn-long-function-bodies`).
        return allThreads.map { thread -> FrameReport.ThreadFigures in
            let slot = spans.slot(of: thread.key)
            // The category with the most self time; on ties the name first in order, so that the
            // answer does not depend on the order the file named its categories in.
            let top = slot.flatMap { slot -> Tally.Entry? in
                selfSums[slot].max { (a: Tally.Entry, b: Tally.Entry) -> Bool in
                    let nameA: String = names.names[names.nameOfCategory[Int(a.key)]]
                    let nameB: String = names.names[names.nameOfCategory[Int(b.key)]]
                    return (a.value, nameB) < (b.value, nameA)
                }
            }
            return FrameReport.ThreadFigures(
                key: thread.key, name: thread.name, isMain: thread.key == main,
                spanCount: slot.map { spans.spans(inSlot: $0).count } ?? 0,
                busyNanoseconds: slot.map { spans.busyTime(inSlot: $0) } ?? 0,
                topCategory: top.map { names.names[names.nameOfCategory[Int($0.key)]] })
        }.sorted { (a: FrameReport.ThreadFigures, b: FrameReport.ThreadFigures) -> Bool in
            let rankA: Int = a.isMain ? 0 : 1
            let rankB: Int = b.isMain ? 0 : 1
            return (rankA, -a.busyNanoseconds, a.key) < (rankB, -b.busyNanoseconds, b.key)
        }
    }

    /// The name self time of a category is reported under: a frame span's own time, not covered
    /// by any child span, is the frame's unattributed time, not a cost called "frame"; every
    /// other category's name is the trace's, in its own namespace (``traceName(_:)``).
    static func categoryName(_ symbol: Symbol, frameCategory: Symbol?, trace: Trace) -> String {
        symbol == frameCategory ? unattributedCategory : traceName(trace.symbols[symbol])
    }

    /// The category name under which a frame's time not covered by a child span is reported.
    package static let unattributedCategory = "(unattributed)"

    /// The label of the empty category name, wherever a category is shown.
    package static let noCategory = "(none)"

    /// A category as it is shown: its report name, or ``noCategory`` for the empty name.
    package static func categoryLabel(_ name: String) -> String { name.isEmpty ? noCategory : name }

    /// A trace's category name as the report keeps it, apart from framescope's own labels.
    ///
    /// framescope's labels are written in parentheses: ``unattributedCategory``, `(none)` for
    /// the empty name, `(other categories)`. A trace's name that begins with `(` or `"` is kept
    /// inside double quotes (`(unattributed)` becomes `"(unattributed)"`, `"x"` becomes
    /// `""x""`); every other name is kept as it is. No trace name can then equal a label, merge
    /// with framescope's own time or collide with another trace name (the mapping is one to
    /// one: strip one pair of quotes from a name that begins with `"` to get the trace's).
    package static func traceName(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, first == "(" || first == "\"" else { return name }
        return "\"" + name + "\""
    }
}
