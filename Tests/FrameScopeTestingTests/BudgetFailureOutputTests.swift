import Foundation
import FrameScopeTesting
import FramescopeTestSupport
import Testing

/// Set to `1` in the child process only: the demo test below then runs, and fails on purpose.
private let failingDemoVariable = "FRAMESCOPE_BUDGET_FAILING_DEMO"
private let isFailingDemo = ProcessInfo.processInfo.environment[failingDemoVariable] == "1"

/// What Swift Testing prints when a budget `#expect` fails, checked by really failing one.
///
/// The cheapest way that runs Swift Testing itself: the parent test runs this very test
/// executable again (no build, no `swift test`, no package of its own), as `swift test` runs it,
/// with `--testing-library swift-testing --filter` naming the demo test and the environment
/// variable that enables it. The child fails; the parent reads its output. On Linux the test
/// product is that executable (`framescopePackageTests.xctest`); elsewhere the parent is skipped.
@Suite("A budget #expect that fails says which rules broke, with figures and limits")
struct BudgetFailureOutputTests {
    @Test(
        "Demo: a frame budget broken inside #expect (runs only in the child process)",
        .enabled(if: isFailingDemo, "runs only as BudgetFailureOutputTests.failingExpectation's child process"))
    func failingDemo() throws {
        let test = TestRecorder()
        RecordedFrames.record(test, layout: RecordedFrames.everyTenthSlow)
        let verdict = try FrameBudget(json: RecordedFrames.budget).check(test)
        #expect(verdict.passed, "\(verdict)")
    }

    #if os(Linux)
        static let canRunChild = !isFailingDemo
    #else
        static let canRunChild = false
    #endif

    @Test(
        "Run as a child process, the failing #expect prints each broken rule, its figure and its limit",
        .enabled(
            if: canRunChild,
            "needs Linux, where the test product is an executable (and not inside the demo's own child)"))
    func failingExpectation() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let child = try ProcessRunner.run(
            executable,
            arguments: ["--testing-library", "swift-testing", "--filter", "BudgetFailureOutputTests/failingDemo"],
            environment: [failingDemoVariable: "1", "NO_COLOR": "1"])
        let output = child.standardOutput + child.standardError
        #expect(child.status != 0, "the demo test must fail: \(output)")
        #expect(output.contains("recorded an issue at BudgetFailureOutputTests.swift"), "\(output)")
        #expect(output.contains("Expectation failed: (verdict → budget exceeded:"), "\(output)")
        for line in [
            "budget exceeded: FAIL, 3 of 4 rules exceeded, across 1 trace",
            "hitch-time-ratio: recording: hitch time ratio is 78.35 ms/s, over the limit 5.00 ms/s (limits.hitch-time-ratio)",
            "main-thread-ms.p95: recording: main-thread cost per frame, p95 is 31.00 ms, over the limit 12.00 ms (limits.main-thread-ms.p95)",
            "categories.layout.main-ms-per-frame.p95: recording: layout: main-thread time per frame, p95 is 30.00 ms, over the limit 6.00 ms",
        ] {
            #expect(output.contains(line), "missing \(line) in: \(output)")
        }
        // Exactly one test ran in the child, and it failed: the filter and the variable held.
        #expect(output.contains("1 test") && output.contains("1 issue"), "\(output)")
    }
}
