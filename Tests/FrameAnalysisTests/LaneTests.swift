import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

/// Frames with lanes, built by hand in milliseconds at 10 ms per frame so every figure can be
/// worked out on paper: frame k has its vsync at 10·k ms and its commit deadline 10 ms later.
private struct LaneSketch {
    var sketch = TraceSketch(metadataMain: true, interval: ms(10))
    let render = ThreadKey(processID: 1, threadID: 3)

    init() {
        sketch.trace.setThread(TraceThread(key: render, name: "render-server-1", sortIndex: 2))
    }

    /// A frame span whose work runs from `start` to `end` ms (absolute), on the vsync grid.
    mutating func frame(_ index: Int, vsync: Double? = nil, workFrom start: Double, to end: Double) {
        let vsync = vsync ?? Double(index) * 10
        sketch.span(
            "frame", FrameContract.frameCategory, from: start, to: end,
            arguments: [
                Argument(FrameContract.Key.index, .int(Int64(index))),
                Argument(FrameContract.Key.sinceVsync, .int(ms(start - vsync))),
                Argument(FrameContract.Key.budget, .int(ms(10))),
            ])
    }

    /// Render work for frame `index` on the render server; its deadline is `deadline` ms.
    mutating func render(_ index: Int, from start: Double, to end: Double, deadline: Double, present: Double) {
        sketch.span(
            "composite", FrameContract.renderCategory, from: start, to: end, on: render,
            arguments: [
                Argument(FrameContract.Key.renderedFrame, .int(Int64(index))),
                Argument(FrameContract.Key.untilDeadline, .int(ms(deadline - start))),
                Argument(FrameContract.Key.untilPresent, .int(ms(present - end))),
            ])
    }
}

@Suite("Frame lanes and hitch causes")
struct LaneTests {
    /// Four frames; each renders 1 ms after its commit, due one interval after its commit
    /// deadline, presented at the vsync after that.
    private func onTime() -> LaneSketch {
        var lanes = LaneSketch()
        for index in 0..<4 {
            let vsync = Double(index) * 10
            lanes.frame(index, workFrom: vsync, to: vsync + 2)
            lanes.render(index, from: vsync + 2, to: vsync + 3, deadline: vsync + 20, present: vsync + 20)
        }
        return lanes
    }

    @Test("A commit that ends past its deadline is a commit hitch")
    func commitLateOnly() throws {
        var lanes = LaneSketch()
        lanes.frame(0, workFrom: 0, to: 2)
        lanes.render(0, from: 2, to: 3, deadline: 20, present: 20)
        lanes.frame(1, workFrom: 10, to: 24)  // commit 4 ms late
        lanes.render(1, from: 24, to: 25, deadline: 40, present: 40)
        lanes.frame(2, vsync: 30, workFrom: 30, to: 32)
        lanes.render(2, from: 32, to: 33, deadline: 50, present: 50)
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        #expect(report.frames.map(\.hitchCause) == [.none, .commit, .none])
        #expect(report.frames[1].overrun == ms(4))
        #expect(report.summary.hitchNanoseconds == ms(4))
        #expect(report.summary.hitchNanosecondsByCause == [.commit: ms(4)])
        let render = try #require(report.frames[1].lane(.render))
        #expect(render.deadline == ms(40) && render.end == ms(25) && render.costNanoseconds == ms(1))
    }

    @Test("Render work that ends past the render deadline is a render hitch, though the commit was on time")
    func renderLateOnly() throws {
        var lanes = onTime()
        // Frame 4 commits on time at 42 ms, but its render runs 42-63 ms, 3 ms past its 60 ms deadline.
        lanes.frame(4, workFrom: 40, to: 42)
        lanes.render(4, from: 42, to: 63, deadline: 60, present: 70)
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        let frame = report.frames[4]
        #expect(frame.commitOverrun < 0, "the commit was on time")
        #expect(frame.hitchCause == .render)
        #expect(frame.overrun == ms(3))
        #expect(frame.presentation == ms(70))
        #expect(report.frames.prefix(4).allSatisfy { $0.hitchCause == .none })
        #expect(report.summary.lateFrames == 1)
        #expect(report.summary.hitchNanosecondsByCause == [.render: ms(3)])
        #expect(report.summary.hitchNanoseconds <= report.summary.measuredNanoseconds)
        let renderLane = try #require(report.lanes.first { $0.lane == .render })
        #expect(renderLane.lateFrames == 1)
        #expect(renderLane.cost?.max == ms(21))
        #expect(renderLane.cost?.p50 == ms(1))
        #expect(renderLane.categories.map(\.name) == [FrameContract.renderCategory])
    }

    @Test("When both lanes are late, the commit missed first")
    func bothLateIsCommit() throws {
        var lanes = LaneSketch()
        lanes.frame(0, workFrom: 0, to: 13)  // 3 ms late
        lanes.render(0, from: 13, to: 35, deadline: 30, present: 40)  // and 5 ms late
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        #expect(report.frames[0].hitchCause == .commit)
        #expect(report.frames[0].overrun == ms(5), "late by the lane that was latest")
        #expect(report.summary.hitchNanosecondsByCause == [.commit: ms(5)])
    }

    @Test("Hitch time splits by cause and the parts add up to the whole")
    func hitchSplitsByCause() {
        var lanes = onTime()
        lanes.frame(4, workFrom: 40, to: 56)  // commit 6 ms late
        lanes.render(4, from: 56, to: 57, deadline: 70, present: 70)
        lanes.frame(5, vsync: 60, workFrom: 60, to: 62)
        lanes.render(5, from: 62, to: 82, deadline: 80, present: 90)  // render 2 ms late
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        #expect(report.summary.hitchNanosecondsByCause == [.commit: ms(6), .render: ms(2)])
        #expect(report.summary.hitchNanosecondsByCause.values.reduce(0, +) == report.summary.hitchNanoseconds)
    }

    @Test("A background job requested in frame 3 and applied in frame 5 feeds frame 5 with a latency of 2 frames")
    func deliveryLatency() throws {
        var lanes = onTime()
        lanes.frame(4, workFrom: 40, to: 42)
        lanes.frame(5, workFrom: 50, to: 52)
        // Requested at 31 ms (frame 3's window), run 35-47 ms on a worker, applied at 50.5 ms.
        let worker = lanes.sketch.worker
        lanes.sketch.span(
            "decode", "image-decode", from: 35, to: 47, on: worker,
            arguments: [
                Argument(FrameContract.Key.sinceRequest, .int(ms(4)))
            ])
        lanes.sketch.trace.append(
            .flowStart, name: "background result", category: "image-decode", thread: worker, timestamp: ms(46.9), id: 7)
        lanes.sketch.span("apply", "image-decode", from: 50.5, to: 50.7)
        lanes.sketch.trace.append(
            .flowEnd, name: "background result", category: "image-decode", thread: lanes.sketch.main,
            timestamp: ms(50.5), id: 7, bindingPoint: .enclosing)
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        let feed = try #require(report.frames[5].feed)
        #expect(feed.jobs == 1)
        #expect(feed.costNanoseconds == ms(12))
        #expect(feed.latencyFrames == [2])
        #expect(feed.byCategory == ["image-decode": ms(12)])
        #expect(report.frames[5].lane(.background)?.costNanoseconds == ms(12))
        #expect(report.frames.enumerated().allSatisfy { $0.offset == 5 || $0.element.feed == nil })
        let background = try #require(report.lanes.first { $0.lane == .background })
        #expect(background.jobs == 1)
        #expect(background.deliveryLatencyFrames?.max == 2)
        #expect(background.framesWithWork == 1)
        #expect(background.cost?.p50 == 0, "frames that applied nothing count 0")
        // The text lanes table: the job count on the background row, the delivery latency on a
        // row of its own under the percentile columns, each one line within 100 columns.
        let lines = report.text(source: "lanes.json").split(separator: "\n")
        let backgroundRow = try #require(
            lines.first { $0.hasPrefix("  background ") && !$0.contains("per frame interval") })
        #expect(backgroundRow.hasSuffix("1 job"))
        let deliveryRow = try #require(lines.first { $0.hasPrefix("    delivery ") })
        #expect(
            deliveryRow.split(separator: " ").filter { !$0.isEmpty }.prefix(8) == [
                "delivery", "-", "2", "frames", "2", "frames", "2", "frames",
            ])
        #expect(deliveryRow.hasSuffix("latency from request to apply"))
        #expect(lines.allSatisfy { $0.count <= FrameReport.terminalWidth })
    }

    @Test("Without a stated render deadline, render work is due one interval after the commit deadline")
    func defaultRenderDeadline() throws {
        var lanes = LaneSketch()
        lanes.frame(0, workFrom: 0, to: 2)
        lanes.sketch.span(
            "composite", FrameContract.renderCategory, from: 2, to: 25, on: lanes.render,
            arguments: [
                Argument(FrameContract.Key.renderedFrame, .int(0))
            ])
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        let render = try #require(report.frames[0].lane(.render))
        #expect(render.deadline == ms(20))
        #expect(report.frames[0].hitchCause == .render)
        #expect(report.frames[0].overrun == ms(5))
    }

    @Test("Traces without render or background lanes keep only the main lane, and on-time frames have no cause")
    func mainLaneOnly() {
        var sketch = TraceSketch(metadataMain: true, interval: ms(10))
        sketch.span("frame", FrameContract.frameCategory, from: 0, to: 4)
        sketch.span("frame", FrameContract.frameCategory, from: 10, to: 12)
        let report = FrameAnalyzer.analyze(sketch.trace)
        #expect(report.lanes.map(\.lane) == [.main])
        #expect(report.frames.allSatisfy { $0.lanes.map(\.lane) == [.main] && $0.hitchCause == .none })
        #expect(report.lanes[0].cost?.max == ms(4))
    }

    @Test("Budgets hold lanes: render cost per frame, hitch time by cause, background delivery latency")
    func laneBudgetRules() throws {
        var lanes = onTime()
        lanes.frame(4, workFrom: 40, to: 42)
        lanes.render(4, from: 42, to: 63, deadline: 60, present: 70)
        let report = FrameAnalyzer.analyze(lanes.sketch.trace)
        let budget = try Budget.parse(
            #"""
            {"version": 1, "limits": {"lane-ms": {"render": {"max": 20, "p50": 1}}, "hitch-time-ratio-by-cause": {"render": 1, "commit": 0},
             "delivery-latency-frames": {"p95": 3}}}
            """#)
        let results = BudgetCheck.evaluate(report: report, traceName: "t.json", budget: budget)
        let verdicts = Dictionary(uniqueKeysWithValues: results.map { ($0.id, $0.verdict) })
        #expect(verdicts["lane-ms.render.max"] == .fail, "the 21 ms render is over 20 ms")
        #expect(verdicts["lane-ms.render.p50"] == .nearLimit, "a limit met exactly passes, near its limit")
        #expect(verdicts["hitch-time-ratio-by-cause.commit"] == .pass, "no commit hitch: 0 ms/s")
        #expect(verdicts["hitch-time-ratio-by-cause.render"] == .fail)
        #expect(verdicts["delivery-latency-frames.p95"] == .fail, "no background job: nothing to measure is no pass")
        let render = try #require(results.first { $0.id == "hitch-time-ratio-by-cause.render" })
        let measured = try #require(render.measured)
        #expect(abs(measured - 3.0 / (Double(report.summary.measuredNanoseconds) / 1e9)) < 1e-9)
        #expect(throws: BudgetError.self) {
            try Budget.parse(#"{"version": 1, "limits": {"lane-ms": {"rendr": {"p95": 1}}}}"#)
        }
        #expect(throws: BudgetError.self) {
            try Budget.parse(#"{"version": 1, "limits": {"hitch-time-ratio-by-cause": {"none": 1}}}"#)
        }
    }

    /// On-time frames, one render hitch and one applied background job: every lane in one trace.
    private func everyLane() -> FrameReport {
        var lanes = onTime()
        lanes.frame(4, workFrom: 40, to: 42)
        lanes.render(4, from: 42, to: 63, deadline: 60, present: 70)
        lanes.frame(5, vsync: 70, workFrom: 70, to: 72)
        let worker = lanes.sketch.worker
        lanes.sketch.span(
            "decode", "image-decode", from: 35, to: 47, on: worker,
            arguments: [Argument(FrameContract.Key.sinceRequest, .int(ms(4)))])
        lanes.sketch.trace.append(
            .flowStart, name: "result", category: "image-decode", thread: worker, timestamp: ms(46.9), id: 1)
        lanes.sketch.span("apply", "image-decode", from: 70.5, to: 70.7)
        lanes.sketch.trace.append(
            .flowEnd, name: "result", category: "image-decode", thread: lanes.sketch.main, timestamp: ms(70.5), id: 1)
        return FrameAnalyzer.analyze(lanes.sketch.trace)
    }

    @Test("JSON version 4 carries each frame's lanes, cause and feed, hitch time by cause and lane costs")
    func jsonLanes() throws {
        let report = everyLane()
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.jsonValue(source: "t.json").description.utf8))
                as? [String: Any])
        #expect(object["version"] as? Int == 4)
        let frames = try #require(object["frames"] as? [[String: Any]])
        let late = frames[4]
        #expect(late["hitch-cause"] as? String == "render")
        let lanes = try #require(late["lanes"] as? [String: [String: Any]])
        #expect(lanes["render"]?["cost-ns"] as? Int64 == ms(21))
        #expect(lanes["render"]?["deadline-ns"] as? Int64 == ms(60))
        #expect(lanes["render"]?["end-ns"] as? Int64 == ms(63))
        #expect(lanes["main"]?["deadline-ns"] as? Int64 == ms(50))
        #expect(late["presented-ns"] as? Int64 == ms(70))
        #expect(frames[0]["hitch-cause"] as? String == "none")
        let feed = try #require(frames[5]["background-feed"] as? [String: Any])
        #expect(feed["jobs"] as? Int == 1 && feed["latency-frames"] as? [Int] == [2])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["hitch-ns-by-cause"] as? [String: Int64] == ["render": ms(3)])
        let laneCost = try #require(summary["lane-cost-ns"] as? [String: [String: Any]])
        #expect(Set(laneCost.keys) == ["main", "render", "background"])
        #expect(laneCost["render"]?["max"] as? Int64 == ms(21))
        let laneFigures = try #require(object["lanes"] as? [[String: Any]])
        #expect(laneFigures.map { $0["lane"] as? String } == ["main", "render", "background"])
        #expect((laneFigures[2]["delivery-latency-frames"] as? [String: Any])?["max"] as? Int == 2)
    }

    @Test("Frame rows carry hitch_cause, render_ms and background_ms")
    func rowsLanes() throws {
        let report = everyLane()
        var lines: [String] = []
        FrameRows.write(report, trace: "t.json", labels: [], metadata: TraceMetadata(), format: .csv) {
            lines.append($0)
        }
        let header = lines[0].dropLast().split(separator: ",").map(String.init)
        let row = lines[5].dropLast().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let cell = { (name: String) in row[header.firstIndex(of: name)!] }
        #expect(cell("hitch_cause") == "render")
        #expect(cell("render_ms") == "21.000000")
        #expect(cell("background_ms") == "0.000000")
        var json: [String] = []
        FrameRows.write(report, trace: "t.json", labels: [], metadata: TraceMetadata(), format: .jsonLines) {
            json.append($0)
        }
        let fed = try #require(try JSONSerialization.jsonObject(with: Data(json[5].utf8)) as? [String: Any])
        #expect(fed["background_ms"] as? Double == 12 && fed["hitch_cause"] as? String == "none")
        // A trace without a render lane leaves the column empty rather than claiming 0 ms.
        var sketch = TraceSketch(metadataMain: true, interval: ms(10))
        sketch.span("frame", FrameContract.frameCategory, from: 0, to: 4)
        var plain: [String] = []
        FrameRows.write(
            FrameAnalyzer.analyze(sketch.trace), trace: "p.json", labels: [], metadata: TraceMetadata(),
            format: .jsonLines
        ) { plain.append($0) }
        #expect(plain[0].contains("\"render_ms\":null") && plain[0].contains("\"background_ms\":null"))
    }

    @Test("The HTML report has a lane row element per lane and worker, and the text report a lanes table")
    func htmlAndTextLanes() {
        let report = everyLane()
        let html = report.html(source: "t.json")
        #expect(html.contains("<div class=\"lane-row\" data-lane=\"main\">"))
        #expect(html.contains("<div class=\"lane-row\" data-lane=\"render\">"))
        #expect(html.contains("data-lane=\"background\" data-thread=\"worker-1\""))
        let text = report.text(source: "t.json")
        #expect(text.contains("Lanes (cost per frame"))
        // (p50 is one column wider than "1.00 ms": the delivery row below background says "2 frames".)
        #expect(text.contains("\n  render         5   1.00 ms  21.00 ms  21.00 ms     1  3.00 ms"))
        #expect(
            text.contains(
                "\n    delivery     -  2 frames  2 frames  2 frames     -        -  latency from request to apply"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= FrameReport.terminalWidth })
    }
}
