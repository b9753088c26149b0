import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Mermaid frame charts")
struct FrameChartTests {
    static func report(frames: Int, late: Int = 7) -> FrameReport {
        var sketch = TraceSketch(interval: ms(10))
        var start = 0.0
        for index in 0..<frames {
            let length = index % late == 0 ? 15.0 : 2.0 + Double(index % 5)
            sketch.span("frame", "frame", from: start, to: start + length)
            start += length > 10 ? 20 : 10
        }
        return FrameAnalyzer.analyze(sketch.trace)
    }

    @Test("A short run charts one bar per frame and the budget as a line")
    func onePointPerFrame() throws {
        let report = Self.report(frames: 12)
        let chart = FrameChart(report: report)
        #expect(chart.points.count == 12 && chart.framesPerPoint == 1)
        let text = chart.mermaid(title: "run \"a\"")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "```mermaid" && lines.last == "```")
        #expect(lines[1] == "xychart-beta")
        // The title's quotes are Mermaid's entity code: no quote can end the string.
        #expect(lines.contains("    title \"run #quot;a#quot;: main-thread ms per frame; line: budget 10.00 ms\""))
        #expect(lines.contains("    x-axis \"frame\" 0 --> 11"))
        let bar = try #require(lines.first { $0.hasPrefix("    bar [") })
        #expect(bar.hasPrefix("    bar [15.00, 3.00, 4.00, 5.00, 6.00, 2.00, 3.00, 15.00,"))
        let line = try #require(lines.first { $0.hasPrefix("    line [") })
        #expect(line.components(separatedBy: "10.00").count - 1 == 12)
    }

    @Test("Many frames are downsampled to at most 200 points, each the largest of its group")
    func downsampled() {
        let report = Self.report(frames: 1_000, late: 50)
        let chart = FrameChart(report: report)
        #expect(chart.points.count <= FrameChart.maximumPoints)
        #expect(chart.framesPerPoint == 5)
        #expect(chart.points.count == 200)
        #expect(chart.points[0] == ms(15), "frame 0 is late and the largest of frames 0-4")
        #expect(chart.points[10] == ms(15), "frame 50 is in group 10")
        #expect(chart.mermaid(title: "t").contains("the largest of each 5 frames"))
    }

    @Test("A report without frames has no chart")
    func empty() {
        #expect(FrameChart(report: FrameAnalyzer.analyze(Trace())).mermaid(title: "t") == "")
    }

    @Test("The Markdown report carries the chart; a check over many long traces stays under 1 MiB")
    func markdownSize() throws {
        let report = Self.report(frames: 12)
        #expect(report.markdown(source: "x").contains("```mermaid\nxychart-beta"))
        let long = Self.report(frames: 5_000, late: 13)
        let budget = try Budget.parse(#"{"version": 1, "limits": {"main-thread-ms": {"p95": 1}}}"#)
        let check = BudgetCheck(
            budgetSource: "b.yml",
            traces: (0..<150).map {
                BudgetCheck.TraceResult(
                    name: "trace-\($0).json", source: "trace-\($0).json", report: long, budget: budget)
            })
        let markdown = check.markdown()
        #expect(markdown.utf8.count < 1 << 20)
        #expect(markdown.components(separatedBy: "```mermaid").count - 1 == BudgetCheck.maximumCharts)
        #expect(markdown.contains("charts for the first \(BudgetCheck.maximumCharts) of 150 traces"))
    }
}
