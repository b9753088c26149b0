import Foundation
import FrameScopeTesting
import FramescopeTestSupport
import Testing

/// The built `framescope`, and the traces and budgets the project ships.
enum BuiltCLI {
    /// The `framescope` executable in the build's products folder, beside the test bundle.
    static var executable: URL { ProcessRunner.builtProduct("framescope") }

    static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Traces"
    ).standardized
    static func trace(_ name: String) -> String { traces.appendingPathComponent(name).path }
    static func budget(_ name: String) -> String { traces.appendingPathComponent("budgets/\(name)").path }

    /// Budgets that check nothing, which `framescope check` refuses with exit 3.
    static let checkingNothing = [
        "no-rules.json": #"{"version": 1, "traces": [{"match": "feed-scroll--*", "limits": {"frozen-frames": 0}}]}"#,
        "unknown-category.json": #"{"version": 1, "categories": {"diff-aply": {"main-ms-total": 100}}}"#,
    ]
}

@Suite("FrameBudget gives framescope check's verdicts on the same traces and budgets")
struct BudgetVerdictCLITests {
    static let cases: [(trace: String, budget: String)] = [
        ("diffable-update--snapshot-diff.json", "feed-60fps.json"),
        ("diffable-update--reload.json", "feed-60fps.json"),
        ("diffable-update--snapshot-diff.json", "ci-example.json"),
        ("diffable-update--reload.json", "ci-example.json"),
        ("diffable-update--snapshot-diff.json", "no-rules.json"),
        ("diffable-update--reload.json", "unknown-category.json"),
    ]

    @Test(
        "Pass or fail, every rule's id, figure, limit and outcome, and the errors agree with check --format json",
        arguments: cases)
    func sameVerdict(trace traceName: String, budget budgetName: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-verdict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var budgetPath = BuiltCLI.budget(budgetName)
        if let text = BuiltCLI.checkingNothing[budgetName] {
            budgetPath = directory.appendingPathComponent(budgetName).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: budgetPath))
        }
        let tracePath = BuiltCLI.trace(traceName)

        let verdict = try FrameBudget(contentsOf: budgetPath).check(traceAt: tracePath)
        let cli = try ProcessRunner.run(
            BuiltCLI.executable, arguments: ["check", tracePath, "--budget", budgetPath, "--format", "json"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [String: Any],
            "\(cli.standardError)")

        #expect(verdict.passed == (cli.status == 0), "framescope check exited \(cli.status): \(cli.standardError)")
        #expect(cli.status == (verdict.passed ? 0 : verdict.errors.isEmpty ? 1 : 3))
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(verdict.errors == errors.compactMap { $0["message"] as? String })
        let warnings = try #require(json["warnings"] as? [[String: Any]])
        #expect(verdict.warnings == warnings.compactMap { $0["message"] as? String })
        let rules = try #require(json["traces"] as? [[String: Any]]).flatMap {
            try #require($0["rules"] as? [[String: Any]])
        }
        #expect(verdict.rules.map(\.id) == rules.compactMap { $0["id"] as? String })
        #expect(verdict.rules.map(\.outcome.rawValue) == rules.compactMap { $0["verdict"] as? String })
        #expect(verdict.rules.map(\.measured) == rules.map { $0["measured"] as? Double })
        #expect(verdict.rules.map(\.limit) == rules.compactMap { $0["limit"] as? Double })
        #expect(verdict.rules.map(\.limitPath) == rules.compactMap { $0["limit-path"] as? String })
        #expect(verdict.rules.map(\.unit) == rules.compactMap { $0["unit"] as? String })
    }

    @Test("The verdict's report is framescope check's text output, byte for byte")
    func sameText() throws {
        let budgetPath = BuiltCLI.budget("feed-60fps.json")
        let tracePath = BuiltCLI.trace("diffable-update--reload.json")
        let verdict = try FrameBudget(contentsOf: budgetPath).check(traceAt: tracePath)
        let cli = try ProcessRunner.run(BuiltCLI.executable, arguments: ["check", tracePath, "--budget", budgetPath])
        #expect(cli.status == 1)
        #expect(verdict.report == cli.standardOutput)
        #expect(verdict.brokenRules.count == 10)
    }
}
