package import FrameTrace

/// The kind of work an Android slice does: what a report on an Android app's trace shows instead
/// of its categories, which atrace slices do not have (every slice would be one `(none)` row).
///
/// Android writes no category with an app's slices (`Trace.beginSection`, `ATRACE_NAME`): the
/// atrace tag that enabled a slice (`view`, `gfx`, `res`, `dalvik`) is not in the trace. The name
/// is all there is, so the kinds come from names, in the same way as ``ChromeWorkKind``'s: the
/// deepest slice whose name the table knows gives its kind to its own time and to the slices
/// inside it that the table does not know; a slice with no known slice around it is ``other``.
///
/// The names (a `*` at the end is a prefix: ids, sizes and owners follow), and who writes them:
/// - ``layout``: `traversal` (AOSP `Choreographer`'s traversal callback); `measure`, `layout`,
///   `performTraversals` (`ViewRootImpl`); `inflate*` (`LayoutInflater`); `RV OnLayout` (androidx
///   `RecyclerView`); `Compose:*`, `Recomposer:*`, `AndroidOwner:*` (Compose's runtime and
///   `AndroidComposeView`).
/// - ``imageDecode``: `ImageDecoder#*`, `ID#w=*` (AOSP `ImageDecoder`); `decodeBitmap`,
///   `decodeFileDescriptor` (`BitmapFactory`).
/// - ``draw``: `DrawFrame*`, `syncFrameState`, `postAndWait`, `flush commands`, `flush layers`,
///   `draw layers`, `drawLayer *` (HWUI's `DrawFrameTask` and Skia pipelines); `draw`,
///   `draw-VRI*`, `Record View#draw()` (`ViewRootImpl`, `ThreadedRenderer`); texture uploads and
///   shader compiles (Skia, HWUI's `ShaderCache`); `dequeueBuffer`, `queueBuffer`,
///   `waitForBufferRelease` and the fence waits (libgui's `Surface`).
/// - ``listBind``: `RV ` and any other name after it, in any case, as RecyclerView changed its
///   names' case (`RV OnBindView`, later `RV onBindViewHolder type=0x1`; `RV CreateView`,
///   `RV Prefetch`, from androidx `RecyclerView` and `GapWorker`); `compose:lazy*` (Compose's
///   lazy-layout prefetch); `DiffUtil*` (apps and libraries: androidx `DiffUtil` traces nothing).
/// - ``input``: `input` (`Choreographer`'s input callback); `deliverInputEvent*`,
///   `dispatchInputEvent*` (`ViewRootImpl`, `InputEventReceiver`).
/// - ``animation``: `animation`, `insets_animation` (`Choreographer`'s animation callbacks);
///   `Recomposer:animation` (Compose's frame clock).
/// - ``gcAndLocks``: a name ending in ` GC` (ART's collectors write `<cause> <collector> GC`),
///   `CompactionPhase`, `GC: Wait For*`; `monitor contention with*`, `Lock contention on*`,
///   `SuspendThreadByThreadId*` (ART's monitors and locks); `Contending for pthread mutex` (bionic).
/// - ``binder``: `binder transaction`, `binder transaction async`, `binder reply`,
///   `binder async rcv` (the slices Perfetto's binder tracker makes from the kernel's binder
///   events), `AIDL::*`, `HIDL::*` (servers' handlers, as in Perfetto's `android/binder.sql`);
///   `relayoutWindow*` (`ViewRootImpl`'s synchronous call to the window manager).
/// - ``other``: `Choreographer#doFrame*` (AOSP `Choreographer`).
///
/// The frame's containers are decided so that their children say where the time went:
/// `Choreographer#doFrame <vsync id>` is ``other`` (only the time no callback inside it claims),
/// its `traversal` callback is ``layout`` (measuring and laying out, with `draw` inside it as
/// ``draw``), and the RenderThread's `DrawFrame`/`DrawFrames <vsync id>` is ``draw``. The name
/// patterns follow what Perfetto's trace processor matches for the same slices: its
/// `android_standardize_slice_name` (`stdlib/android/slices.sql`), its critical blocking calls,
/// startup breakdowns, garbage collection, monitor and lock contention and binder tables, and
/// the jank metric's relevant slices.
///
/// ```swift
/// AndroidWorkKind(sliceName: "Choreographer#doFrame 1001")                 // .other
/// AndroidWorkKind(sliceName: "RV onBindViewHolder type=0x1")               // .listBind
/// AndroidWorkKind(sliceName: "Background young concurrent copying GC")     // .gcAndLocks
/// AndroidWorkKind(sliceName: "MyPresenter.render")                         // nil: the kind around it
/// ```
///
/// The identifiers are stable and are what every output writes as the category name.
package enum AndroidWorkKind: Sendable, Hashable, CaseIterable {
    /// Building and placing views: inflating layouts, measuring, laying out, Compose's
    /// composition and measure, and RecyclerView's own layout pass.
    case layout
    /// Decoding images (`ImageDecoder`, `BitmapFactory`).
    case imageDecode
    /// Drawing: recording display lists on the UI thread, the RenderThread's frame, shaders,
    /// texture uploads and waiting for buffers and fences.
    case draw
    /// List diff and bind: RecyclerView binding, creating and prefetching rows, Compose's lazy
    /// lists prefetching items, and `DiffUtil` where an app traces it.
    case listBind
    /// Handling input events: Choreographer's input callback and the events it delivers.
    case input
    /// Animation callbacks: Choreographer's animation and insets-animation callbacks, Compose's
    /// frame clock.
    case animation
    /// Garbage collection and waiting for it, and contention on Java monitors, ART's own locks
    /// and native mutexes.
    case gcAndLocks
    /// Binder calls to other processes, and serving theirs.
    case binder
    /// The frame callback itself (`Choreographer#doFrame`) and slices no kind claims.
    case other

    /// The stable identifier written in every output: framescope's own category name where the
    /// kind is one (`layout`, `image-decode`, `input`, `other`).
    package var identifier: String {
        switch self {
        case .layout: TraceCategory.layout.name
        case .imageDecode: TraceCategory.imageDecode.name
        case .draw: "draw"
        case .listBind: "list-bind"
        case .input: TraceCategory.input.name
        case .animation: "animation"
        case .gcAndLocks: "gc-and-locks"
        case .binder: "binder"
        case .other: TraceCategory.other.name
        }
    }

    /// The kind of a slice name, or `nil` when the name is not in the table (its time then counts
    /// as the kind of the innermost slice around it with a kind, `other` at the top).
    ///
    /// Exact names first, then RecyclerView's `RV ` names in any case (its trace names changed
    /// case: `RV OnBindView`, later `RV onBindViewHolder type=0x1`), then prefixes in
    /// ``byPrefix``'s order, then the collectors' ` GC` ending.
    /// - Parameter name: A slice's name, as atrace wrote it.
    package init?(sliceName name: String) {
        if let kind = Self.byName[name] {
            self = kind
        } else if let kind = Self.recyclerViewKind(of: name) {
            self = kind
        } else if let kind = Self.byPrefix.first(where: { name.hasPrefix($0.prefix) })?.kind {
            self = kind
        } else if name.hasSuffix(" GC") {
            self = .gcAndLocks
        } else {
            return nil
        }
    }

    /// Slice names and their kinds, matched whole. The FrameScope catalog's Perfetto and Android
    /// article (`PerfettoAndAndroid.md`, "Kinds of work on Android") lists every one.
    static let byName: [String: AndroidWorkKind] = {
        var table: [String: AndroidWorkKind] = [:]
        func add(_ kind: AndroidWorkKind, _ names: [String]) {
            for name in names {
                precondition(table.updateValue(kind, forKey: name) == nil, "\(name) is in the table twice")
            }
        }
        // Choreographer's callbacks (CALLBACK_TRACE_TITLES) and ViewRootImpl's traversal.
        add(.input, ["input"])
        add(.animation, ["animation", "insets_animation", "Recomposer:animation"])
        add(.layout, ["traversal", "measure", "layout", "performTraversals"])
        add(.draw, ["draw", "Record View#draw()"])
        // BitmapFactory's decodes.
        add(.imageDecode, ["decodeBitmap", "decodeFileDescriptor"])
        // HWUI: the UI thread's sync with the RenderThread, the Skia pipelines, shaders, and
        // libgui's buffer queue.
        add(
            .draw,
            [
                "syncFrameState", "postAndWait", "flush commands", "flush layers", "draw layers", "shader_compile",
                "driver_link_program", "CreateGraphicsPipeline", "initShaderDiskCache", "dequeueBuffer", "queueBuffer",
                "waitForBufferRelease",
            ])
        // ART and bionic.
        add(.gcAndLocks, ["CompactionPhase", "Contending for pthread mutex"])
        // The slices trace processor makes from the kernel's binder events.
        add(.binder, ["binder transaction", "binder transaction async", "binder reply", "binder async rcv"])
        return table
    }()

    /// The kind of a RecyclerView name (`RV ` and what follows, in any case): its own layout pass
    /// (`RV OnLayout`) is layout, the rest (binding, creating, prefetching, scrolling, applying
    /// adapter updates) list-bind; `nil` for any other name.
    static func recyclerViewKind(of name: String) -> AndroidWorkKind? {
        guard name.utf8.count >= 3, name.utf8.first.map({ $0 | 0x20 }) == UInt8(ascii: "r") else { return nil }
        let lowered = name.lowercased()
        guard lowered.hasPrefix("rv ") else { return nil }
        return lowered.hasPrefix("rv onlayout") ? .layout : .listBind
    }

    /// Name prefixes and their kinds, tried in order after ``byName`` (no prefix here begins
    /// another, so no order hides one). Names carry ids, sizes and owners after these.
    static let byPrefix: [(prefix: String, kind: AndroidWorkKind)] = [
        ("Choreographer#doFrame", .other),
        ("inflate", .layout), ("Compose:", .layout), ("Recomposer:", .layout), ("AndroidOwner:", .layout),
        ("ImageDecoder#", .imageDecode), ("ID#w=", .imageDecode),
        ("DrawFrame", .draw), ("draw-VRI", .draw), ("drawLayer ", .draw), ("Texture upload", .draw),
        ("CPU -> gralloc transfer", .draw), ("CompileVkShaderModule", .draw), ("InstallVkShaderModule", .draw),
        ("ShaderCache::", .draw), ("waiting for GPU completion", .draw), ("waiting for HWC release", .draw),
        ("compose:lazy", .listBind), ("DiffUtil", .listBind),
        ("deliverInputEvent", .input), ("dispatchInputEvent", .input),
        ("GC: Wait For", .gcAndLocks), ("monitor contention with", .gcAndLocks), ("Lock contention on", .gcAndLocks),
        ("SuspendThreadByThreadId", .gcAndLocks),
        ("AIDL::", .binder), ("HIDL::", .binder), ("relayoutWindow", .binder),
    ]

    /// The names that make a trace an Android app's: its UI thread's frame callback and its
    /// RenderThread's frame (as prefixes: both carry the frame's vsync id).
    static let markerPrefixes = [AndroidFrameTimeline.mainSliceName, "DrawFrame"]

    /// Whether a trace is an Android app's whose slices carry no categories, so that its report
    /// shows ``AndroidWorkKind``s instead of one `(none)` row.
    ///
    /// It is when every span (every `complete` event: atrace's `B`/`E` pairs become these) has an
    /// empty category, and the trace shows it is Android's: a span named `Choreographer#doFrame…`
    /// or `DrawFrame…`, a thread named `RenderThread`, or SurfaceFlinger's FrameTimeline (events
    /// in category `frame-timeline`). Other events' categories do not count: FrameTimeline's
    /// slices are in `frame-timeline`, and atrace's instants on a named track carry the track's
    /// name; neither is a span whose category a kind would replace. framescope's own traces (their
    /// producer metadata) never count.
    /// - Parameter trace: The trace.
    /// - Returns: `true` for an Android app's trace without categories.
    /// - Complexity: O(*n* + *s*) for *n* events and *s* distinct strings; it stops at the first
    ///   span with a category.
    package static func isUncategorizedAndroidTrace(_ trace: Trace) -> Bool {
        if trace.metadata.producer == FramescopeVersion.producer { return false }
        let timeline = trace.symbols.lookup(FrameContract.Timeline.category)
        var isMarkerName = [Bool](repeating: false, count: trace.symbols.count)
        for (index, name) in trace.symbols.strings.enumerated() {
            isMarkerName[index] = markerPrefixes.contains { name.hasPrefix($0) }
        }
        var hasMarker = trace.threads.values.contains { $0.name == "RenderThread" }
        var hasSpan = false
        for event in trace.events {
            if event.phase == .complete {
                guard event.category == .empty else { return false }
                hasSpan = true
                if !hasMarker, Int(event.name.rawValue) < isMarkerName.count, isMarkerName[Int(event.name.rawValue)] {
                    hasMarker = true
                }
            } else if !hasMarker, event.category == timeline {
                hasMarker = true
            }
        }
        return hasSpan && hasMarker
    }

    /// For an Android app's trace without categories (``isUncategorizedAndroidTrace(_:)``), the
    /// kind symbol of every slice name the table knows, indexed by the name symbol's raw value
    /// (`nil` for names it does not know), with the kinds' identifiers interned into `trace`'s
    /// symbols; `nil` for any other trace, whose categories stay as they are.
    static func nameTable(for trace: inout Trace) -> WorkKindTable? {
        guard isUncategorizedAndroidTrace(trace) else { return nil }
        return WorkKindTable(interningInto: &trace, identifier: \.identifier, other: AndroidWorkKind.other) {
            AndroidWorkKind(sliceName: $0)
        }
    }
}
