import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// The shared third-party corpus beside this clone (`../shared/traces/third-party`).
enum LighthouseCorpus {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/traces/third-party").standardized
    static let files = [
        "lighthouse__frames-blocking-time.json", "lighthouse__frames-iframe.json",
        "lighthouse__frames-intercom-widget.json",
        "lighthouse__frames-render-blocking.json", "lighthouse__frames-user-flow-step0.json",
        "lighthouse__frames-user-flow-step3.json", "lighthouse__frames-user-timing.json",
    ]
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: directory.path) }
    static func path(_ file: String) -> String { directory.appendingPathComponent(file).path }
}

/// Chrome frames as pipelines: each frame's stages become lanes, a dropped frame is blamed on the
/// stage that overran most, and a Chrome trace's categories are kinds of work.
@Suite("Chrome lanes, hitch causes and work kinds")
struct ChromeLaneTests {
    static let millisecond: Int64 = 1_000_000
    static let microsecond: Int64 = 1_000

    @Test("A dropped frame's cause is the stage that overran its typical duration most; nothing overran is unknown")
    func droppedFrameStage() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-stage-overrun.json"))
        #expect(report.method.frameSource == .chromeFrames)
        #expect(report.summary.frameCount == 24)
        let dropped = report.frames.filter { $0.outcome == .dropped }
        #expect(dropped.map(\.index) == [5, 10, 15, 20])
        #expect(dropped.map(\.hitchCause) == [.raster, .commit, .gpu, .unknown])
        #expect(
            dropped.map(\.hitchStage) == [
                "EndCommitToActivation", "SendBeginMainFrameToCommit",
                "SubmitCompositorFrameToPresentationCompositorFrame", nil,
            ])
        #expect(
            report.frames.filter { $0.outcome != .dropped }.allSatisfy {
                $0.hitchCause == .none && $0.hitchStage == nil
            })
    }

    @Test(
        "A frame's lanes are its reporter's stages summed per lane; the presentation stage's breakdown and FORKED reporters do not count"
    )
    func stageLanes() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-stage-overrun.json"))
        let us = Self.microsecond
        // Frame 2 also has a FORKED reporter with a 40 ms main stage: the main reporter's stages count.
        let frame = report.frames[2]
        #expect(frame.lanes.map(\.lane) == [.main, .compositor, .raster, .gpu])
        #expect(frame.lane(.compositor)?.costNanoseconds == 800 * us)
        #expect(frame.lane(.main)?.costNanoseconds == 4_000 * us)
        #expect(frame.lane(.raster)?.costNanoseconds == 1_400 * us)
        // The presentation stage only, not its children (which add up to its own duration again).
        #expect(frame.lane(.gpu)?.costNanoseconds == 6_000 * us)
        // Extent: the compositor lane runs from the first stage to EndActivateToSubmitCompositorFrame's end.
        let vsync = frame.vsync
        #expect(frame.lane(.compositor)?.start == vsync + 50 * us)
        #expect(frame.lane(.compositor)?.end == vsync + (50 + 500 + 4_000 + 200 + 1_000 + 200 + 300) * us)
        #expect(frame.lane(.main)?.start == vsync + 550 * us)
        #expect(frame.lanes.allSatisfy { $0.deadline == nil })
        #expect(report.frames[5].lane(.raster)?.costNanoseconds == (200 + 20_000 + 200) * us)
    }

    @Test("Frames that share a vsync (one per layer tree) come in layer-tree order, the same in every process")
    func sharedVsyncOrder() throws {
        // Eight layer trees report a frame for the same vsync, written in shuffled order; each
        // frame's Commit stage lasts (layer tree) x 100 µs, so its raster lane names the frame.
        // The order used to be left to a dictionary's, which changes with each process's hash
        // seed: eight tied frames come out in layer-tree order by chance once in 40,320 runs.
        let category = "cc,benchmark,disabled-by-default-devtools.timeline.frame"
        var events = [
            #"{"ph":"M","name":"thread_name","pid":200,"tid":1,"ts":0,"args":{"name":"CrRendererMain"}}"#,
            #"{"ph":"M","name":"thread_name","pid":200,"tid":7,"ts":0,"args":{"name":"Compositor"}}"#,
        ]
        for layerTree in [5, 2, 8, 1, 7, 3, 6, 4] {
            func slice(_ phase: String, _ name: String, _ ts: Int, _ arguments: String = "{}") -> String {
                #"{"ph":"\#(phase)","name":"\#(name)","cat":"\#(category)","pid":200,"tid":7,"ts":\#(ts),"#
                    + #""id2":{"local":"0x\#(layerTree)"},"args":\#(arguments)}"#
            }
            let reporter =
                #"{"chrome_frame_reporter":{"state":"STATE_PRESENTED_ALL","frame_sequence":100,"#
                + #""layer_tree_host_id":\#(layerTree)}}"#
            events += [
                slice("b", "PipelineReporter", 3_000_000, reporter),
                slice("b", "Commit", 3_000_100), slice("e", "Commit", 3_000_100 + layerTree * 100),
                slice("e", "PipelineReporter", 3_010_000),
            ]
        }
        let trace = try TraceReader.read(bytes: Array("[\(events.joined(separator: ",\n"))]".utf8))
        let report = FrameAnalyzer.analyze(trace)
        #expect(report.method.frameSource == .chromeFrames)
        #expect(report.frames.count == 8)
        let expected = (1...8).map { Int64($0) * 100 * Self.microsecond }
        #expect(report.frames.map { $0.lane(.raster)?.costNanoseconds } == expected)
    }

    @Test("With nothing presented, a dropped frame names its longest stage")
    func nothingPresented() throws {
        var trace = try analysisFixture("chrome-stage-overrun.json")
        // Turn every presented reporter into a dropped one.
        for index in trace.argumentLists.indices {
            trace.argumentLists[index] = trace.argumentLists[index].map { argument in
                argument.key == ChromeFrameEvents.stateKey && argument.value.stringValue == "STATE_PRESENTED_ALL"
                    ? Argument(argument.key, .string("STATE_DROPPED")) : argument
            }
        }
        let report = FrameAnalyzer.analyze(trace)
        #expect(report.summary.droppedFrames == 24)
        #expect(report.frames[0].hitchStage == "SubmitCompositorFrameToPresentationCompositorFrame")
        #expect(report.frames[10].hitchStage == "SendBeginMainFrameToCommit")
        #expect(report.frames.allSatisfy { $0.hitchCause != .none })
    }

    @Test("The HTML lane view has a row for each Chrome stage lane the frames have, main first")
    func htmlStageRows() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-stage-overrun.json"))
        let html = report.html(source: "chrome.json")
        let rows = html.components(separatedBy: "<div class=\"lane-row\" data-lane=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        let timed = rows.filter { $0 != "background" }
        #expect(timed == ["main", "compositor", "raster", "gpu"])
        #expect(report.timedLanes == [.main, .compositor, .raster, .gpu])
    }

    @Test("Older Chrome's dropped frames record no stages: their cause is unknown, never none")
    func legacyDroppedUnknown() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-legacy-frames.json"))
        let dropped = report.frames.filter { $0.outcome == .dropped }
        #expect(dropped.count == 2)
        #expect(
            dropped.allSatisfy {
                $0.hitchCause == .unknown && $0.hitchStage == nil
                    && $0.lanes.allSatisfy { [.main, .background].contains($0.lane) }
            })
    }

    @Test(
        "Chrome event names map to DevTools' categories, split only where DevTools' title says so",
        arguments: [
            ("FunctionCall", ChromeWorkKind.script), ("EvaluateScript", .script), ("v8.compile", .script),
            ("TimerFire", .script),
            ("EventDispatch", .script), ("RunMicrotasks", .script), ("FireAnimationFrame", .script),
            ("UpdateLayoutTree", .style), ("RecalculateStyles", .style), ("ScheduleStyleRecalculation", .style),
            ("Layout", .layout), ("InvalidateLayout", .layout),
            // DevTools' Rendering that is neither style nor layout.
            ("PrePaint", .rendering), ("Layerize", .rendering), ("UpdateLayerTree", .rendering),
            ("HitTest", .rendering),
            ("ComputeIntersections", .rendering),
            ("Paint", .paint), ("PaintImage", .paint), ("UpdateLayer", .paint), ("CompositeLayers", .paint),
            ("Commit", .paint),
            ("RasterTask", .raster), ("GPUTask", .gpu),
            ("Decode Image", .imageDecode), ("ImageDecodeTask", .imageDecode), ("Decode LazyPixelRef", .imageDecode),
            ("Resize Image", .imageDecode),
            ("MajorGC", .gc), ("MinorGC", .gc), ("V8.GC_SCAVENGER", .gc), ("V8.GCCompactor", .gc),
            ("BlinkGC.AtomicPhase", .gc),
            ("BlinkGC.MarkBailOutObjects", .gc), ("CppGC.IncrementalSweep", .gc),
            ("ParseHTML", .loading), ("ParseAuthorStyleSheet", .loading), ("ResourceSendRequest", .loading),
            ("RunTask", .other), ("HandlePostMessage", .other), ("v8.parseOnBackgroundWaiting", .other),
        ])
    func kindTable(name: String, kind: ChromeWorkKind) {
        #expect(ChromeWorkKind(eventName: name) == kind)
    }

    @Test("Names the table does not know have no kind of their own; identifiers are stable")
    func unknownNamesAndIdentifiers() {
        #expect(ChromeWorkKind(eventName: "v8.callFunction") == .script)
        #expect(ChromeWorkKind(eventName: "ThreadControllerImpl::RunTask") == nil)
        #expect(ChromeWorkKind(eventName: "layout") == nil)
        #expect(ChromeWorkKind(eventName: "LayoutShift") == nil)
        #expect(
            ChromeWorkKind.allCases.map(\.identifier) == [
                "script", "style", "layout", "rendering", "paint", "raster", "image-decode", "gpu", "gc", "loading",
                "other",
            ])
    }

    @Test("A Chrome trace's categories are work kinds; an unknown span counts as the kind around it")
    func chromeReportKinds() throws {
        let report = FrameAnalyzer.analyze(try analysisFixture("chrome-stage-overrun.json"))
        let names = Set(report.categories.map(\.name))
        #expect(names == ["script", "style", "layout", "paint", "raster", "image-decode", "gc", "other"])
        func figures(_ name: String) -> FrameReport.CategoryFigures? { report.categories.first { $0.name == name } }
        let ms = Self.millisecond
        let us = Self.microsecond
        // Per frame: FunctionCall 1.5 ms (v8.callFunction inside it is script too) minus MinorGC 0.2 ms.
        #expect(figures("script")?.mainNanoseconds == 24 * 1_300 * us)
        #expect(figures("gc")?.mainNanoseconds == 24 * 200 * us)
        #expect(figures("style")?.mainNanoseconds == 24 * 400 * us)
        #expect(figures("layout")?.mainNanoseconds == 24 * 900 * us)
        #expect(figures("paint")?.mainNanoseconds == 24 * 300 * us)
        // RunTask's own time (4 - 1.5 - 0.4 - 0.9 - 0.3 = 0.9 ms) and the unknown top-level span (0.1 ms).
        #expect(figures("other")?.mainNanoseconds == 24 * ms)
        #expect(figures("raster")?.backgroundNanoseconds == 24 * 1_500 * us)
        #expect(figures("image-decode")?.backgroundNanoseconds == 24 * 500 * us)
        #expect(report.frames[3].mainByCategory["script"] == 1_300 * us)
        #expect(report.threads.first { $0.isMain }?.topCategory == "script")
    }

    @Test("Traces that are not Chrome's keep their categories")
    func otherTracesKeepCategories() throws {
        var sketch = TraceSketch()
        sketch.span("Layout", "layout-engine", from: 0, to: 4)
        sketch.span("FunctionCall", "app", from: 5, to: 6)
        #expect(!ChromeWorkKind.isChromeTrace(sketch.trace))
        #expect(Set(FrameAnalyzer.analyze(sketch.trace).categories.map(\.name)) == ["layout-engine", "app"])
        // A framescope trace that happens to use a DevTools category name stays framescope's.
        sketch.span("frame", FrameContract.frameCategory, from: 10, to: 20)
        sketch.span("x", "devtools.timeline", from: 11, to: 12)
        #expect(!ChromeWorkKind.isChromeTrace(sketch.trace))
        #expect(FrameAnalyzer.analyze(sketch.trace).categories.contains { $0.name == "devtools.timeline" })
    }

    // MARK: - The real recordings, checked against an independent reading of their JSON

    /// One frame as this test reads it from the JSON, without framescope's reader or analysis.
    struct ExpectedFrame: Comparable, CustomStringConvertible {
        var vsync: Int64
        var outcome: String
        /// lane -> (cost, start, end)
        var lanes: [String: [Int64]]
        var cause: String
        var stage: String?
        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.vsync, lhs.description) < (rhs.vsync, rhs.description) }
        var description: String {
            "\(vsync) \(outcome) \(lanes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }) \(cause) \(stage ?? "-")"
        }
    }

    /// Reads the renderer's PipelineReporter frames and their stages straight from the JSON.
    static func expectedFrames(path: String, processID: Int64) throws -> [ExpectedFrame] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try JSONSerialization.jsonObject(with: data)
        let events = ((root as? [String: Any])?["traceEvents"] as? [[String: Any]]) ?? (root as? [[String: Any]]) ?? []
        let lanes: [String: String] = [
            "BeginImplFrameToSendBeginMainFrame": "compositor", "SendBeginMainFrameToCommit": "main",
            "Commit": "raster",
            "EndCommitToActivation": "raster", "Activation": "raster",
            "EndActivateToSubmitCompositorFrame": "compositor",
            "SubmitCompositorFrameToPresentationCompositorFrame": "gpu",
        ]
        func nanoseconds(_ value: Any?) -> Int64 { Int64((((value as? NSNumber)?.doubleValue ?? 0) * 1000).rounded()) }
        struct Slice {
            var name: String
            var id: String
            var start: Int64
            var end: Int64
            var args: [String: Any]
        }
        // Pair b/e by (id, name) in time order, file order breaking ties.
        var asyncEvents: [(offset: Int, event: [String: Any])] = []
        for (offset, event) in events.enumerated() {
            guard let phase = event["ph"] as? String, phase == "b" || phase == "e",
                (event["pid"] as? NSNumber)?.int64Value == processID,
                let name = event["name"] as? String, name == "PipelineReporter" || lanes[name] != nil
            else { continue }
            asyncEvents.append((offset, event))
        }
        asyncEvents.sort { (nanoseconds($0.event["ts"]), $0.offset) < (nanoseconds($1.event["ts"]), $1.offset) }
        var open: [String: [[String: Any]]] = [:]
        var slices: [Slice] = []
        for (_, event) in asyncEvents {
            let name = event["name"] as! String
            let id = ((event["id2"] as? [String: Any])?["local"] as? String) ?? (event["id"] as? String) ?? ""
            let key = id + "/" + name
            if event["ph"] as? String == "b" {
                open[key, default: []].append(event)
            } else if let begin = open[key]?.popLast() {
                slices.append(
                    Slice(
                        name: name, id: id, start: nanoseconds(begin["ts"]), end: nanoseconds(event["ts"]),
                        args: (begin["args"] as? [String: Any]) ?? [:]))
            }
        }
        let reporters = slices.filter { $0.name == "PipelineReporter" }
        // Frames: one per (layer tree, sequence); the non-FORKED reporter decides, else the FORKED one.
        struct Entry {
            var vsync: Int64
            var main: Slice?
            var forked: Slice?
        }
        var entries: [String: Entry] = [:]
        for reporter in reporters.sorted(by: { $0.start < $1.start }) {
            let info = reporter.args["chrome_frame_reporter"] as? [String: Any] ?? [:]
            let key = "\(info["layer_tree_host_id"] ?? "-")/\(info["frame_sequence"] ?? "-")"
            var entry = entries[key] ?? Entry(vsync: reporter.start)
            if info["frame_type"] as? String == "FORKED" { entry.forked = reporter } else { entry.main = reporter }
            entries[key] = entry
        }
        func state(_ slice: Slice?) -> String? {
            (slice?.args["chrome_frame_reporter"] as? [String: Any])?["state"] as? String
        }
        var frames: [(frame: ExpectedFrame, durations: [String: Int64], order: [String])] = []
        for entry in entries.values {
            guard let decider = entry.main ?? entry.forked else { continue }
            var outcome: String
            switch state(decider) {
            case "STATE_PRESENTED_ALL": outcome = "presented"
            case "STATE_PRESENTED_PARTIAL": outcome = "partial"
            case "STATE_DROPPED": outcome = "dropped"
            default: continue
            }
            if outcome == "presented", entry.main != nil,
                ["STATE_DROPPED", "STATE_PRESENTED_PARTIAL"].contains(state(entry.forked))
            {
                outcome = "partial"
            }
            // A partial frame counts only when a reporter says it affects smoothness (or none says).
            let smooth = [entry.main, entry.forked].compactMap {
                ($0?.args["chrome_frame_reporter"] as? [String: Any])?["affects_smoothness"] as? Bool
            }
            if outcome == "partial", !smooth.isEmpty, !smooth.contains(true) { outcome = "presented" }
            // The reporter's stages: same id, inside its range, and no other reporter of that id
            // began later and also holds them.
            let stages = slices.filter { stage in
                stage.name != "PipelineReporter" && stage.id == decider.id && decider.start <= stage.start
                    && stage.end <= decider.end
                    && !reporters.contains {
                        $0.id == decider.id && $0.start > decider.start && $0.start <= stage.start
                            && stage.end <= $0.end
                    }
            }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            var laneFigures: [String: [Int64]] = [:]
            var durations: [String: Int64] = [:]
            for stage in stages {
                let lane = lanes[stage.name]!
                var figure = laneFigures[lane] ?? [0, stage.start, stage.end]
                figure[0] += stage.end - stage.start
                figure[1] = min(figure[1], stage.start)
                figure[2] = max(figure[2], stage.end)
                laneFigures[lane] = figure
                durations[stage.name, default: 0] += stage.end - stage.start
            }
            var order: [String] = []
            for stage in stages where !order.contains(stage.name) { order.append(stage.name) }
            frames.append(
                (
                    ExpectedFrame(vsync: entry.vsync, outcome: outcome, lanes: laneFigures, cause: "none"), durations,
                    order
                ))
        }
        // Why a dropped frame was late is LighthouseHoldTests' to check: here only that it was.
        for index in frames.indices where frames[index].frame.outcome == "dropped" {
            frames[index].frame.cause = "late"
        }
        return frames.map(\.frame).sorted()
    }

    @Test(
        "Real Lighthouse recordings: outcomes and lane figures agree with the stage durations in the JSON, and every dropped frame has a cause",
        .enabled(
            if: LighthouseCorpus.isAvailable,
            "shared/traces/third-party is not beside this clone; Lighthouse lane checks skipped"),
        arguments: LighthouseCorpus.files)
    func lighthouseLanes(file: String) throws {
        let path = LighthouseCorpus.path(file)
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing from the corpus")
        let report = FrameAnalyzer.analyze(try TraceReader.read(contentsOf: path))
        let processID = try #require(report.method.mainThread?.processID)
        let expected = try Self.expectedFrames(path: path, processID: processID)
        let actual = report.frames.map { frame in
            ExpectedFrame(
                vsync: frame.vsync, outcome: frame.outcome.rawValue,
                lanes: Dictionary(
                    uniqueKeysWithValues: frame.lanes.filter { $0.lane != .background }.map {
                        ($0.lane.identifier, [$0.costNanoseconds, $0.start ?? -1, $0.end ?? -1])
                    }),
                cause: frame.outcome == .dropped ? "late" : frame.hitchCause.identifier)
        }.sorted()
        #expect(!expected.isEmpty && expected.allSatisfy { !$0.lanes.isEmpty })
        #expect(actual.count == expected.count)
        for (mine, theirs) in zip(actual, expected) { #expect(mine == theirs) }
        let dropped = report.frames.filter { $0.outcome == .dropped }
        #expect(dropped.allSatisfy { $0.hitchCause != .none })
        #expect(report.frames.filter { $0.outcome != .dropped }.allSatisfy { $0.hitchCause == .none })
        #expect(Set(report.categories.map(\.name)).isSubset(of: ChromeWorkKind.allCases.map(\.identifier)))
        let causes = Dictionary(grouping: dropped, by: { "\($0.hitchCause.identifier)/\($0.hitchStage ?? "-")" })
            .mapValues(\.count)
        print(
            "\(file): \(report.frames.count) frames, \(dropped.count) dropped, causes \(causes.sorted { $0.key < $1.key })"
        )
    }
}
