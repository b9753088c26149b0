import Dispatch
import FrameSupport
@_spi(FramescopeInternals) package import FrameTrace

/// Choices the analysis cannot always read from the trace.
package struct AnalysisOptions: Sendable {
    /// The frame rate (`--fps`): when set, it wins over the trace's metadata and over a rate
    /// derived from the trace's frame events; `nil` lets the trace say, else
    /// ``FrameTrace/FrameRate/standard`` (60 Hz).
    package var frameRate: FrameRate?
    /// The main thread, overriding every other rule (`--main-thread PID:TID`).
    package var mainThread: ThreadKey?
    /// The process to analyse (`--process PID`): its main thread is the one named like a main
    /// thread (`CrRendererMain` for a Chrome renderer), else its busiest. Wins over every rule
    /// but ``mainThread``.
    package var processID: Int64? = nil
    /// How many worst frames to list (`--top`).
    package var worstFrameCount: Int
    /// Names of spans or instants that mark frames (`--frame-marker NAME`), tried after
    /// framescope's frame spans and Chrome's frame events, before the built-in markers.
    package var frameMarkers: [String]
    /// Who asked for ``frameRate``: the options themselves (the CLI's `--fps`) or a budget.
    package var frameRateRequester: FrameReport.FrameIntervalSource.Requester
    /// Whether a large trace (50,000 spans or more) is analysed on all cores (the default) when
    /// the process may use two or more (its CPU affinity and quota counted); the report is the
    /// same either way. Turn it off in a program that already keeps every core busy.
    package var usesAllCores = true

    /// Creates options.
    package init(
        frameRate: FrameRate? = nil, mainThread: ThreadKey? = nil, worstFrameCount: Int = 5,
        frameMarkers: [String] = [],
        frameRateRequester: FrameReport.FrameIntervalSource.Requester = .option
    ) {
        precondition(worstFrameCount >= 0, "worstFrameCount must not be negative")
        self.frameRate = frameRate
        self.mainThread = mainThread
        self.worstFrameCount = worstFrameCount
        self.frameMarkers = frameMarkers
        self.frameRateRequester = frameRateRequester
    }
}

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
        var method = FrameReport.Method(
            frameRate: measured.frameRate, frameIntervalSource: measured.intervalSource, mainThread: measured.main,
            mainThreadName: measured.main.flatMap { trace.threadName($0) }, mainThreadRule: measured.mainRule,
            frameSource: measured.found.source, frameSourceDetail: measured.found.detail, clock: trace.metadata.clock)
        method.otherRenderers = measured.otherRenderers
        method.renderThread = measured.renderThread
        method.renderThreadName = measured.renderThread.flatMap { trace.threadName($0) }
        // The lanes' figures and the rest of the report only read the frames: on all cores, the
        // one is made beside the other.
        let onAllCores = measured.onAllCores
        let (lanes, (summary, categories, worst)) = both(onAllCores: onAllCores) { [frames] in
            laneFigures(frames, interval: interval, onAllCores: onAllCores)
        } _: { [frames, measured] in
            var summary = summarize(frames, interval: interval, mainOutside: measured.accounting.mainOutsideFrames)
            summary.backgroundInFramesNanoseconds = measured.accounting.backgroundInFrames
            summary.backgroundOutsideFramesNanoseconds = measured.accounting.backgroundOutsideFrames
            summary.chromeDroppedFrameEvents = measured.found.chromeDroppedFrameEvents
            if summary.appStartFrames != nil { summary.appStartMark = measured.found.appStartMark }
            measured.found.apple?.adjust(&summary, frames: frames)
            let measuredTime = summary.measuredNanoseconds
            // A category's per-frame summary counts 0 in every frame it did not run in, without
            // writing those zeros out: O(its frames), not O(all frames), per category.
            let categories = measured.totals.indices.map { number in
                let totals = measured.totals[number]
                let values = perFrameMain[names.nameOfCategory[number]]
                return FrameReport.CategoryFigures(
                    name: names.names[names.nameOfCategory[number]], spanCount: totals.spanCount,
                    mainNanoseconds: totals.main,
                    backgroundNanoseconds: totals.background,
                    budgetShare: measuredTime > 0 ? min(1, Double(totals.mainMeasured) / Double(measuredTime)) : nil,
                    perFrameMain: PercentileSummary(values, zeroCount: frames.count - values.count))
            }.sorted {
                ($0.mainNanoseconds, $0.backgroundNanoseconds, $1.name) > (
                    $1.mainNanoseconds, $1.backgroundNanoseconds, $0.name
                )
            }
            // The sort keys are gathered first, from stored properties: a frame read out of the
            // array is copied, which retains the dictionaries it holds.
            let worstKeys = frames.indices.map { index in
                let overrun = FrameReport.Frame.overrun(
                    commitEnd: frames[index].commitEnd, deadline: frames[index].deadline, lanes: frames[index].lanes,
                    android: frames[index].android, apple: frames[index].apple)
                return (
                    lateness: FrameReport.Frame.lateness(
                        overrun: overrun, android: frames[index].android,
                        interval: frames[index].displayInterval ?? interval, apple: frames[index].apple),
                    overrun: overrun,
                    main: frames[index].mainThreadNanoseconds, index: frames[index].index
                )
            }
            // The first few in order, not every frame sorted to keep five.
            let worst = firstInOrder(options.worstFrameCount, of: worstKeys.indices) { a, b in
                let (x, y) = (worstKeys[a], worstKeys[b])
                return (x.lateness, x.overrun, x.main, y.index) > (y.lateness, y.overrun, y.main, x.index)
            }
            .map { FrameReport.WorstFrame(frame: frames[$0], topSpans: frames[$0].topSpans) }
            return (summary, categories, Array(worst))
        }
        var report = FrameReport(
            method: method, frames: frames, summary: summary, categories: categories, worstFrames: worst,
            threads: measured.threads,
            lanes: lanes,
            backgroundJobs: measured.jobs.sorted { ($0.appliedAt, $0.start) < ($1.appliedAt, $1.start) },
            diagnostics: trace.diagnostics, input: measured.input)
        report.hangs = measured.found.apple?.hangs.sorted { ($0.start, $0.duration) < ($1.start, $1.duration) } ?? []
        return report
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
        let chrome = main.map { ChromeFrameEvents(trace: trace, processID: $0.processID) }
        var (frameRate, intervalSource) = self.frameRate(
            of: trace, options: options, chrome: chrome, main: main?.processID)
        let interval = frameRate.intervalNanoseconds
        var found = findFrames(
            trace: trace, spans: spans, main: main, mainSpans: mainSpans, chrome: chrome, interval: interval,
            options: options)
        // An Android recording's stretches at one display rate: each frame takes its stretch's period.
        if case .androidFrameTimeline(let gaps, let atMedian, var stretches) = intervalSource,
            found.source == .frameTimeline
        {
            AndroidFrameTimeline.assign(&stretches, to: &found.frames)
            intervalSource = .androidFrameTimeline(gaps: gaps, atMedian: atMedian, stretches: stretches)
        }
        let frames = found.frames
        let frameCategory = found.source == .frameSpans ? trace.symbols.lookup(FrameContract.frameCategory) : nil
        let names = CategoryNames(spans.categories, frameCategory: frameCategory, trace: trace)
        // Input latency needs only the frames' commit ends, which are final here: on all cores it
        // is measured beside the render work and the fed jobs, which only read the same trace.
        let source = found.source
        let (input, (render, jobs)) = both(onAllCores: onAllCores) { [trace] in
            inputFigures(of: trace, frames: frames)
        } _: { [trace] in
            let render = renderWork(
                trace: trace, spans: spans, main: main, frames: frames, source: source, interval: interval)
            let jobs = fedJobs(trace: trace, spans: spans, main: main, frames: frames) {
                categoryName($0, frameCategory: frameCategory, trace: trace)
            }
            return (render, jobs)
        }
        // Other renderers that drew frames, for the reader to pick one with --process.
        var otherRenderers: [FrameReport.RendererFrames] = []
        if found.source == .chromeFrames {
            for key in ChromeRenderers.rendererMains(allThreads, spans: spans) where key.processID != main?.processID {
                guard !otherRenderers.contains(where: { $0.processID == key.processID }),
                    let frames = ChromeFrameEvents(trace: trace, processID: key.processID).frames(interval: interval)?
                        .frames, !frames.isEmpty
                else { continue }
                otherRenderers.append(
                    FrameReport.RendererFrames(
                        processID: key.processID, frames: frames.count,
                        droppedFrames: frames.reduce(0) { $0 + ($1.outcome == .dropped ? 1 : 0) }))
            }
        }
        // An Android app's RenderThread, found once: the report names it and FrameTimeline holds read it.
        var renderThread: ThreadKey?
        if mainRule == .androidUIThread || found.source == .frameTimeline, let main {
            renderThread = AndroidApp.renderThread(
                symbols: trace.symbols, threads: allThreads, spans: spans, processID: main.processID, ui: main)
        }
        let holds = findHolds(
            found: found, render: render, spans: spans, mainSpans: mainSpans, main: main, renderThread: renderThread,
            threads: allThreads,
            interval: interval, names: names, symbols: trace.symbols)
        // On all cores, the memory is returned on another thread, beside the sweep: for a large
        // trace handed over, that takes milliseconds the analysis need not wait for.
        let released = Handover((trace.events, trace.argumentLists))
        trace.events = []
        trace.argumentLists = [[]]
        if onAllCores {
            DispatchQueue.global(qos: .utility).async { _ = released.take() }
        } else {
            _ = released.take()
        }

        let sweep = SelfTimeSweep(
            spans: spans, mainSlot: mainSlot, nameOfCategory: names.nameOfCategory,
            measureStart: frames.first?.vsync ?? 0,
            measureEnd: frames.last.map { max($0.commitEnd, $0.deadline) } ?? 0)
        var sums = sweep.sweep(
            into: SelfTimeSweep.Sums(
                totals: Array(repeating: CategoryTotals(), count: spans.categories.count),
                byThread: Tally(keyCount: spans.categories.count),
                accounting: FrameAccounting(
                    frames: frames, categoryNameCount: names.names.count, spanNames: trace.symbols)),
            onAllCores: onAllCores)

        let selfSums = sums.byThread.finish(groupCount: spans.threads.count)
        // The closures below spell out their types: inferred, the tuple comparisons made this
        // function take 0.3 s to type-check (`-warn-long-function-bodies`).
        let threads = allThreads.map { thread -> FrameReport.ThreadFigures in
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

        return Measurements(
            main: main, mainRule: mainRule, frameRate: frameRate, intervalSource: intervalSource, found: found,
            names: names, totals: sums.totals,
            accounting: sums.accounting, threads: threads, render: render,
            renderByCategory: renderCategories(render, spans: spans, frameCount: frames.count, names: names),
            jobs: jobs, input: input,
            onAllCores: onAllCores, holds: holds, otherRenderers: otherRenderers, renderThread: renderThread)
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

    // MARK: - Choosing P and the main thread

    /// - Parameter main: The main thread's process, whose FrameTimeline frames an Android trace's
    ///   interval is measured on.
    static func frameRate(
        of trace: Trace, options: AnalysisOptions, chrome: ChromeFrameEvents?, main: Int64? = nil
    ) -> (FrameRate, FrameReport.FrameIntervalSource) {
        let fromTrace = trace.metadata.frameRate
        if let requested = options.frameRate {
            let overriding = fromTrace.map(\.intervalNanoseconds).flatMap {
                $0 == requested.intervalNanoseconds ? nil : $0
            }
            return (requested, .requested(requested, by: options.frameRateRequester, overriding: overriding))
        }
        if let fromTrace { return (fromTrace, .traceMetadata) }
        if AppleRecording.isInstruments(trace),
            let (rate, source) = AppleRecording.frameRate(of: trace, recording: AppleRecording(trace: trace))
        {
            return (rate, .instruments(source))
        }
        if let derived = chrome?.derivedInterval.flatMap(FrameRate.init(intervalNanoseconds:)) {
            return (derived, .chromeBeginFrames)
        }
        if let measured = AndroidFrameTimeline.displayPeriods(trace: trace, processID: options.processID ?? main),
            let rate = FrameRate(intervalNanoseconds: measured.interval)
        {
            return (
                rate,
                .androidFrameTimeline(gaps: measured.gaps, atMedian: measured.atPeriod, stretches: measured.stretches)
            )
        }
        return (.standard, .defaultRate)
    }

    /// - Parameter threads: The trace's threads, as ``FrameTrace/Trace/allThreads`` lists them.
    static func mainThread(
        of trace: Trace, threads: [TraceThread], spans: SpanIndex, options: AnalysisOptions
    ) -> (ThreadKey?, FrameReport.MainThreadRule) {
        if let chosen = options.mainThread { return (chosen, .option) }
        let renderers = ChromeRenderers.rendererMains(threads, spans: spans)
        // An Android app's UI thread, unless the trace names its main thread or is Chrome's (a
        // Chrome trace recorded on Android has Choreographer's slices too, and its frames are the
        // renderer's).
        if renderers.isEmpty, options.processID != nil || trace.metadata.mainThread == nil,
            let ui = AndroidApp.uiThread(trace: trace, threads: threads, spans: spans, processID: options.processID)
        {
            return (ui, options.processID == nil ? .androidUIThread : .process)
        }
        if let process = options.processID {
            let mine = threads.filter { $0.key.processID == process }
            if let named = namedMainThread(mine, spans: spans) { return (named, .process) }
            if let busiest = mine.map(\.key).max(by: { (spans.busyTime(on: $0), $1) < (spans.busyTime(on: $1), $0) }) {
                return (busiest, .process)
            }
        }
        if let main = trace.metadata.mainThread { return (main, .traceMetadata) }
        if let page = ChromeRenderers.pageProcess(of: trace),
            let main = renderers.first(where: { $0.processID == page })
        {
            return (main, .pageRenderer)
        }
        if let named = namedMainThread(threads, spans: spans) {
            return (named, renderers.count > 1 && renderers.first == named ? .busiestRenderer : .threadName)
        }
        let withSpans = spans.threads.indices.filter { !spans.spans(inSlot: $0).isEmpty }
        if let busiest = withSpans.max(by: {
            (spans.busyTime(inSlot: $0), spans.threads[$1]) < (spans.busyTime(inSlot: $1), spans.threads[$0])
        }) {
            return (spans.threads[busiest], .busiestThread)
        }
        return (nil, .none)
    }

    /// The thread named most like a main thread (``mainThreadNames``, in order), the busiest on ties.
    static func namedMainThread(_ threads: [TraceThread], spans: SpanIndex) -> ThreadKey? {
        var best: (rank: Int, busy: Int64, key: ThreadKey)?
        for thread in threads {
            guard let name = thread.name?.lowercased(), let rank = mainThreadNames.firstIndex(of: name) else {
                continue
            }
            let candidate = (rank: -rank, busy: spans.busyTime(on: thread.key), key: thread.key)
            if best.map({ (candidate.rank, candidate.busy, $0.key) > ($0.rank, $0.busy, candidate.key) }) ?? true {
                best = candidate
            }
        }
        return best?.key
    }

    // MARK: - Frames

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

    // MARK: - Summary

    static func summarize(_ frames: [FrameReport.Frame], interval: Int64, mainOutside: Int64) -> FrameReport.Summary {
        var slow = 0
        var frozen = 0
        var late = 0
        var partial = 0
        var dropped = 0
        var stuffed = 0
        var stuffingLatency: [Int64] = []
        var missed: Int64 = 0
        var delay: Int64 = 0
        var lateSpans: [(start: Int64, end: Int64, cause: HitchCause)] = []
        var lateFrames: [(frame: Int, start: Int64, end: Int64)] = []
        var measuredEnd = Int64.min
        var firstVsync = Int64.max
        var mainThreadCosts: [Int64] = []
        var overruns: [Int64] = []
        mainThreadCosts.reserveCapacity(frames.count)
        overruns.reserveCapacity(frames.count)
        // Stored properties only, by position: a frame read out of the array (a binding, or a
        // computed property called on `frames[index]`) is copied, which retains every
        // dictionary and array it holds.
        for index in frames.indices {
            let deadline = frames[index].deadline
            let android = frames[index].android
            let apple = frames[index].apple
            let interval = frames[index].displayInterval ?? interval  // the frame's stretch's period
            let overrun = FrameReport.Frame.overrun(
                commitEnd: frames[index].commitEnd, deadline: deadline, lanes: frames[index].lanes, android: android,
                apple: apple)
            let lateness = FrameReport.Frame.lateness(
                overrun: overrun, android: android, interval: interval, apple: apple)
            if let android, android.isStuffed {
                stuffed += 1
                stuffingLatency.append(android.lateness)
            }
            mainThreadCosts.append(frames[index].mainThreadNanoseconds)
            overruns.append(overrun)
            firstVsync = min(firstVsync, frames[index].vsync)
            // A frame is measured until its commit, its deadline, or as long as it was late.
            measuredEnd = max(measuredEnd, frames[index].commitEnd, deadline, deadline.addingSaturating(lateness))
            let duration = frames[index].commitEnd.subtractingSaturating(frames[index].vsync)  // the frame's duration
            if duration > frozenThreshold {
                frozen += 1
            } else if duration > interval {
                slow += 1
            }
            if frames[index].outcome == .partial { partial += 1 }
            if frames[index].outcome == .dropped { dropped += 1 }
            if lateness > 0 {
                late += 1
                delay = delay.addingSaturating(lateness)
                let cause = frames[index].hitchCause
                let from = apple?.hitchStart ?? deadline  // Apple's hitch, where it began
                lateSpans.append((from, from.addingSaturating(lateness), cause == .none ? .commit : cause))
                if android != nil { lateFrames.append((index, from, from.addingSaturating(lateness))) }
                missed = missed.addingSaturating(
                    apple?.missedVsyncs(interval: interval)
                        ?? FrameReport.Frame.missedVsyncs(lateness: lateness, interval: interval))
            }
        }
        // Hitch time is the time during which some frame was late: the union of the late frames'
        // spans past their deadlines. Frames that overlap (a dropped Chrome frame still pending
        // while the next begins, or an interval forced longer than the frames' spacing) would
        // otherwise count the same moment twice, and hitch time could pass the measured time.
        // Each moment is credited to the cause of the frame that was late first then.
        let (hitch, hitchByCause) = hitchByCause(lateSpans)
        let measured = frames.isEmpty ? 0 : measuredEnd.subtractingSaturating(firstVsync)
        let ratio = measured > 0 ? (Double(hitch) / 1e6) / (Double(measured) / 1e9) : 0
        var summary = FrameReport.Summary(
            frameCount: frames.count, slowFrames: slow, frozenFrames: frozen, lateFrames: late, missedVsyncs: missed,
            hitchNanoseconds: hitch, measuredNanoseconds: measured, hitchTimeRatio: ratio,
            hitchBand: frames.isEmpty ? nil : HitchBand(hitchTimeRatio: ratio),
            frameDelaySeconds: Double(delay) / 1e9, mainThreadCost: PercentileSummary(mainThreadCosts, zeroCount: 0),
            overrun: PercentileSummary(overruns, zeroCount: 0), mainOutsideFramesNanoseconds: mainOutside)
        summary.hitchNanosecondsByCause = hitchByCause
        summary.partialFrames = partial
        summary.droppedFrames = dropped
        if frames.indices.contains(where: { frames[$0].android != nil }) {
            summary.stuffedFrames = stuffed
            summary.stuffingLatency = PercentileSummary(stuffingLatency, zeroCount: 0)
            AndroidAppStart.count(frames, lateSpans: lateFrames, into: &summary)
        }
        if frames.indices.contains(where: { frames[$0].affectsSmoothness != nil }) {
            summary.droppedFramesAffectingSmoothness = frames.indices.reduce(0) {
                $0 + (frames[$1].outcome == .dropped && frames[$1].affectsSmoothness == true ? 1 : 0)
            }
        }
        return summary
    }

    /// Apple's bands for scrolling hitch time ratio.
    package static func hitchBand(_ ratio: Double) -> HitchBand { HitchBand(hitchTimeRatio: ratio) }
}

/// Running per-category totals over the whole trace.
struct CategoryTotals {
    var spanCount = 0
    var main: Int64 = 0
    var background: Int64 = 0
    /// Main-thread self time inside the measured time.
    var mainMeasured: Int64 = 0

    mutating func add(_ duration: Int64, isMain: Bool) {
        if isMain { main = main.addingSaturating(duration) } else { background = background.addingSaturating(duration) }
    }
}

/// The names the report gives a trace's categories (``CategoryIndex``): a frame span's own time
/// is `(unattributed)`, not a category called `frame`. Per-frame sums are keyed by name, so each
/// category maps to the number of its name; two categories share one only when a trace names a
/// category `(unattributed)` beside its frame spans.
struct CategoryNames {
    /// The distinct names.
    private(set) var names: [String] = []
    /// Per category number, the number of its name in ``names``.
    private(set) var nameOfCategory: [Int] = []

    init(_ categories: CategoryIndex, frameCategory: Symbol?, trace: Trace) {
        var numbers: [String: Int] = [:]
        for symbol in categories.symbols {
            let name = FrameAnalyzer.categoryName(symbol, frameCategory: frameCategory, trace: trace)
            if let number = numbers[name] {
                nameOfCategory.append(number)
            } else {
                numbers[name] = names.count
                nameOfCategory.append(names.count)
                names.append(name)
            }
        }
    }
}

/// Assigns self-time segments to frames: main-thread segments to the frame whose work window
/// contains them, other threads' segments to the frame windows they overlap (from one frame's
/// vsync to the next frame's vsync).
///
/// A frame's main-thread work window runs from its work start to its commit, cut at the next
/// frame's work start, so frames whose windows overlap (a frame Chrome dropped is still pending
/// when the next one begins) never count the same moment twice.
///
/// Frames' times are copied into arrays once, and per-frame sums go to ``Tally``s by category
/// name number and span name symbol: no frame is copied and nothing is hashed per segment.
struct FrameAccounting {
    var mainOutsideFrames: Int64 = 0
    /// Other threads' busy time inside the frame windows, and outside them.
    var backgroundInFrames: Int64 = 0
    var backgroundOutsideFrames: Int64 = 0
    /// Per frame, main-thread busy time inside its work window.
    private(set) var mainNanoseconds: [Int64]
    /// Per frame, main-thread self time inside its work window by category name number
    /// (``CategoryNames``).
    var mainByCategory: Tally
    /// Per frame, main-thread self time inside its work window by span name (symbol raw value):
    /// the three largest, what the frame's top spans need.
    var spanTime: Tally
    /// Per span name symbol, its place in name order: how top spans with equal time are ordered.
    let spanNameRank: [UInt32]
    /// Per frame, other threads' self time inside its window by category name number.
    var backgroundByCategory: Tally
    /// Per frame: its work start, main-thread work window end, vsync, and the end of its window
    /// for other threads (the next frame's vsync; the last frame's commit or deadline).
    private let workStarts: [Int64]
    /// Sorted: frames come in work-start order, and each window ends by the next one's start.
    private let windowEnds: [Int64]
    /// Where the last main-thread segment's search ended.
    private var mainCursor = 0
    private let vsyncs: [Int64]
    private let backgroundEnds: [Int64]

    /// - Parameters:
    ///   - frames: The frames, in order of work start, with no main-thread time counted yet.
    ///   - categoryNameCount: The number of category names.
    ///   - spanNames: The symbols span names are drawn from.
    init(frames: [FrameReport.Frame], categoryNameCount: Int, spanNames: SymbolTable) {
        mainNanoseconds = Array(repeating: 0, count: frames.count)
        mainByCategory = Tally(keyCount: categoryNameCount)
        // Main-thread segments come in time order, and each reaches frames in order from the
        // last frame the previous one reached (windows are sorted and disjoint): frames come to
        // the tally one after another, so it may keep only each frame's top spans.
        spanNameRank = Self.nameOrder(spanNames)
        spanTime = Tally(keyCount: spanNames.count, largestPerGroup: 3, rank: spanNameRank)
        backgroundByCategory = Tally(keyCount: categoryNameCount)
        workStarts = frames.map(\.workStart)
        // Every frame source lists its frames by work start; the main-thread search and the
        // top-spans tally rely on it.
        assert(zip(workStarts, workStarts.dropFirst()).allSatisfy { $0 <= $1 }, "frames must come in work-start order")
        // Other threads' windows run from each frame's vsync to the next one's. A source whose
        // vsyncs are not in work-start order (Android: a frame begun late, after a later vsync's
        // frame) would make windows overlap and count a moment twice, more than the segment
        // lasted: each window starts at the latest vsync so far, so they stay sorted and disjoint.
        var latest = Int64.min
        vsyncs = frames.map { frame in
            latest = max(latest, frame.vsync)
            return latest
        }
        windowEnds = frames.indices.map { index in
            let end = frames[index].commitEnd
            return index + 1 < frames.count ? max(frames[index].workStart, min(end, frames[index + 1].workStart)) : end
        }
        backgroundEnds = frames.indices.map { [vsyncs] index in
            index + 1 < frames.count
                ? vsyncs[index + 1] : max(vsyncs[index], frames[index].commitEnd, frames[index].deadline)
        }
    }

    /// Writes each frame's main-thread time, its main-thread and background time by category
    /// and its top spans (the three span names with the most main-thread self time, the name
    /// first in order on ties) into `frames`, which must have none yet.
    ///
    /// The frames keep slices of the finished tallies (``CategoryTimes``, ``Contributors``), which
    /// share one buffer per tally: nothing is hashed, and no array is allocated, per frame.
    /// - Returns: Per category name number, its main-thread time in each frame it ran in, in
    ///   frame order.
    mutating func finish(
        into frames: inout [FrameReport.Frame], categoryNames: [String], spanNames: SymbolTable, onAllCores: Bool
    ) -> [[Int64]] {
        let count = frames.count
        // The tallies are handed over whole (a copy would copy their entries when finished): on
        // all cores, the category tallies finish beside the span tally.
        let main = Handover(take(&mainByCategory))
        let background = Handover(take(&backgroundByCategory))
        let spans = Handover(take(&spanTime))
        let ((mainSums, backgroundSums), spanSums) = both(onAllCores: onAllCores) {
            var main = main.take()
            var background = background.take()
            return (main.finish(groupCount: count), background.finish(groupCount: count))
        } _: {
            var spans = spans.take()
            return spans.finish(groupCount: count)
        }
        for index in frames.indices {
            frames[index].mainThreadNanoseconds = mainNanoseconds[index]
            frames[index].mainByCategory = mainSums.times(group: index, names: categoryNames)
            frames[index].backgroundByCategory = backgroundSums.times(group: index, names: categoryNames)
            // Each group of the span tally holds the frame's top spans, largest first.
            frames[index].topSpans = Contributors(names: spanNames.strings, entries: spanSums[index])
        }
        return mainSums.valuesByKey(keyCount: categoryNames.count)
    }

    /// `tally`, leaving an empty one in its place.
    private func take(_ tally: inout Tally) -> Tally {
        var taken = Tally(keyCount: 0)
        swap(&taken, &tally)
        return taken
    }

    /// Per symbol, its place when the symbols' names are sorted: the tie-break for top spans, so
    /// that two spans with equal time come out in the same order whatever order a file named them
    /// in (a JSON trace and its Perfetto conversion intern names in different orders).
    static func nameOrder(_ symbols: SymbolTable) -> [UInt32] {
        let sorted = symbols.strings.indices.sorted { symbols.strings[$0] < symbols.strings[$1] }
        var rank = Array(repeating: UInt32(0), count: sorted.count)
        for (place, symbol) in sorted.enumerated() { rank[symbol] = UInt32(place) }
        return rank
    }

    /// Flushes the tallies (``Tally/flush()``), for a merge that reads them without copying.
    mutating func flush() {
        mainByCategory.flush()
        spanTime.flush()
        backgroundByCategory.flush()
    }

    /// The end of the frame's main-thread work window that holds `time` inside it (past its
    /// start, before its end), or `nil` when none does: then the main-thread segments before
    /// `time` and those after it reach no frame in common, and two accountings may take them
    /// apart (see ``merge(_:)``).
    func endOfWindow(holding time: Int64) -> Int64? {
        // Windows are sorted and disjoint: only the first one ending after `time` can hold it.
        let index = windowEnds.partitioningIndex { $0 > time }
        return index < windowEnds.count && workStarts[index] < time ? windowEnds[index] : nil
    }

    /// Adds the sums of `others`, accountings of the same frames that took other segments, for
    /// the sweep split into runs (``SelfTimeSweep``). Every sum is of non-negative values with
    /// saturating additions, so it does not depend on the order of the segments; the top spans
    /// do, since each frame keeps only its largest: each accounting's main-thread segments must
    /// all come after those of the ones before it (this one first), split at times inside no
    /// frame's window (``endOfWindow(holding:)``).
    mutating func merge(_ others: [FrameAccounting]) {
        for other in others {
            mainOutsideFrames = mainOutsideFrames.addingSaturating(other.mainOutsideFrames)
            backgroundInFrames = backgroundInFrames.addingSaturating(other.backgroundInFrames)
            backgroundOutsideFrames = backgroundOutsideFrames.addingSaturating(other.backgroundOutsideFrames)
            for index in mainNanoseconds.indices where other.mainNanoseconds[index] > 0 {
                mainNanoseconds[index] = mainNanoseconds[index].addingSaturating(other.mainNanoseconds[index])
            }
        }
        mainByCategory.merge(others.map(\.mainByCategory))
        spanTime.merge(others.map(\.spanTime))
        backgroundByCategory.merge(others.map(\.backgroundByCategory))
    }

    /// The first frame whose main-thread window ends after `time`. The main thread's segments
    /// come in time order, so the search steps on from where the last one ended; the result is
    /// the binary search's, since `windowEnds` is sorted.
    private mutating func firstWindow(endingAfter time: Int64) -> Int {
        var index = mainCursor
        if index > 0, windowEnds[index - 1] > time {
            index = windowEnds.partitioningIndex { $0 > time }
        } else {
            while index < windowEnds.count, windowEnds[index] <= time { index += 1 }
        }
        mainCursor = index
        return index
    }

    /// Adds one self-time segment of a thread, in category name number `categoryName`.
    mutating func add(_ segment: SelfTime.Segment, categoryName: Int, isMain: Bool) {
        let count = workStarts.count
        guard count > 0 else {
            if isMain {
                mainOutsideFrames = mainOutsideFrames.addingSaturating(segment.duration)
            } else {
                backgroundOutsideFrames = backgroundOutsideFrames.addingSaturating(segment.duration)
            }
            return
        }
        if isMain {
            var covered: Int64 = 0
            var index = firstWindow(endingAfter: segment.start)
            while index < count, workStarts[index] < segment.end {
                let overlap = min(segment.end, windowEnds[index]).subtractingSaturating(
                    max(segment.start, workStarts[index]))
                if overlap > 0 {
                    mainNanoseconds[index] = mainNanoseconds[index].addingSaturating(overlap)
                    mainByCategory.add(overlap, key: categoryName, group: index)
                    spanTime.add(overlap, key: Int(segment.name.rawValue), group: index)
                    covered = covered.addingSaturating(overlap)
                }
                index += 1
            }
            mainOutsideFrames = mainOutsideFrames.addingSaturating(segment.duration.subtractingSaturating(covered))
        } else {
            // The frame whose window holds the segment's start is the last one with vsync <= start.
            var covered: Int64 = 0
            var index = max(0, vsyncs.partitioningIndex { $0 > segment.start } - 1)
            while index < count, vsyncs[index] < segment.end {
                let overlap = min(segment.end, backgroundEnds[index]).subtractingSaturating(
                    max(segment.start, vsyncs[index]))
                if overlap > 0 {
                    backgroundByCategory.add(overlap, key: categoryName, group: index)
                    covered = covered.addingSaturating(overlap)
                }
                index += 1
            }
            backgroundInFrames = backgroundInFrames.addingSaturating(covered)
            backgroundOutsideFrames = backgroundOutsideFrames.addingSaturating(
                max(0, segment.duration.subtractingSaturating(covered)))
        }
    }
}
