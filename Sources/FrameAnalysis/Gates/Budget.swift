package import FrameTrace

/// Frame-time budgets for a CI gate: absolute limits a trace must stay within, per-category limits,
/// sections that apply to traces matched by name, and the thresholds `compare` uses to call a
/// change a regression.
///
/// A budget is usually read from a versioned JSON file with ``parse(_:)``; the FrameScope
/// catalog's Continuous Integration article (`ContinuousIntegration.md`) documents every key. ``rules(forTraceNamed:)`` flattens it into the rules that
/// apply to one trace, and ``BudgetCheck/evaluate(report:traceName:budget:)`` measures them.
///
/// ```swift
/// let budget = try Budget.parse(#"{"version": 1, "limits": {"hitch-time-ratio": 5}}"#)
/// let results = BudgetCheck.evaluate(report: report, traceName: "scroll.json", budget: budget)
/// ```
package struct Budget: Sendable, Hashable {
    /// The budget file version this framescope reads.
    package static let supportedVersion = 1

    /// The frame rate traces are judged against (`fps`, 1–1000 in a file); it wins over a trace's
    /// metadata (an explicit `--fps` wins over it). `nil` lets the trace say, else 60 Hz.
    package var frameRate: FrameRate?
    /// Names of spans or instants that mark frames (`frame-markers`), as `--frame-marker`; the
    /// command line's come first.
    package var frameMarkers: [String] = []
    /// Limits for every trace.
    package var limits: Limits
    /// Per-category limits for every trace, in file order.
    package var categories: [CategoryLimits]
    /// Sections that add or override limits for traces whose file name matches, in file order.
    package var traceSections: [TraceSection]
    /// The thresholds `compare` uses, if the file has a `regression` section.
    package var regression: RegressionThresholds?

    /// Creates a budget.
    /// - Parameters:
    ///   - frameRate: The frame rate traces are judged against, or `nil` to let each trace say.
    ///   - limits: Limits for every trace.
    ///   - categories: Per-category limits for every trace.
    ///   - traceSections: Sections for traces matched by name.
    ///   - regression: Thresholds for `compare`.
    package init(
        frameRate: FrameRate? = nil, limits: Limits = Limits(), categories: [CategoryLimits] = [],
        traceSections: [TraceSection] = [], regression: RegressionThresholds? = nil
    ) {
        self.frameRate = frameRate
        self.limits = limits
        self.categories = categories
        self.traceSections = traceSections
        self.regression = regression
    }

    /// A percentile a limit applies to: the ones every report shows.
    package enum Percentile: String, Sendable, Hashable, CaseIterable, Comparable {
        /// The median.
        case p50
        /// The 90th percentile.
        case p90
        /// The 95th percentile.
        case p95
        /// The 99th percentile.
        case p99
        /// The largest value.
        case max

        /// Orders percentiles from p50 to max.
        package static func < (lhs: Percentile, rhs: Percentile) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// This percentile of a summary.
        /// - Parameter summary: Per-frame values.
        /// - Returns: The value at this percentile.
        package func value<Value>(in summary: PercentileSummary<Value>) -> Value {
            switch self {
            case .p50: summary.p50
            case .p90: summary.p90
            case .p95: summary.p95
            case .p99: summary.p99
            case .max: summary.max
            }
        }
    }

    /// Limits on a trace's summary figures (the JSON `limits` object).
    package struct Limits: Sendable, Hashable {
        /// Most hitch milliseconds per measured second (`hitch-time-ratio`).
        package var hitchTimeRatio: Double?
        /// Largest share of frames that may be slow, 0 to 1 (`slow-frame-share`).
        package var slowFrameShare: Double?
        /// Most frozen frames (`frozen-frames`).
        package var frozenFrames: Int?
        /// Per-frame main-thread cost limits in milliseconds, by percentile (`main-thread-ms`).
        package var mainThreadMilliseconds: [Percentile: Double]
        /// Per-frame overrun limits in milliseconds, by percentile (`overrun-ms`); negative
        /// limits demand headroom.
        package var overrunMilliseconds: [Percentile: Double]
        /// Per lane, percentiles of its cost per frame, in milliseconds (`limits.lane-ms.render.p95`).
        package var laneMilliseconds: [Lane: [Percentile: Double]] = [:]
        /// Hitch milliseconds per measured second caused by one lane (`limits.hitch-time-ratio-by-cause.render`).
        package var hitchTimeRatioByCause: [HitchCause: Double] = [:]
        /// Percentiles of background delivery latency, in frames (`limits.delivery-latency-frames.p95`).
        package var deliveryLatencyFrames: [Percentile: Double] = [:]

        /// Creates limits; every one is optional.
        package init(
            hitchTimeRatio: Double? = nil, slowFrameShare: Double? = nil, frozenFrames: Int? = nil,
            mainThreadMilliseconds: [Percentile: Double] = [:], overrunMilliseconds: [Percentile: Double] = [:]
        ) {
            self.hitchTimeRatio = hitchTimeRatio
            self.slowFrameShare = slowFrameShare
            self.frozenFrames = frozenFrames
            self.mainThreadMilliseconds = mainThreadMilliseconds
            self.overrunMilliseconds = overrunMilliseconds
        }
    }

    /// Limits on one category's main-thread time (a member of the JSON `categories` object).
    package struct CategoryLimits: Sendable, Hashable {
        /// The category as named in traces, e.g. `layout` or `image-decode`.
        package var name: String
        /// Limits on the category's main-thread milliseconds per frame, by percentile
        /// (`main-ms-per-frame`).
        package var mainMillisecondsPerFrame: [Percentile: Double]
        /// A limit on the category's main-thread milliseconds over the whole trace (`main-ms-total`).
        package var mainMillisecondsTotal: Double?
        /// `true`: the category must not run on the main thread at all (`off-main-thread`);
        /// `false` in a trace section lifts an inherited requirement; `nil` says nothing.
        package var offMainThread: Bool?

        /// Creates category limits.
        package init(
            name: String, mainMillisecondsPerFrame: [Percentile: Double] = [:], mainMillisecondsTotal: Double? = nil,
            offMainThread: Bool? = nil
        ) {
            self.name = name
            self.mainMillisecondsPerFrame = mainMillisecondsPerFrame
            self.mainMillisecondsTotal = mainMillisecondsTotal
            self.offMainThread = offMainThread
        }
    }

    /// Limits for traces whose file name matches a glob (an element of the JSON `traces` array).
    package struct TraceSection: Sendable, Hashable {
        /// A glob on the trace's file name: `*` matches any run of characters, `?` one character.
        package var match: String
        /// Limits that override (key by key) or add to the top-level ones.
        package var limits: Limits
        /// Category limits that override (key by key) or add to the top-level ones.
        package var categories: [CategoryLimits]

        /// Creates a section.
        package init(match: String, limits: Limits = Limits(), categories: [CategoryLimits] = []) {
            self.match = match
            self.limits = limits
            self.categories = categories
        }
    }

    /// One limit that applies to a trace, after trace sections have been merged in.
    package struct Rule: Sendable, Hashable {
        /// What a rule measures.
        package enum Metric: Sendable, Hashable {
            /// The hitch time ratio, in ms/s.
            case hitchTimeRatio
            /// Slow frames as a share of all frames.
            case slowFrameShare
            /// The number of frozen frames.
            case frozenFrames
            /// A percentile of per-frame main-thread cost, in ms.
            case mainThread(Percentile)
            /// A percentile of per-frame overrun, in ms.
            case overrun(Percentile)
            /// A percentile of one category's main-thread ms per frame.
            /// A lane's cost per frame at a percentile, in milliseconds.
            case laneCost(Lane, Percentile)
            /// Hitch time caused by one lane, in ms per measured second.
            case hitchTimeRatioByCause(HitchCause)
            /// Background delivery latency at a percentile, in frames.
            case deliveryLatency(Percentile)
            case categoryPerFrame(String, Percentile)
            /// One category's main-thread ms over the whole trace.
            case categoryTotal(String)
            /// One category's main-thread ms, which must be 0.
            case categoryOffMainThread(String)
        }

        /// The rule's stable identifier, the key path below `limits` (or from `categories`):
        /// `hitch-time-ratio`, `main-thread-ms.p95`, `categories.layout.main-ms-per-frame.p95`.
        package var id: String
        /// What it measures.
        package var metric: Metric
        /// The largest value that passes (a value exactly at the limit passes).
        package var limit: Double
        /// Where in the budget file the limit was set, e.g. `traces[0].limits.hitch-time-ratio`.
        package var path: String

        /// Creates a rule.
        package init(id: String, metric: Metric, limit: Double, path: String) {
            self.id = id
            self.metric = metric
            self.limit = limit
            self.path = path
        }
    }

    /// The rules that apply to a trace: the top-level limits, then each matching trace section
    /// in file order, whose limits replace those with the same id and add the others.
    ///
    /// ```swift
    /// budget.rules(forTraceNamed: "diffable-update--reload.json").map(\.id)
    /// // ["hitch-time-ratio", "main-thread-ms.p95", "categories.layout.main-ms-per-frame.p95"]
    /// ```
    /// - Parameter name: The trace's file name (the last path component), matched against each
    ///   section's glob.
    /// - Returns: The rules in a stable order: summary limits, percentile limits, then
    ///   categories in the order the file first names them.
    package func rules(forTraceNamed name: String) -> [Rule] {
        var rules = Self.rules(limits: limits, categories: categories, prefix: "")
        for (index, section) in traceSections.enumerated() where Budget.glob(section.match, matches: name) {
            let prefix = "traces[\(index)]."
            for rule in Self.rules(limits: section.limits, categories: section.categories, prefix: prefix) {
                if let existing = rules.firstIndex(where: { $0.id == rule.id }) {
                    rules[existing] = rule
                } else {
                    rules.append(rule)
                }
            }
            // `off-main-thread: false` lifts an inherited requirement.
            for category in section.categories where category.offMainThread == false {
                rules.removeAll { $0.metric == .categoryOffMainThread(category.name) }
            }
        }
        return Self.ordered(rules)
    }

    private static func rules(limits: Limits, categories: [CategoryLimits], prefix: String) -> [Rule] {
        var rules: [Rule] = []
        func add(_ id: String, _ metric: Rule.Metric, _ limit: Double?, under section: String = "limits.") {
            guard let limit else { return }
            rules.append(Rule(id: id, metric: metric, limit: limit, path: prefix + section + id))
        }
        add("hitch-time-ratio", .hitchTimeRatio, limits.hitchTimeRatio)
        add("slow-frame-share", .slowFrameShare, limits.slowFrameShare)
        add("frozen-frames", .frozenFrames, limits.frozenFrames.map(Double.init))
        for percentile in Percentile.allCases {
            add(
                "main-thread-ms.\(percentile.rawValue)", .mainThread(percentile),
                limits.mainThreadMilliseconds[percentile])
        }
        for percentile in Percentile.allCases {
            add("overrun-ms.\(percentile.rawValue)", .overrun(percentile), limits.overrunMilliseconds[percentile])
        }
        for lane in Lane.allCases {
            for percentile in Percentile.allCases {
                add(
                    "lane-ms.\(lane.identifier).\(percentile.rawValue)", .laneCost(lane, percentile),
                    limits.laneMilliseconds[lane]?[percentile])
            }
        }
        for cause in HitchCause.allCases {
            add(
                "hitch-time-ratio-by-cause.\(cause.identifier)", .hitchTimeRatioByCause(cause),
                limits.hitchTimeRatioByCause[cause])
        }
        for percentile in Percentile.allCases {
            add(
                "delivery-latency-frames.\(percentile.rawValue)", .deliveryLatency(percentile),
                limits.deliveryLatencyFrames[percentile])
        }
        for category in categories {
            let key = BudgetParser.join("categories", category.name)
            for percentile in Percentile.allCases {
                add(
                    key + ".main-ms-per-frame.\(percentile.rawValue)", .categoryPerFrame(category.name, percentile),
                    category.mainMillisecondsPerFrame[percentile], under: "")
            }
            add(key + ".main-ms-total", .categoryTotal(category.name), category.mainMillisecondsTotal, under: "")
            if category.offMainThread == true {
                add(key + ".off-main-thread", .categoryOffMainThread(category.name), 0, under: "")
            }
        }
        return rules
    }

    /// Summary rules first, then main-thread and overrun percentiles, then categories grouped in
    /// order of first appearance.
    /// - Complexity: O(*n* log *n*) in the number of rules (a budget may name 100,000 categories).
    private static func ordered(_ rules: [Rule]) -> [Rule] {
        var categoryNumbers: [String: Int] = [:]
        for rule in rules {
            if let name = rule.metric.categoryName, categoryNumbers[name] == nil {
                categoryNumbers[name] = categoryNumbers.count
            }
        }
        func key(_ rule: Rule) -> [Int] {
            switch rule.metric {
            case .hitchTimeRatio: [0, 0, 0]
            case .slowFrameShare: [0, 1, 0]
            case .frozenFrames: [0, 2, 0]
            case .mainThread(let p): [1, 0, Percentile.allCases.firstIndex(of: p)!]
            case .overrun(let p): [2, 0, Percentile.allCases.firstIndex(of: p)!]
            case .laneCost(let lane, let p):
                [2, 1 + Lane.allCases.firstIndex(of: lane)!, Percentile.allCases.firstIndex(of: p)!]
            case .hitchTimeRatioByCause(let cause): [0, 3, HitchCause.allCases.firstIndex(of: cause)!]
            case .deliveryLatency(let p): [2, 20, Percentile.allCases.firstIndex(of: p)!]
            case .categoryPerFrame(let name, let p):
                [3, categoryNumbers[name]!, Percentile.allCases.firstIndex(of: p)!]
            case .categoryTotal(let name): [3, categoryNumbers[name]!, 10]
            case .categoryOffMainThread(let name): [3, categoryNumbers[name]!, 11]
            }
        }
        let keys = rules.enumerated().map { key($0.element) + [$0.offset] }
        return rules.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }.map { rules[$0] }
    }
}

extension Budget.Rule.Metric {
    /// The category the metric is about, if any.
    package var categoryName: String? {
        switch self {
        case .categoryPerFrame(let name, _), .categoryTotal(let name), .categoryOffMainThread(let name): name
        default: nil
        }
    }
}

/// When `compare` calls a difference between two sets of runs a change: the statistical test must
/// be significant at ``alpha`` **and** the estimated change must be at least both minimum effects.
///
/// The defaults — alpha 0.01, 10% and 0.25 ms — make two runs of the same code pass (a false alarm
/// needs a 1-in-100 test result *and* a 10% apparent change, which noise in a few hundred frames
/// rarely produces) while a 20% main-thread regression, twice the relative minimum, fails.
/// 0.25 ms keeps categories that cost a fraction of a millisecond from flagging on jitter; it is
/// 1.5% of a 60 Hz frame.
package struct RegressionThresholds: Sendable, Hashable {
    /// The significance level, strictly between 0 and 1: a Mann–Whitney p-value below it, or a
    /// (1 − alpha) bootstrap interval that excludes 0, counts as significant.
    package var alpha: Double
    /// The smallest change, relative to the base value, that counts: 0.1 is 10%.
    package var minimumRelativeEffect: Double
    /// The smallest change in milliseconds that counts.
    package var minimumAbsoluteMilliseconds: Double

    /// alpha 0.01, minimum relative effect 10%, minimum absolute effect 0.25 ms.
    package static let defaults = RegressionThresholds(
        alpha: 0.01, minimumRelativeEffect: 0.1, minimumAbsoluteMilliseconds: 0.25)

    /// Creates thresholds.
    /// - Parameters:
    ///   - alpha: The significance level, strictly between 0 and 1.
    ///   - minimumRelativeEffect: At least 0.
    ///   - minimumAbsoluteMilliseconds: At least 0.
    package init(alpha: Double, minimumRelativeEffect: Double, minimumAbsoluteMilliseconds: Double) {
        precondition(alpha > 0 && alpha < 1, "alpha is strictly between 0 and 1")
        precondition(minimumRelativeEffect >= 0 && minimumRelativeEffect.isFinite, "minimumRelativeEffect must be >= 0")
        precondition(
            minimumAbsoluteMilliseconds >= 0 && minimumAbsoluteMilliseconds.isFinite,
            "minimumAbsoluteMilliseconds must be >= 0")
        self.alpha = alpha
        self.minimumRelativeEffect = minimumRelativeEffect
        self.minimumAbsoluteMilliseconds = minimumAbsoluteMilliseconds
    }
}
