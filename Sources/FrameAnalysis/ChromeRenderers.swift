@_spi(FramescopeInternals) import FrameTrace

/// Which Chrome renderer is the page's own, and which others drew frames.
///
/// A Chrome recording holds several renderer processes: the page's, out-of-process iframes
/// (an embedded video player), other tabs. The page's own is the main frame's process, as
/// DevTools and Lighthouse take it: the browser's `FrameCommittedInBrowser` events name the
/// process of every frame it commits (`args.data.processId`), and the one with no parent frame
/// (`args.data.parent` absent, `isOutermostMainFrame` true where written) is the main frame. A
/// navigation can move the main frame to another process: the last such commit wins.
/// `TracingStartedInBrowser` also lists the frames when tracing started, but inside an array of
/// objects, which the reader does not keep (it keeps scalar arguments and one level of
/// nesting); a trace whose main frame commits nothing while recorded falls back to the
/// busiest `CrRendererMain`, and the report says so.
enum ChromeRenderers {
    static let committedEvent = "FrameCommittedInBrowser"
    static let processIDKey = "data.processId"
    static let parentKey = "data.parent"
    static let outermostKey = "data.isOutermostMainFrame"
    /// The name Chrome gives a renderer's main thread.
    static let rendererMainName = "crrenderermain"

    /// The process of the page's main frame: the last `FrameCommittedInBrowser` of a frame
    /// without a parent; `nil` when the trace has none.
    static func pageProcess(of trace: Trace) -> Int64? {
        guard let name = trace.symbols.lookup(committedEvent) else { return nil }
        var best: (timestamp: Int64, order: Int, process: Int64)?
        for (order, event) in trace.events.enumerated() where event.name == name {
            let arguments = trace.argumentLists[Int(event.arguments)]
            guard let process = arguments[ChromeRenderers.processIDKey]?.integerValue, arguments[ChromeRenderers.parentKey] == nil else { continue }
            if case .bool(false) = arguments[ChromeRenderers.outermostKey] { continue }
            if best.map({ (event.timestamp, order) > ($0.timestamp, $0.order) }) ?? true { best = (event.timestamp, order, process) }
        }
        return best?.process
    }

    /// The renderer main threads of the trace (threads named `CrRendererMain`), busiest first.
    static func rendererMains(_ threads: [TraceThread], spans: SpanIndex) -> [ThreadKey] {
        threads.filter { $0.name?.lowercased() == rendererMainName }.map(\.key)
            .sorted { (spans.busyTime(on: $0), $1) > (spans.busyTime(on: $1), $0) }
    }
}
