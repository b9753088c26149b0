import Foundation
import Testing
@testable import FrameAnalysis
import FrameTrace

@Suite("Text tables fit a terminal")
struct ReportWidthTests {
    /// A trace whose category and span names are far longer than a terminal line, like Chrome's.
    /// (Not DevTools' timeline categories: a trace with those is Chrome's, and reports work kinds.)
    static let longCategory = "disabled-by-default-cc.debug,disabled-by-default-cc.debug.scheduler.frames,toplevel"

    static func longNames() -> TraceSketch {
        var sketch = TraceSketch()
        let category = longCategory
        for frame in 0..<4 {
            let start = Double(frame) * 20
            sketch.span("RunTask::ThreadControllerImpl::DoWork with a very long scheduling name", category, from: start, to: start + 25)
        }
        return sketch
    }

    @Test("Every line of the default text report fits 100 columns; --wide keeps whole names")
    func reportFits() throws {
        let report = FrameAnalyzer.analyze(Self.longNames().trace)
        let narrow = report.text(source: "long.json")
        let tooLong = narrow.split(separator: "\n").filter { $0.count > FrameReport.terminalWidth }
        #expect(tooLong.isEmpty, "\(tooLong)")
        #expect(narrow.contains("disabled-by-default-cc.deb"))
        #expect(narrow.contains("…"))
        let wide = report.text(source: "long.json", wide: true)
        #expect(wide.contains(Self.longCategory))
        #expect(wide.split(separator: "\n").contains { $0.count > FrameReport.terminalWidth })
    }

    @Test("The last column wraps at spaces instead of being cut")
    func lastColumnWraps() {
        var table = ReportTable(title: "t", columns: [("key", .left), ("note", .left)])
        table.rows = [["a", "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"]]
        let text = table.text(maxWidth: 40)
        #expect(text == """
            t
              key  note
              a    one two three four five six seven
                   eight nine ten eleven twelve
                   thirteen fourteen

            """)
    }

    @Test("Two-line headings stand on their last lines; Markdown joins them")
    func twoLineHeadings() {
        var table = ReportTable(title: "t", columns: [("name", .left), ("hitch\nms/s", .right)])
        table.rows = [["feed", "126.3"]]
        #expect(table.text() == "t\n        hitch\n  name   ms/s\n  feed  126.3\n")
        #expect(table.markdown().contains("| name | hitch ms/s |"))
    }

    @Test("The compact demo table fits 100 columns with the longest strategy names; wide keeps every column")
    func demoTableFits() throws {
        var sketch = TraceSketch()
        sketch.span("frame", "frame", from: 0, to: 40)
        sketch.span("decode", "corner-rounding", from: 1, to: 39)
        let report = FrameAnalyzer.analyze(sketch.trace)
        let runs = [("paper-transition", "specs-background+decode-main", report), ("corner-rounding", "prerendered-transparent", report)]
        let compact = RunComparisonTable.make(title: "demo", runs: runs, wide: false)
        #expect(compact.columns.map(\.name) == [
            "scenario", "strategy", "hitch\nms/s", "hitch\ncause", "main\np95 ms", "render\np95 ms", "input\np95 ms",
        ])
        #expect(compact.rows[0][3] == "commit", "the 40 ms frame is a commit hitch")
        #expect(compact.rows[0][5] == "-", "no render lane in this trace")
        let text = compact.text(maxWidth: FrameReport.terminalWidth)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= FrameReport.terminalWidth })
        #expect(text.contains("specs-background+decode-main"), "the longest strategy name is not cut")
        let wide = RunComparisonTable.make(title: "demo", runs: runs, wide: true)
        #expect(wide.columns.count == 18)
    }
}
