import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// Builds small Chrome recordings: renderers with PipelineReporter frames and their stages, the
/// threads that did the work, and the browser's TracingStartedInBrowser and FrameCommittedInBrowser.
struct ChromeSketch {
    static let interval: Int64 = 16_000  // microseconds
    var events: [String] = []
    private var nextID = 1

    init() {
        // The timeline category that makes a trace Chrome's.
        events.append(#"{"ph":"M","name":"process_name","pid":1,"tid":1,"args":{"name":"Browser"}}"#)
    }

    mutating func thread(pid: Int, tid: Int, name: String) {
        events.append(#"{"ph":"M","name":"thread_name","pid":\#(pid),"tid":\#(tid),"args":{"name":"\#(name)"}}"#)
    }

    /// A complete event (microseconds).
    mutating func span(_ name: String, pid: Int, tid: Int, start: Int64, duration: Int64) {
        events.append(
            #"{"ph":"X","name":"\#(name)","cat":"devtools.timeline","pid":\#(pid),"tid":\#(tid),"ts":\#(start),"dur":\#(duration)}"#
        )
    }

    mutating func committed(pid: Int, at time: Int64, parent: String? = nil) {
        let parentMember = parent.map { #","parent":"\#($0)""# } ?? ""
        events.append(
            #"{"ph":"I","s":"t","name":"FrameCommittedInBrowser","cat":"disabled-by-default-devtools.timeline","pid":1,"tid":1,"ts":\#(time),"args":{"data":{"processId":\#(pid)\#(parentMember),"frame":"F"}}}"#
        )
    }

    /// The browser's list of frames when recording started: (process, parent frame) pairs.
    mutating func tracingStarted(at time: Int64, frames: [(pid: Int, parent: String?)]) {
        let list = frames.enumerated().map { index, frame in
            let parentMember = frame.parent.map { #","parent":"\#($0)""# } ?? ""
            return #"{"frame":"F\#(index)","name":"","processId":\#(frame.pid)\#(parentMember),"url":"about:blank"}"#
        }
        events.append(
            #"{"ph":"I","s":"t","name":"TracingStartedInBrowser","cat":"disabled-by-default-devtools.timeline","pid":1,"tid":1,"ts":\#(time),"args":{"data":{"frameTreeNodeId":1,"frames":[\#(list.joined(separator: ","))],"persistentIds":true}}}"#
        )
    }

    /// One reporter of frame `sequence` at vsync `sequence × interval`, with its stages
    /// (name, start offset from the vsync, duration; microseconds).
    mutating func frame(
        pid: Int, sequence: Int64, state: String, forked: Bool = false, smooth: Bool? = nil,
        stages: [(String, Int64, Int64)]
    ) {
        let id = nextID
        nextID += 1
        let vsync = sequence * Self.interval
        let end = stages.map { $0.1 + $0.2 }.max() ?? 0
        var reporter = #""state":"\#(state)","frame_sequence":\#(sequence),"layer_tree_host_id":1"#
        if forked { reporter += #","frame_type":"FORKED""# }
        if let smooth { reporter += #","affects_smoothness":\#(smooth)"# }
        let head =
            #""cat":"cc,benchmark,disabled-by-default-devtools.timeline.frame","pid":\#(pid),"tid":2,"id2":{"local":"0x\#(id)"}"#
        events.append(
            #"{"ph":"b","name":"PipelineReporter",\#(head),"ts":\#(vsync),"args":{"chrome_frame_reporter":{\#(reporter)}}}"#
        )
        for (name, offset, duration) in stages {
            events.append(#"{"ph":"b","name":"\#(name)",\#(head),"ts":\#(vsync + offset)}"#)
            events.append(#"{"ph":"e","name":"\#(name)",\#(head),"ts":\#(vsync + offset + duration)}"#)
        }
        events.append(#"{"ph":"e","name":"PipelineReporter",\#(head),"ts":\#(vsync + end)}"#)
    }

    /// A presented frame whose stages all fit its interval.
    mutating func presented(pid: Int, sequence: Int64) {
        frame(
            pid: pid, sequence: sequence, state: "STATE_PRESENTED_ALL",
            stages: [
                ("BeginImplFrameToSendBeginMainFrame", 0, 500), ("SendBeginMainFrameToCommit", 500, 4_000),
                ("Commit", 4_500, 200),
                ("EndCommitToActivation", 4_700, 300), ("Activation", 5_000, 100),
                ("EndActivateToSubmitCompositorFrame", 5_100, 200),
                ("SubmitCompositorFrameToPresentationCompositorFrame", 5_300, 5_000),
            ])
    }

    /// A dropped frame that only reached the compositor's first stage, one interval long.
    mutating func dropped(pid: Int, sequence: Int64, waited: Int64 = ChromeSketch.interval) {
        frame(
            pid: pid, sequence: sequence, state: "STATE_DROPPED",
            stages: [("BeginImplFrameToSendBeginMainFrame", 0, waited)])
    }

    var trace: Trace {
        get throws {
            let text = #"{"traceEvents":["# + events.joined(separator: ",\n") + "]}"
            return try TraceReader.read(bytes: Array(text.utf8))
        }
    }
}

/// Why a late frame was late: the lane that held it at its deadline, the work and the frame in
/// that lane, and what filled it; on traces built here, with every expectation worked out from
/// the events the test wrote.
@Suite("Hitch holds: the lane that held a late frame")
struct HitchHoldTests {
    static let us: Int64 = 1_000
    static let p = ChromeSketch.interval

    /// The sketch's frames are `interval` apart: analysed at that rate (62.5 fps).
    static func analyze(_ sketch: ChromeSketch, processID: Int64? = nil) throws -> FrameReport {
        var options = AnalysisOptions(frameRate: FrameRate(hertz: 1e6 / Double(ChromeSketch.interval)))
        options.processID = processID
        return FrameAnalyzer.analyze(try sketch.trace, options: options)
    }

    /// A renderer (pid 10) with its main, compositor, raster and GPU threads.
    static func renderer() -> ChromeSketch {
        var sketch = ChromeSketch()
        sketch.thread(pid: 10, tid: 1, name: "CrRendererMain")
        sketch.thread(pid: 10, tid: 2, name: "Compositor")
        sketch.thread(pid: 10, tid: 3, name: "CompositorTileWorker1")
        sketch.thread(pid: 20, tid: 1, name: "CrGpuMain")
        sketch.committed(pid: 10, at: 0)
        return sketch
    }

    @Test(
        "Frames dropped while the main thread is still in an earlier frame's BeginMainFrame are commit hitches held by that frame, named by its style work"
    )
    func longMainStage() throws {
        var sketch = Self.renderer()
        for sequence in Int64(1)...4 { sketch.presented(pid: 10, sequence: sequence) }
        // Frame 5's main stage runs past frame 8's deadline (9 P); frames 6-8 are dropped meanwhile.
        sketch.frame(
            pid: 10, sequence: 5, state: "STATE_PRESENTED_ALL",
            stages: [
                ("BeginImplFrameToSendBeginMainFrame", 0, 200), ("SendBeginMainFrameToCommit", 200, 66_000),
                ("Commit", 66_200, 100), ("SubmitCompositorFrameToPresentationCompositorFrame", 66_400, 3_000),
            ])
        for sequence in Int64(6)...8 { sketch.dropped(pid: 10, sequence: sequence) }
        sketch.presented(pid: 10, sequence: 9)
        // The main thread: one task holding a 30 ms style recalculation and 20 ms of script.
        sketch.span("RunTask", pid: 10, tid: 1, start: 5 * Self.p + 200, duration: 65_000)
        sketch.span("UpdateLayoutTree", pid: 10, tid: 1, start: 5 * Self.p + 300, duration: 30_000)
        sketch.span("FunctionCall", pid: 10, tid: 1, start: 5 * Self.p + 31_000, duration: 20_000)
        let report = try Self.analyze(sketch)
        let dropped = report.frames.filter { $0.outcome == .dropped }
        #expect(dropped.map(\.vsync) == [6, 7, 8].map { $0 * Self.p * Self.us })
        let holder = try #require(report.frames.firstIndex { $0.vsync == 5 * Self.p * Self.us })
        for frame in dropped {
            let hold = try #require(frame.hitchHold)
            #expect(frame.hitchCause == .commit)
            #expect(
                hold.lane == .main && hold.stage == "SendBeginMainFrameToCommit" && hold.frame == holder
                    && hold.wasPending)
            #expect(hold.start == (5 * Self.p + 200) * Self.us && hold.end == (5 * Self.p + 66_200) * Self.us)
            #expect(hold.work.first == FrameReport.Contributor(name: "style", nanoseconds: 30_000 * Self.us))
            #expect(
                hold.work.dropFirst().first == FrameReport.Contributor(name: "script", nanoseconds: 20_000 * Self.us))
            #expect(hold.spans.first?.name == "UpdateLayoutTree")
            #expect(frame.causePhrase == "commit, held by #\(holder)")
        }
        // All hitch time is the main lane's: none on the compositor.
        #expect(report.summary.hitchNanosecondsByCause.keys.sorted() == [.commit])
        let table = try #require(report.holdsTable)
        #expect(table.rows.count == 1)
        #expect(table.rows[0][0] == "commit" && table.rows[0][1] == "3: #\(holder + 1)-#\(holder + 3)")
        #expect(table.rows[0][4].hasPrefix("SendBeginMainFrameToCommit of #\(holder): style 30.00 ms, script 20.00 ms"))
    }

    @Test("A long main-thread task with no main stage pending holds the frame as a commit hitch of no frame")
    func longTask() throws {
        var sketch = Self.renderer()
        for sequence in Int64(1)...4 { sketch.presented(pid: 10, sequence: sequence) }
        sketch.dropped(pid: 10, sequence: 5)
        sketch.presented(pid: 10, sequence: 6)
        sketch.span("RunTask", pid: 10, tid: 1, start: 5 * Self.p - 10_000, duration: 40_000)
        sketch.span("EvaluateScript", pid: 10, tid: 1, start: 5 * Self.p - 9_000, duration: 38_000)
        let frame = try #require(try Self.analyze(sketch).frames.first { $0.outcome == .dropped })
        let hold = try #require(frame.hitchHold)
        #expect(hold.lane == .main && hold.stage == "RunTask" && hold.frame == nil)
        #expect(hold.start == (5 * Self.p - 10_000) * Self.us && hold.end == (5 * Self.p + 30_000) * Self.us)
        #expect(hold.work.first?.name == "script" && hold.spans.first?.name == "EvaluateScript")
    }

    @Test(
        "A frame dropped while an earlier frame's activation is pending is a raster hitch named by the raster workers' work"
    )
    func slowRaster() throws {
        var sketch = Self.renderer()
        for sequence in Int64(1)...4 { sketch.presented(pid: 10, sequence: sequence) }
        sketch.frame(
            pid: 10, sequence: 5, state: "STATE_PRESENTED_ALL",
            stages: [
                ("BeginImplFrameToSendBeginMainFrame", 0, 200), ("SendBeginMainFrameToCommit", 200, 3_000),
                ("Commit", 3_200, 200),
                ("EndCommitToActivation", 3_400, 30_000), ("Activation", 33_400, 100),
            ])
        sketch.dropped(pid: 10, sequence: 6)
        sketch.presented(pid: 10, sequence: 7)
        sketch.span("RasterTask", pid: 10, tid: 3, start: 5 * Self.p + 4_000, duration: 25_000)
        let report = try Self.analyze(sketch)
        let frame = try #require(report.frames.first { $0.outcome == .dropped })
        let hold = try #require(frame.hitchHold)
        #expect(frame.hitchCause == .raster && hold.stage == "EndCommitToActivation" && hold.frame == frame.index - 1)
        #expect(hold.work == [FrameReport.Contributor(name: "raster", nanoseconds: 25_000 * Self.us)])
        #expect(hold.spans.first?.name == "RasterTask")
    }

    @Test(
        "A frame dropped while the GPU still presents an earlier frame is a gpu hitch named by the GPU process's work")
    func slowGPU() throws {
        var sketch = Self.renderer()
        for sequence in Int64(1)...4 { sketch.presented(pid: 10, sequence: sequence) }
        sketch.frame(
            pid: 10, sequence: 5, state: "STATE_PRESENTED_ALL",
            stages: [
                ("BeginImplFrameToSendBeginMainFrame", 0, 200), ("SendBeginMainFrameToCommit", 200, 3_000),
                ("SubmitCompositorFrameToPresentationCompositorFrame", 3_400, 50_000),
            ])
        sketch.dropped(pid: 10, sequence: 6)
        sketch.dropped(pid: 10, sequence: 7)
        sketch.presented(pid: 10, sequence: 8)
        sketch.span("GPUTask", pid: 20, tid: 1, start: 5 * Self.p + 3_500, duration: 39_000)
        let report = try Self.analyze(sketch)
        let dropped = report.frames.filter { $0.outcome == .dropped }
        #expect(dropped.count == 2)
        for frame in dropped {
            let hold = try #require(frame.hitchHold)
            #expect(frame.hitchCause == .gpu && hold.stage == "SubmitCompositorFrameToPresentationCompositorFrame")
            #expect(hold.frame == report.frames.firstIndex { $0.vsync == 5 * Self.p * Self.us })
            #expect(hold.spans.first == FrameReport.Contributor(name: "GPUTask", nanoseconds: 39_000 * Self.us))
        }
    }

    @Test(
        "A compositor slow by itself while main is idle: nothing pending at the deadline, the frame's own overrunning stage names it"
    )
    func slowCompositor() throws {
        var sketch = Self.renderer()
        for sequence in Int64(1)...4 { sketch.presented(pid: 10, sequence: sequence) }
        // Its own first stage runs 30 ms (typical: 0.5 ms); nothing else runs.
        sketch.dropped(pid: 10, sequence: 5, waited: 30_000)
        sketch.span("ProxyImpl::ScheduledActionDraw", pid: 10, tid: 2, start: 5 * Self.p + 100, duration: 29_000)
        let frame = try #require(try Self.analyze(sketch).frames.first { $0.outcome == .dropped })
        let hold = try #require(frame.hitchHold)
        #expect(frame.hitchCause == .compositor && hold.stage == "BeginImplFrameToSendBeginMainFrame")
        #expect(hold.frame == frame.index && !hold.wasPending)
        #expect(hold.spans.first?.name == "ProxyImpl::ScheduledActionDraw")
        #expect(frame.causePhrase == "compositor")
    }

    @Test(
        "The page's renderer is the one FrameCommittedInBrowser names, not the busiest; the other is listed and --process picks it"
    )
    func pageRenderer() throws {
        var sketch = Self.renderer()
        sketch.thread(pid: 30, tid: 1, name: "CrRendererMain")
        // The page (pid 10): 3 frames, little work. An out-of-process iframe (pid 30): 6 frames, 1 dropped, busy.
        for sequence in Int64(1)...3 { sketch.presented(pid: 10, sequence: sequence) }
        for sequence in Int64(1)...5 { sketch.presented(pid: 30, sequence: sequence) }
        sketch.dropped(pid: 30, sequence: 6)
        sketch.span("RunTask", pid: 10, tid: 1, start: 1_000, duration: 1_000)
        sketch.span("RunTask", pid: 30, tid: 1, start: 1_000, duration: 50_000)
        // The iframe's commit has a parent: not the main frame.
        sketch.committed(pid: 30, at: 500, parent: "P")
        let report = try Self.analyze(sketch)
        #expect(report.method.mainThread == ThreadKey(processID: 10, threadID: 1))
        #expect(report.method.mainThreadRule == .pageRenderer)
        #expect(report.summary.frameCount == 3)
        #expect(
            report.method.otherRenderers == [FrameReport.RendererFrames(processID: 30, frames: 6, droppedFrames: 1)])
        #expect(report.tables()[0].rows.contains { $0[1].hasPrefix("pid 30: 6 frames, 1 dropped (--process 30)") })

        let iframe = try Self.analyze(sketch, processID: 30)
        #expect(
            iframe.method.mainThread == ThreadKey(processID: 30, threadID: 1)
                && iframe.method.mainThreadRule == .process)
        #expect(iframe.summary.frameCount == 6 && iframe.summary.droppedFrames == 1)
        #expect(
            iframe.method.otherRenderers == [FrameReport.RendererFrames(processID: 10, frames: 3, droppedFrames: 0)])
    }

    @Test(
        "TracingStartedInBrowser's list of frames names the page's renderer when nothing commits; a later main-frame commit moves it"
    )
    func pageRendererFromTracingStarted() throws {
        var sketch = Self.renderer()
        sketch.thread(pid: 30, tid: 1, name: "CrRendererMain")
        for sequence in Int64(1)...3 { sketch.presented(pid: 10, sequence: sequence) }
        for sequence in Int64(1)...5 { sketch.presented(pid: 30, sequence: sequence) }
        sketch.span("RunTask", pid: 10, tid: 1, start: 1_000, duration: 1_000)
        sketch.span("RunTask", pid: 30, tid: 1, start: 1_000, duration: 50_000)
        // The iframe (pid 30) is listed first, with its parent; the main frame (pid 10) has none.
        sketch.tracingStarted(at: 100, frames: [(pid: 30, parent: "F1"), (pid: 10, parent: nil)])
        let report = try Self.analyze(sketch)
        #expect(report.method.mainThread == ThreadKey(processID: 10, threadID: 1))
        #expect(report.method.mainThreadRule == .pageRenderer && report.summary.frameCount == 3)

        // A navigation commits the main frame in pid 30 after recording started: the later event wins.
        sketch.committed(pid: 30, at: 200)
        let navigated = try Self.analyze(sketch)
        #expect(
            navigated.method.mainThread == ThreadKey(processID: 30, threadID: 1)
                && navigated.method.mainThreadRule == .pageRenderer)
    }

    @Test(
        "Without TracingStartedInBrowser or FrameCommittedInBrowser the busiest CrRendererMain is analysed, and the rule says so"
    )
    func busiestRenderer() throws {
        var sketch = ChromeSketch()
        sketch.thread(pid: 10, tid: 1, name: "CrRendererMain")
        sketch.thread(pid: 30, tid: 1, name: "CrRendererMain")
        sketch.presented(pid: 10, sequence: 1)
        sketch.span("RunTask", pid: 10, tid: 1, start: 1_000, duration: 1_000)
        sketch.span("RunTask", pid: 30, tid: 1, start: 1_000, duration: 5_000)
        let report = try Self.analyze(sketch)
        #expect(report.method.mainThread?.processID == 30 && report.method.mainThreadRule == .busiestRenderer)
    }

    @Test(
        "A partially presented frame that does not affect smoothness counts as presented; Chrome's DroppedFrame count is kept beside"
    )
    func smoothness() throws {
        var sketch = Self.renderer()
        sketch.presented(pid: 10, sequence: 1)
        sketch.frame(
            pid: 10, sequence: 2, state: "STATE_PRESENTED_PARTIAL", smooth: false,
            stages: [("BeginImplFrameToSendBeginMainFrame", 0, 500)])
        sketch.frame(
            pid: 10, sequence: 3, state: "STATE_PRESENTED_PARTIAL", smooth: true,
            stages: [("BeginImplFrameToSendBeginMainFrame", 0, 500)])
        sketch.frame(
            pid: 10, sequence: 4, state: "STATE_DROPPED", smooth: true,
            stages: [("BeginImplFrameToSendBeginMainFrame", 0, 500)])
        sketch.frame(
            pid: 10, sequence: 5, state: "STATE_DROPPED", smooth: false,
            stages: [("BeginImplFrameToSendBeginMainFrame", 0, 500)])
        sketch.events.append(
            #"{"ph":"I","s":"t","name":"DroppedFrame","cat":"disabled-by-default-devtools.timeline.frame","pid":10,"tid":2,"ts":64000,"args":{"frameSeqId":4,"layerTreeId":1}}"#
        )
        let report = try Self.analyze(sketch)
        #expect(report.frames.map(\.outcome) == [.presented, .presented, .partial, .dropped, .dropped])
        #expect(report.summary.partialFrames == 1 && report.summary.droppedFrames == 2)
        #expect(report.summary.droppedFramesAffectingSmoothness == 1 && report.summary.chromeDroppedFrameEvents == 1)
        guard case .chromeReporters(_, _, _, let partial) = report.method.frameSourceDetail else {
            Issue.record("frames from PipelineReporter states, not \(report.method.frameSourceDetail)")
            return
        }
        #expect(partial == 1)
        #expect(
            report.method.frameSourceDetail.description.contains(
                "1 partially presented frame that does not affect smoothness, counted as presented"))
    }

    @Test(
        "The table of holds shows the five that held the most frames, longest first among equals, in time order, and counts the rest"
    )
    func holdRowLimit() throws {
        // Eight frames of framescope's own, each late by its own main-thread work: 20, 21, ..., 27 ms.
        var events = [#"{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}}"#]
        for index in 0..<8 {
            let start = index * 40_000
            events.append(
                #"{"ph":"X","name":"frame","cat":"frame","pid":1,"tid":1,"ts":\#(start),"dur":\#(20_000 + index * 1_000)}"#
            )
        }
        // A ninth frame, the longest, comes last.
        events.append(#"{"ph":"X","name":"frame","cat":"frame","pid":1,"tid":1,"ts":400000,"dur":30000}"#)
        let text = #"{"traceEvents":["# + events.joined(separator: ",") + "]}"
        let report = FrameAnalyzer.analyze(try TraceReader.read(bytes: Array(text.utf8)))
        #expect(report.frames.filter { $0.hitchHold != nil }.count == 9)
        let table = try #require(report.holdsTable)
        #expect(table.rows.count == FrameReport.holdRowLimit + 1)
        // The five longest: frames 4, 5, 6, 7 (24-27 ms) and 8 (30 ms), in time order.
        #expect(table.rows.prefix(5).map { $0[1] } == ["#4", "#5", "#6", "#7", "#8"])
        #expect(table.rows.prefix(5).map { $0[3] } == ["24.00 ms", "25.00 ms", "26.00 ms", "27.00 ms", "30.00 ms"])
        #expect(table.rows[5][4].hasPrefix("4 more holds, none holding more frames or for longer"))
    }
}
