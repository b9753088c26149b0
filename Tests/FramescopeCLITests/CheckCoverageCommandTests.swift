import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `check` cannot pass by checking nothing, and one bad input among many loses no result.
@Suite("check and compare: no pass by checking nothing, every readable input reported")
struct CheckCoverageCommandTests {
    /// A trace without the `diff-apply` category the shipped traces have.
    static var hostile: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/hostile/hostile-names.json"
        ).path
    }

    @Test("A budget with no rule is exit 3 and one line naming the trace and the budget")
    func emptyBudget() throws {
        let budget = try ShippedTraces.write(#"{"version": 1}"#)
        let result = try CLI.run(["check", ShippedTraces.snapshotDiff, "--budget", budget])
        #expect(result.status == 3)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.first
                == "error: \(ShippedTraces.snapshotDiff): no rule of budget \(budget) applies to it; nothing to check")
        #expect(!result.standardOutput.contains("result: pass"))
    }

    @Test("A budget whose only section matches no trace: exit 3, and a warning (a ::warning with annotations)")
    func unmatchedSection() throws {
        let budget = try ShippedTraces.write(
            #"{"version": 1, "traces": [{"match": "nothing-*", "limits": {"frozen-frames": 0}}]}"#)
        let result = try CLI.run(["check", ShippedTraces.snapshotDiff, "--budget", budget, "--github-annotations"])
        #expect(result.status == 3)
        #expect(
            result.standardOutput.contains(
                "warning: \(budget): traces[0].match nothing-* matches none of the traces given"))
        #expect(
            result.standardOutput.split(separator: "\n").contains {
                $0.hasPrefix("::warning title=framescope check%3A traces[0]::")
            })
        #expect(
            result.standardOutput.split(separator: "\n").contains {
                $0.hasPrefix("::error title=framescope check%3A diffable-update--snapshot-diff.json::")
            })
    }

    @Test("An unmatched section beside rules that apply is a warning only: exit 0")
    func unmatchedSectionWarnsOnly() throws {
        let result = try CLI.run([
            "check", ShippedTraces.snapshotDiff, "--budget", ShippedTraces.strictBudget, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let warnings = try #require(object["warnings"] as? [[String: Any]])
        #expect(warnings.compactMap { $0["match"] as? String } == ["feed-scroll--*", "corner-rounding--*"])
        #expect((object["errors"] as? [Any])?.isEmpty == true)
    }

    @Test("A category no checked trace has is an error naming the nearest category")
    func typoCategory() throws {
        let budget = try ShippedTraces.write(
            #"{"version": 1, "limits": {"frozen-frames": 0}, "categories": {"diff-aply": {"main-ms-total": 100}}}"#)
        let result = try CLI.run([
            "check", ShippedTraces.reload, ShippedTraces.snapshotDiff, "--budget", budget, "--junit",
            try CLI.temporaryDirectory().appendingPathComponent("j.xml").path,
        ])
        #expect(result.status == 3)
        #expect(
            result.standardError
                == "error: \(budget): categories.diff-aply: no checked trace has category diff-aply; did you mean diff-apply?\n"
        )
        // The rule is shown as not in the trace, never as 0.00 ms and pass.
        let row = result.standardOutput.split(separator: "\n").first {
            $0.contains("categories.diff-aply.main-ms-total")
        }
        #expect(
            row?.split(separator: " ").filter { !$0.isEmpty } == [
                "categories.diff-aply.main-ms-total", "not", "in", "trace", "100.00", "ms", "not", "in", "trace",
            ])
    }

    @Test("A category absent from some traces only is 'not in trace' there: text, Markdown, JSON, a skipped JUnit case")
    func categoryInSomeTraces() throws {
        let budget = try ShippedTraces.write(
            #"{"version": 1, "limits": {"frozen-frames": 0}, "categories": {"diff-apply": {"main-ms-total": 1000}}}"#)
        let directory = try CLI.temporaryDirectory()
        let junit = directory.appendingPathComponent("j.xml").path
        let summary = directory.appendingPathComponent("summary.md").path
        let text = try CLI.run(
            ["check", Self.hostile, ShippedTraces.reload, "--budget", budget, "--junit", junit],
            environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(text.status == 0, "\(text.standardError)")
        let rows = text.standardOutput.split(separator: "\n").filter {
            $0.contains("categories.diff-apply.main-ms-total")
        }
        #expect(rows.count == 2)
        let words = rows.map { $0.split(separator: " ").filter { !$0.isEmpty }.map(String.init) }
        #expect(
            words.first == [
                "categories.diff-apply.main-ms-total", "not", "in", "trace", "1000.00", "ms", "not", "in", "trace",
            ])
        #expect(words.last == ["categories.diff-apply.main-ms-total", "437.19", "ms", "1000.00", "ms", "pass"])
        #expect(text.standardOutput.contains("hostile-names.json: pass, 0 of 1 rule exceeded, 1 not in trace"))
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(
            markdown.contains("| `categories.diff-apply.main-ms-total` | not in trace | 1000.00 ms | ➖ not in trace |"))

        let json = try CLI.run(["check", Self.hostile, ShippedTraces.reload, "--budget", budget, "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let traces = try #require(object["traces"] as? [[String: Any]])
        let rule = try #require(
            (traces[0]["rules"] as? [[String: Any]])?.first {
                $0["id"] as? String == "categories.diff-apply.main-ms-total"
            })
        #expect(rule["verdict"] as? String == "not-in-trace")
        #expect(rule["measured"] is NSNull)
        #expect(traces[0]["verdict"] as? String == "pass")

        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
        let suite = try #require(document.rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
        let skipped = suite.elements(forName: "testcase").filter { !$0.elements(forName: "skipped").isEmpty }
        #expect(skipped.map { $0.attribute(forName: "name")?.stringValue } == ["categories.diff-apply.main-ms-total"])
    }

    @Test(
        "check: a missing trace among readable ones is reported, the others checked, JUnit written with an <error>, exit 3"
    )
    func oneMissingTraceOfMany() throws {
        let directory = try CLI.temporaryDirectory()
        let junit = directory.appendingPathComponent("j.xml").path
        let missing = directory.appendingPathComponent("missing.json").path
        let result = try CLI.run([
            "check", ShippedTraces.snapshotDiff, missing, ShippedTraces.reload, "--budget", ShippedTraces.strictBudget,
            "--junit", junit,
        ])
        #expect(result.status == 3)
        #expect(result.standardError == "error: \(missing): no such file or directory\n")
        #expect(result.standardOutput.contains("diffable-update--snapshot-diff.json: pass"))
        #expect(result.standardOutput.contains("diffable-update--reload.json: FAIL"))
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        let errors = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }.flatMap {
            $0.elements(forName: "error")
        }
        #expect(
            errors.map { $0.attribute(forName: "message")?.stringValue } == ["\(missing): no such file or directory"])
        #expect(root.elements(forName: "testsuite").count == 3)
    }

    @Test(
        "compare: an unreadable trace among readable ones is reported, the rest compared, JUnit written with an <error>, exit 3"
    )
    func compareOneMissingTrace() throws {
        let directory = try CLI.temporaryDirectory()
        let junit = directory.appendingPathComponent("j.xml").path
        let bad = try ShippedTraces.write("{\"traceEvents\": [ nope", name: "bad.json")
        let result = try CLI.run([
            "compare", "--base", ShippedTraces.snapshotDiff, "--base", bad, "--head", ShippedTraces.reload, "--junit",
            junit,
        ])
        #expect(result.status == 3)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.hasPrefix("error: \(bad): line 1, column 20"))
        #expect(result.standardOutput.contains("REGRESSION"))
        #expect(result.standardOutput.contains("result: ERROR, 1 trace not read; REGRESSION in"))
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
        let errors = try #require(document.rootElement()).elements(forName: "testsuite").flatMap {
            $0.elements(forName: "testcase")
        }
        .flatMap { $0.elements(forName: "error") }
        #expect(errors.count == 1)
        #expect(errors.first?.attribute(forName: "message")?.stringValue?.hasPrefix("\(bad): line 1") == true)
    }

    @Test("compare: a side with no readable trace writes the JUnit errors and exits 3")
    func compareNothingReadable() throws {
        let directory = try CLI.temporaryDirectory()
        let junit = directory.appendingPathComponent("j.xml").path
        let missing = directory.appendingPathComponent("gone.json").path
        let result = try CLI.run(["compare", missing, ShippedTraces.reload, "--junit", junit])
        #expect(result.status == 3)
        #expect(result.standardError.contains("error: \(missing): no such file or directory"))
        #expect(result.standardError.contains("base: no trace could be read; nothing to compare"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<error message=\"\(missing): no such file or directory\" type=\"unreadable\">"))
    }

    @Test("A trace without frames has no hitch band: 'no frames' in text, null in JSON")
    func noFramesNoBand() throws {
        let empty = try ShippedTraces.write("[", name: "empty.json")
        let text = try CLI.run(["report", empty])
        #expect(text.status == 0)
        let row = text.standardOutput.split(separator: "\n").first { $0.contains("hitch time ratio") }
        #expect(row?.contains("no frames (good < 5") == true, "\(row ?? "")")
        #expect(row?.contains("  good (") == false)
        let json = try CLI.run(["report", empty, "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((object["summary"] as? [String: Any])?["hitch-band"] is NSNull)
    }
}
