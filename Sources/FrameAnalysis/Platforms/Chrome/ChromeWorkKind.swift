package import FrameTrace

/// The kind of work a Chrome trace event does, in Chrome DevTools' categories: what a report on a
/// Chrome trace shows instead of Chrome's trace categories (`v8`, `devtools.timeline`), which say
/// which subsystem logged an event, not what it cost the frame.
///
/// DevTools' Performance panel gives each event name it knows a category and a title (its table
/// is `EntryStyles.ts` in devtools-frontend) and hides every other event, so that an unknown
/// event's time counts for the known event around it. Its categories for work on a thread are
/// Scripting, Rendering, Painting, GPU, Loading, Messaging, Idle and System (Async and Experience
/// hold events that are not); framescope's kinds are those, split further only where DevTools' own
/// title for the event says so:
///
/// | DevTools' category | kinds |
/// |---|---|
/// | Scripting | ``script``; ``gc`` for its GC events (titled "Major GC", "Minor GC", "DOM GC", ...) |
/// | Rendering | ``style`` ("Recalculate style"), ``layout`` ("Layout"); ``rendering`` for the rest |
/// | Painting | ``raster`` ("Rasterize paint"), ``imageDecode`` ("Image decode"); ``paint`` for the rest |
/// | GPU | ``gpu`` |
/// | Loading | ``loading`` |
/// | System, Messaging, Idle | ``other`` |
///
/// framescope also names a few events DevTools' table leaves out (and so hides): the decodes and
/// garbage collection that run on worker threads (`ImageDecodeTask`, `V8.GC_*`, `BlinkGC.*`), and
/// V8's own entry points (`V8.Execute`, `v8.callFunction`), which DevTools counts as the event
/// around them: on a worker thread there is often none with a kind, and script would be `other`.
///
/// ```swift
/// ChromeWorkKind(eventName: "FunctionCall")    // .script
/// ChromeWorkKind(eventName: "PrePaint")        // .rendering
/// ChromeWorkKind(eventName: "GPUTask")         // .gpu
/// ChromeWorkKind(eventName: "V8.GC_SCAVENGER") // .gc
/// ChromeWorkKind(eventName: "ThreadControllerImpl::RunTask") // nil: the kind of the span around it
/// ```
///
/// The identifiers are stable and are what every output writes as the category name.
package enum ChromeWorkKind: Sendable, Hashable, CaseIterable {
    /// DevTools' Scripting, except garbage collection: function calls, script evaluation and
    /// compilation, timers, events, microtasks, animation-frame and idle callbacks.
    case script
    /// Style recalculation (DevTools' Rendering, titled "Recalculate style").
    case style
    /// Layout and its invalidation (DevTools' Rendering, titled "Layout").
    case layout
    /// The rest of DevTools' Rendering: pre-paint, layerization, layer tree updates, hit tests,
    /// intersection observers, scrolling and animations.
    case rendering
    /// The rest of DevTools' Painting: paint, layer updates, compositing layers and the commit to
    /// the compositor.
    case paint
    /// Rasterization (DevTools' Painting, titled "Rasterize paint").
    case raster
    /// Image decoding and resizing (DevTools' Painting, titled "Image decode"), and the decodes on
    /// raster workers that DevTools does not categorize.
    case imageDecode
    /// Work in the GPU process (DevTools' GPU: `GPUTask`).
    case gpu
    /// Garbage collection: V8's, Blink's and cppgc's (DevTools' Scripting, titled "Major GC",
    /// "Minor GC", "DOM GC", "CPP GC"), and the collectors' worker-thread phases DevTools does not
    /// categorize.
    case gc
    /// DevTools' Loading: parsing HTML and style sheets, resource requests and responses.
    case loading
    /// DevTools' System (tasks, the profiler's own work), Messaging and Idle, and events no kind
    /// claims.
    case other

    /// The stable identifier written in every output: framescope's own category name where the
    /// kind is one (`layout`, `image-decode`, `other`).
    package var identifier: String {
        switch self {
        case .script: "script"
        case .style: "style"
        case .layout: TraceCategory.layout.name
        case .rendering: "rendering"
        case .paint: "paint"
        case .raster: "raster"
        case .imageDecode: TraceCategory.imageDecode.name
        case .gpu: "gpu"
        case .gc: "gc"
        case .loading: "loading"
        case .other: TraceCategory.other.name
        }
    }

    /// The kind of an event name, or `nil` when the name is not in the table (its time then
    /// counts as the kind of the innermost span around it with a kind, `other` at the top).
    package init?(eventName name: String) {
        if let kind = Self.byName[name] {
            self = kind
        } else if let kind = Self.byPrefix.first(where: { name.hasPrefix($0.prefix) })?.kind {
            self = kind
        } else {
            return nil
        }
    }

    /// Event names and their kinds (Chrome's trace event names, not DevTools' titles): DevTools'
    /// table, in its categories, then the names framescope adds. The FrameScope catalog's Chrome
    /// traces article (`ChromeTraces.md`, "Kinds of work") lists every one, and a test holds the
    /// two together.
    static let byName: [String: ChromeWorkKind] = {
        var table: [String: ChromeWorkKind] = [:]
        func add(_ kind: ChromeWorkKind, _ names: [String]) {
            for name in names {
                precondition(table.updateValue(kind, forKey: name) == nil, "\(name) is in the table twice")
            }
        }
        // DevTools' Scripting.
        add(
            .script,
            [
                "FunctionCall", "EvaluateScript", "EventDispatch", "TimerInstall", "TimerRemove", "TimerFire",
                "XHRReadyStateChange", "XHRLoad", "v8.compile", "v8.produceCache", "V8.CompileCode", "V8.OptimizeCode",
                "V8.CompileModule", "v8.produceModuleCache", "v8.evaluateModule", "v8.parseOnBackgroundParsing",
                "v8.deserializeOnBackground", "v8.wasm.streamFromResponseCallback", "v8.wasm.compiledModule",
                "v8.wasm.cachedModule", "v8.wasm.moduleCacheHit", "v8.wasm.moduleCacheInvalid", "RunMicrotasks",
                "RequestAnimationFrame", "CancelAnimationFrame", "FireAnimationFrame", "RequestIdleCallback",
                "CancelIdleCallback", "FireIdleCallback", "WebSocketCreate", "WebSocketSendHandshakeRequest",
                "WebSocketReceiveHandshakeResponse", "WebSocketDestroy", "WebSocketSend", "WebSocketReceive",
                "EmbedderCallback", "TimeStamp", "ConsoleTime", "UserTiming", "ProfileCall", "JSSample", "MarkLoad",
                "MarkDOMContent", "DoEncrypt", "DoEncryptReply", "DoDecrypt", "DoDecryptReply", "DoDigest",
                "DoDigestReply",
                "DoSign", "DoSignReply", "DoVerify", "DoVerifyReply", "SchedulePostTaskCallback", "RunPostTaskCallback",
                "AbortPostTaskCallback", "V8Console::runTask",
            ])
        add(.gc, ["GCEvent", "MajorGC", "MinorGC", "BlinkGC.AtomicPhase", "CppGC.IncrementalSweep"])
        // DevTools' Rendering.
        add(.style, ["UpdateLayoutTree", "ScheduleStyleRecalculation"])
        add(.layout, ["Layout", "InvalidateLayout"])
        add(
            .rendering,
            [
                "PrePaint", "Layerize", "UpdateLayerTree", "HitTest", "ComputeIntersections", "ScrollLayer",
                "Animation",
                "RequestMainThreadFrame", "BeginFrame", "BeginMainThreadFrame", "DrawFrame", "firstContentfulPaint",
                "largestContentfulPaint::Candidate",
            ])
        // DevTools' Painting.
        add(.paint, ["Paint", "PaintSetup", "PaintImage", "UpdateLayer", "Commit", "CompositeLayers", "firstPaint"])
        add(.raster, ["RasterTask"])
        add(.imageDecode, ["Decode Image"])
        // DevTools' GPU and Loading.
        add(.gpu, ["GPUTask"])
        add(
            .loading,
            [
                "ParseHTML", "ParseAuthorStyleSheet", "ResourceWillSendRequest", "ResourceSendRequest",
                "ResourceReceiveResponse", "ResourceReceivedData", "ResourceFinish", "FrameStartedLoading",
            ])
        // DevTools' System, Messaging and Idle: named so that script inside them is not taken for
        // theirs and theirs not for script.
        add(
            .other,
            [
                "RunTask", "Program", "CpuProfiler::StartProfiling", "v8.parseOnBackground",
                "V8.FinalizeDeserialization",
                "HandlePostMessage", "SchedulePostMessage", "v8.parseOnBackgroundWaiting",
            ])
        // Not in DevTools' table: V8's entry points (on a worker thread, often nothing around
        // them has a kind), the names older Chrome wrote, and the decodes raster workers run.
        add(.script, ["V8.Execute", "v8.callFunction", "v8.run", "V8.RunMicrotasks", "v8.compileModule"])
        add(.style, ["RecalculateStyles"])
        add(.imageDecode, ["ImageDecodeTask", "Decode LazyPixelRef", "Resize Image"])
        return table
    }()

    /// Name prefixes and their kinds, tried after ``byName``: the collectors' phases, many of
    /// which run on worker threads, and none of which DevTools' table names.
    static let byPrefix: [(prefix: String, kind: ChromeWorkKind)] = [
        ("V8.GC", .gc), ("V8.MinorGC", .gc), ("V8.MajorGC", .gc), ("BlinkGC.", .gc), ("CppGC.", .gc),
    ]

    /// Whether a trace is Chrome's: some event's category list holds DevTools' timeline category
    /// (`devtools.timeline`, or one of its `disabled-by-default-devtools.timeline...` variants).
    /// framescope's own traces (its producer metadata, or frame spans in category `frame`) never
    /// count, whatever categories they hold.
    /// - Complexity: O(*n*) in the trace's events, each category's name read once.
    package static func isChromeTrace(_ trace: Trace) -> Bool {
        if trace.metadata.producer == FramescopeVersion.producer { return false }
        let frameCategory = trace.symbols.lookup(FrameContract.frameCategory)
        var seen = [Bool](repeating: false, count: trace.symbols.count)
        var isChrome = false
        for event in trace.events where Int(event.category.rawValue) < seen.count && !seen[Int(event.category.rawValue)]
        {
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
        return WorkKindTable(interningInto: &trace, identifier: \.identifier, other: ChromeWorkKind.other) {
            ChromeWorkKind(eventName: $0)
        }
    }
}
