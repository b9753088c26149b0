public import FrameTrace

/// The unit a measured value and its limit are in, which also says how to print them.
public enum MetricUnit: String, Sendable, Hashable {
    /// Milliseconds: `12.34 ms`.
    case milliseconds = "ms"
    /// Hitch milliseconds per measured second: `4.20 ms/s`.
    case millisecondsPerSecond = "ms/s"
    /// A share between 0 and 1, printed as a percentage: `5.0%`.
    case share
    /// A count of frames: `3`.
    case frames

    /// A value in this unit for people: fixed decimals and the unit.
    /// - Parameter value: The value.
    /// - Returns: For example `12.34 ms`, `4.20 ms/s`, `5.0%` or `3`.
    public func format(_ value: Double) -> String {
        switch self {
        case .milliseconds: ReportFormat.fixed(value, decimals: 2) + " ms"
        case .millisecondsPerSecond: ReportFormat.fixed(value, decimals: 2) + " ms/s"
        case .share: ReportFormat.percent(value)
        case .frames: ReportFormat.fixed(value, decimals: 0)
        }
    }
}

/// The outcome of one budget rule on one trace.
public struct RuleResult: Sendable, Hashable {
    /// Whether the measured value is within the limit.
    public enum Verdict: String, Sendable, Hashable, Comparable {
        /// Within the limit, with more than 10% of it to spare.
        case pass
        /// Within the limit, but at 90% of it or more: passes, and is flagged as a warning.
        case nearLimit = "near-limit"
        /// Over the limit (or nothing could be measured): fails the check.
        case fail

        /// Orders verdicts from pass to fail.
        public static func < (lhs: Verdict, rhs: Verdict) -> Bool {
            let order: [Verdict] = [.pass, .nearLimit, .fail]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// The rule's id, e.g. `hitch-time-ratio` or `categories.layout.main-ms-per-frame.p95`.
    public var id: String
    /// The trace's name (its file name).
    public var traceName: String
    /// What is measured, for people: `layout: main-thread ms per frame, p95`.
    public var summary: String
    /// The measured value in ``unit``; `nil` when the trace has no frames to measure.
    public var measured: Double?
    /// The limit in ``unit``; a value exactly at it passes.
    public var limit: Double
    /// The unit of ``measured`` and ``limit``.
    public var unit: MetricUnit
    /// Where the budget file sets the limit, e.g. `limits.hitch-time-ratio` or
    /// `traces[0].categories.layout.main-ms-total`.
    public var limitPath: String
    /// Pass, near the limit, or fail.
    public var verdict: Verdict

    /// Creates a result.
    public init(
        id: String, traceName: String, summary: String, measured: Double?, limit: Double, unit: MetricUnit, limitPath: String,
        verdict: Verdict
    ) {
        self.id = id
        self.traceName = traceName
        self.summary = summary
        self.measured = measured
        self.limit = limit
        self.unit = unit
        self.limitPath = limitPath
        self.verdict = verdict
    }

    /// How far past the limit the value is, relative to the limit, for ordering findings worst
    /// first: `(measured − limit) / limit`; for a limit of 0 or less, relative to one unit
    /// (1 ms, 1 ms/s, 1 frame, 1 percentage point) instead; infinite when nothing was measured.
    public var excess: Double {
        guard let measured else { return .infinity }
        let scale = limit > 0 ? limit : unit == .share ? 0.01 : 1
        return (measured - limit) / scale
    }
}

/// The outcome of checking one or more traces against a budget: every rule with its measured
/// value, limit and verdict.
///
/// ```swift
/// let budget = try Budget.parse(budgetBytes)
/// let report = budget.analyze(trace, options: AnalysisOptions())
/// let check = BudgetCheck(budgetSource: "budget.json", traces: [
///     .init(name: "scroll.json", source: "Traces/scroll.json", report: report, budget: budget),
/// ])
/// print(check.text())
/// exit(check.passed ? 0 : 1)
/// ```
public struct BudgetCheck: Sendable, Hashable {
    /// The version of the `framescope.check` JSON schema ``jsonValue()`` writes.
    public static let schemaVersion = 1

    /// The budget file's path as given, for headings.
    public var budgetSource: String
    /// One entry per trace, in the order given.
    public var traces: [TraceResult]

    /// One trace's rules.
    public struct TraceResult: Sendable, Hashable {
        /// The trace's file name, which trace sections match.
        public var name: String
        /// The path as given (or `-` for stdin).
        public var source: String
        /// Frames found.
        public var frameCount: Int
        /// Where the frames came from.
        public var frameSource: FrameReport.FrameSource
        /// The frame interval `P` used, in nanoseconds.
        public var frameIntervalNanoseconds: Int64
        /// Where `P` came from: `trace metadata`, `--fps N`, `budget fps N`, `default 60 fps`.
        public var frameIntervalSource: String
        /// Every rule that applies to the trace, in the budget's order.
        public var rules: [RuleResult]
        /// Main-thread cost per frame, downsampled, for the Markdown summary's chart.
        public var chart: FrameChart

        /// Creates a trace's entry from its report, evaluating the budget.
        /// - Parameters:
        ///   - name: The trace's file name.
        ///   - source: The path as given.
        ///   - report: The trace's analysis.
        ///   - budget: The budget.
        public init(name: String, source: String, report: FrameReport, budget: Budget) {
            self.name = name
            self.source = source
            frameCount = report.summary.frameCount
            frameSource = report.method.frameSource
            frameIntervalNanoseconds = report.method.frameIntervalNanoseconds
            frameIntervalSource = report.method.frameIntervalSource
            rules = BudgetCheck.evaluate(report: report, traceName: name, budget: budget)
            chart = FrameChart(report: report)
        }

        /// The worst verdict among the rules (`pass` without rules).
        public var verdict: RuleResult.Verdict { rules.map(\.verdict).max() ?? .pass }
    }

    /// The Markdown summary charts at most this many traces (each a few kilobytes), so a CI
    /// step summary stays far under GitHub's 1 MiB limit however many traces a check reads.
    public static let maximumCharts = 20

    /// Creates a check from evaluated traces.
    public init(budgetSource: String, traces: [TraceResult]) {
        self.budgetSource = budgetSource
        self.traces = traces
    }

    /// Every rule of every trace.
    public var results: [RuleResult] { traces.flatMap(\.rules) }

    /// Whether no rule failed: the check's exit status is 0 when true, 1 otherwise.
    public var passed: Bool { !results.contains { $0.verdict == .fail } }

    /// Measures every rule of the budget that applies to a trace.
    ///
    /// A value exactly at its limit passes; at 90% of a positive limit or more it passes as
    /// ``RuleResult/Verdict/nearLimit``. A trace without frames fails every rule, since nothing
    /// in it could be measured.
    ///
    /// ```swift
    /// let results = BudgetCheck.evaluate(report: report, traceName: "feed.json", budget: budget)
    /// let failed = results.filter { $0.verdict == .fail }.map(\.id)
    /// ```
    /// - Parameters:
    ///   - report: The trace's analysis.
    ///   - traceName: The trace's file name, matched against the budget's trace sections.
    ///   - budget: The budget.
    /// - Returns: One result per rule, in ``Budget/rules(forTraceNamed:)`` order.
    /// - Complexity: O(*r* + *c* · *f* log *f*) for *r* rules, *c* limited categories and *f* frames.
    public static func evaluate(report: FrameReport, traceName: String, budget: Budget) -> [RuleResult] {
        let measure = RuleMeasurement(report: report)
        return budget.rules(forTraceNamed: traceName).map { rule in
            let (summary, unit) = describe(rule.metric)
            let measured = measure.value(of: rule.metric)
            let verdict: RuleResult.Verdict
            if let measured, measured <= rule.limit {
                verdict = rule.limit > 0 && measured >= 0.9 * rule.limit ? .nearLimit : .pass
            } else {
                verdict = .fail
            }
            return RuleResult(
                id: rule.id, traceName: traceName, summary: summary, measured: measured, limit: rule.limit, unit: unit,
                limitPath: rule.path, verdict: verdict)
        }
    }

    /// What a metric is called, and its unit.
    static func describe(_ metric: Budget.Rule.Metric) -> (String, MetricUnit) {
        switch metric {
        case .hitchTimeRatio: ("hitch time ratio", .millisecondsPerSecond)
        case .slowFrameShare: ("share of slow frames", .share)
        case .frozenFrames: ("frozen frames", .frames)
        case .mainThread(let p): ("main-thread cost per frame, \(p.rawValue)", .milliseconds)
        case .overrun(let p): ("overrun per frame, \(p.rawValue)", .milliseconds)
        case .laneCost(let lane, let p): ("\(lane.identifier) lane cost per frame, \(p.rawValue)", .milliseconds)
        case .hitchTimeRatioByCause(let cause): ("hitch time ratio caused by \(cause.identifier)", .millisecondsPerSecond)
        case .deliveryLatency(let p): ("background delivery latency, \(p.rawValue)", .frames)
        case .categoryPerFrame(let name, let p): ("\(name): main-thread time per frame, \(p.rawValue)", .milliseconds)
        case .categoryTotal(let name): ("\(name): main-thread time in total", .milliseconds)
        case .categoryOffMainThread(let name): ("\(name): main-thread time (must stay off the main thread)", .milliseconds)
        }
    }
}

/// Reads the value a rule limits from a report.
struct RuleMeasurement {
    let report: FrameReport
    private let categories: [String: FrameReport.CategoryFigures]

    init(report: FrameReport) {
        self.report = report
        categories = Dictionary(report.categories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func value(of metric: Budget.Rule.Metric) -> Double? {
        let summary = report.summary
        guard summary.frameCount > 0 else { return nil }
        switch metric {
        case .hitchTimeRatio:
            return summary.hitchTimeRatio
        case .slowFrameShare:
            return Double(summary.slowFrames) / Double(summary.frameCount)
        case .frozenFrames:
            return Double(summary.frozenFrames)
        case .mainThread(let p):
            return summary.mainThreadCost.map { milliseconds(p.value(in: $0)) }
        case .overrun(let p):
            return summary.overrun.map { milliseconds(p.value(in: $0)) }
        case .laneCost(let lane, let p):
            // A lane the trace does not have cannot be measured: the rule fails rather than pass on nothing.
            return report.lanes.first { $0.lane == lane }?.cost.map { milliseconds(p.value(in: $0)) }
        case .hitchTimeRatioByCause(let cause):
            guard summary.measuredNanoseconds > 0 else { return nil }
            return (Double(summary.hitchNanosecondsByCause[cause] ?? 0) / 1e6) / (Double(summary.measuredNanoseconds) / 1e9)
        case .deliveryLatency(let p):
            return report.lanes.first { $0.lane == .background }?.deliveryLatencyFrames.map { Double(p.value(in: $0)) }
        case .categoryPerFrame(let name, let p):
            // A category that never ran costs 0 ms in every frame.
            guard let perFrame = categories[name]?.perFrameMain else { return 0 }
            return milliseconds(p.value(in: perFrame))
        case .categoryTotal(let name), .categoryOffMainThread(let name):
            return milliseconds(categories[name]?.mainNanoseconds ?? 0)
        }
    }

    /// Nanoseconds as milliseconds; exact for limits written with up to six decimals, since both
    /// the division and the parsed limit round to the nearest double.
    private func milliseconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e6 }
}

extension Budget {
    /// Analyses a trace, using the budget's `fps` unless the options give a frame rate: an
    /// explicit rate wins over the trace's metadata, since the budget states the display the
    /// trace is judged against.
    ///
    /// The report's frame-interval source then reads `budget fps N`, with what it overrode.
    ///
    /// ```swift
    /// let report = budget.analyze(trace, options: AnalysisOptions())
    /// ```
    /// - Parameters:
    ///   - trace: The trace.
    ///   - options: Analysis options; an explicit frame rate there wins over the budget's.
    /// - Returns: The report.
    public func analyze(_ trace: Trace, options: AnalysisOptions) -> FrameReport {
        var adjusted = options
        adjusted.frameMarkers += frameMarkers.filter { !options.frameMarkers.contains($0) }
        guard let framesPerSecond, options.framesPerSecond == nil else {
            return FrameAnalyzer.analyze(trace, options: adjusted)
        }
        adjusted.framesPerSecond = framesPerSecond
        adjusted.framesPerSecondLabel = "budget fps"
        return FrameAnalyzer.analyze(trace, options: adjusted)
    }
}
