import Foundation
import FrameScope
import FrameScopeTesting
import Testing

/// Frames a test records on its manual clock, at 60 Hz.
enum RecordedFrames {
    /// 60 Hz, in nanoseconds.
    static let interval: Int64 = 16_666_667

    /// Records one frame per entry of `layout`: each frame starts at its vsync, lays out on the
    /// main thread for that many milliseconds and commits for 1 ms; the next frame starts at the
    /// first vsync after the frame ended, as a display loop would. No wall time: the clock moves
    /// only here.
    static func record(_ test: TestRecorder, layout: [Int]) {
        var vsync: Int64 = 0
        for (index, milliseconds) in layout.enumerated() {
            test.clock.set(nanoseconds: vsync)
            test.recorder.withFrame(vsync: vsync, deadline: vsync + interval, index: index) {
                test.recorder.withSpan("layout feed", category: .layout) {
                    test.advance(by: .milliseconds(milliseconds))
                }
                test.recorder.withSpan("commit", category: .commit) { test.advance(by: .milliseconds(1)) }
            }
            let elapsed = test.clock.nanoseconds - vsync
            vsync += interval * max(1, (elapsed + interval - 1) / interval)
        }
    }

    /// 60 frames of 4 ms, except every tenth, which lays out for 30 ms and so misses a vsync.
    static let everyTenthSlow = (0..<60).map { $0 % 10 == 9 ? 30 : 4 }

    /// The budget the tests hold recordings to.
    static let budget = """
        {"version": 1, "fps": 60,
         "limits": {"hitch-time-ratio": 5, "frozen-frames": 0, "main-thread-ms": {"p95": 12}},
         "categories": {"layout": {"main-ms-per-frame": {"p95": 6}}}}
        """
}

@Suite("FrameBudget: budgets checked in a test, with framescope check's verdicts")
struct FrameBudgetTests {
    @Test("Frames recorded on the manual clock within budget pass, and every rule is listed")
    func withinBudget() throws {
        let test = TestRecorder()
        RecordedFrames.record(test, layout: Array(repeating: 4, count: 60))
        let verdict = try FrameBudget(json: RecordedFrames.budget).check(test)
        #expect(verdict.passed, "\(verdict)")
        #expect(verdict.frameCount == 60)
        #expect(verdict.brokenRules.isEmpty)
        #expect(verdict.errors.isEmpty)
        #expect(
            verdict.rules.map(\.id) == [
                "hitch-time-ratio", "frozen-frames", "main-thread-ms.p95", "categories.layout.main-ms-per-frame.p95",
            ])
        #expect(verdict.rules.map(\.outcome) == [.pass, .pass, .pass, .pass])
        #expect(verdict.rules.map(\.measured) == [0, 0, 5, 4])
        #expect(
            verdict.description == """
                within budget: pass, 0 of 4 rules exceeded, across 1 trace
                - hitch-time-ratio: 0.00 ms/s, limit 5.00 ms/s: pass
                - frozen-frames: 0, limit 0: pass
                - main-thread-ms.p95: 5.00 ms, limit 12.00 ms: pass
                - categories.layout.main-ms-per-frame.p95: 4.00 ms, limit 6.00 ms: pass
                """)
    }

    @Test("Over budget, the verdict fails and names each broken rule, its figure and its limit")
    func overBudget() throws {
        let test = TestRecorder()
        RecordedFrames.record(test, layout: RecordedFrames.everyTenthSlow)
        let verdict = try FrameBudget(json: RecordedFrames.budget).check(test)
        #expect(!verdict.passed)
        #expect(
            verdict.brokenRules.map(\.id) == [
                "hitch-time-ratio", "main-thread-ms.p95", "categories.layout.main-ms-per-frame.p95",
            ])
        #expect(verdict.rules.first { $0.id == "frozen-frames" }?.outcome == .pass)
        #expect(
            verdict.description.split(separator: "\n") == [
                "budget exceeded: FAIL, 3 of 4 rules exceeded, across 1 trace",
                "- hitch-time-ratio: recording: hitch time ratio is 78.35 ms/s, over the limit 5.00 ms/s (limits.hitch-time-ratio)",
                "- main-thread-ms.p95: recording: main-thread cost per frame, p95 is 31.00 ms, over the limit 12.00 ms (limits.main-thread-ms.p95)",
                "- categories.layout.main-ms-per-frame.p95: recording: layout: main-thread time per frame, p95 is 30.00 ms, "
                    + "over the limit 6.00 ms (categories.layout.main-ms-per-frame.p95)",
            ])
        // The table `framescope check` prints.
        #expect(verdict.report.contains("result: FAIL, 3 of 4 rules exceeded, across 1 trace\n"))
        let row = verdict.report.split(separator: "\n").first { $0.contains("main-thread-ms.p95") }
        #expect(row?.split(separator: " ") == ["main-thread-ms.p95", "31.00", "ms", "12.00", "ms", "FAIL"])
    }

    @Test("The same frames give the same verdict every time: the manual clock has no wall time")
    func deterministic() throws {
        let budget = try FrameBudget(json: RecordedFrames.budget)
        let verdicts = (0..<3).map { _ in
            let test = TestRecorder()
            RecordedFrames.record(test, layout: RecordedFrames.everyTenthSlow)
            return budget.check(test)
        }
        #expect(Set(verdicts).count == 1)
    }

    @Test("An empty recording does not pass: there is nothing to check")
    func noFrames() throws {
        let test = TestRecorder()
        let verdict = try FrameBudget(json: RecordedFrames.budget).check(test)
        #expect(!verdict.passed)
        #expect(verdict.rules.isEmpty)
        #expect(verdict.errors == ["recording: no frames found; nothing to check"])
        #expect(
            verdict.description == """
                budget not checked: ERROR, 1 trace not checked; pass, 0 of 0 rules exceeded, across 0 traces
                - error: recording: no frames found; nothing to check
                """)
    }

    @Test("A budget with no rule for the recording, or a rule on a category it lacks, does not pass")
    func checksNothing() throws {
        let test = TestRecorder()
        RecordedFrames.record(test, layout: [4, 4, 4])
        let empty = try FrameBudget(json: #"{"version": 1}"#).check(test)
        #expect(!empty.passed)
        #expect(empty.errors == ["recording: no rule of budget (inline JSON) applies to it; nothing to check"])
        let elsewhere = try FrameBudget(
            json: #"{"version": 1, "traces": [{"match": "feed-*", "limits": {"frozen-frames": 0}}]}"#
        ).check(test)
        #expect(!elsewhere.passed)
        #expect(
            elsewhere.warnings == [
                "(inline JSON): traces[0].match feed-* matches none of the traces given; its limits apply to nothing"
            ])
        let typo = try FrameBudget(json: #"{"version": 1, "categories": {"layuot": {"main-ms-total": 100}}}"#).check(
            test)
        #expect(!typo.passed)
        #expect(
            typo.errors == [
                "(inline JSON): categories.layuot: no checked trace has category layuot; did you mean layout?"
            ])
    }

    @Test("Trace sections apply to a recording by the name it is checked under")
    func traceSections() throws {
        let test = TestRecorder()
        RecordedFrames.record(test, layout: RecordedFrames.everyTenthSlow)
        let budget = try FrameBudget(
            json: #"{"version": 1, "traces": [{"match": "feed-*", "limits": {"hitch-time-ratio": 100}}]}"#)
        let verdict = budget.check(test.recorder, named: "feed-scroll")
        #expect(verdict.passed, "\(verdict)")
        #expect(verdict.rules.map(\.limitPath) == ["traces[0].limits.hitch-time-ratio"])
        #expect(verdict.rules.first?.limitText == "100.00 ms/s (traces[0])")
    }

    @Test(
        "Bad budget input throws an error that says what and where",
        arguments: [
            (
                #"{"version": 1, "limits": {"hitch-time-ratio": "5"}}"#, FrameBudgetError.Code.wrongType,
                "limits.hitch-time-ratio: expected a number, got a string"
            ),
            (
                #"{"version": 1, "limits": {"hitch-ratio": 5}}"#, .unknownKey,
                "limits.hitch-ratio: unknown key; expected one of hitch-time-ratio, "
                    + "slow-frame-share, frozen-frames, main-thread-ms, overrun-ms, lane-ms, hitch-time-ratio-by-cause, delivery-latency-frames"
            ),
            (
                "{\"version\": 1,\n \"limits\": {", .invalidJSON,
                "line 2, column 13: the input ends where a member name or '}' was expected"
            ),
            (#"{"limits": {}}"#, .missingKey, #"version: missing; a budget file says "version": 1"#),
        ])
    func badBudget(json: String, code: FrameBudgetError.Code, description: String) {
        #expect {
            _ = try FrameBudget(json: json)
        } throws: { error in
            guard let error = error as? FrameBudgetError else { return false }
            return error.code == code && error.file == nil && error.description == description
        }
        // Bytes (Data) say the same.
        #expect(throws: FrameBudgetError.self) { _ = try FrameBudget(json: Data(json.utf8)) }
    }

    @Test("A budget file's errors name the file; a missing file or trace is unreadable, a non-trace invalid")
    func badFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let budgetPath = directory.appendingPathComponent("budget.json").path
        try Data(#"{"version": 1, "limits": {"slow-frame-share": 5}}"#.utf8).write(to: URL(fileURLWithPath: budgetPath))
        let invalid = #expect(throws: FrameBudgetError.self) { _ = try FrameBudget(contentsOf: budgetPath) }
        #expect(invalid?.code == .invalidValue)
        #expect(invalid?.path == "limits.slow-frame-share")
        #expect(
            invalid?.description
                == "\(budgetPath): limits.slow-frame-share: expected a share from 0 to 1 (0.05 is 5%), got 5")

        let missing = #expect(throws: FrameBudgetError.self) {
            _ = try FrameBudget(contentsOf: directory.appendingPathComponent("gone.json").path)
        }
        #expect(missing?.code == .unreadableFile)
        #expect(missing?.description.hasPrefix(directory.appendingPathComponent("gone.json").path + ": ") == true)

        let budget = try FrameBudget(json: RecordedFrames.budget)
        let noTrace = #expect(throws: FrameBudgetError.self) {
            _ = try budget.check(traceAt: directory.appendingPathComponent("gone.json").path)
        }
        #expect(noTrace?.code == .unreadableFile)
        let notATracePath = directory.appendingPathComponent("not-a-trace.json").path
        try Data("{\n  nope".utf8).write(to: URL(fileURLWithPath: notATracePath))
        let notATrace = #expect(throws: FrameBudgetError.self) { _ = try budget.check(traceAt: notATracePath) }
        #expect(notATrace?.code == .invalidTrace)
        #expect(notATrace?.file == notATracePath)
        #expect(notATrace?.line == 2)
    }
}

/// The Getting Started article's example, as written there (GettingStarted.md, "Hold frames to a
/// budget in a test"), so the article cannot drift from what passes.
private struct FeedLayout {
    let recorder: Recorder
    let layoutCell: () -> Void

    func layoutVisibleCells(_ count: Int) {
        recorder.withSpan("layout visible cells", category: .layout) {
            for _ in 0..<count { layoutCell() }
        }
    }
}

@Suite("The Getting Started article's budget test")
struct GettingStartedBudgetTests {
    /// The article's test, with the cost of a cell's layout as a parameter.
    static func verdict(cellMilliseconds: Int) throws -> BudgetVerdict {
        let test = TestRecorder()
        let feed = FeedLayout(
            recorder: test.recorder, layoutCell: { test.advance(by: .milliseconds(cellMilliseconds)) })
        let interval: Int64 = 16_666_667
        for index in 0..<120 {
            let vsync = Int64(index) * interval
            test.clock.set(nanoseconds: vsync)
            test.recorder.withFrame(vsync: vsync, deadline: vsync + interval, index: index) {
                feed.layoutVisibleCells(4)
            }
        }
        let budget = try FrameBudget(
            json: """
                {"version": 1, "fps": 60,
                 "limits": {"hitch-time-ratio": 5, "frozen-frames": 0, "main-thread-ms": {"p95": 12}},
                 "categories": {"layout": {"main-ms-per-frame": {"p95": 6}}}}
                """)
        return budget.check(test)
    }

    @Test("As written, it passes")
    func passes() throws {
        let verdict = try Self.verdict(cellMilliseconds: 1)
        #expect(verdict.passed, "\(verdict)")
    }

    @Test("With 4 ms cells, it fails with the lines the article shows")
    func failsAsShown() throws {
        let verdict = try Self.verdict(cellMilliseconds: 4)
        #expect(!verdict.passed)
        #expect(
            verdict.description == """
                budget exceeded: FAIL, 2 of 4 rules exceeded, across 1 trace
                - main-thread-ms.p95: recording: main-thread cost per frame, p95 is 16.00 ms, over the limit 12.00 ms (limits.main-thread-ms.p95)
                - categories.layout.main-ms-per-frame.p95: recording: layout: main-thread time per frame, p95 is 16.00 ms, over the limit 6.00 ms (categories.layout.main-ms-per-frame.p95)
                """)
    }
}
