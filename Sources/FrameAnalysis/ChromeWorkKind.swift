public import FrameTrace

/// The kind of work a Chrome trace event does, as Chrome DevTools groups event names: what a
/// report on a Chrome trace shows instead of Chrome's trace categories (`v8`,
/// `devtools.timeline`), which say which subsystem logged an event, not what it cost the frame.
///
/// DevTools' Performance panel maps each known event name to a category (Scripting, Rendering,
/// Painting, GPU, Loading, System) and hides every other event, so that an unknown event's time
/// counts for the known event around it. framescope does the same with finer kinds: DevTools'
/// Rendering splits into style and layout, its Painting into paint, raster and image decode, and
/// garbage collection (Scripting in DevTools) is a kind of its own.
///
/// ```swift
/// ChromeWorkKind(eventName: "FunctionCall")    // .script
/// ChromeWorkKind(eventName: "V8.GC_SCAVENGER")  // .gc
/// ChromeWorkKind(eventName: "v8.callFunction") // nil: counts as the kind of the span around it
/// ```
///
/// The identifiers are stable and are what every output writes as the category name.
public enum ChromeWorkKind: Sendable, Hashable, CaseIterable {
    /// JavaScript: function calls, script evaluation and compilation, timers, events, microtasks,
    /// animation-frame and idle callbacks.
    case script
    /// Style recalculation and style sheet parsing.
    case style
    /// Layout, and the hit tests and intersection geometry that read it.
    case layout
    /// Pre-paint, paint, layer updates, layerization, compositing layers and the commit to the
    /// compositor.
    case paint
    /// Rasterization and GPU work.
    case raster
    /// Image decoding and resizing.
    case imageDecode
    /// Garbage collection: V8's, Blink's and cppgc's.
    case gc
    /// Everything else: tasks, loading, parsing HTML, messaging, and events no kind claims.
    case other

    /// The stable identifier written in every output: framescope's own category name where the
    /// kind is one (`layout`, `image-decode`, `other`).
    public var identifier: String {
        switch self {
        case .script: "script"
        case .style: "style"
        case .layout: TraceCategory.layout.name
        case .paint: "paint"
        case .raster: "raster"
        case .imageDecode: TraceCategory.imageDecode.name
        case .gc: "gc"
        case .other: TraceCategory.other.name
        }
    }

    /// The kind of an event name, or `nil` when the name is not in the table (its time then
    /// counts as the kind of the innermost span around it with a kind, `other` at the top).
    public init?(eventName name: String) {
        if let kind = Self.byName[name] {
            self = kind
        } else if let kind = Self.byPrefix.first(where: { name.hasPrefix($0.prefix) })?.kind {
            self = kind
        } else {
            return nil
        }
    }

    /// Event names and their kinds (Chrome's trace event names, not DevTools' titles).
    static let byName: [String: ChromeWorkKind] = {
        var table: [String: ChromeWorkKind] = [:]
        func add(_ kind: ChromeWorkKind, _ names: [String]) { for name in names { table[name] = kind } }
        add(.script, [
            "FunctionCall", "EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule", "v8.produceCache",
            "v8.produceModuleCache", "V8.CompileCode", "V8.OptimizeCode", "v8.parseOnBackgroundParsing",
            "v8.deserializeOnBackground", "V8.Execute", "v8.callFunction", "v8.run", "TimerFire", "TimerInstall",
            "TimerRemove", "EventDispatch", "RunMicrotasks", "V8.RunMicrotasks", "FireAnimationFrame",
            "RequestAnimationFrame", "CancelAnimationFrame", "FireIdleCallback", "RequestIdleCallback",
            "CancelIdleCallback", "XHRReadyStateChange", "XHRLoad", "TimeStamp", "ConsoleTime", "ProfileCall",
            "JSSample", "EmbedderCallback", "WebSocketCreate", "WebSocketSendHandshakeRequest",
            "WebSocketReceiveHandshakeResponse", "WebSocketDestroy", "v8.wasm.streamFromResponseCallback",
            "v8.wasm.compiledModule", "v8.wasm.cachedModule", "v8.wasm.moduleCacheHit", "v8.wasm.moduleCacheInvalid",
        ])
        add(.style, ["UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "ScheduleStyleRecalculation"])
        add(.layout, ["Layout", "InvalidateLayout", "HitTest", "ComputeIntersections"])
        add(.paint, [
            "PrePaint", "Paint", "PaintSetup", "PaintImage", "UpdateLayer", "UpdateLayerTree", "Layerize",
            "CompositeLayers", "Commit",
        ])
        add(.raster, ["RasterTask", "GPUTask"])
        add(.imageDecode, ["Decode Image", "ImageDecodeTask", "Decode LazyPixelRef", "Resize Image"])
        add(.gc, ["MajorGC", "MinorGC", "GCEvent", "BlinkGC.AtomicPhase", "CppGC.IncrementalSweep"])
        // Known to DevTools as loading, messaging or system work: not a kind of their own here,
        // but named so that script inside them is not taken for theirs and theirs not for script.
        add(.other, [
            "RunTask", "Program", "ParseHTML", "ResourceWillSendRequest", "ResourceSendRequest",
            "ResourceReceiveResponse", "ResourceReceivedData", "ResourceFinish", "HandlePostMessage",
            "SchedulePostMessage", "v8.parseOnBackground", "v8.parseOnBackgroundWaiting", "CpuProfiler::StartProfiling",
        ])
        return table
    }()

    /// Name prefixes and their kinds, tried after ``byName``.
    static let byPrefix: [(prefix: String, kind: ChromeWorkKind)] = [
        ("V8.GC", .gc), ("V8.MinorGC", .gc), ("V8.MajorGC", .gc), ("BlinkGC.", .gc), ("CppGC.", .gc),
    ]

    /// Whether a trace is Chrome's: some event's category list holds DevTools' timeline category
    /// (`devtools.timeline`, or one of its `disabled-by-default-devtools.timeline...` variants).
    /// framescope's own traces (its producer metadata, or frame spans in category `frame`) never
    /// count, whatever categories they hold.
    /// - Complexity: O(*n*) in the trace's events, each category's name read once.
    public static func isChromeTrace(_ trace: Trace) -> Bool {
        if trace.metadata.producer == "framescope" { return false }
        let frameCategory = trace.symbols.lookup(FrameContract.frameCategory)
        var seen = [Bool](repeating: false, count: trace.symbols.count)
        var isChrome = false
        for event in trace.events where Int(event.category.rawValue) < seen.count && !seen[Int(event.category.rawValue)] {
            seen[Int(event.category.rawValue)] = true
            if event.category == frameCategory { return false }
            if !isChrome {
                isChrome = trace.symbols[event.category].split(separator: ",").contains {
                    $0 == "devtools.timeline" || $0.hasPrefix("disabled-by-default-devtools.timeline")
                }
            }
        }
        return isChrome
    }

    /// For a Chrome trace, the kind symbol of every event name the table knows, indexed by the
    /// name symbol's raw value (`nil` for names it does not know), with the kinds' identifiers
    /// interned into `trace`'s symbols; `nil` for any other trace, whose categories stay as they are.
    static func nameTable(for trace: inout Trace) -> WorkKindTable? {
        guard isChromeTrace(trace) else { return nil }
        var kindSymbols: [ChromeWorkKind: Symbol] = [:]
        for kind in allCases { kindSymbols[kind] = trace.symbols.intern(kind.identifier) }
        let kinds = trace.symbols.strings.map { ChromeWorkKind(eventName: $0).flatMap { kindSymbols[$0] } }
        return WorkKindTable(kindOfName: kinds, other: kindSymbols[.other]!)
    }
}

/// The work kind of every span of a Chrome trace, built once per analysis.
struct WorkKindTable {
    /// Per name symbol (by raw value), its kind's symbol, or `nil` when its kind is inherited.
    var kindOfName: [Symbol?]
    /// The symbol of ``ChromeWorkKind/other``, the kind of an unknown span with no known span around it.
    var other: Symbol

    /// Replaces each span's category with its kind: its name's kind, else the kind of the innermost
    /// span around it on the same thread, else `other`. `spans` must be sorted by start, longer first.
    func assignKinds(to spans: inout [Span]) {
        var open: [(end: Int64, kind: Symbol)] = []
        for index in spans.indices {
            let span = spans[index]
            while let top = open.last, top.end <= span.start { open.removeLast() }
            let raw = Int(span.name.rawValue)
            let kind = (raw < kindOfName.count ? kindOfName[raw] : nil) ?? open.last?.kind ?? other
            spans[index].category = kind
            open.append((span.end, kind))
        }
    }
}
