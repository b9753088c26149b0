import Foundation
import FrameSupport
import FrameTrace
import Testing

@testable import FrameAnalysis

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A check of two sketches (one passing, one failing) against a budget with a trace section.
func sampleCheck() throws -> BudgetCheck {
    let budget = try Budget.parse(
        """
        {"version": 1, "fps": 100,
         "limits": {"hitch-time-ratio": 5, "frozen-frames": 0, "main-thread-ms": {"p95": 12}},
         "categories": {"layout": {"main-ms-per-frame": {"max": 4.5}}, "image-decode": {"off-main-thread": true}},
         "traces": [{"match": "late-*", "limits": {"hitch-time-ratio": 1000}}]}
        """)
    var good = TraceSketch(metadataMain: true, interval: ms(10))
    good.span("frame", "frame", from: 0, to: 4)
    good.span("layout", "layout", from: 0, to: 3)
    good.span("frame", "frame", from: 10, to: 19)
    good.span("layout", "layout", from: 10, to: 14.2)
    good.span("decode", "image-decode", from: 1, to: 9, on: good.worker)
    let late = checkSketch()
    return BudgetCheck(
        budgetSource: "budget.json",
        traces: [
            .init(
                name: "good.json", source: "traces/good.json",
                report: budget.analyze(good.trace, options: AnalysisOptions()), budget: budget),
            .init(
                name: "late-<&>.json", source: "traces/late-<&>.json",
                report: budget.analyze(late.trace, options: AnalysisOptions()), budget: budget),
        ])
}

@Suite("Budget check: text, Markdown, JSON, JUnit and annotations")
struct CheckOutputTests {
    @Test("Text, Markdown and JSON match the golden files")
    func goldenOutputs() throws {
        let check = try sampleCheck()
        #expect(!check.passed)
        try expectGolden(check.text(), named: "check.txt")
        try expectGolden(check.markdown(), named: "check.md")
        try expectGolden(check.json() + "\n", named: "check.json")
        try expectGolden(check.junit().xml(), named: "check.junit.xml")
    }

    @Test("The JSON follows schema framescope.check v2")
    func jsonSchema() throws {
        let check = try sampleCheck()
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(check.jsonValue().description.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "framescope.check")
        #expect(object["version"] as? Int == 2)
        #expect(object["passed"] as? Bool == false)
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(counts["rules"] == check.results.count)
        #expect(counts["failed"] == check.results.filter { $0.verdict == .fail }.count)
        let traces = try #require(object["traces"] as? [[String: Any]])
        let rules = try #require(traces[1]["rules"] as? [[String: Any]])
        let ratio = try #require(rules.first { $0["id"] as? String == "hitch-time-ratio" })
        #expect(ratio["limit-path"] as? String == "traces[0].limits.hitch-time-ratio")
        #expect(ratio["unit"] as? String == "ms/s")
        #expect(traces[0]["frame-interval-source"] as? String == "budget")
        #expect(traces[0]["frame-interval-requested-fps"] as? Double == 100)
    }

    @Test(
        "The JUnit XML parses back: one test case per rule, a failure per exceeded rule",
        .enabled(if: JUnitDocument.isAvailable, Comment(rawValue: JUnitDocument.missingReason)))
    func junitParsesBack() throws {
        let check = try sampleCheck()
        let parsed = try JUnitDocument(xml: check.junit().xml())
        #expect(parsed.rootName == "testsuites")
        #expect(parsed.rootAttributes["tests"] == "\(check.results.count)")
        #expect(parsed.rootAttributes["failures"] == "\(check.results.filter { $0.verdict == .fail }.count)")
        #expect(parsed.suites.map(\.name) == ["framescope check: good.json", "framescope check: late-<&>.json"])
        #expect(parsed.cases.map(\.name) == check.results.map(\.id))
        #expect(
            parsed.cases.filter { $0.failure != nil }.map(\.name)
                == check.results.filter { $0.verdict == .fail }.map(\.id))
        let failed = try #require(parsed.cases.first { $0.failure != nil })
        #expect(failed.failureMessage?.hasPrefix("late-<&>.json: ") == true, "escaped text comes back unescaped")
        #expect(failed.failure?.contains("\nmeasured: ") == true, "newlines survive")
        #expect(failed.className == "framescope.check.late-<&>")
    }

    @Test(
        "XML escaping covers markup characters, keeps newlines in attributes and shows what XML cannot hold as visible escapes",
        .enabled(if: JUnitDocument.isAvailable, Comment(rawValue: JUnitDocument.missingReason)))
    func xmlEscaping() throws {
        #expect(UntrustedText.xml("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(UntrustedText.xml("x\ny\tz\u{01}\u{FFFF}é") == "x&#10;y&#9;z\\u{1}\\u{FFFF}é")
        let report = JUnitReport(
            name: "n\"\u{07}",
            suites: [
                .init(
                    name: "s",
                    cases: [
                        .init(name: "]]>", className: "c", failure: .init(message: "m\nn", type: "t", details: "<d>"))
                    ])
            ])
        let parsed = try JUnitDocument(xml: report.xml())
        #expect(parsed.rootAttributes["name"] == "n\"\\u{7}")
        #expect(parsed.cases.first?.name == "]]>")
        #expect(parsed.cases.first?.failureMessage == "m\nn")
        #expect(parsed.cases.first?.failure == "<d>")
    }

    @Test("Annotations: errors worst first, then warnings, escaped for the runner")
    func annotations() throws {
        let check = try sampleCheck()
        let lines = GitHubAnnotations.lines(check.annotations())
        let failed = check.results.filter { $0.verdict == .fail }
        let near = check.results.filter { $0.verdict == .nearLimit }
        #expect(!near.isEmpty)
        #expect(lines.count == failed.count + near.count)
        #expect(lines.prefix(failed.count).allSatisfy { $0.hasPrefix("::error title=framescope check%3A ") })
        #expect(lines.suffix(near.count).allSatisfy { $0.hasPrefix("::warning title=framescope check%3A ") })
        let ordered = failed.sorted { $0.excess > $1.excess }
        #expect(lines.first?.contains(ordered[0].id) == true)
        #expect(ordered[0].id == "main-thread-ms.p95", "p95 = 710 ms over 12 ms is the worst")
    }

    @Test("At most ten annotations, then one line that says how many more", arguments: [0, 1, 10, 11, 25])
    func annotationCap(count: Int) {
        let annotations = (0..<count).map { index in
            GitHubAnnotation(
                level: index % 3 == 0 ? .warning : .error, title: "t\(index)", message: "m", severity: Double(index))
        }
        let lines = GitHubAnnotations.lines(annotations)
        #expect(lines.count == min(count, 10) + (count > 10 ? 1 : 0))
        let errors = lines.prefix(10).filter { $0.hasPrefix("::error") }.count
        #expect(lines.prefix(errors).allSatisfy { $0.hasPrefix("::error") }, "errors come first")
        if count > 10 {
            #expect(lines.last?.hasPrefix("::notice title=framescope::\(count - 10) more finding") == true)
        }
        if count == 25 {
            #expect(lines[0] == "::error title=t23::m", "the most severe error first")
            #expect(lines.last?.contains("(6 errors, 9 warnings)") == true, "errors fill the ten slots")
        }
    }

    @Test("Workflow-command escaping: % CR LF everywhere, : and , in properties")
    func workflowEscaping() {
        let annotation = GitHubAnnotation(level: .warning, title: "a:b,c%", message: "50%\r\nnext: x, y")
        #expect(annotation.line == "::warning title=a%3Ab%2Cc%25::50%25%0D%0Anext: x, y")
    }
}

/// A JUnit document read back with Foundation's XML parser, as a CI system would.
struct JUnitDocument {
    struct Suite { var name: String }
    struct TestCase {
        var name: String
        var className: String
        var failure: String?
        var failureMessage: String?
    }

    var rootName = ""
    var rootAttributes: [String: String] = [:]
    var suites: [Suite] = []
    var cases: [TestCase] = []

    /// Whether Foundation's XML parser exists here: macOS's Foundation and Linux's FoundationXML
    /// have `XMLDocument`; iOS, tvOS, watchOS and visionOS do not.
    static var isAvailable: Bool {
        #if os(macOS) || canImport(FoundationXML)
            true
        #else
            false
        #endif
    }
    static let missingReason =
        "no XMLDocument on this platform (only macOS and Linux have one): JUnit XML not parsed back"

    init(xml: String) throws {
        #if os(macOS) || canImport(FoundationXML)
            let document = try XMLDocument(xmlString: xml, options: [])
            let root = try #require(document.rootElement())
            rootName = root.name ?? ""
            for attribute in root.attributes ?? [] { rootAttributes[attribute.name ?? ""] = attribute.stringValue }
            for suite in root.elements(forName: "testsuite") {
                suites.append(Suite(name: suite.attribute(forName: "name")?.stringValue ?? ""))
                for testCase in suite.elements(forName: "testcase") {
                    let failure = testCase.elements(forName: "failure").first
                    cases.append(
                        TestCase(
                            name: testCase.attribute(forName: "name")?.stringValue ?? "",
                            className: testCase.attribute(forName: "classname")?.stringValue ?? "",
                            failure: failure?.stringValue,
                            failureMessage: failure?.attribute(forName: "message")?.stringValue))
                }
            }
        #else
            throw CocoaError(.featureUnsupported)
        #endif
    }
}
