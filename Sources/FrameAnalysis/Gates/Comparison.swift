import FrameTrace

/// A noise-aware comparison of two sets of runs, base and head: per metric, the per-frame
/// distributions of both sides, how far head moved, whether that is more than noise, and a verdict.
///
/// Frames from several runs per side are pooled. Each metric is judged twice:
///
/// - **Typical frame.** A two-sided Mann–Whitney U test on the per-frame values, and the
///   Hodges–Lehmann estimate of the shift (head − base, about the change of the median).
/// - **Slow tail.** The change of the p95, with a bootstrap confidence interval at
///   1 − alpha. A bimodal cost — most frames cheap, one in six expensive — can get 20% worse in
///   its expensive frames while its median does not move; the p95 sees it.
///
/// A metric **regressed** when either judgement is both significant (p < alpha, or an interval
/// above 0) and at least both minimum effects (relative to the base value, and in ms). It is a
/// **possible regression** (a warning that passes) when head is worse by the minimum effects but
/// not significantly; an **improvement** when better by the same rules; otherwise **unchanged**.
///
/// ```swift
/// let comparison = Comparison(base: [before], head: [after], baseSources: ["before.json"], headSources: ["after.json"])
/// print(comparison.text())
/// exit(comparison.passed ? 0 : 1)
/// ```
package struct Comparison: Sendable, Hashable {
    /// The version of the `framescope.compare` JSON schema ``json()`` writes.
    package static let schemaVersion = 1

    /// The base traces' paths, for headings.
    package var baseSources: [String]
    /// The head traces' paths.
    package var headSources: [String]
    /// Frames pooled from the base runs.
    package var baseFrameCount: Int
    /// Frames pooled from the head runs.
    package var headFrameCount: Int
    /// Where the base runs' frames came from, each source once, in run order.
    package var baseFrameSources: [FrameReport.FrameSource] = []
    /// Where the head runs' frames came from.
    package var headFrameSources: [FrameReport.FrameSource] = []
    /// The thresholds the verdicts used.
    package var thresholds: RegressionThresholds
    /// Per-frame metrics with verdicts: main-thread cost, overrun, then each category's
    /// main-thread time per frame (largest first).
    package var metrics: [MetricComparison]
    /// Summary figures shown for information, without a verdict.
    package var summaries: [SummaryComparison]
    /// The first head trace's main-thread cost per frame, for the Markdown summary's chart;
    /// `nil` when it has no frames.
    package var headChart: FrameChart?
    /// What the comparison was computed from: traces, or frames rows (which carry no summary
    /// figure beyond the frame counts).
    package var input: Input = .traces
    /// Traces that were given but could not be read, with their one-line reasons: the
    /// comparison is of the other traces, and `compare` exits 3.
    package var unreadableTraces: [UnreadableTrace] = []

    /// What a comparison was computed from.
    package enum Input: String, Sendable, Hashable {
        /// Traces, analysed into reports: every metric and every summary figure.
        case traces
        /// Frames rows (`framescope report --format frames-jsonl`): every metric, the same as
        /// from the traces they were written from, but of the summary figures only the frame
        /// counts; hitch time ratio, slow-frame share and frozen frames need the reports.
        case frameRows = "frame-rows"
    }

    /// A trace `compare` could not read.
    package struct UnreadableTrace: Sendable, Hashable {
        /// The path as given.
        package var source: String
        /// The reader's one-line reason, naming the path.
        package var reason: String

        /// Creates an entry.
        package init(source: String, reason: String) {
            self.source = source
            self.reason = reason
        }
    }

    /// Compares pooled runs.
    ///
    /// Metrics: `main-thread-ms` (per-frame main-thread cost), `overrun-ms` (per-frame overrun),
    /// and `categories.NAME.main-ms-per-frame` for every category with main-thread time on
    /// either side (0 in frames where it did not run). Summaries: frames, hitch time ratio
    /// (total hitch time over total measured time), slow-frame share, frozen frames.
    /// - Parameters:
    ///   - base: Reports of the base runs; their frames are pooled.
    ///   - head: Reports of the head runs.
    ///   - baseSources: The base traces' paths, for output.
    ///   - headSources: The head traces' paths.
    ///   - thresholds: When a change counts.
    ///   - bootstrapResamples: Rounds for the p95 interval, at least 1.
    /// - Complexity: O(*m* · (*n* log *n* + *r* · *n*)) for *m* metrics, *n* frames and *r*
    ///   resamples; the bootstrap runs only where it can change a verdict. Memory is O(*n* + *e*)
    ///   for *e* category entries in all frames: a category's zeros are written only while its
    ///   metric is judged.
    package init(
        base: [FrameReport], head: [FrameReport], baseSources: [String], headSources: [String],
        thresholds: RegressionThresholds = .defaults, bootstrapResamples: Int = 2_000
    ) {
        self.init(
            base: ComparedRuns(reports: base), head: ComparedRuns(reports: head), baseSources: baseSources,
            headSources: headSources,
            thresholds: thresholds, bootstrapResamples: bootstrapResamples)
    }

    /// Compares the per-frame values of two sides, however they were read: the one computation
    /// behind ``init(base:head:baseSources:headSources:thresholds:bootstrapResamples:)`` and
    /// `compare --rows`.
    ///
    /// Metrics as for reports. Summaries: frames, and the figures that need a report's summary
    /// (hitch time ratio, slow-frame share, frozen frames, hitch time ratio by cause) only when
    /// both sides carry it; ``input`` says which.
    /// - Parameters:
    ///   - base: The base runs' frames, pooled.
    ///   - head: The head runs' frames, pooled.
    ///   - baseSources: The base inputs' paths, for output.
    ///   - headSources: The head inputs' paths.
    ///   - thresholds: When a change counts.
    ///   - bootstrapResamples: Rounds for the p95 interval, at least 1.
    /// - Complexity: As for reports.
    package init(
        base: ComparedRuns, head: ComparedRuns, baseSources: [String], headSources: [String],
        thresholds: RegressionThresholds = .defaults, bootstrapResamples: Int = 2_000
    ) {
        self.baseSources = baseSources
        self.headSources = headSources
        self.thresholds = thresholds
        baseFrameCount = base.frames.count
        headFrameCount = head.frames.count
        baseFrameSources = base.frameSources
        headFrameSources = head.frameSources
        headChart = head.chart
        metrics =
            Self.frameMetrics(base: base, head: head, thresholds: thresholds, bootstrapResamples: bootstrapResamples)
            + Self.categoryMetrics(
                base: base.frames, head: head.frames, thresholds: thresholds, bootstrapResamples: bootstrapResamples)
        summaries = [
            SummaryComparison(
                id: "frames", label: "frames", base: Double(baseFrameCount), head: Double(headFrameCount),
                unit: .frames)
        ]
        // The other figures need each run's report summary, which frames rows do not carry: a
        // figure computed without it would not mean its label, so it is left out.
        if let baseSummary = base.summary, let headSummary = head.summary {
            summaries += Self.summaryComparisons(
                base: baseSummary, baseFrames: baseFrameCount, head: headSummary, headFrames: headFrameCount)
        } else {
            input = .frameRows
        }
    }

    /// Main-thread cost, overrun and every lane's cost per frame, each side's values built
    /// straight from its frames: one Double per frame and side, without copying a frame (a frame
    /// holds a dictionary, and copying one retains it).
    private static func frameMetrics(
        base: ComparedRuns, head: ComparedRuns, thresholds: RegressionThresholds, bootstrapResamples: Int
    ) -> [MetricComparison] {
        let baseFrames = base.frames
        let headFrames = head.frames
        func milliseconds(_ frames: [ComparedRuns.Frame], _ value: (borrowing ComparedRuns.Frame) -> Int64) -> [Double]
        {
            var values = [Double]()
            values.reserveCapacity(frames.count)
            for index in frames.indices { values.append(Double(value(frames[index])) / 1e6) }
            return values
        }
        func compare(
            _ id: String, _ label: String, offset: Double = 0, _ value: (borrowing ComparedRuns.Frame) -> Int64
        ) -> MetricComparison {
            MetricComparison.compare(
                id: id, label: label, base: milliseconds(baseFrames, value), head: milliseconds(headFrames, value),
                thresholds: thresholds, bootstrapResamples: bootstrapResamples, relativeOffset: offset)
        }
        // Overrun is the time from vsync to commit minus the frame's budget P; a frame 10% slower
        // takes 10% longer from vsync to commit, so its overrun change is measured against that.
        let budgetNanoseconds: Int64? = SortedSample(baseFrames.map(\.budgetNanoseconds)).median
        let budget: Double = budgetNanoseconds.map { Double($0) / 1e6 } ?? 0
        var metrics = [
            compare("main-thread-ms", "main-thread cost per frame") { $0.mainNanoseconds },
            compare("overrun-ms", "overrun per frame", offset: budget) { $0.overrunNanoseconds },
        ]
        // Every lane but main (whose cost is the main-thread metric above) that either side has:
        // a frame without work in it counts 0.
        let lanes = base.lanes.union(head.lanes).subtracting([.main]).sorted()
        for lane in lanes {
            metrics.append(
                compare("lane-ms.\(lane.identifier)", "\(lane.identifier) lane cost per frame") { $0.cost(in: lane) })
        }
        return metrics
    }

    /// Main-thread time per frame in each category either side ran, largest total first. One
    /// pass over each side's frames collects, per category, only the frames it ran in; the frames
    /// it did not run in are zeros, added when its metric is compared. Memory is
    /// O(frames + category entries), and no frame is looked up once per category.
    private static func categoryMetrics(
        base baseFrames: [ComparedRuns.Frame], head headFrames: [ComparedRuns.Frame],
        thresholds: RegressionThresholds, bootstrapResamples: Int
    ) -> [MetricComparison] {
        var categoryIndex: [String: Int] = [:]
        var totals: [Int64] = []
        var nonzero: [(base: [Double], head: [Double])] = []
        for (isHead, frames) in [(false, baseFrames), (true, headFrames)] {
            for index in frames.indices {
                for (name, nanoseconds) in frames[index].mainByCategory where nanoseconds != 0 {
                    let category: Int
                    if let known = categoryIndex[name] {
                        category = known
                    } else {
                        category = totals.count
                        categoryIndex[name] = category
                        totals.append(0)
                        nonzero.append(([], []))
                    }
                    totals[category] = totals[category].addingSaturating(nanoseconds)
                    if isHead {
                        nonzero[category].head.append(Double(nanoseconds) / 1e6)
                    } else {
                        nonzero[category].base.append(Double(nanoseconds) / 1e6)
                    }
                }
            }
        }
        func withZeros(_ values: [Double], frames: Int) -> [Double] {
            var all = [Double](repeating: 0, count: max(0, frames - values.count))
            all.append(contentsOf: values)
            return all
        }
        let ranked = categoryIndex.filter { totals[$0.value] > 0 }.sorted {
            (totals[$0.value], $1.key) > (totals[$1.value], $0.key)
        }
        var metrics: [MetricComparison] = []
        for (name, category) in ranked {
            let label = "\(FrameAnalyzer.categoryLabel(name)): main-thread time per frame"
            metrics.append(
                MetricComparison.compare(
                    id: BudgetParser.join("categories", FrameAnalyzer.categoryLabel(name)) + ".main-ms-per-frame",
                    label: label,
                    base: withZeros(nonzero[category].base, frames: baseFrames.count),
                    head: withZeros(nonzero[category].head, frames: headFrames.count),
                    thresholds: thresholds, bootstrapResamples: bootstrapResamples))
            nonzero[category] = ([], [])
        }
        return metrics
    }

    /// The figures that need each side's report summary: hitch time ratio, slow-frame share,
    /// frozen frames, and the hitch time ratio of every cause either side has.
    private static func summaryComparisons(
        base b: ComparedRuns.Summary, baseFrames: Int, head h: ComparedRuns.Summary, headFrames: Int
    ) -> [SummaryComparison] {
        func ratio(_ hitch: Int64, _ measured: Int64) -> Double {
            measured > 0 ? (Double(hitch) / 1e6) / (Double(measured) / 1e9) : 0
        }
        func share(_ slow: Int, _ frames: Int) -> Double {
            frames > 0 ? Double(slow) / Double(frames) : 0
        }
        var summaries = [
            SummaryComparison(
                id: "hitch-time-ratio", label: "hitch time ratio",
                base: ratio(b.hitchNanoseconds, b.measuredNanoseconds),
                head: ratio(h.hitchNanoseconds, h.measuredNanoseconds), unit: .millisecondsPerSecond),
            SummaryComparison(
                id: "slow-frame-share", label: "slow frames", base: share(b.slowFrames, baseFrames),
                head: share(h.slowFrames, headFrames), unit: .share),
            SummaryComparison(
                id: "frozen-frames", label: "frozen frames", base: Double(b.frozenFrames), head: Double(h.frozenFrames),
                unit: .frames),
        ]
        let causes = Set(b.hitchNanosecondsByCause.keys).union(h.hitchNanosecondsByCause.keys).sorted()
        for cause in causes {
            summaries.append(
                SummaryComparison(
                    id: "hitch-time-ratio-by-cause.\(cause.identifier)",
                    label: "hitch time ratio caused by \(cause.identifier)",
                    base: ratio(b.hitchNanosecondsByCause[cause] ?? 0, b.measuredNanoseconds),
                    head: ratio(h.hitchNanosecondsByCause[cause] ?? 0, h.measuredNanoseconds),
                    unit: .millisecondsPerSecond))
        }
        return summaries
    }

    /// Whether any metric regressed (or a side had no frames): `compare` then exits 1. A metric
    /// with too few frames to judge does not fail.
    package var passed: Bool { !metrics.contains { $0.fails } }
}

/// One metric's per-frame distributions on both sides, and the verdict.
package struct MetricComparison: Sendable, Hashable {
    /// What the comparison concluded.
    package enum Verdict: String, Sendable, Hashable {
        /// Head is worse, significantly and by at least the minimum effects: fails.
        case regression
        /// Head is worse by at least the minimum effects, but not significantly: passes, with a
        /// warning.
        case possibleRegression = "possible-regression"
        /// Head is better, significantly and by at least the minimum effects.
        case improvement
        /// No change that is both significant and large enough.
        case unchanged
        /// Nothing could be judged: a side has no frames (fails), or fewer than
        /// ``MetricComparison/minimumFrames`` (passes, with a warning).
        case noData = "no-data"
    }

    /// Why a metric got its verdict: the facts its one-line reason states, without the words.
    ///
    /// The figures the reason quotes are the comparison's own (``shift``, ``relativeShift``,
    /// ``pValue``, ``p95Difference``, ``relativeP95Difference``, ``p95Interval``); the grounds say
    /// which of them decided the verdict. The renderers build the sentence (`reason`).
    package enum Grounds: Sendable, Hashable {
        /// A side has no frames, so nothing could be judged (``Verdict/noData``, which fails).
        case noFrames(Side)
        /// Both sides have frames, but at least one has fewer than ``MetricComparison/minimumFrames``
        /// (``Verdict/noData``, which passes): the two sides' frame counts.
        case tooFewFrames(base: Int, head: Int)
        /// Head moved significantly and by at least both minimum effects in these parts
        /// (``Verdict/regression`` when worse, ``Verdict/improvement`` when better).
        case significant(Parts)
        /// Head is worse by at least both minimum effects in this part (the typical frame when it
        /// is, else the slow tail), but not significantly at `alpha` (``Verdict/possibleRegression``).
        case notSignificant(Parts, alpha: Double)
        /// Neither part moved both significantly and by the minimum effects (``Verdict/unchanged``):
        /// both are quoted.
        case noChangeThatCounts
    }

    /// A side of the comparison.
    package enum Side: Sendable, Hashable {
        /// The base runs.
        case base
        /// The head runs.
        case head
    }

    /// Which of the two judgements of a metric a reason quotes.
    package enum Parts: Sendable, Hashable {
        /// The typical frame: the Hodges–Lehmann shift and the Mann–Whitney p-value.
        case typicalFrame
        /// The slow tail: the change of the p95, and its interval when one was computed.
        case slowTail
        /// Both, the typical frame first.
        case both
    }

    /// The fewest frames a side needs for a metric to be judged: 10.
    ///
    /// Below it the statistics cannot mean anything. The p95 of fewer than 20 frames is their
    /// maximum, and a bootstrap of a handful of samples redraws the same few values: one frame a
    /// side gives an interval of zero width around a single difference, which looks certain and
    /// is not. And a two-sided Mann–Whitney test of *m* and *n* frames cannot give a p-value below
    /// 2 / C(*m* + *n*, *m*): with 4 frames a side that is 0.029, so at the default alpha of 0.01
    /// no change could ever be significant. Ten a side is the smallest round number past both.
    package static let minimumFrames = 10

    /// Whether this metric fails the comparison: a regression, or no frames at all on a side.
    /// Too few frames to judge is ``Verdict/noData`` too, but passes.
    package var fails: Bool { verdict == .regression || (verdict == .noData && (base == nil || head == nil)) }

    /// The metric's id: `main-thread-ms`, `overrun-ms`, `categories.layout.main-ms-per-frame`.
    package var id: String
    /// What it is, for people.
    package var label: String
    /// The base side's per-frame values in ms; `nil` without frames.
    package var base: PercentileSummary<Double>?
    /// The head side's per-frame values in ms; `nil` without frames.
    package var head: PercentileSummary<Double>?
    /// The Hodges–Lehmann estimate of head − base, in ms: the median of all pairwise differences.
    package var shift: Double?
    /// ``shift`` relative to the magnitude of the base median (plus `P` for overrun); infinite for
    /// a shift away from 0.
    package var relativeShift: Double?
    /// The two-sided Mann–Whitney p-value.
    package var pValue: Double?
    /// Head p95 − base p95, in ms.
    package var p95Difference: Double?
    /// ``p95Difference`` relative to the magnitude of the base p95 (plus `P` for overrun);
    /// infinite for a change from 0.
    package var relativeP95Difference: Double?
    /// The bootstrap interval of ``p95Difference`` at confidence 1 − alpha; computed only when it
    /// can change the verdict: the p95 moved by at least the minimum effects and the typical
    /// frame has not already decided it.
    package var p95Interval: DifferenceInterval?
    /// The verdict.
    package var verdict: Verdict
    /// Why the verdict is what it is; the renderers put it in one line (`reason`):
    /// `median shift +1.62 ms (+20.3%), p < 0.0001`.
    package var grounds: Grounds

    /// Compares two samples of per-frame values.
    ///
    /// ```swift
    /// let result = MetricComparison.compare(id: "main-thread-ms", label: "main-thread cost per frame",
    ///                                       base: before, head: after, thresholds: .defaults)
    /// result.verdict   // .regression for a 20% slower main thread
    /// ```
    /// - Parameters:
    ///   - id: The metric's id.
    ///   - label: What it is, for people.
    ///   - base: The base runs' per-frame values, in ms.
    ///   - head: The head runs' per-frame values, in ms.
    ///   - thresholds: When a change counts.
    ///   - bootstrapResamples: Rounds for the p95 interval, at least 1.
    ///   - relativeOffset: Added to the base value that relative changes are measured against:
    ///     0 for costs; the frame interval `P` for overrun, so that its changes are relative to
    ///     the time from vsync to commit (overrun + `P`) rather than to an arbitrary zero at the
    ///     deadline.
    /// - Returns: The comparison; ``Verdict/noData`` when a side is empty (``Grounds/noFrames(_:)``)
    ///   or has fewer than ``minimumFrames`` values (``Grounds/tooFewFrames(base:head:)``), with
    ///   the two sides' summaries but no shift, p-value or interval.
    /// - Complexity: O(*n* log *n*), plus O(*r* · *n*) when the p95 interval is needed.
    package static func compare(
        id: String, label: String, base: [Double], head: [Double], thresholds: RegressionThresholds,
        bootstrapResamples: Int = 2_000,
        relativeOffset: Double = 0
    ) -> MetricComparison {
        var result = MetricComparison(
            id: id, label: label, base: PercentileSummary(base), head: PercentileSummary(head), verdict: .noData,
            grounds: .noFrames(base.isEmpty ? .base : .head))
        guard let baseSummary = result.base, let headSummary = result.head,
            let test = mannWhitneyTest(base: base, head: head), let shift = hodgesLehmannShift(base: base, head: head)
        else { return result }
        guard base.count >= minimumFrames, head.count >= minimumFrames else {
            result.grounds = .tooFewFrames(base: base.count, head: head.count)
            return result
        }
        let t = thresholds
        func relative(_ delta: Double, to value: Double) -> Double {
            let reference = value + relativeOffset
            return reference != 0
                ? delta / abs(reference) : delta == 0 ? 0 : Double(signOf: delta, magnitudeOf: .infinity)
        }
        /// Whether a change of `delta` (positive = worse) meets both minimum effects.
        func isLarge(_ delta: Double, relative: Double) -> Bool {
            delta >= t.minimumAbsoluteMilliseconds && relative >= t.minimumRelativeEffect && delta > 0
        }
        result.shift = shift
        result.relativeShift = relative(shift, to: baseSummary.p50)
        result.pValue = test.pValue
        let p95Delta = headSummary.p95 - baseSummary.p95
        result.p95Difference = p95Delta
        result.relativeP95Difference = relative(p95Delta, to: baseSummary.p95)

        let centerWorse = isLarge(shift, relative: result.relativeShift!)
        let centerBetter = isLarge(-shift, relative: -result.relativeShift!)
        let centerSignificant = test.pValue < t.alpha
        let tailWorse = isLarge(p95Delta, relative: result.relativeP95Difference!)
        let tailBetter = isLarge(-p95Delta, relative: -result.relativeP95Difference!)
        // The interval costs r resamples; it is computed only when it can change the verdict.
        let centerRegression = centerWorse && centerSignificant
        let centerImprovement = centerBetter && centerSignificant
        if (tailWorse && !centerRegression) || (tailBetter && !centerWorse && !centerImprovement) {
            result.p95Interval = bootstrapDifferenceInterval(
                base: base, head: head, statistic: .percentile(95), confidence: 1 - t.alpha,
                resamples: bootstrapResamples,
                seed: stableSeed(id))
        }
        let tailSignificantlyWorse = tailWorse && (result.p95Interval.map { $0.lower > 0 } ?? false)
        let tailSignificantlyBetter = tailBetter && (result.p95Interval.map { $0.upper < 0 } ?? false)

        (result.verdict, result.grounds) = verdict(
            center: (worse: centerWorse, regression: centerRegression, improvement: centerImprovement),
            tail: (worse: tailWorse, regression: tailSignificantlyWorse, improvement: tailSignificantlyBetter),
            alpha: t.alpha)
        return result
    }

    /// The verdict, and its grounds, from how the typical frame (`center`) and the tail changed:
    /// each worse by both minimum effects, and significantly worse (a regression) or better (an
    /// improvement).
    private static func verdict(
        center: (worse: Bool, regression: Bool, improvement: Bool),
        tail: (worse: Bool, regression: Bool, improvement: Bool), alpha: Double
    ) -> (Verdict, Grounds) {
        /// The parts that decided the verdict, of the typical frame (`center`) and the tail (`tail`),
        /// at least one of which did.
        func parts(center: Bool, tail: Bool) -> Parts {
            center ? (tail ? .both : .typicalFrame) : .slowTail
        }
        if center.regression || tail.regression {
            return (.regression, .significant(parts(center: center.regression, tail: tail.regression)))
        }
        if center.worse || tail.worse {
            return (.possibleRegression, .notSignificant(center.worse ? .typicalFrame : .slowTail, alpha: alpha))
        }
        if center.improvement || tail.improvement {
            return (.improvement, .significant(parts(center: center.improvement, tail: tail.improvement)))
        }
        return (.unchanged, .noChangeThatCounts)
    }

    private init(
        id: String, label: String, base: PercentileSummary<Double>?, head: PercentileSummary<Double>?, verdict: Verdict,
        grounds: Grounds
    ) {
        self.id = id
        self.label = label
        self.base = base
        self.head = head
        self.verdict = verdict
        self.grounds = grounds
    }
}

/// A summary figure of both sides, shown for information only.
package struct SummaryComparison: Sendable, Hashable {
    /// The figure's id: `frames`, `hitch-time-ratio`, `slow-frame-share`, `frozen-frames`.
    package var id: String
    /// What it is, for people.
    package var label: String
    /// The base side's value.
    package var base: Double
    /// The head side's value.
    package var head: Double
    /// The unit of both.
    package var unit: MetricUnit

    /// Creates a summary figure.
    package init(id: String, label: String, base: Double, head: Double, unit: MetricUnit) {
        self.id = id
        self.label = label
        self.base = base
        self.head = head
        self.unit = unit
    }

    /// Head − base.
    package var delta: Double { head - base }
}

// MARK: - Formatting shared by the comparison's renderers

/// A fixed seed per metric (FNV-1a of its id), so the bootstrap gives the same interval on every
/// machine and every run.
func stableSeed(_ id: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in id.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
    }
    return hash
}
