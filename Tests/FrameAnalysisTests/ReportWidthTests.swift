import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

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
            sketch.span(
                "RunTask::ThreadControllerImpl::DoWork with a very long scheduling name", category, from: start,
                to: start + 25)
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
        #expect(
            text == """
                t
                  key  note
                  a    one two three four five six seven
                       eight nine ten eleven twelve
                       thirteen fourteen

                """)
    }

    @Test(
        "A last column of measured items wraps between items, never inside \"2.79 ms\"; an item too wide alone keeps its figure"
    )
    func itemsWrapWhole() {
        var table = ReportTable(
            title: "Worst frames", columns: [("frame", .right), ("cause", .left), ("top spans", .left)])
        table.rows = [
            ["#3", "commit", "RunTask 2.79 ms, UpdateLayoutTree 1.20 ms, layout cell 0.75 ms"],
            ["#4", "-", "RunTask::ThreadControllerImpl::DoWork with a long name 25.91 ms, Paint 0.10 ms"],
        ]
        // 47 columns leave the last one its narrowest, 30.
        let text = table.text(maxWidth: 47)
        #expect(
            text == """
                Worst frames
                  frame  cause   top spans
                     #3  commit  RunTask 2.79 ms,
                                 UpdateLayoutTree 1.20 ms,
                                 layout cell 0.75 ms
                     #4  -       RunTask::ThreadCont… 25.91 ms,
                                 Paint 0.10 ms

                """)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 47 })
        // No line ends between a name and its figure or between a number and its unit, and none
        // begins with a unit.
        let numberAtEnd = lines.filter { line in
            line.split(separator: " ").last.map { ReportTable.isNumber($0) } ?? false
        }
        #expect(numberAtEnd.isEmpty, "\(numberAtEnd)")
        #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("ms") })
        for item in ["RunTask 2.79 ms,", "UpdateLayoutTree 1.20 ms,", "layout cell 0.75 ms", "Paint 0.10 ms"] {
            #expect(lines.contains { $0.hasSuffix(item) }, "\(item) is whole at the end of a line")
        }
    }

    @Test("Prose in a last column still wraps at spaces, keeping each number with its unit and the word before it")
    func proseWrapsAtSpaces() {
        var table = ReportTable(title: "t", columns: [("kind", .left), ("message", .left)])
        table.rows = [["late", "the frame waited for a commit 12.50 ms late, then 3 frames more"]]
        // 38 columns leave the last one its narrowest, 30: "commit" would fit on the first line.
        let text = table.text(maxWidth: 38)
        #expect(
            text == """
                t
                  kind  message
                  late  the frame waited for a
                        commit 12.50 ms late,
                        then 3 frames more

                """)
        // A name wider than a line is split where the line ends; its figure stays whole.
        #expect(
            ReportTable.wrap("RunTask::ThreadControllerImpl::DoWork 25.91 ms", width: 30) == [
                "RunTask::ThreadControllerImpl:", ":DoWork 25.91 ms",
            ])
        #expect(
            ReportTable.wrap("a very long name indeed 25.91 ms", width: 12) == [
                "a very long", "name indeed", "25.91 ms",
            ])
        // Without figures the words break as before.
        #expect(ReportTable.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        // A part without a figure makes a list prose: it breaks at spaces.
        #expect(ReportTable.measuredItems("a 1 ms, and then some") == nil)
        #expect(ReportTable.measuredItems("RunTask 2.79 ms") == nil, "one item is not a list")
        #expect(ReportTable.measuredItems("a 1 ms; b 2, c 3 ms")?.map(String.init) == ["a 1 ms;", "b 2, c 3 ms"])
    }

    @Test("The text report's worst frames wrap their top spans between spans at 100 columns")
    func reportTopSpansWrapWhole() throws {
        var sketch = TraceSketch()
        let category = "app"
        sketch.span("frame", "frame", from: 0, to: 40)
        sketch.span("ThreadControllerImpl::DoWork", category, from: 1, to: 20)
        sketch.span("Paint", category, from: 20, to: 30)
        sketch.span("LocalFrameView::UpdateLifecycle", category, from: 30, to: 39)
        let text = FrameAnalyzer.analyze(sketch.trace).text(source: "spans.json")
        let worst = try #require(
            text.components(separatedBy: "Worst frames\n").last?.components(separatedBy: "\n\n").first)
        let lines = worst.split(separator: "\n")
        #expect(lines.count > 2, "the top spans cell wraps: \(worst)")
        #expect(lines.allSatisfy { $0.count <= FrameReport.terminalWidth })
        #expect(!lines.contains { $0.split(separator: " ").last.map { ReportTable.isNumber($0) } ?? false }, "\(worst)")
        // At 100 columns the cell has 45: "Paint" would have fitted after the first span, its
        // figure not.
        for item in [
            "ThreadControllerImpl::DoWork 19.00 ms,", "Paint 10.00 ms,", "LocalFrameView::UpdateLifecycle 9.00 ms",
        ] {
            #expect(lines.contains { $0.contains(item) }, "\(item) is whole on one line: \(worst)")
        }
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
        let runs = [
            ("paper-transition", "specs-background+decode-main", report),
            ("corner-rounding", "prerendered-transparent", report),
        ]
        let compact = RunComparisonTable.make(title: "demo", runs: runs, wide: false)
        #expect(
            compact.columns.map(\.name) == [
                "scenario", "strategy", "hitch\nms/s", "hitch\ncause", "main\np95 ms", "render\np95 ms",
                "input\np95 ms",
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
