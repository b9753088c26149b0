import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("framescope compare")
struct CompareCommandTests {
    @Test("A trace compared with itself passes with no change")
    func sameTrace() throws {
        let result = try CLI.run(["compare", ShippedTraces.reload, ShippedTraces.reload])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("result: pass, no regression in"))
        #expect(!result.standardOutput.contains("REGRESSION"))
    }

    @Test("Reloading the whole list instead of diffing a snapshot is a regression")
    func regression() throws {
        let result = try CLI.run(["compare", ShippedTraces.snapshotDiff, ShippedTraces.reload, "--github-annotations"])
        #expect(result.status == 1)
        let main = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("  main-thread-ms ") }
        #expect(main?.hasSuffix("REGRESSION") == true)
        #expect(result.standardOutput.contains("::error title=framescope compare%3A main-thread-ms::"))
    }

    @Test("--base and --head repeat, and the runs of each side are pooled")
    func pooledRuns() throws {
        let result = try CLI.run([
            "compare", "--base", ShippedTraces.snapshotDiff, "--base", ShippedTraces.snapshotDiff,
            "--head", ShippedTraces.reload, "--head", ShippedTraces.reload, "--head", ShippedTraces.reload, "--format",
            "json",
        ])
        #expect(result.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "framescope.compare")
        #expect(object["version"] as? Int == 1)
        #expect((object["base"] as? [String: Any])?["frames"] as? Int == 240)
        #expect((object["head"] as? [String: Any])?["frames"] as? Int == 360)
        #expect(((object["head"] as? [String: Any])?["sources"] as? [String])?.count == 3)
        let metrics = try #require(object["metrics"] as? [[String: Any]])
        #expect(metrics.first?["id"] as? String == "main-thread-ms")
        #expect(metrics.first?["verdict"] as? String == "regression")
    }

    @Test("Thresholds come from the budget's regression section, and flags override it")
    func thresholds() throws {
        let budget = try ShippedTraces.write(
            #"{"version": 1, "regression": {"alpha": 0.05, "min-relative": 0.5, "min-absolute-ms": 2}}"#)
        func thresholds(_ extra: [String]) throws -> [String: Double] {
            let result = try CLI.run(
                ["compare", ShippedTraces.reload, ShippedTraces.reload, "--format", "json"] + extra)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            return try #require(object["thresholds"] as? [String: Double])
        }
        #expect(try thresholds([]) == ["alpha": 0.01, "min-relative": 0.1, "min-absolute-ms": 0.25])
        #expect(try thresholds(["--budget", budget]) == ["alpha": 0.05, "min-relative": 0.5, "min-absolute-ms": 2])
        #expect(
            try thresholds(["--budget", budget, "--alpha", "0.001", "--min-absolute-ms", "0"]) == [
                "alpha": 0.001, "min-relative": 0.5, "min-absolute-ms": 0,
            ])
        let lenient = try CLI.run([
            "compare", ShippedTraces.snapshotDiff, ShippedTraces.reload, "--min-absolute-ms", "100",
        ])
        #expect(lenient.status == 0, "no change reaches 100 ms")
    }

    @Test("--junit and GITHUB_STEP_SUMMARY: one test case per metric, Markdown appended")
    func ciOutputs() throws {
        let directory = try CLI.temporaryDirectory()
        let junit = directory.appendingPathComponent("compare.xml").path
        let summary = directory.appendingPathComponent("summary.md").path
        let result = try CLI.run(
            ["compare", ShippedTraces.snapshotDiff, ShippedTraces.reload, "--junit", junit],
            environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        let names = cases.compactMap { $0.attribute(forName: "name")?.stringValue }
        #expect(names.first == "main-thread-ms")
        #expect(names.contains("categories.diff-apply.main-ms-per-frame"))
        let failures = try document.nodes(forXPath: "//testcase[failure]").count
        #expect(document.rootElement()?.attribute(forName: "failures")?.stringValue == "\(failures)")
        #expect(failures >= 1)
        #expect(try String(contentsOfFile: summary, encoding: .utf8).hasPrefix("## framescope compare: ❌ REGRESSION"))
    }

    @Test(
        "Usage errors exit 2",
        arguments: [
            ["compare", "a.json"],
            ["compare", "a.json", "b.json", "c.json"],
            ["compare", "a.json", "b.json", "--base", "c.json"],
            ["compare", "--base", "a.json"],
            ["compare", "--head", "a.json"],
            ["compare", "a.json", "b.json", "--alpha", "1"],
            ["compare", "a.json", "b.json", "--alpha", "nan"],
            ["compare", "a.json", "b.json", "--min-relative", "-0.1"],
            ["compare", "-", "-"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("Missing traces, an invalid budget and a side without frames exit 3")
    func inputErrors() throws {
        #expect(try CLI.run(["compare", "/nonexistent/a.json", ShippedTraces.reload]).status == 3)
        let budget = try ShippedTraces.write(#"{"version": 1, "regression": {"alpha": "low"}}"#)
        let invalid = try CLI.run(["compare", ShippedTraces.reload, ShippedTraces.reload, "--budget", budget])
        #expect(invalid.status == 3)
        #expect(invalid.standardError.contains("regression.alpha: expected a number, got a string"))
        let empty = try ShippedTraces.write(#"[]"#, name: "empty.json")
        let noFrames = try CLI.run(["compare", empty, ShippedTraces.reload])
        #expect(noFrames.status == 3)
        #expect(noFrames.standardError.contains("base: no frames"))
    }

    @Test("compare --help states the syntax, the thresholds and the exit codes")
    func help() throws {
        let result = try CLI.run(["compare", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE: framescope compare BASE HEAD"))
        #expect(result.standardOutput.contains("--base TRACE [--base TRACE ...]"))
        for code in [
            "0  no regression", "1  a regression was found", "2  usage error", "3  unreadable or invalid input",
        ] {
            #expect(result.standardOutput.contains(code))
        }
    }
}
