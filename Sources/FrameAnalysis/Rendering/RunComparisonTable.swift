import FrameTrace

/// One side-by-side table of several runs' reports: the demo's summary of every scenario and
/// strategy.
package enum RunComparisonTable {
    /// The work categories the techniques move around, shown as columns in this order.
    package static let workCategories = TraceCategory.techniqueWork.map(\.name)

    /// The render lane's category, shown apart from the rest of the background work.
    static let renderCategory = TraceCategory.render.name

    /// Builds the table.
    ///
    /// Per-frame figures count only what happened inside the frames: main-thread time by
    /// category is summed over the frames' work windows and divided by the frame count;
    /// background time is the other threads' busy time inside the frame windows per frame
    /// interval `P` of measured time (so it never exceeds workers × `P`), and work that outlived
    /// the last frame is its own column, not spread over the frames.
    /// - Parameters:
    ///   - title: The table's heading.
    ///   - runs: A label per run (e.g. scenario and strategy) with its report.
    ///   - wide: Every column (`true`), or the compact set that fits a 100-column terminal:
    ///     scenario, strategy, hitch time ratio and the cause of most of it, p95 of main-thread
    ///     and render-lane cost per frame and p95 of input latency. The wide table adds the frame
    ///     count, slow frames, main-thread time per frame by category and the rest.
    /// - Returns: The table; numbers carry their unit in the heading (`-` where a run has no
    ///   frames or no input events).
    package static func make(
        title: String, runs: [(scenario: String, strategy: String, report: FrameReport)], wide: Bool = true
    ) -> ReportTable {
        var table = ReportTable(title: title, columns: columns(wide: wide))
        for run in runs {
            table.rows.append(wide ? wideRow(run) : compactRow(run))
        }
        return table
    }

    /// The columns' headings: the compact set, or every column.
    private static func columns(wide: Bool) -> [(String, ReportTable.Alignment)] {
        guard wide else {
            return [
                ("scenario", .left), ("strategy", .left), ("hitch\nms/s", .right), ("hitch\ncause", .left),
                ("main\np95 ms", .right),
                ("render\np95 ms", .right), ("input\np95 ms", .right),
            ]
        }
        var columns: [(String, ReportTable.Alignment)] = [
            ("scenario", .left), ("strategy", .left), ("frames", .right), ("hitch\nms/s", .right), ("slow", .right),
            ("main\np95 ms", .right),
        ]
        columns += workCategories.map { ("main \($0)\nms/frame", .right) }
        columns += [
            ("hitch\ncause", .left), ("render\np95 ms", .right),
            ("main total\nms/frame", .right), ("background\nms/interval", .right), ("render\nms/interval", .right),
            ("background outside\nframes ms", .right), ("input\np95 ms", .right), ("ignored\ninputs", .right),
        ]
        return columns
    }

    private static func milliseconds(_ nanoseconds: Int64) -> String {
        ReportFormat.fixed(Double(nanoseconds) / 1e6, decimals: 2)
    }

    /// The p95 of the render lane's cost per frame, `-` without one.
    private static func renderP95(_ report: FrameReport) -> String {
        report.lanes.first { $0.lane == .render }?.cost.map { milliseconds($0.p95) } ?? "-"
    }

    /// The compact row: hitch time ratio and its main cause, and three p95s.
    private static func compactRow(_ run: (scenario: String, strategy: String, report: FrameReport)) -> [String] {
        let report = run.report
        return [
            run.scenario, run.strategy, ReportFormat.fixed(report.summary.hitchTimeRatio, decimals: 1),
            mainCause(of: report),
            report.summary.mainThreadCost.map { milliseconds($0.p95) } ?? "-",
            renderP95(report), report.input?.latency.map { milliseconds($0.p95) } ?? "-",
        ]
    }

    /// The wide row: every column, the per-category and per-interval times summed over the frames.
    private static func wideRow(_ run: (scenario: String, strategy: String, report: FrameReport)) -> [String] {
        let report = run.report
        let summary = report.summary
        let frameCount = report.frames.count
        func perFrame(_ nanoseconds: Int64) -> String {
            frameCount == 0 ? "-" : milliseconds(nanoseconds / Int64(frameCount))
        }
        func perInterval(_ nanoseconds: Int64) -> String {
            guard summary.measuredNanoseconds > 0 else { return "-" }
            let interval = Double(report.method.frameRate.intervalNanoseconds)
            return milliseconds(Int64((Double(nanoseconds) * interval / Double(summary.measuredNanoseconds)).rounded()))
        }
        var mainByCategory: [String: Int64] = [:]
        var backgroundByCategory: [String: Int64] = [:]
        for frame in report.frames {
            for (name, nanoseconds) in frame.mainByCategory {
                mainByCategory[name] = (mainByCategory[name] ?? 0).addingSaturating(nanoseconds)
            }
            for (name, nanoseconds) in frame.backgroundByCategory {
                backgroundByCategory[name] = (backgroundByCategory[name] ?? 0).addingSaturating(nanoseconds)
            }
        }
        let mainTotal = report.frames.reduce(Int64(0)) { $0.addingSaturating($1.mainThreadNanoseconds) }
        let render = backgroundByCategory[renderCategory] ?? 0
        let background = backgroundByCategory.values.reduce(Int64(0)) { $0.addingSaturating($1) }
            .subtractingSaturating(render)
        var row = [
            run.scenario, run.strategy, "\(frameCount)", ReportFormat.fixed(summary.hitchTimeRatio, decimals: 1),
            "\(summary.slowFrames + summary.frozenFrames)",
            summary.mainThreadCost.map { milliseconds($0.p95) } ?? "-",
        ]
        row += workCategories.map { perFrame(mainByCategory[$0] ?? 0) }
        row += [mainCause(of: report), renderP95(report)]
        row += [perFrame(mainTotal), perInterval(background), perInterval(render)]
        row += [
            milliseconds(summary.backgroundOutsideFramesNanoseconds),
            report.input?.latency.map { milliseconds($0.p95) } ?? "-",
            report.input.map { "\($0.ignored)" } ?? "-",
        ]
        return row
    }

    /// The cause of most of a run's hitch time (`commit`, `render`, ...), `-` without hitches.
    static func mainCause(of report: FrameReport) -> String {
        report.summary.hitchNanosecondsByCause.filter { $0.value > 0 }.max { ($0.value, $1.key) < ($1.value, $0.key) }?
            .key.identifier ?? "-"
    }
}

/// The demo's measured verdict on one scenario, as values: which figure separates its
/// strategies the most, which strategies win on it and by how much; ``description`` is the
/// sentence the demo prints.
package struct RunVerdict: Sendable, Hashable, CustomStringConvertible {
    /// A figure a verdict compares strategies on.
    package enum Figure: String, Sendable, Hashable, CaseIterable {
        /// The p95 of main-thread cost per frame, in milliseconds.
        case mainP95 = "main-p95"
        /// The p95 of render-lane cost per frame, in milliseconds.
        case renderP95 = "render-p95"
        /// The hitch time ratio, in ms/s.
        case hitchTimeRatio = "hitch-time-ratio"
        /// The p95 of input latency, in milliseconds.
        case inputP95 = "input-p95"
        /// Inputs the app ignored.
        case ignoredInputs = "ignored-inputs"

        /// What the figure is about, in the sentence: `the main lane`, `hitches`, `input`.
        package var lane: String {
            switch self {
            case .mainP95: "the main lane"
            case .renderP95: "the render lane"
            case .hitchTimeRatio: "hitches"
            case .inputP95, .ignoredInputs: TraceCategory.input.name
            }
        }

        /// The figure's label in the sentence: `main p95`, `hitch time ratio`, ...
        package var label: String {
            switch self {
            case .mainP95: "main p95"
            case .renderP95: "render p95"
            case .hitchTimeRatio: "hitch time ratio"
            case .inputP95: "input p95"
            case .ignoredInputs: "ignored inputs"
            }
        }

        /// The smallest difference that counts: 0.1 ms, 1 ms/s or 1 input.
        package var floor: Double {
            switch self {
            case .mainP95, .renderP95, .inputP95: 0.1
            case .hitchTimeRatio, .ignoredInputs: 1
            }
        }

        /// Whether the figure counts events (inputs) rather than time; a time figure's gaps are
        /// measured in frame intervals.
        var isCount: Bool { self == .ignoredInputs }

        /// A value of the figure as the sentence prints it: `2.00 ms`, `65.9 ms/s`, `9`.
        package func format(_ value: Double) -> String {
            switch self {
            case .mainP95, .renderP95, .inputP95: ReportFormat.fixed(value, decimals: 2) + " ms"
            case .hitchTimeRatio: ReportFormat.fixed(value, decimals: 1) + " ms/s"
            case .ignoredInputs: "\(Int(value))"
            }
        }

        /// The figure in a run's report, or `nil` when the run has none (no frames, no input).
        func value(in report: FrameReport) -> Double? {
            switch self {
            case .mainP95: report.summary.mainThreadCost.map { Double($0.p95) / 1e6 }
            case .renderP95: report.lanes.first { $0.lane == .render }?.cost.map { Double($0.p95) / 1e6 }
            case .hitchTimeRatio: report.summary.frameCount > 0 ? report.summary.hitchTimeRatio : nil
            case .inputP95: report.input?.latency.map { Double($0.p95) / 1e6 }
            case .ignoredInputs: report.input.map { Double($0.ignored) }
            }
        }
    }

    /// How strategies compare on one figure: the winners (within half the figure's floor of
    /// the best), the best value, and the worst strategy and its value.
    package struct Separation: Sendable, Hashable {
        /// The figure.
        package var figure: Figure
        /// The strategies within half the figure's floor of the best, in run order.
        package var winners: [String]
        /// The best (lowest) value.
        package var best: Double
        /// The strategy with the worst (highest) value.
        package var loser: String
        /// The worst value.
        package var worst: Double

        /// How many times less the best is than the worst (the best taken as at least the
        /// floor), or `nil` when the best is under the floor and a ratio would be noise.
        package var ratio: Double? { best >= figure.floor ? worst / max(best, figure.floor) : nil }
    }

    /// What the verdict found.
    package enum Outcome: Sendable, Hashable {
        /// The scenario ran one strategy: nothing to compare.
        case oneStrategy
        /// No figure separates the strategies by its floor or more.
        case noDifference
        /// `separation` separates the strategies the most; `tieBreak`, when several win, is the
        /// next figure that separates the winners by a quarter of a frame or more.
        case separated(Separation, tieBreak: Separation?)
    }

    /// The scenario.
    package var scenario: String
    /// What the verdict found.
    package var outcome: Outcome

    /// The sentence the demo prints.
    package var description: String {
        func list(_ names: [String]) -> String {
            names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
        switch outcome {
        case .oneStrategy:
            return "\(scenario): one strategy, nothing to compare."
        case .noDifference:
            return "\(scenario): no strategy stands out by 0.1 ms or more in any lane."
        case .separated(let best, let tieBreak):
            let figure = best.figure
            var sentence =
                "\(scenario): \(list(best.winners)) \(best.winners.count == 1 ? "wins" : "win") in \(figure.lane): "
                + "\(figure.label) \(figure.format(best.best)) against \(figure.format(best.worst)) for \(best.loser)"
                + (best.ratio.map { " (\(ReportFormat.fixed($0, decimals: 1))× less)" } ?? "")
            if let next = tieBreak {
                sentence +=
                    "; among those, \(list(next.winners)) in \(next.figure.lane): \(next.figure.label) "
                    + "\(next.figure.format(next.best)) against \(next.figure.format(next.worst)) for \(next.loser)"
            }
            return sentence + "."
        }
    }
}

extension RunComparisonTable {
    /// One measured verdict per scenario: which strategy wins, in which lane, by how much.
    ///
    /// For each scenario the figure that separates its strategies the most is chosen among the
    /// p95 of main-thread cost, the p95 of render-lane cost, the hitch time ratio, the p95 of
    /// input latency and the inputs ignored (``RunVerdict/Figure``): the one with the largest
    /// gap between best and worst, counted only when the two differ by at least the figure's
    /// floor (0.1 ms, 1 ms/s, 1 input). A scenario whose strategies do not differ by that much
    /// says so.
    /// - Parameter runs: A label per run with its report, as for ``make(title:runs:wide:)``.
    /// - Returns: One verdict per scenario, in the order the scenarios first appear.
    package static func verdicts(runs: [(scenario: String, strategy: String, report: FrameReport)]) -> [RunVerdict] {
        var order: [String] = []
        for run in runs where !order.contains(run.scenario) { order.append(run.scenario) }
        typealias Run = (scenario: String, strategy: String, report: FrameReport)
        /// The figure that separates `candidates` the most. "Most" is the largest gap between
        /// best and worst in frames' worth (a time figure in units of the frame interval P, a
        /// count one each), not the largest ratio: a ratio of two figures near zero is noise (a
        /// main thread that works 0.07 ms a frame and once waited 4 ms for a core), while a gap
        /// measured against the frame budget is what a user would feel.
        func separating(_ candidates: [Run]) -> RunVerdict.Separation? {
            var best: (separation: RunVerdict.Separation, gap: Double)?
            let interval = candidates.map { Double($0.report.method.frameRate.intervalNanoseconds) / 1e6 }.max() ?? 0
            for figure in RunVerdict.Figure.allCases {
                let values = candidates.compactMap { run in figure.value(in: run.report).map { (run.strategy, $0) } }
                guard values.count == candidates.count, let low = values.min(by: { $0.1 < $1.1 }),
                    let high = values.max(by: { $0.1 < $1.1 }),
                    high.1 - low.1 >= figure.floor
                else { continue }
                let gap = figure.isCount || interval <= 0 ? high.1 - low.1 : (high.1 - low.1) / interval
                let winners = values.filter { $0.1 - low.1 < figure.floor / 2 }.map(\.0)
                if best.map({ gap > $0.gap }) ?? true {
                    best = (
                        RunVerdict.Separation(
                            figure: figure, winners: winners, best: low.1, loser: high.0, worst: high.1), gap
                    )
                }
            }
            return best?.separation
        }
        return order.map { scenario in
            let candidates = runs.filter { $0.scenario == scenario }
            guard candidates.count > 1 else { return RunVerdict(scenario: scenario, outcome: .oneStrategy) }
            guard let best = separating(candidates) else {
                return RunVerdict(scenario: scenario, outcome: .noDifference)
            }
            // Several strategies tie: the next figure that separates them, when it does so by a
            // quarter of a frame or more (less, between strategies that tie, is a few slow
            // wake-ups of a main thread sharing the cores with the workers).
            let quarterFrame =
                0.25 * (candidates.map { Double($0.report.method.frameRate.intervalNanoseconds) / 1e6 }.max() ?? 0)
            var tieBreak: RunVerdict.Separation?
            if best.winners.count > 1, let next = separating(candidates.filter { best.winners.contains($0.strategy) }),
                next.figure.isCount || next.worst - next.best >= quarterFrame
            {
                tieBreak = next
            }
            return RunVerdict(scenario: scenario, outcome: .separated(best, tieBreak: tieBreak))
        }
    }
}
