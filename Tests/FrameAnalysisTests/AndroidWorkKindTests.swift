import Foundation
import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// Android's kinds of work: the table maps real slice names (written out here, not taken from the
/// code), an Android app's trace without categories reports kinds instead of one `(none)` row and
/// loses no time, other traces keep their categories, and the Perfetto and Android article lists
/// what the table maps.
@Suite("Android's kinds of work: atrace slices by name, in place of categories they do not have")
struct AndroidWorkKindTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FrameTraceReaderTests/Fixtures/perfetto")

    /// Real slice names, as AOSP, androidx, ART and trace processor write them, and their kinds.
    static let namedSlices: [(name: String, kind: AndroidWorkKind)] = [
        ("Choreographer#doFrame 123", .other), ("Choreographer#doFrame", .other),
        ("Choreographer#doFrame - resynced to 1234 in 3.2ms", .other),
        ("input", .input), ("animation", .animation), ("insets_animation", .animation), ("traversal", .layout),
        ("measure", .layout), ("layout", .layout), ("inflate", .layout), ("inflate (precompiled)", .layout),
        ("Compose:recompose", .layout), ("Compose:applyChanges", .layout), ("Recomposer:recompose", .layout),
        ("Recomposer:animation", .animation), ("AndroidOwner:measureAndLayout", .layout), ("RV OnLayout", .layout),
        ("ImageDecoder#decodeBitmap", .imageDecode), ("ImageDecoder#decodeDrawable", .imageDecode),
        ("ID#w=300;h=250;dw=150;dh=150;src=Resource{name=avatar}", .imageDecode), ("decodeBitmap", .imageDecode),
        ("DrawFrame", .draw), ("DrawFrames 456", .draw), ("draw", .draw), ("draw-VRI[MainActivity]", .draw),
        ("Record View#draw()", .draw), ("syncFrameState", .draw), ("postAndWait", .draw), ("flush commands", .draw),
        ("drawLayer [DoubleShadowNode] 120.0 x 48.0", .draw), ("Texture upload(42) 512x512", .draw),
        ("CPU -> gralloc transfer (1024x768)", .draw), ("shader_compile", .draw), ("dequeueBuffer", .draw),
        ("queueBuffer", .draw), ("waiting for GPU completion 1234", .draw),
        ("RV OnBindView", .listBind), ("RV onBindViewHolder type=0x1", .listBind), ("RV CreateView", .listBind),
        ("RV onCreateViewHolder type=0x2", .listBind), ("RV Prefetch forced - needed next frame", .listBind),
        ("RV Nested Prefetch", .listBind), ("RV Scroll", .listBind), ("RV FullInvalidate", .listBind),
        ("rv onbindview", .listBind), ("compose:lazy:prefetch:compose", .listBind),
        ("DiffUtil.calculateDiff", .listBind),
        ("deliverInputEvent src=0x1002 eventTimeNano=123 id=0x5", .input),
        ("dispatchInputEvent MotionEvent ACTION_MOVE", .input),
        ("Background young concurrent copying GC", .gcAndLocks), ("Explicit concurrent mark compact GC", .gcAndLocks),
        ("GC: Wait For Completion Alloc", .gcAndLocks),
        ("Lock contention on thread list lock (owner tid: 12)", .gcAndLocks),
        (
            "monitor contention with owner main (5000) at void a.b.C.d()(C.java:10) waiters=0 "
                + "blocking from void a.b.C.e()(C.java:20)", .gcAndLocks
        ),
        ("Contending for pthread mutex", .gcAndLocks),
        ("SuspendThreadByThreadId suspended HeapTaskDaemon", .gcAndLocks),
        ("binder transaction", .binder), ("binder reply", .binder), ("binder transaction async", .binder),
        ("AIDL::java::IPackageManager::getPackageInfo::server", .binder), ("relayoutWindow#first=true", .binder),
    ]

    @Test("Real slice names map to their kinds, by name and by prefix; names not in the table have none")
    func namesMapToKinds() {
        for (name, kind) in Self.namedSlices {
            #expect(AndroidWorkKind(sliceName: name) == kind, "\(name)")
        }
        for name in ["MyPresenter.render", "commit", "RVX bind", "R", "", "GC", "Layout", "android.os.Handler: Foo"] {
            #expect(AndroidWorkKind(sliceName: name) == nil, "\(name)")
        }
        #expect(
            AndroidWorkKind.allCases.map(\.identifier) == [
                "layout", "image-decode", "draw", "list-bind", "input", "animation", "gc-and-locks", "binder", "other",
            ])
    }

    /// The fixture's slices, from the file that describes it.
    static func fixtureSlices() throws -> [(thread: String, name: String, duration: Int64)] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("android-app-frames.expected.json"))
        let expected = try JSONValue.parse(Array(data))
        return (expected["threads"]?.arrayValue ?? []).flatMap { thread in
            (thread["slices"]?.arrayValue ?? []).map {
                (thread["name"]?.stringValue ?? "", $0["name"]?.stringValue ?? "", $0["dur"]?.integerValue ?? 0)
            }
        }
    }

    static func read(_ name: String) throws -> Trace {
        try TraceReader.read(contentsOf: fixtures.appendingPathComponent("\(name).pftrace").path)
    }

    @Test("android-app-frames reports kinds, traversal as layout, with no (none) row and no time lost")
    func fixtureReportsKinds() throws {
        let trace = try Self.read("android-app-frames")
        #expect(AndroidWorkKind.isUncategorizedAndroidTrace(trace), "its FrameTimeline slices' category does not count")
        let report = FrameAnalyzer.analyze(trace)
        func figures(_ name: String) -> FrameReport.CategoryFigures? { report.categories.first { $0.name == name } }
        #expect(figures("") == nil, "no (none) row")
        #expect(Set(report.categories.map(\.name)) == ["layout", "other", "draw"])
        let slices = try Self.fixtureSlices()
        func total(_ match: (String) -> Bool) -> Int64 {
            slices.filter { match($0.name) }.reduce(0) { $0 + $1.duration }
        }
        let traversal = total { $0 == "traversal" }
        let doFrame = total { $0.hasPrefix("Choreographer#doFrame ") }
        #expect(traversal == ms(24.5))
        #expect(figures("layout")?.mainNanoseconds == traversal)
        #expect(figures("other")?.mainNanoseconds == doFrame - traversal, "doFrame's own time")
        #expect(figures("draw")?.backgroundNanoseconds == total { $0.hasPrefix("DrawFrames ") })
        #expect(figures("draw")?.mainNanoseconds == 0)
        // The same trace with one category on every span is not Android's kinds: one row, with
        // the same main-thread time as the kinds together.
        var categorized = trace
        let app = categorized.symbols.intern("app")
        for index in categorized.events.indices where categorized.events[index].phase == .complete {
            categorized.events[index].category = app
        }
        #expect(!AndroidWorkKind.isUncategorizedAndroidTrace(categorized))
        let plain = FrameAnalyzer.analyze(categorized)
        #expect(plain.categories.map(\.name) == ["app"])
        #expect(report.categories.reduce(0) { $0 + $1.mainNanoseconds } == plain.categories[0].mainNanoseconds)
        #expect(plain.categories[0].mainNanoseconds == doFrame)
        #expect(report.frames.map(\.mainThreadNanoseconds) == plain.frames.map(\.mainThreadNanoseconds))
    }

    @Test("The .pftrace and its Chrome JSON twin report the same kinds")
    func throughJSON() throws {
        let trace = try Self.read("android-app-frames")
        let json = try TraceReader.read(bytes: trace.chromeJSON())
        #expect(AndroidWorkKind.isUncategorizedAndroidTrace(json))
        #expect(FrameAnalyzer.analyze(json).categories == FrameAnalyzer.analyze(trace).categories)
    }

    @Test("framescope's, Chrome's and categorized traces keep their categories; Android markers are needed")
    func otherTracesUnaffected() throws {
        // A framescope trace: categories, and its producer.
        var framescope = TraceSketch()
        framescope.trace.metadata.producer = FramescopeVersion.producer
        framescope.span("Choreographer#doFrame 1", "", from: 0, to: 4)
        #expect(!AndroidWorkKind.isUncategorizedAndroidTrace(framescope.trace))
        // Chrome's: categories, and ChromeWorkKind's.
        var chrome = TraceSketch()
        chrome.span("RunTask", "disabled-by-default-devtools.timeline", from: 0, to: 10)
        chrome.span("DrawFrame", "devtools.timeline", from: 1, to: 2)
        var chromeTrace = chrome.trace
        #expect(AndroidWorkKind.nameTable(for: &chromeTrace) == nil)
        #expect(Set(FrameAnalyzer.analyze(chrome.trace).categories.map(\.name)) == ["other", "rendering"])
        // Android names with categories: the categories stay.
        var categorized = TraceSketch()
        categorized.trace.setThread(TraceThread(key: categorized.worker, name: "RenderThread"))
        categorized.span("Choreographer#doFrame 1", "app", from: 0, to: 10)
        categorized.span("traversal", "view", from: 1, to: 5)
        var categorizedTrace = categorized.trace
        #expect(AndroidWorkKind.nameTable(for: &categorizedTrace) == nil)
        #expect(Set(FrameAnalyzer.analyze(categorized.trace).categories.map(\.name)) == ["app", "view"])
        // No categories and nothing Android's: one (none) row, as before.
        var unmarked = TraceSketch()
        unmarked.span("traversal", "", from: 0, to: 5)
        #expect(!AndroidWorkKind.isUncategorizedAndroidTrace(unmarked.trace))
        #expect(FrameAnalyzer.analyze(unmarked.trace).categories.map(\.name) == [""])
    }

    @Test("A thread named RenderThread marks a trace as Android's; an instant's category does not count")
    func markers() {
        var sketch = TraceSketch()
        sketch.span("traversal", "", from: 0, to: 5)
        sketch.trace.append(.instant, name: "launch", category: "AppStartup", thread: sketch.main, timestamp: ms(1))
        #expect(!AndroidWorkKind.isUncategorizedAndroidTrace(sketch.trace))
        sketch.trace.setThread(TraceThread(key: sketch.worker, name: "RenderThread"))
        #expect(AndroidWorkKind.isUncategorizedAndroidTrace(sketch.trace))
    }

    @Test("The deepest named slice wins; an unknown slice counts for the named one around it, other at the top")
    func unknownNames() throws {
        var sketch = TraceSketch()
        sketch.span("MyPresenter.render", "", from: 0, to: 3)
        sketch.span("Choreographer#doFrame 7", "", from: 4, to: 14)
        sketch.span("traversal", "", from: 5, to: 12)
        sketch.span("FeedCell.onMeasure", "", from: 5, to: 8)
        sketch.span("RV OnBindView", "", from: 8, to: 11)
        sketch.span("ImageDecoder#decodeBitmap", "", from: 9, to: 10)
        let report = FrameAnalyzer.analyze(sketch.trace)
        func main(_ name: String) -> Int64? { report.categories.first { $0.name == name }?.mainNanoseconds }
        #expect(main("other") == ms(3) + ms(3), "MyPresenter.render at the top, and doFrame's own time")
        #expect(main("layout") == ms(3) + ms(1), "FeedCell.onMeasure inside traversal, and traversal's own time")
        #expect(main("list-bind") == ms(2))
        #expect(main("image-decode") == ms(1))
        #expect(main("") == nil)
    }

    /// The backquoted names of the first table after "## Kinds of work on Android" in the
    /// Perfetto and Android article, by the kind in the row's second column.
    static func documentedRows() throws -> [(kind: String, names: [String])] {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/FrameScope/FrameScope.docc/PerfettoAndAndroid.md").standardized
        let text = try String(contentsOf: article, encoding: .utf8)
        let section = try #require(
            text.range(of: "\n## Kinds of work on Android\n"), "no \"Kinds of work on Android\" section")
        let lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        return table.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let names = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            return (cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")), names)
        }
    }

    @Test("The article's table maps each pattern to its row's kind, and lists every name and prefix the table holds")
    func articleListsTheTable() throws {
        let rows = try Self.documentedRows()
        #expect(Set(rows.map(\.kind)) == Set(AndroidWorkKind.allCases.map(\.identifier)))
        var names: Set<String> = []
        var prefixes: Set<String> = []
        for row in rows {
            #expect(!row.names.isEmpty, "a \(row.kind) row lists no names")
            for pattern in row.names {
                let example: String
                if pattern.hasPrefix("*") {
                    example = "Something" + pattern.dropFirst()
                } else if pattern.hasSuffix("*") {
                    prefixes.insert(String(pattern.dropLast()))
                    example = pattern.dropLast() + "Something"
                } else {
                    names.insert(pattern)
                    example = pattern
                }
                #expect(
                    AndroidWorkKind(sliceName: example)?.identifier == row.kind, "\(pattern) in the \(row.kind) row")
            }
        }
        #expect(Set(AndroidWorkKind.byName.keys).subtracting(names).sorted() == [], "mapped but not in the article")
        let mappedPrefixes = Set(AndroidWorkKind.byPrefix.map(\.prefix))
        #expect(mappedPrefixes.subtracting(prefixes).sorted() == [], "a prefix not in the article")
    }
}
