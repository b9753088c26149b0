import FrameAnalysis
import FrameTrace

/// What checking a recording or a trace file against a ``FrameBudget`` found: every rule that
/// applied, its measured figure, its limit and its outcome, as `framescope check` prints them.
///
/// Its description is what a failing test needs to say, in a few lines: the check's result line,
/// then each broken rule with its figure and its limit (the sentence `framescope check` annotates
/// it with), then anything that could not be checked. Hand it to the test's message:
///
/// ```swift
/// let verdict = budget.check(test)
/// #expect(verdict.passed, "\(verdict)")                 // Swift Testing
/// XCTAssert(verdict.passed, verdict.description)       // XCTest
/// ```
///
/// A failing verdict's description:
///
/// ```
/// budget exceeded: FAIL, 2 of 4 rules exceeded, across 1 trace
/// - main-thread-ms.p95: recording: main-thread cost per frame, p95 is 16.00 ms, over the limit 12.00 ms (limits.main-thread-ms.p95)
/// - categories.layout.main-ms-per-frame.p95: recording: layout: main-thread time per frame, p95 is 16.00 ms, over the limit 6.00 ms (categories.layout.main-ms-per-frame.p95)
/// ```
///
/// ``report`` holds the whole table, as `framescope check` prints it.
public struct BudgetVerdict: Sendable, Hashable, CustomStringConvertible {
    /// Whether the check passed: no rule over its limit, and nothing left unchecked (see
    /// ``errors``). `framescope check` exits 0 exactly when this is true.
    public let passed: Bool
    /// Every rule of the budget that applied, in the budget's order (summary limits, then
    /// percentiles, then categories).
    public let rules: [Rule]
    /// Why the check could not check everything: the trace has no frames, no rule of the budget
    /// applies to it, or a rule limits a category no checked trace has. Each is a sentence as
    /// `framescope check` prints it after `error:`; any of them fails the verdict, since a check
    /// that checked nothing must not pass.
    public let errors: [String]
    /// Trace sections of the budget that matched no trace: reported, but they do not fail the
    /// verdict (a budget file written for several scenarios has sections for the others).
    public let warnings: [String]
    /// The frames the check measured (0 when the trace had none).
    public let frameCount: Int
    /// The check as `framescope check` prints it in its text format: a heading, the table of
    /// rules (rule, measured, limit, verdict), error and warning lines, and the result line.
    public let report: String
    /// `FAIL, 2 of 4 rules exceeded, across 1 trace`, as the check's result line says it.
    let resultLine: String

    init(_ check: BudgetCheck) {
        passed = check.passed && !check.hasErrors
        rules = check.results.map(Rule.init)
        errors = check.errorLines { $0 }
        warnings = check.warningLines { $0 }
        frameCount = check.traces.reduce(0) { $0 + $1.frameCount }
        report = check.text()
        resultLine = check.resultLine
    }

    /// The rules over their limit, in the budget's order.
    public var brokenRules: [Rule] { rules.filter { $0.outcome == .fail } }

    /// The result line, then each broken rule with its figure and its limit and what could not be
    /// checked (`budget exceeded: ...` or `budget not checked: ...`), or every rule when the
    /// verdict passed (`within budget: ...`).
    public var description: String {
        var lines: [String]
        if passed {
            lines = ["within budget: \(resultLine)"] + rules.map { "- \($0)" }
        } else {
            lines = ["\(brokenRules.isEmpty ? "budget not checked" : "budget exceeded"): \(resultLine)"]
            lines += brokenRules.map { "- \($0)" }
            lines += errors.map { "- error: \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

extension BudgetVerdict {
    /// One rule of the budget, measured: its id, figure, limit and outcome.
    public struct Rule: Sendable, Hashable, CustomStringConvertible {
        /// The rule's id, the key path in the budget file below `limits` (or from `categories`):
        /// `hitch-time-ratio`, `main-thread-ms.p95`, `categories.layout.main-ms-per-frame.p95`.
        public let id: String
        /// What is measured, for people: `hitch time ratio`, `layout: main-thread time per frame, p95`.
        public let summary: String
        /// The measured figure in ``unit``; `nil` when there was nothing to measure (no frames,
        /// or the category is not in the trace).
        public let measured: Double?
        /// The limit in ``unit``; a figure exactly at it passes.
        public let limit: Double
        /// The unit of ``measured`` and ``limit``: `ms`, `ms/s` (hitch milliseconds per measured
        /// second), `share` (0 to 1) or `frames`.
        public let unit: String
        /// Where the budget sets the limit, e.g. `limits.hitch-time-ratio` or
        /// `traces[0].categories.diff-apply.main-ms-total`.
        public let limitPath: String
        /// Pass, near the limit, fail, or not in the trace.
        public let outcome: Outcome
        /// The measured figure as `framescope check` prints it: `30.00 ms/s`, `5.0%`, `no frames`.
        public let measuredText: String
        /// The limit as `framescope check` prints it: `5.00 ms/s`, with `(traces[N])` when a
        /// trace section set it.
        public let limitText: String
        /// For a broken rule, the sentence `framescope check` annotates it with:
        /// `recording: hitch time ratio is 30.00 ms/s, over the limit 5.00 ms/s (limits.hitch-time-ratio)`.
        let finding: String

        init(_ result: RuleResult) {
            id = result.id
            summary = result.summary
            measured = result.measured
            limit = result.limit
            unit = result.unit.rawValue
            limitPath = result.limitPath
            outcome = Outcome(rawValue: result.verdict.rawValue)
            measuredText = BudgetCheck.measured(result)
            limitText = BudgetCheck.limit(result)
            finding = BudgetCheck.finding(result)
        }

        /// `hitch-time-ratio: 30.00 ms/s, limit 5.00 ms/s: fail`; for a broken rule, its
        /// `framescope check` finding after the id.
        public var description: String {
            outcome == .fail ? "\(id): \(finding)" : "\(id): \(measuredText), limit \(limitText): \(outcome)"
        }
    }

    /// A rule's outcome. A struct rather than an enum, so that a new outcome is not a breaking
    /// change; compare with `==`.
    public struct Outcome: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The identifier `framescope check --format json` writes as the rule's `verdict`.
        public let rawValue: String
        /// Creates an outcome from its identifier.
        /// - Parameter rawValue: The identifier, e.g. `fail`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// Within the limit, with more than 10% of it to spare.
        public static let pass = Outcome(rawValue: "pass")
        /// Within the limit, but at 90% of it or more: passes, and is flagged.
        public static let nearLimit = Outcome(rawValue: "near-limit")
        /// Over the limit, or nothing could be measured: fails the verdict.
        public static let fail = Outcome(rawValue: "fail")
        /// Not judged: the rule limits a category the trace does not have.
        public static let notInTrace = Outcome(rawValue: "not-in-trace")
    }
}
