import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

/// framescope's own labels and a trace's names never meet: a trace's category named like a label
/// is kept apart, in every output, and nothing merges, repeats or traps.
@Suite("framescope's labels apart from a trace's names")
struct LabelNamespaceTests {
    /// One frame span whose own time is framescope's (unattributed), with children named like
    /// framescope's labels, an empty category and a quoted name.
    static func report() -> FrameReport {
        var sketch = TraceSketch()
        sketch.span("frame", "frame", from: 0, to: 20)
        sketch.span("a", "(unattributed)", from: 1, to: 4)
        sketch.span("b", "(none)", from: 5, to: 7)
        sketch.span("c", "", from: 8, to: 9)
        sketch.span("d", "\"(none)\"", from: 10, to: 13)
        sketch.span("e", "(other categories)", from: 14, to: 15)
        return FrameAnalyzer.analyze(sketch.trace)
    }

    @Test("The mapping is one to one and no trace name equals a label")
    func mapping() {
        let names = ["(unattributed)", "(none)", "\"(none)\"", "\"\"(none)\"\"", "layout", "", "(", "\"", "a(b)"]
        let shown = names.map(FrameAnalyzer.traceName)
        #expect(Set(shown).count == names.count)
        for label in [FrameAnalyzer.unattributedCategory, "(none)", FrameReport.otherCategoriesLabel] {
            #expect(!shown.contains(label))
        }
        #expect(
            shown == [
                "\"(unattributed)\"", "\"(none)\"", "\"\"(none)\"\"", "\"\"\"(none)\"\"\"", "layout", "", "\"(\"",
                "\"\"\"", "a(b)",
            ])
    }

    @Test(
        "A trace's (unattributed) is its own category, not framescope's unattributed time; every output keeps them apart"
    )
    func apart() throws {
        let report = Self.report()
        let byName = Dictionary(
            report.categories.map { ($0.name, $0.mainNanoseconds) }, uniquingKeysWith: { _, _ in -1 })
        #expect(report.categories.count == byName.count, "no name twice")
        #expect(byName[FrameAnalyzer.unattributedCategory] == ms(20) - ms(3) - ms(2) - ms(1) - ms(3) - ms(1))
        #expect(byName["\"(unattributed)\""] == ms(3))
        #expect(byName["\"(none)\""] == ms(2))
        #expect(byName[""] == ms(1))
        #expect(byName["\"\"(none)\"\""] == ms(3))
        #expect(byName["\"(other categories)\""] == ms(1))
        // The HTML page (which once trapped on a repeated name) and the Markdown carry them all.
        let page = report.html(source: "t.json")
        #expect(page.contains("&quot;(unattributed)&quot;"))
        let markdown = report.markdown(source: "t.json")
        #expect(markdown.contains("\"(unattributed)\""))
    }
}

@Suite("Markdown stays under GitHub's step-summary limit")
struct MarkdownLimitTests {
    @Test("A table shows its first rows and counts the rest")
    func rowLimit() {
        let rows = (0..<1_000).map { ["name \($0)", "\($0)"] }
        let table = ReportTable(title: "t", columns: [("name", .left), ("n", .right)], rows: rows)
        let lines = table.markdown().split(separator: "\n")
        #expect(lines.count == 3 + ReportTable.markdownRowLimit + 1)
        #expect(lines.last == "| … 800 more rows\\: the JSON output (--format json) has them all |  |")
    }

    @Test("A text table shows its first rows and counts the rest")
    func textRowLimit() {
        let rows = (0..<2_500).map { ["name \($0)", "\($0)"] }
        let lines = ReportTable(title: "t", columns: [("name", .left), ("n", .right)], rows: rows).text().split(
            separator: "\n")
        #expect(lines.count == 2 + ReportTable.textRowLimit + 1)
        #expect(lines.last?.hasPrefix("  … 1500 more rows: --format json has them all") == true)
    }

    @Test("A document over the limit is cut at a line outside any chart, and says so")
    func documentLimit() {
        let chart = "```mermaid\nxychart-beta\n" + String(repeating: "    bar [1.00]\n", count: 10) + "```\n"
        let row = "| " + String(repeating: "x", count: 90) + " |\n"
        var document = "## title\n\n"
        while document.utf8.count < MarkdownLimit.bytes - 500 { document += row }
        document += chart + String(repeating: row, count: 100)
        let cut = MarkdownLimit.fit(document)
        #expect(cut.utf8.count <= MarkdownLimit.bytes)
        #expect(cut.components(separatedBy: "```").count % 2 == 1, "fences balanced")
        #expect(cut.hasSuffix("`--format json` writes every figure.*\n"))
        #expect(document.hasPrefix(cut.components(separatedBy: "\n\n*framescope cut")[0]))
        #expect(MarkdownLimit.fit("small\n") == "small\n")
    }
}
