@_spi(FramescopeInternals) import FrameTrace

extension FrameAnalyzer {
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
}
