import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

/// The documentation's table of work kinds (the FrameScope catalog's ChromeTraces article) and
/// ``ChromeWorkKind``'s table say the same thing: every name the article lists maps to the kind of
/// its row, every name the code maps is listed, and each row's DevTools category is one that kind
/// may come from.
@Suite("DevTools' work kinds, as the Chrome traces article lists them")
struct ChromeWorkKindTests {
    /// One row of the article's table.
    struct Row {
        var kind: String
        var devToolsCategory: String
        /// The names in backquotes; a name ending in `*` is a prefix.
        var names: [String]
    }

    /// The rows of the first table after "## Kinds of work" in the ChromeTraces article.
    static func documentedRows() throws -> [Row] {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/FrameScope/FrameScope.docc/ChromeTraces.md").standardized
        let text = try String(contentsOf: article, encoding: .utf8)
        let section = try #require(
            text.range(of: "\n## Kinds of work\n"), "ChromeTraces.md has no \"Kinds of work\" section")
        let lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        return table.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let names = cells[3].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map { String($0.element) }
            return Row(
                kind: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), devToolsCategory: cells[2],
                names: names)
        }
    }

    /// The DevTools categories each kind may come from; "—" is a name DevTools' table does not hold.
    static let categoriesOfKind: [String: Set<String>] = [
        "script": ["Scripting", "—"], "gc": ["Scripting", "—"],
        "style": ["Rendering", "—"], "layout": ["Rendering"], "rendering": ["Rendering"],
        "paint": ["Painting"], "raster": ["Painting"], "image-decode": ["Painting", "—"],
        "gpu": ["GPU"], "loading": ["Loading"], "other": ["System", "Messaging", "Idle"],
    ]

    @Test("Every name the article lists maps to its row's kind, from a DevTools category that kind may come from")
    func documentedNamesMapToTheirKinds() throws {
        let rows = try Self.documentedRows()
        #expect(Set(rows.map(\.kind)) == Set(ChromeWorkKind.allCases.map(\.identifier)))
        for row in rows {
            #expect(
                Self.categoriesOfKind[row.kind]?.contains(row.devToolsCategory) == true,
                "\(row.kind) from \(row.devToolsCategory)")
            #expect(!row.names.isEmpty, "the \(row.kind) row lists no names")
            for name in row.names {
                if name.hasSuffix("*") {
                    let prefix = String(name.dropLast())
                    let kind = ChromeWorkKind.byPrefix.first { $0.prefix == prefix }?.kind
                    #expect(kind?.identifier == row.kind, "prefix \(prefix)")
                    #expect(
                        ChromeWorkKind(eventName: prefix + "_ANY_PHASE")?.identifier == row.kind,
                        "a name starting with \(prefix)")
                } else {
                    #expect(ChromeWorkKind(eventName: name)?.identifier == row.kind, "\(name)")
                }
            }
        }
    }

    @Test("The article lists every name and prefix the table maps, each once")
    func articleListsEveryName() throws {
        let listed = try Self.documentedRows().flatMap(\.names)
        #expect(Dictionary(grouping: listed) { $0 }.filter { $0.value.count > 1 }.keys.sorted() == [], "listed twice")
        let names = Set(listed.filter { !$0.hasSuffix("*") })
        let prefixes = Set(listed.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) })
        let mapped = Set(ChromeWorkKind.byName.keys)
        #expect(mapped.subtracting(names).sorted() == [], "mapped but not in the article")
        #expect(names.subtracting(mapped).sorted() == [], "in the article but not mapped")
        #expect(prefixes == Set(ChromeWorkKind.byPrefix.map(\.prefix)))
    }

    @Test("A Chrome trace's report files GPU, rendering and loading work under their own kinds")
    func reportKinds() throws {
        var sketch = TraceSketch()
        let gpuThread = ThreadKey(processID: 2, threadID: 7)
        sketch.span("RunTask", "disabled-by-default-devtools.timeline", from: 0, to: 10)
        sketch.span("ParseAuthorStyleSheet", "blink,devtools.timeline", from: 0, to: 2)
        sketch.span("UpdateLayoutTree", "blink,devtools.timeline", from: 2, to: 3)
        sketch.span("PrePaint", "devtools.timeline", from: 3, to: 4.5)
        sketch.span("Layerize", "devtools.timeline", from: 4.5, to: 5)
        sketch.span("Paint", "devtools.timeline", from: 5, to: 6)
        sketch.span("GPUTask", "disabled-by-default-devtools.timeline", from: 1, to: 4, on: gpuThread)
        let report = FrameAnalyzer.analyze(sketch.trace)
        func figures(_ name: String) -> FrameReport.CategoryFigures? { report.categories.first { $0.name == name } }
        #expect(Set(report.categories.map(\.name)) == ["loading", "style", "rendering", "paint", "gpu", "other"])
        #expect(figures("loading")?.mainNanoseconds == ms(2))
        #expect(figures("rendering")?.mainNanoseconds == ms(2))
        #expect(figures("paint")?.mainNanoseconds == ms(1))
        #expect(figures("other")?.mainNanoseconds == ms(4))
        #expect(figures("gpu")?.backgroundNanoseconds == ms(3))
    }

    @Test(
        "The kinds issue 28 named: GPUTask is gpu, PrePaint, Layerize and UpdateLayerTree rendering, ParseAuthorStyleSheet loading"
    )
    func issueExamples() {
        #expect(ChromeWorkKind(eventName: "GPUTask") == .gpu)
        #expect(
            ["PrePaint", "Layerize", "UpdateLayerTree"].map { ChromeWorkKind(eventName: $0) } == [
                .rendering, .rendering, .rendering,
            ])
        #expect(ChromeWorkKind(eventName: "ParseAuthorStyleSheet") == .loading)
    }
}
