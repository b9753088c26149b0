import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Budget files: parsing and errors")
struct BudgetParsingTests {
    static let full = """
        {
          "version": 1,
          "description": "every key",
          "fps": 120,
          "limits": {
            "hitch-time-ratio": 5, "slow-frame-share": 0.05, "frozen-frames": 0,
            "main-thread-ms": {"p50": 4, "p90": 6, "p95": 8.33, "p99": 10, "max": 40},
            "overrun-ms": {"p95": -1.5, "max": 0}
          },
          "categories": {
            "layout": {"main-ms-per-frame": {"p95": 4}, "main-ms-total": 500},
            "image-decode": {"off-main-thread": true},
            "a.b": {"main-ms-total": 1}
          },
          "traces": [
            {"match": "diffable-update--*", "description": "lists",
             "limits": {"hitch-time-ratio": 10}, "categories": {"diff-apply": {"main-ms-per-frame": {"max": 2}}}}
          ],
          "regression": {"alpha": 0.05, "min-relative": 0.2, "min-absolute-ms": 0.5}
        }
        """

    @Test("A budget's fps is a frame rate: whole or fractional, rounded to the interval once")
    func fractionalFrameRate() throws {
        #expect(try Budget.parse(#"{"version": 1, "fps": 60}"#).frameRate == .standard)
        let ntsc = try #require(try Budget.parse(#"{"version": 1, "fps": 59.94}"#).frameRate)
        #expect(ntsc.hertz == 59.94)
        #expect(ntsc.intervalNanoseconds == 16_683_350)
        #expect(try Budget.parse(#"{"version": 1}"#).frameRate == nil)
    }

    @Test("A file using every key reads into the model")
    func parsesEveryKey() throws {
        let budget = try Budget.parse(Self.full)
        #expect(budget.frameRate == FrameRate(hertz: 120))
        #expect(budget.limits.hitchTimeRatio == 5)
        #expect(budget.limits.slowFrameShare == 0.05)
        #expect(budget.limits.frozenFrames == 0)
        #expect(budget.limits.mainThreadMilliseconds == [.p50: 4, .p90: 6, .p95: 8.33, .p99: 10, .max: 40])
        #expect(budget.limits.overrunMilliseconds == [.p95: -1.5, .max: 0])
        #expect(budget.categories.map(\.name) == ["layout", "image-decode", "a.b"])
        #expect(budget.categories[0].mainMillisecondsPerFrame == [.p95: 4])
        #expect(budget.categories[0].mainMillisecondsTotal == 500)
        #expect(budget.categories[1].offMainThread == true)
        #expect(budget.traceSections.count == 1)
        #expect(budget.traceSections[0].match == "diffable-update--*")
        #expect(budget.traceSections[0].limits.hitchTimeRatio == 10)
        #expect(budget.traceSections[0].categories[0].mainMillisecondsPerFrame == [.max: 2])
        #expect(
            budget.regression
                == RegressionThresholds(alpha: 0.05, minimumRelativeEffect: 0.2, minimumAbsoluteMilliseconds: 0.5))
    }

    @Test("The smallest file is a version; a regression section's missing keys take the defaults")
    func minimalFile() throws {
        let budget = try Budget.parse(#"{"version": 1}"#)
        #expect(budget == Budget())
        #expect(budget.rules(forTraceNamed: "x.json").isEmpty)
        let partial = try Budget.parse(#"{"version": 1, "regression": {"alpha": 0.05}}"#)
        #expect(
            partial.regression
                == RegressionThresholds(alpha: 0.05, minimumRelativeEffect: 0.1, minimumAbsoluteMilliseconds: 0.25))
    }

    @Test("The budgets the project ships parse", arguments: ["feed-60fps.json", "ci-example.json"])
    func shippedBudgetsParse(name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Traces/budgets/\(name)").standardized
        let budget = try Budget.parse([UInt8](try Data(contentsOf: url)))
        #expect(!budget.rules(forTraceNamed: "diffable-update--reload.json").isEmpty)
    }

    @Test(
        "Schema errors name the JSON path and say what was expected",
        arguments: [
            (
                #"{"version": 1, "categories": {"layout": {"main-ms-per-frame": {"p95": "4"}}}}"#,
                BudgetError.Code.wrongType, "categories.layout.main-ms-per-frame.p95: expected a number, got a string"
            ),
            (
                #"{"version": 1, "limits": {"hitch-ratio": 5}}"#,
                .unknownKey,
                "limits.hitch-ratio: unknown key; expected one of hitch-time-ratio, slow-frame-share, frozen-frames, main-thread-ms, overrun-ms, lane-ms, hitch-time-ratio-by-cause, delivery-latency-frames"
            ),
            (
                #"{"version": 1, "limits": {"main-thread-ms": {"p97": 5}}}"#,
                .unknownKey, "limits.main-thread-ms.p97: unknown key; expected one of p50, p90, p95, p99, max"
            ),
            (
                #"{"version": 1, "colour": "red"}"#, .unknownKey,
                "colour: unknown key; expected one of version, description, fps, frame-markers, limits, categories, traces, regression"
            ),
            (
                #"{"version": 1, "limits": {"frozen-frames": 0, "frozen-frames": 1}}"#, .duplicateKey,
                "limits.frozen-frames: duplicate key; each key may appear once"
            ),
            (
                #"{"version": 1, "limits": {"frozen-frames": 0.5}}"#, .wrongType,
                "limits.frozen-frames: expected an integer, got a number"
            ),
            (
                #"{"version": 1, "limits": {"frozen-frames": -1}}"#, .invalidValue,
                "limits.frozen-frames: expected a count of at least 0, got -1"
            ),
            (
                #"{"version": 1, "limits": {"hitch-time-ratio": -5}}"#, .invalidValue,
                "limits.hitch-time-ratio: expected a number of at least 0, got -5"
            ),
            (
                #"{"version": 1, "limits": {"slow-frame-share": 5}}"#, .invalidValue,
                "limits.slow-frame-share: expected a share from 0 to 1 (0.05 is 5%), got 5"
            ),
            (#"{"version": 1, "limits": []}"#, .wrongType, "limits: expected an object, got an array"),
            (
                #"{"version": 1, "categories": {"image-decode": {"off-main-thread": "yes"}}}"#,
                .wrongType, "categories.image-decode.off-main-thread: expected true or false, got a string"
            ),
            (
                #"{"version": 1, "categories": {"a.b": {"main-ms-total": null}}}"#, .wrongType,
                #"categories["a.b"].main-ms-total: expected a number, got null"#
            ),
            (
                #"{"version": 1, "categories": {"": {}}}"#, .invalidValue,
                #"categories[""]: a category name cannot be empty"#
            ),
            (#"{"version": 1, "traces": {}}"#, .wrongType, "traces: expected an array of sections, got an object"),
            (
                #"{"version": 1, "traces": [{"limits": {}}]}"#, .missingKey,
                "traces[0].match: missing; a trace section needs a glob on the trace's file name"
            ),
            (
                #"{"version": 1, "traces": [{"match": "*"}, {"match": "a*", "limits": {"overrun-ms": {"p95": true}}}]}"#,
                .wrongType, "traces[1].limits.overrun-ms.p95: expected a number, got a Boolean"
            ),
            (
                #"{"version": 1, "regression": {"alpha": 1}}"#, .invalidValue,
                "regression.alpha: expected a significance level between 0 and 1 (exclusive), got 1"
            ),
            (
                #"{"version": 1, "regression": {"min-relative": -0.1}}"#, .invalidValue,
                "regression.min-relative: expected a number of at least 0, got -0.1"
            ),
            (#"{"version": 1, "fps": 0}"#, .invalidValue, "fps: expected a frame rate from 1 to 1000, got 0"),
            (#"{"version": 1, "fps": 1e-300}"#, .invalidValue, "fps: expected a frame rate from 1 to 1000, got 1e-300"),
            (#"{"version": 1, "fps": -60}"#, .invalidValue, "fps: expected a frame rate from 1 to 1000, got -60"),
            (#"{"version": 1, "fps": 1001}"#, .invalidValue, "fps: expected a frame rate from 1 to 1000, got 1001"),
            (#"{"version": 1, "fps": 1e300}"#, .invalidValue, "fps: expected a frame rate from 1 to 1000, got 1e+300"),
            (#"{"version": 1, "fps": 1e999}"#, .invalidValue, "fps: expected a finite number"),
            (#"{"version": 1, "fps": "60"}"#, .wrongType, "fps: expected a number, got a string"),
            (
                #"{"version": 1, "frame-markers": "doFrame"}"#, .wrongType,
                "frame-markers: expected an array of span or instant names, got a string"
            ),
            (#"{"limits": {}}"#, .missingKey, #"version: missing; a budget file says "version": 1"#),
            (#"{"version": "1"}"#, .wrongType, "version: expected the integer 1, got a string"),
            (
                #"{"version": 2}"#, .unsupportedVersion,
                "version: unsupported version 2; this framescope reads version 1"
            ),
            (#"[1, 2]"#, .wrongType, "a budget file is a JSON object, got an array"),
        ])
    func schemaErrors(text: String, code: BudgetError.Code, message: String) throws {
        let error = try #require(throws: BudgetError.self) { try Budget.parse(text) }
        #expect(error.code == code)
        #expect(error.description == message)
        #expect(error.line == 0)
    }

    @Test(
        "JSON syntax errors give the line and column",
        arguments: [
            ("{\"version\": 1,\n  \"limits\": {\"frozen-frames\": 0,,}}", 2, 33),
            ("{\"version\": 1", 1, 14),
            ("", 1, 1),
        ])
    func syntaxErrors(text: String, line: Int, column: Int) throws {
        let error = try #require(throws: BudgetError.self) { try Budget.parse(text) }
        #expect(error.code == .invalidJSON)
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.description.hasPrefix("line \(line), column \(column): "))
    }
}
