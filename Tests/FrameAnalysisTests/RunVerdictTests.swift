import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Demo verdicts")
struct RunVerdictTests {
    /// A report of `frames` frame spans at 10 ms whose main-thread work lasts `work` ms each.
    static func report(work: Double, frames: Int = 12) -> FrameReport {
        var sketch = TraceSketch(metadataMain: true, interval: ms(10))
        for index in 0..<frames {
            let vsync = Double(index) * 20
            sketch.span("frame", FrameContract.frameCategory, from: vsync, to: vsync + work)
        }
        return FrameAnalyzer.analyze(sketch.trace)
    }

    @Test("The verdict names the winner, the lane, both figures and the ratio")
    func winnerLaneAndRatio() throws {
        let verdicts = RunComparisonTable.verdicts(runs: [
            ("list", "reload", Self.report(work: 8)), ("list", "diff", Self.report(work: 2)),
        ])
        let verdict = try #require(verdicts.first)
        #expect(verdicts.count == 1 && verdict.scenario == "list")
        guard case .separated(let best, let tieBreak) = verdict.outcome else {
            Issue.record("no separation: \(verdict)")
            return
        }
        #expect(best.figure == .mainP95 && best.winners == ["diff"] && best.loser == "reload")
        #expect(abs(best.best - 2) < 1e-9 && abs(best.worst - 8) < 1e-9 && abs((best.ratio ?? 0) - 4) < 1e-9)
        #expect(tieBreak == nil)
        #expect(
            verdict.description
                == "list: diff wins in the main lane: main p95 2.00 ms against 8.00 ms for reload (4.0× less).")
    }

    @Test("Strategies that tie are named together, then separated by the next figure")
    func tiesAreSeparatedByTheNextFigure() {
        let verdicts = RunComparisonTable.verdicts(runs: [
            ("feed", "a", Self.report(work: 4)), ("feed", "b", Self.report(work: 1)),
            ("feed", "slow", Self.report(work: 15)),
        ])
        #expect(verdicts.count == 1)
        guard case .separated(let best, let tieBreak)? = verdicts.first?.outcome else {
            Issue.record("no separation: \(verdicts)")
            return
        }
        // "slow" is late by 5 ms in each of 12 frames over 235 ms measured: 255.3 ms/s, the others none.
        #expect(best.figure == .hitchTimeRatio && best.winners == ["a", "b"] && best.loser == "slow")
        #expect(
            best.best == 0 && abs(best.worst - 255.3) < 0.05 && best.ratio == nil,
            "no ratio against a best under the floor")
        #expect(tieBreak?.figure == .mainP95 && tieBreak?.winners == ["b"] && tieBreak?.loser == "a")
        #expect(
            verdicts[0].description
                == "feed: a and b win in hitches: hitch time ratio 0.0 ms/s against 255.3 ms/s for slow"
                + "; among those, b in the main lane: main p95 1.00 ms against 4.00 ms for a.")
    }

    @Test("The verdict picks the largest gap against the frame budget, not the largest ratio of two small figures")
    func gapNotRatio() {
        // Render work: 1 ms a frame against 8 ms (a 7 ms gap); main p95: 0.05 ms against 3 ms
        // (a 60× ratio, but a gap under half as large).
        func run(render: Double, main: Double) -> FrameReport {
            var sketch = TraceSketch(metadataMain: true, interval: ms(20))
            let server = ThreadKey(processID: 1, threadID: 3)
            sketch.trace.setThread(TraceThread(key: server, name: "render-server-1", sortIndex: 2))
            for index in 0..<12 {
                let vsync = Double(index) * 20
                sketch.span(
                    "frame", FrameContract.frameCategory, from: vsync, to: vsync + (index == 5 ? main : 0.05),
                    arguments: [
                        Argument(FrameContract.Key.index, .int(Int64(index)))
                    ])
                sketch.span(
                    "composite", FrameContract.renderCategory, from: vsync + 4, to: vsync + 4 + render, on: server,
                    arguments: [
                        Argument(FrameContract.Key.renderedFrame, .int(Int64(index)))
                    ])
            }
            return FrameAnalyzer.analyze(sketch.trace)
        }
        let verdicts = RunComparisonTable.verdicts(runs: [
            ("corners", "clip", run(render: 8, main: 0.05)), ("corners", "prerendered", run(render: 1, main: 3)),
        ])
        guard case .separated(let best, _)? = verdicts.first?.outcome else {
            Issue.record("no separation: \(verdicts)")
            return
        }
        #expect(best.figure == .renderP95 && best.winners == ["prerendered"])
        #expect(
            verdicts.map(\.description) == [
                "corners: prerendered wins in the render lane: render p95 1.00 ms against 8.00 ms for clip (8.0× less)."
            ])
    }

    @Test("Tied strategies are not separated by less than a quarter of a frame")
    func noTieBreakWithinATenthOfAFrame() {
        let verdicts = RunComparisonTable.verdicts(runs: [
            ("feed", "a", Self.report(work: 3)), ("feed", "b", Self.report(work: 1)),
            ("feed", "slow", Self.report(work: 15)),
        ])
        guard case .separated(let best, let tieBreak)? = verdicts.first?.outcome else {
            Issue.record("no separation: \(verdicts)")
            return
        }
        #expect(best.winners == ["a", "b"] && tieBreak == nil, "2 ms apart is under a quarter of the 10 ms frame")
        #expect(
            verdicts.map(\.description) == [
                "feed: a and b win in hitches: hitch time ratio 0.0 ms/s against 255.3 ms/s for slow."
            ])
    }

    @Test("Strategies within the noise floor of each other get no winner")
    func noWinnerWithinTheFloor() {
        let verdicts = RunComparisonTable.verdicts(runs: [
            ("s", "x", Self.report(work: 2)), ("s", "y", Self.report(work: 2.05)),
        ])
        #expect(verdicts == [RunVerdict(scenario: "s", outcome: .noDifference)])
        #expect(verdicts.map(\.description) == ["s: no strategy stands out by 0.1 ms or more in any lane."])
    }
}
