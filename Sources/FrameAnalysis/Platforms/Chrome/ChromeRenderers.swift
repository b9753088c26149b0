@_spi(FramescopeInternals) import FrameTrace

/// Which Chrome renderer is the page's own, and which others drew frames.
///
/// A Chrome recording holds several renderer processes: the page's, out-of-process iframes
/// (an embedded video player), other tabs. The page's own is the main frame's process, as
/// DevTools and Lighthouse take it. Two browser events name it:
///
/// - `TracingStartedInBrowser`, when recording starts, lists the frames then alive
///   (`args.data.frames`, an array of `{frame, processId, parent?, isOutermostMainFrame?}`);
/// - `FrameCommittedInBrowser` names the process of every frame the browser commits while
///   recording (`args.data.processId`).
///
/// A frame with no parent (`parent` absent, `isOutermostMainFrame` true where written) is the
/// main frame. A navigation can move the main frame to another process, so the latest event
/// wins. A trace with neither falls back to the busiest `CrRendererMain`, and the report says so.
enum ChromeRenderers {
    static let startedEvent = "TracingStartedInBrowser"
    static let committedEvent = "FrameCommittedInBrowser"
    /// `TracingStartedInBrowser`'s list of frames, kept whole by the reader (it is an array).
    static let framesKey = "data.frames"
    static let processIDKey = "data.processId"
    static let parentKey = "data.parent"
    static let outermostKey = "data.isOutermostMainFrame"
    /// The name Chrome gives a renderer's main thread.
    static let rendererMainName = "crrenderermain"

    /// The process of the page's main frame: from the latest `TracingStartedInBrowser` or
    /// `FrameCommittedInBrowser` that names a main frame (ties go to the later event in the
    /// file); `nil` when the trace has neither.
    static func pageProcess(of trace: Trace) -> Int64? {
        let started = trace.symbols.lookup(startedEvent)
        let committed = trace.symbols.lookup(committedEvent)
        guard started != nil || committed != nil else { return nil }
        var best: (timestamp: Int64, order: Int, process: Int64)?
        for (order, event) in trace.events.enumerated() where event.name == committed || event.name == started {
            let arguments = trace.argumentLists[Int(event.arguments)]
            let process: Int64?
            if event.name == committed {
                process = mainFrameProcess(
                    processID: arguments[ChromeRenderers.processIDKey], parent: arguments[ChromeRenderers.parentKey],
                    outermost: arguments[ChromeRenderers.outermostKey])
            } else {
                // The first main frame the list names (a list names one at most, in practice).
                process =
                    arguments[ChromeRenderers.framesKey]?.arrayValue?.lazy.compactMap {
                        mainFrameProcess(
                            processID: $0["processId"], parent: $0["parent"], outermost: $0["isOutermostMainFrame"])
                    }.first
            }
            guard let process else { continue }
            if best.map({ (event.timestamp, order) > ($0.timestamp, $0.order) }) ?? true {
                best = (event.timestamp, order, process)
            }
        }
        return best?.process
    }

    /// The process of a frame when it is a main frame: it has a process id, no parent, and is
    /// not marked as nested in another page (`isOutermostMainFrame: false`, a portal or fenced frame).
    private static func mainFrameProcess(processID: JSONValue?, parent: JSONValue?, outermost: JSONValue?) -> Int64? {
        guard let process = processID?.integerValue, parent == nil else { return nil }
        if case .bool(false) = outermost { return nil }
        return process
    }

    /// The renderer main threads of the trace (threads named `CrRendererMain`), busiest first.
    static func rendererMains(_ threads: [TraceThread], spans: SpanIndex) -> [ThreadKey] {
        threads.filter { $0.name?.lowercased() == rendererMainName }.map(\.key)
            .sorted { (spans.busyTime(on: $0), $1) > (spans.busyTime(on: $1), $0) }
    }
}
