package import FrameTrace

/// The unit a measured value and its limit are in (renderers print it: `MetricUnit.format(_:)`
/// in Rendering/ReportPhrases.swift).
package enum MetricUnit: String, Sendable, Hashable {
    /// Milliseconds: `12.34 ms`.
    case milliseconds = "ms"
    /// Hitch milliseconds per measured second: `4.20 ms/s`.
    case millisecondsPerSecond = "ms/s"
    /// A share between 0 and 1, printed as a percentage: `5.0%`.
    case share
    /// A count of frames: `3`.
    case frames
}

/// The outcome of one budget rule on one trace.
package struct RuleResult: Sendable, Hashable {
    /// Whether the measured value is within the limit.
    package enum Verdict: String, Sendable, Hashable, Comparable {
        /// Within the limit, with more than 10% of it to spare.
        case pass
        /// Within the limit, but at 90% of it or more: passes, and is flagged as a warning.
        case nearLimit = "near-limit"
        /// Over the limit (or nothing could be measured): fails the check.
        case fail
        /// Not judged: the rule limits a category the trace does not have. Neither passes nor
        /// fails; a check where no trace has the category is an error
        /// (``BudgetCheck/unknownCategories``).
        case notInTrace = "not-in-trace"

        /// Orders verdicts from not judged, through pass, to fail.
        package static func < (lhs: Verdict, rhs: Verdict) -> Bool {
            let order: [Verdict] = [.notInTrace, .pass, .nearLimit, .fail]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// The rule's id, e.g. `hitch-time-ratio` or `categories.layout.main-ms-per-frame.p95`.
    package var id: String
    /// The trace's name (its file name).
    package var traceName: String
    /// What is measured, for people: `layout: main-thread ms per frame, p95`.
    package var summary: String
    /// The measured value in ``unit``; `nil` when the trace has no frames to measure or does not
    /// have the rule's category.
    package var measured: Double?
    /// The limit in ``unit``; a value exactly at it passes.
    package var limit: Double
    /// The unit of ``measured`` and ``limit``.
    package var unit: MetricUnit
    /// Where the budget file sets the limit, e.g. `limits.hitch-time-ratio` or
    /// `traces[0].categories.layout.main-ms-total`.
    package var limitPath: String
    /// Pass, near the limit, fail, or not in the trace.
    package var verdict: Verdict
    /// The category the rule limits, for category rules.
    package var category: String?

    /// Creates a result.
    package init(
        id: String, traceName: String, summary: String, measured: Double?, limit: Double, unit: MetricUnit,
        limitPath: String,
        verdict: Verdict, category: String? = nil
    ) {
        self.category = category
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
    package var excess: Double {
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
package struct BudgetCheck: Sendable, Hashable {
    /// The version of the `framescope.check` JSON schema ``json()`` writes.
    package static let schemaVersion = 2

    /// The budget file's path as given, for headings.
    package var budgetSource: String
    /// One entry per trace, in the order given.
    package var traces: [TraceResult]

    /// One trace's rules.
    package struct TraceResult: Sendable, Hashable {
        /// The trace's file name, which trace sections match.
        package var name: String
        /// The path as given (or `-` for stdin).
        package var source: String
        /// Frames found.
        package var frameCount: Int
        /// Where the frames came from.
        package var frameSource: FrameReport.FrameSource
        /// The frame rate whose interval `P` the trace was judged against.
        package var frameRate: FrameRate
        /// Where `P` came from: `trace metadata`, `--fps N`, `budget fps N`, `default 60 fps`.
        package var frameIntervalSource: FrameReport.FrameIntervalSource
        /// Every rule that applies to the trace, in the budget's order.
        package var rules: [RuleResult]
        /// Main-thread cost per frame, downsampled, for the Markdown summary's chart.
        package var chart: FrameChart
        /// The categories the trace has (any span, on any thread), sorted.
        package var categories: [String]

        /// Creates a trace's entry from its report, evaluating the budget.
        /// - Parameters:
        ///   - name: The trace's file name.
        ///   - source: The path as given.
        ///   - report: The trace's analysis.
        ///   - budget: The budget.
        package init(name: String, source: String, report: FrameReport, budget: Budget) {
            self.name = name
            self.source = source
            frameCount = report.summary.frameCount
            frameSource = report.method.frameSource
            frameRate = report.method.frameRate
            frameIntervalSource = report.method.frameIntervalSource
            rules = BudgetCheck.evaluate(report: report, traceName: name, budget: budget)
            chart = FrameChart(report: report)
            categories = Set(report.categories.map(\.name)).sorted()
        }

        /// The worst verdict among the rules (`pass` without rules).
        package var verdict: RuleResult.Verdict { rules.map(\.verdict).max() ?? .pass }

        /// The rules that were judged: every rule but those ``RuleResult/Verdict/notInTrace``.
        package var judgedRules: [RuleResult] { rules.filter { $0.verdict != .notInTrace } }
    }

    /// A trace the check could not judge: it exits 3, and the trace is reported as an error.
    package struct SkippedTrace: Sendable, Hashable {
        /// Why a trace was not checked.
        package enum Reason: Sendable, Hashable {
            /// It could not be read: the reader's one-line reason.
            case unreadable(String)
            /// It has no frames, so nothing in it can be measured.
            case noFrames
            /// No rule of the budget applies to it (none at all, or only rules on categories it
            /// does not have): checking it would check nothing.
            case noRules

            /// A stable identifier: `unreadable`, `no-frames`, `no-rules`.
            package var identifier: String {
                switch self {
                case .unreadable: "unreadable"
                case .noFrames: "no-frames"
                case .noRules: "no-rules"
                }
            }
        }

        /// The trace's file name.
        package var name: String
        /// The path as given.
        package var source: String
        /// Why it was not checked.
        package var reason: Reason

        /// Creates an entry.
        package init(name: String, source: String, reason: Reason) {
            self.name = name
            self.source = source
            self.reason = reason
        }
    }

    /// A category that rules of the budget limit but that none of the checked traces has: most
    /// often a typo, which would otherwise switch the rule off silently. An error (exit 3).
    package struct UnknownCategory: Sendable, Hashable {
        /// The category as the budget names it.
        package var name: String
        /// Where the budget limits it (`categories.NAME`, `traces[0].categories.NAME`), once each.
        package var paths: [String]
        /// The existing category nearest to it by edit distance, if any trace has categories.
        package var suggestion: String?

        /// Creates an entry.
        package init(name: String, paths: [String], suggestion: String?) {
            self.name = name
            self.paths = paths
            self.suggestion = suggestion
        }
    }

    /// A trace section of the budget whose `match` fits none of the traces given: a warning,
    /// since its limits then apply to nothing.
    package struct UnmatchedSection: Sendable, Hashable {
        /// The section's index in the budget's `traces` array.
        package var index: Int
        /// Its glob.
        package var match: String

        /// Creates an entry.
        package init(index: Int, match: String) {
            self.index = index
            self.match = match
        }
    }

    /// The Markdown summary charts at most this many traces (each a few kilobytes), so a CI
    /// step summary stays far under GitHub's 1 MiB limit however many traces a check reads.
    package static let maximumCharts = 20

    /// Traces that were given but not checked, in the order given.
    package var skippedTraces: [SkippedTrace] = []
    /// Categories the budget limits that none of the checked traces has.
    package var unknownCategories: [UnknownCategory] = []
    /// Trace sections of the budget that match none of the traces given.
    package var unmatchedSections: [UnmatchedSection] = []

    /// Creates a check from evaluated traces, as they are.
    package init(budgetSource: String, traces: [TraceResult]) {
        self.budgetSource = budgetSource
        self.traces = traces
    }

    /// Creates a check that cannot pass by checking nothing.
    ///
    /// Traces without frames, and traces to which no rule of the budget applies, become
    /// ``skippedTraces`` beside the unreadable ones; a category that rules limit but no checked
    /// trace has becomes an ``unknownCategories`` entry naming the nearest existing category; a
    /// trace section whose `match` fits none of the given traces (read or not) becomes an
    /// ``unmatchedSections`` warning.
    ///
    /// ```swift
    /// let check = BudgetCheck(budgetSource: "budget.json", budget: budget, traces: results,
    ///                         unreadable: [.init(name: "gone.json", source: "gone.json", reason: .unreadable("gone.json: no such file"))])
    /// check.hasErrors   // true: exit 3, after reporting the traces that could be read
    /// ```
    /// - Parameters:
    ///   - budgetSource: The budget file's path as given.
    ///   - budget: The budget.
    ///   - traces: The traces that were read, evaluated, in the order given.
    ///   - unreadable: The traces that could not be read.
    package init(budgetSource: String, budget: Budget, traces: [TraceResult], unreadable: [SkippedTrace] = []) {
        self.budgetSource = budgetSource
        var checked: [TraceResult] = []
        var skipped = unreadable
        for trace in traces {
            if trace.frameCount == 0 {
                skipped.append(SkippedTrace(name: trace.name, source: trace.source, reason: .noFrames))
            } else if trace.rules.isEmpty {
                skipped.append(SkippedTrace(name: trace.name, source: trace.source, reason: .noRules))
            } else {
                checked.append(trace)
            }
        }
        let existing = Set(traces.flatMap(\.categories))
        let suggestions = Suggestions(existing)
        var unknown: [UnknownCategory] = []
        var unknownIndex: [String: Int] = [:]
        for rule in checked.flatMap(\.rules) {
            guard let name = rule.category, !existing.contains(name) else { continue }
            let path =
                rule.limitPath.hasPrefix("traces[")
                ? String(rule.limitPath.prefix { $0 != "]" }) + "].categories.\(name)" : "categories.\(name)"
            if let index = unknownIndex[name] {
                if !unknown[index].paths.contains(path) { unknown[index].paths.append(path) }
            } else {
                unknownIndex[name] = unknown.count
                let suggestion = unknown.count < Self.suggestedCount ? suggestions.nearest(to: name) : nil
                unknown.append(UnknownCategory(name: name, paths: [path], suggestion: suggestion))
            }
        }
        // A trace whose only rules limit categories that it lacks checks nothing, unless the
        // category is unknown altogether, which is the error to report instead.
        let unknownNames = Set(unknown.map(\.name))
        self.traces = checked.filter { trace in
            guard trace.judgedRules.isEmpty else { return true }
            if trace.rules.contains(where: { $0.category.map(unknownNames.contains) ?? false }) { return true }
            skipped.append(SkippedTrace(name: trace.name, source: trace.source, reason: .noRules))
            return false
        }
        let given = traces.map(\.name) + unreadable.map(\.name)
        skippedTraces = skipped
        unknownCategories = unknown
        unmatchedSections = budget.traceSections.enumerated().compactMap { index, section in
            given.contains { Budget.glob(section.match, matches: $0) }
                ? nil : UnmatchedSection(index: index, match: section.match)
        }
    }

    /// Every rule of every trace.
    package var results: [RuleResult] { traces.flatMap(\.rules) }

    /// Whether no rule failed. The check's exit status is 3 when it ``hasErrors``, else 0 when
    /// this is true and 1 otherwise.
    package var passed: Bool { !results.contains { $0.verdict == .fail } }

    /// Whether something could not be checked: a trace skipped or a category no trace has.
    package var hasErrors: Bool { !skippedTraces.isEmpty || !unknownCategories.isEmpty }

    /// How many unknown categories get a "did you mean" suggestion: the first ones. A budget
    /// can name 100,000 categories a trace lacks; each suggestion looks at every name.
    static let suggestedCount = 50

    /// The existing names a misspelt one is compared with.
    struct Suggestions {
        /// The longest name, in characters, that is suggested or given a suggestion.
        static let longestName = 100
        /// The names, sorted, as characters; longer ones are left out.
        private let names: [(name: String, characters: [Character])]

        init(_ names: Set<String>) {
            self.names = names.filter { $0.utf8.count <= 4 * Self.longestName }.sorted()
                .map { ($0, Array($0)) }.filter { $0.1.count <= Self.longestName }
        }

        /// The name nearest to `name` by edit distance, if it is near: at most a third of its
        /// length away (at least 2). Ties go to the first in sorted order.
        /// - Complexity: O(*n* × *k* × *d*) for *n* names of length *k* and the distance *d*
        ///   allowed: rows of the distance table stop once every cell is past the best so far.
        func nearest(to name: String) -> String? {
            let a = Array(name)
            guard a.count <= Self.longestName else { return nil }
            var limit = max(2, a.count / 3)
            var best: String?
            // Sorted names: a later one must be strictly nearer to win.
            for (candidate, b) in names where abs(a.count - b.count) <= limit {
                guard let distance = BudgetCheck.editDistance(a, b, atMost: limit) else { continue }
                best = candidate
                if distance == 0 { break }
                limit = distance - 1
            }
            return best
        }
    }

    /// The Levenshtein distance between two strings, in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a), Array(b), atMost: .max)!
    }

    /// The Levenshtein distance between two character arrays, or `nil` once it is sure to be
    /// more than `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        var previous = Array(0...b.count)
        var current = previous
        for i in a.indices {
            current[0] = i + 1
            var smallest = current[0]
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                smallest = min(smallest, current[j + 1])
            }
            if smallest > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// Measures every rule of the budget that applies to a trace.
    ///
    /// A value exactly at its limit passes; at 90% of a positive limit or more it passes as
    /// ``RuleResult/Verdict/nearLimit``. A trace without frames fails every rule, since nothing
    /// in it could be measured. A rule on a category the trace does not have is
    /// ``RuleResult/Verdict/notInTrace``: not `0 ms, pass`.
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
    package static func evaluate(report: FrameReport, traceName: String, budget: Budget) -> [RuleResult] {
        let measure = RuleMeasurement(report: report)
        return budget.rules(forTraceNamed: traceName).map { rule in
            let (summary, unit) = describe(rule.metric)
            let measured = measure.value(of: rule.metric)
            let verdict: RuleResult.Verdict
            if let category = rule.metric.categoryName, !measure.has(category) {
                verdict = .notInTrace
            } else if let measured, measured <= rule.limit {
                verdict = rule.limit > 0 && measured >= 0.9 * rule.limit ? .nearLimit : .pass
            } else {
                verdict = .fail
            }
            return RuleResult(
                id: rule.id, traceName: traceName, summary: summary, measured: measured, limit: rule.limit, unit: unit,
                limitPath: rule.path, verdict: verdict, category: rule.metric.categoryName)
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
        case .hitchTimeRatioByCause(let cause):
            ("hitch time ratio caused by \(cause.identifier)", .millisecondsPerSecond)
        case .deliveryLatency(let p): ("background delivery latency, \(p.rawValue)", .frames)
        case .categoryPerFrame(let name, let p): ("\(name): main-thread time per frame, \(p.rawValue)", .milliseconds)
        case .categoryTotal(let name): ("\(name): main-thread time in total", .milliseconds)
        case .categoryOffMainThread(let name):
            ("\(name): main-thread time (must stay off the main thread)", .milliseconds)
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

    /// Whether the trace has a category (any span in it, on any thread).
    func has(_ category: String) -> Bool { categories[category] != nil }

    func value(of metric: Budget.Rule.Metric) -> Double? {
        let summary = report.summary
        guard summary.frameCount > 0 else { return nil }
        switch metric {
        case .hitchTimeRatio:
            // An Instruments export with no frame table and no TOC has no length: not a 0 that passes.
            return summary.isMeasuredTimeKnown ? summary.hitchTimeRatio : nil
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
            return (Double(summary.hitchNanosecondsByCause[cause] ?? 0) / 1e6)
                / (Double(summary.measuredNanoseconds) / 1e9)
        case .deliveryLatency(let p):
            return report.lanes.first { $0.lane == .background }?.deliveryLatencyFrames.map { Double(p.value(in: $0)) }
        case .categoryPerFrame(let name, let p):
            guard has(name) else { return nil }
            // A category that ran, but never on the main thread, costs 0 ms in every frame.
            guard let perFrame = categories[name]?.perFrameMain else { return 0 }
            return milliseconds(p.value(in: perFrame))
        case .categoryTotal(let name), .categoryOffMainThread(let name):
            return categories[name].map { milliseconds($0.mainNanoseconds) }
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
    ///   - trace: The trace; one handed over (`consume`) has its events freed during the analysis,
    ///     as ``FrameAnalyzer/analyze(_:options:)`` does.
    ///   - options: Analysis options; an explicit frame rate there wins over the budget's.
    /// - Returns: The report.
    package func analyze(_ trace: consuming Trace, options: AnalysisOptions) -> FrameReport {
        var adjusted = options
        adjusted.frameMarkers += frameMarkers.filter { !options.frameMarkers.contains($0) }
        guard let frameRate, options.frameRate == nil else {
            return FrameAnalyzer.analyze(consume trace, options: adjusted)
        }
        adjusted.frameRate = frameRate
        adjusted.frameRateRequester = .budget
        return FrameAnalyzer.analyze(consume trace, options: adjusted)
    }
}
