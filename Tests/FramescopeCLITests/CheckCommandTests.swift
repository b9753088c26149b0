import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The traces and budgets the project ships in `Traces/`.
enum ShippedTraces {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Traces"
    ).standardized
    static var reload: String { directory.appendingPathComponent("diffable-update--reload.json").path }
    static var snapshotDiff: String { directory.appendingPathComponent("diffable-update--snapshot-diff.json").path }
    static var strictBudget: String { directory.appendingPathComponent("budgets/feed-60fps.json").path }
    static var ciBudget: String { directory.appendingPathComponent("budgets/ci-example.json").path }

    /// Writes `text` to a fresh temporary file and returns its path.
    static func write(_ text: String, name: String = "budget.json") throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite("framescope check")
struct CheckCommandTests {
    @Test("A trace within budget exits 0 and prints every rule with measured value, limit and verdict")
    func passingCheck() throws {
        let result = try CLI.run(["check", ShippedTraces.snapshotDiff, "--budget", ShippedTraces.strictBudget])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("result: pass, 0 of 12 rules exceeded"))
        let ratio = result.standardOutput.split(separator: "\n").first { $0.contains("hitch-time-ratio") }
        #expect(
            ratio?.split(separator: " ").filter { !$0.isEmpty } == [
                "hitch-time-ratio", "0.00", "ms/s", "5.00", "ms/s", "pass",
            ])
        #expect(result.standardError.isEmpty)
    }

    @Test("A trace over budget exits 1 and marks the failed rules")
    func failingCheck() throws {
        let result = try CLI.run(["check", ShippedTraces.reload, "--budget", ShippedTraces.strictBudget])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("result: FAIL, 10 of 12 rules exceeded"))
        let ratio = result.standardOutput.split(separator: "\n").first { $0.contains("hitch-time-ratio") }
        #expect(ratio?.hasSuffix("FAIL") == true)
    }

    @Test("Trace sections apply by file name; several traces are checked in one run")
    func traceSections() throws {
        let result = try CLI.run([
            "check", ShippedTraces.snapshotDiff, ShippedTraces.reload, "--budget", ShippedTraces.ciBudget, "--format",
            "json",
        ])
        #expect(result.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "framescope.check")
        let traces = try #require(object["traces"] as? [[String: Any]])
        #expect(traces.map { $0["verdict"] as? String } == ["pass", "fail"])
        let rules = try #require(traces[0]["rules"] as? [[String: Any]])
        #expect(
            rules.first { $0["id"] as? String == "hitch-time-ratio" }?["limit-path"] as? String
                == "traces[0].limits.hitch-time-ratio")
    }

    @Test("--junit writes JUnit XML that parses back with one test case per rule")
    func junit() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("check.xml").path
        let result = try CLI.run([
            "check", ShippedTraces.reload, "--budget", ShippedTraces.strictBudget, "--junit", path,
        ])
        #expect(result.status == 1)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "12")
        #expect(root.attribute(forName: "failures")?.stringValue == "10")
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.count == 12)
        let failed = cases.filter { !$0.elements(forName: "failure").isEmpty }.compactMap {
            $0.attribute(forName: "name")?.stringValue
        }
        #expect(failed.count == 10)
        #expect(failed.contains("hitch-time-ratio"))
        #expect(!failed.contains("frozen-frames"))
    }

    @Test("With GITHUB_STEP_SUMMARY set, the Markdown report is appended to that file")
    func stepSummary() throws {
        let path = try ShippedTraces.write("# Earlier step\n", name: "summary.md")
        let result = try CLI.run(
            ["check", ShippedTraces.snapshotDiff, "--budget", ShippedTraces.strictBudget],
            environment: ["GITHUB_STEP_SUMMARY": path])
        #expect(result.status == 0)
        let summary = try String(contentsOfFile: path, encoding: .utf8)
        #expect(summary.hasPrefix("# Earlier step\n## framescope check: ✅ pass"))
        #expect(summary.contains("| `hitch-time-ratio` | 0.00 ms/s | 5.00 ms/s | ✅ pass |"))
        #expect(!result.standardOutput.contains("| :--- |"), "stdout keeps the chosen format")
    }

    @Test("--github-annotations prints at most ten, worst first, then a line counting the rest")
    func annotations() throws {
        // The reload trace twice: 20 exceeded rules, and 2 warnings for the budget's sections that match neither.
        let copy = try ShippedTraces.write(
            try String(contentsOfFile: ShippedTraces.reload, encoding: .utf8), name: "diffable-update--again.json")
        let result = try CLI.run([
            "check", ShippedTraces.reload, copy, "--budget", ShippedTraces.strictBudget, "--github-annotations",
        ])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(lines.count == 11)
        #expect(
            result.standardOutput.contains(
                "warning: \(ShippedTraces.strictBudget): traces[1].match feed-scroll--* matches none of the traces given"
            ))
        #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("::error title=framescope check%3A ") })
        #expect(lines[0].contains("hitch-time-ratio"), "99 ms/s against 5 is the worst excess")
        #expect(
            lines[10]
                == "::notice title=framescope::12 more findings not annotated (10 errors, 2 warnings); the report and the step summary list every rule"
        )
    }

    @Test(
        "Usage errors exit 2",
        arguments: [
            ["check", "--budget", "b.json"],
            ["check", "t.json"],
            ["check", "t.json", "--budget", "b.json", "--format", "xml"],
            ["check", "-", "-", "--budget", "b.json"],
            ["check", "t.json", "--budget", "b.json", "--github-annotations=yes"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test(
        "Unreadable input and invalid budgets exit 3 with one line naming what and where",
        arguments: [
            (#"{"version": 1, "categories": {"layout": {"p95": 4}}}"#, "categories.layout.p95: unknown key"),
            (
                #"{"version": 1, "categories": {"layout": {"main-ms-per-frame": {"p95": "4"}}}}"#,
                "categories.layout.main-ms-per-frame.p95: expected a number, got a string"
            ),
            ("{\"version\": 1,\n \"limits\": {]}", "line 2, column 13"),
            (#"{"version": 3}"#, "version: unsupported version 3"),
        ])
    func invalidBudget(text: String, message: String) throws {
        let budget = try ShippedTraces.write(text)
        let result = try CLI.run(["check", ShippedTraces.snapshotDiff, "--budget", budget])
        #expect(result.status == 3)
        #expect(result.standardError.contains("\(budget): \(message)"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardOutput.isEmpty)
    }

    @Test("A missing trace, a missing budget, a trace without frames and an unwritable --junit exit 3")
    func inputErrors() throws {
        let missingTrace = try CLI.run(["check", "/nonexistent/t.json", "--budget", ShippedTraces.strictBudget])
        #expect(missingTrace.status == 3)
        #expect(missingTrace.standardError.contains("/nonexistent/t.json"))
        let missingBudget = try CLI.run(["check", ShippedTraces.reload, "--budget", "/nonexistent/b.json"])
        #expect(missingBudget.status == 3)
        #expect(missingBudget.standardError == "error: /nonexistent/b.json: no such file or directory\n")
        let empty = try ShippedTraces.write(#"{"traceEvents": []}"#, name: "empty.json")
        let noFrames = try CLI.run(["check", empty, "--budget", ShippedTraces.strictBudget])
        #expect(noFrames.status == 3)
        #expect(noFrames.standardError.contains("no frames"))
        let unwritable = try CLI.run([
            "check", ShippedTraces.reload, "--budget", ShippedTraces.strictBudget, "--junit", "/nonexistent/j.xml",
        ])
        #expect(unwritable.status == 3)
        #expect(unwritable.standardError.contains("/nonexistent/j.xml"))
    }

    @Test(
        "--jobs reads several traces at once and changes nothing: the same output, traces in the order given, an unreadable one still an error"
    )
    func jobsKeepOrderAndOutput() throws {
        let missing = try CLI.temporaryDirectory().appendingPathComponent("missing.json").path
        let traces = [
            ShippedTraces.reload, missing, ShippedTraces.snapshotDiff, ShippedTraces.reload, ShippedTraces.snapshotDiff,
        ]
        var outputs: [String] = []
        for jobs in ["1", "4"] {
            let result = try CLI.run(
                ["check"] + traces + ["--budget", ShippedTraces.ciBudget, "--format", "json", "--jobs", jobs])
            #expect(result.status == 3, "stderr: \(result.standardError)")
            #expect(result.standardError.contains("missing.json"))
            outputs.append(result.standardOutput)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let checked = try #require(object["traces"] as? [[String: Any]])
            #expect(checked.compactMap { $0["source"] as? String } == traces.filter { $0 != missing })
        }
        #expect(outputs[0] == outputs[1])
        let compared = try ["1", "3"].map { jobs in
            try CLI.run([
                "compare", "--base", ShippedTraces.snapshotDiff, "--base", missing, "--base",
                ShippedTraces.snapshotDiff,
                "--head", ShippedTraces.reload, "--head", ShippedTraces.reload, "--format", "json", "--jobs", jobs,
            ])
        }
        #expect(compared.map(\.status) == [3, 3])
        #expect(compared[0].standardOutput == compared[1].standardOutput)
        #expect(compared[0].standardError == compared[1].standardError)
        #expect(
            try CLI.run(["check", ShippedTraces.reload, "--budget", ShippedTraces.ciBudget, "--jobs", "0"]).status == 2)
    }

    @Test("check --help states the exit codes")
    func help() throws {
        let result = try CLI.run(["check", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE: framescope check"))
        for code in [
            "0  every rule passed", "1  a budget was exceeded", "2  usage error", "3  unreadable or invalid input",
        ] {
            #expect(result.standardOutput.contains(code))
        }
    }
}
