import Foundation
import Testing

/// Inputs that used to stop the tool with a 50-line arithmetic-overflow backtrace.
@Suite("Hostile input on the command line")
struct HostileInputCLITests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../FrameAnalysisTests/Fixtures").appendingPathComponent(name).standardized.path
    }

    @Test(
        "Timestamps near the end of the range: report (text and JSON) and compare exit 0 and never mention overflow",
        arguments: [
            "overflow-grid-deadline.json", "overflow-frame-deadline.json", "overflow-since-input.json",
            "overflow-percentile-and-pooled-totals.json", "overflow-busy-and-category-totals.json",
        ])
    func extremeTimestamps(_ name: String) throws {
        let path = Self.fixture(name)
        for arguments in [["report", path], ["report", path, "--format", "json"], ["compare", path, path]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("overflow"))
        }
    }

    @Test("A budget fps of 1e-300 is one line and exit 3, not a trap")
    func tinyBudgetFrameRate() throws {
        let directory = try CLI.temporaryDirectory()
        let budget = directory.appendingPathComponent("budget.json")
        try Data(#"{"version": 1, "fps": 1e-300}"#.utf8).write(to: budget)
        let result = try CLI.run(["check", Self.fixture("overflow-grid-deadline.json"), "--budget", budget.path])
        #expect(result.status == 3)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("fps: expected a frame rate from 1 to 1000, got 1e-300"))
    }
}
