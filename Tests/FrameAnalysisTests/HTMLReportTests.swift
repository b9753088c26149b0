import Foundation
import FrameSupport
import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("HTML report")
struct HTMLReportTests {
    static func report() -> FrameReport {
        var sketch = TraceSketch(interval: ms(10))
        for frame in 0..<5 {
            // frame 3 runs to 44 ms: the next starts on the next vsync
            let start = frame == 4 ? 50 : Double(frame) * 10
            let length = frame == 3 ? 14.0 : 4.0
            sketch.span("frame", "frame", from: start, to: start + length)
            sketch.span("</script><b>layout</b>", "layout & <measure>", from: start + 1, to: start + length - 1)
        }
        return FrameAnalyzer.analyze(sketch.trace)
    }

    /// The JSON inside the page's `script.frame-data` element.
    static func timelineData(_ html: String) throws -> [String: Any] {
        let open = try #require(html.range(of: "<script type=\"application/json\" class=\"frame-data\">"))
        let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
        let json = String(html[open.upperBound..<close.lowerBound])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("The page is self-contained: no network, no external script, style or font")
    func selfContained() {
        let html = Self.report().html(source: "t.json")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for forbidden in ["http://", "https://", "<link", " src=", "@import", "url("] {
            #expect(!html.contains(forbidden), "found \(forbidden)")
        }
    }

    @Test("The frame source is stated before the timeline")
    func frameSourceFirst() throws {
        let html = Self.report().html(source: "t.json")
        let source = try #require(html.range(of: "Frames from: framescope frame spans"))
        let timeline = try #require(html.range(of: "<div class=\"timeline\""))
        #expect(source.lowerBound < timeline.lowerBound)
    }

    @Test("The timeline carries one entry per frame with exact nanoseconds, and names cannot close the script")
    func timelineData() throws {
        let report = Self.report()
        let html = report.html(source: "t.json")
        #expect(html.contains("data-frames=\"5\""))
        #expect(!html.contains("</script><b>"), "a span name must not end the data script")
        let data = try Self.timelineData(html)
        #expect(data["p"] as? Int == Int(ms(10)))
        let frames = try #require(data["frames"] as? [[Any]])
        #expect(frames.count == report.frames.count)
        #expect(frames.map { $0[1] as? Int } == report.frames.map { Int($0.mainThreadNanoseconds) })
        #expect(frames.map { $0[2] as? Int } == report.frames.map { Int($0.overrun) })
        #expect(frames[3][3] as? Int == 1, "frame 3 runs 4 ms past its 10 ms deadline: one missed vsync")
        #expect(frames.map { $0[7] as? Int } == report.frames.map { Int($0.duration) })
        let categories = try #require(data["categories"] as? [String])
        #expect(categories.contains("layout & <measure>"))
        let spans = try #require(frames[3][6] as? [[Any]])
        #expect(spans.first?.first as? String == "</script><b>layout</b>")
    }

    @Test("Every table cell of the report appears in the page, escaped: the same numbers as the text")
    func sameTables() {
        let report = Self.report()
        let html = report.html(source: "t.json")
        for table in report.tables(wide: true) {
            #expect(html.contains("<caption>\(UntrustedText.html(table.title))</caption>"))
            for row in table.rows {
                for cell in row { #expect(html.contains(">\(UntrustedText.html(cell))</td>"), "missing cell \(cell)") }
            }
        }
        #expect(html.contains("layout &amp; &lt;measure&gt;"))
        // Two-line headings keep their break as <br>, not an escaped line feed.
        for table in report.tables(wide: true) {
            for column in table.columns where column.name.contains("\n") {
                #expect(
                    html.contains(
                        column.name.split(separator: "\n").map { UntrustedText.html(String($0)) }.joined(
                            separator: "<br>")))
            }
        }
        #expect(!html.contains("\\u{A}"), "no heading shows an escaped line feed")
    }

    @Test("Every hitch cause but none has a colour of its own in the page")
    func causeColours() {
        let coloured = HTMLPage.causeColors.map(\.0)
        #expect(Set(coloured) == Set(HitchCause.allCases.filter { $0 != .none }))
        #expect(Set(HTMLPage.causeColors.map(\.1)).count == coloured.count, "distinct colours")
    }

    @Test("A page holds one section per report, each with its own timeline")
    func demoPage() {
        let report = Self.report()
        let page = HTMLPage.document(
            title: "demo",
            sections: [
                report.htmlSection(heading: "a --strategy x", id: "run-1"),
                report.htmlSection(heading: "b", id: "run-2"),
            ])
        #expect(page.components(separatedBy: "<section class=\"run\"").count == 3)
        #expect(page.components(separatedBy: "<canvas tabindex").count == 3, "one frame-bar canvas per report")
        #expect(page.components(separatedBy: "<canvas class=\"lane-canvas\"").count == 3, "one lane canvas per report")
        #expect(page.components(separatedBy: "<script>").count == 2, "one copy of the drawing script per page")
    }
}
