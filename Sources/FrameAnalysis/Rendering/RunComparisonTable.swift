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
    package static func make(title: String, runs: [(scenario: String, strategy: String, report: FrameReport)], wide: Bool = true) -> ReportTable {
        var columns: [(String, ReportTable.Alignment)] = [
            ("scenario", .left), ("strategy", .left), ("hitch\nms/s", .right), ("slow", .right), ("main\np95 ms", .right),
        ]
        if wide {
            columns.insert(("frames", .right), at: 2)
            columns += workCategories.map { ("main \($0)\nms/frame", .right) }
            columns += [
                ("hitch\ncause", .left), ("render\np95 ms", .right),
                ("main total\nms/frame", .right), ("background\nms/interval", .right), ("render\nms/interval", .right),
                ("background outside\nframes ms", .right), ("input\np95 ms", .right), ("ignored\ninputs", .right),
            ]
        } else {
            columns = [
                ("scenario", .left), ("strategy", .left), ("hitch\nms/s", .right), ("hitch\ncause", .left), ("main\np95 ms", .right),
                ("render\np95 ms", .right), ("input\np95 ms", .right),
            ]
        }
        var table = ReportTable(title: title, columns: columns)
        for run in runs {
            let report = run.report
            let summary = report.summary
            let frameCount = report.frames.count
            func milliseconds(_ nanoseconds: Int64) -> String { ReportFormat.fixed(Double(nanoseconds) / 1e6, decimals: 2) }
            func perFrame(_ nanoseconds: Int64) -> String { frameCount == 0 ? "-" : milliseconds(nanoseconds / Int64(frameCount)) }
            func perInterval(_ nanoseconds: Int64) -> String {
                guard summary.measuredNanoseconds > 0 else { return "-" }
                let interval = Double(report.method.frameIntervalNanoseconds)
                return milliseconds(Int64((Double(nanoseconds) * interval / Double(summary.measuredNanoseconds)).rounded()))
            }
            var mainByCategory: [String: Int64] = [:]
            var backgroundByCategory: [String: Int64] = [:]
            for frame in report.frames {
                for (name, nanoseconds) in frame.mainByCategory { mainByCategory[name] = (mainByCategory[name] ?? 0).addingSaturating(nanoseconds) }
                for (name, nanoseconds) in frame.backgroundByCategory { backgroundByCategory[name] = (backgroundByCategory[name] ?? 0).addingSaturating(nanoseconds) }
            }
            var row = [
                run.scenario, run.strategy, ReportFormat.fixed(summary.hitchTimeRatio, decimals: 1),
                "\(summary.slowFrames + summary.frozenFrames)",
                summary.mainThreadCost.map { milliseconds($0.p95) } ?? "-",
            ]
            let inputP95 = report.input?.latency.map { milliseconds($0.p95) } ?? "-"
            if wide {
                row.insert("\(frameCount)", at: 2)
                row += workCategories.map { perFrame(mainByCategory[$0] ?? 0) }
                let mainTotal = report.frames.reduce(Int64(0)) { $0.addingSaturating($1.mainThreadNanoseconds) }
                let render = backgroundByCategory[renderCategory] ?? 0
                let background = backgroundByCategory.values.reduce(Int64(0)) { $0.addingSaturating($1) }.subtractingSaturating(render)
                row += [mainCause(of: report), report.lanes.first { $0.lane == .render }?.cost.map { milliseconds($0.p95) } ?? "-"]
                row += [perFrame(mainTotal), perInterval(background), perInterval(render)]
                row += [milliseconds(summary.backgroundOutsideFramesNanoseconds), inputP95, report.input.map { "\($0.ignored)" } ?? "-"]
            } else {
                row = [
                    run.scenario, run.strategy, ReportFormat.fixed(summary.hitchTimeRatio, decimals: 1), mainCause(of: report),
                    summary.mainThreadCost.map { milliseconds($0.p95) } ?? "-",
                    report.lanes.first { $0.lane == .render }?.cost.map { milliseconds($0.p95) } ?? "-", inputP95,
                ]
            }
            table.rows.append(row)
        }
        return table
    }

    /// The cause of most of a run's hitch time (`commit`, `render`, ...), `-` without hitches.
    static func mainCause(of report: FrameReport) -> String {
        report.summary.hitchNanosecondsByCause.filter { $0.value > 0 }.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key.identifier ?? "-"
    }
}

extension RunComparisonTable {
    /// One measured verdict per scenario: which strategy wins, in which lane, by how much.
    ///
    /// For each scenario the figure that separates its strategies the most is chosen among the
    /// p95 of main-thread cost, the p95 of render-lane cost, the hitch time ratio, the p95 of
    /// input latency and the inputs ignored: the one with the largest ratio of worst to best,
    /// counted only when the two differ by at least 0.1 ms (1 ms/s, 1 input). The sentence names
    /// the best strategy, its figure, the worst strategy's, and the ratio; a scenario whose
    /// strategies do not differ by that much says so.
    /// - Parameter runs: A label per run with its report, as for ``make(title:runs:wide:)``.
    /// - Returns: One sentence per scenario, in the order the scenarios first appear.
    public static func verdicts(runs: [(scenario: String, strategy: String, report: FrameReport)]) -> [String] {
        /// A figure, and how much of it one frame's worth is: a millisecond figure in units of
        /// the frame interval P, hitch time ratio (ms/s) in P per second (frames lost per second),
        /// ignored inputs one each.
        struct Figure {
            enum Unit { case frameInterval, count }
            var lane: String
            var label: String
            var floor: Double
            var unit: Unit
            var format: (Double) -> String
            var value: (FrameReport) -> Double?
        }
        let ms = { (value: Double) in ReportFormat.fixed(value, decimals: 2) + " ms" }
        let figures = [
            Figure(lane: "the main lane", label: "main p95", floor: 0.1, unit: .frameInterval, format: ms) {
                $0.summary.mainThreadCost.map { Double($0.p95) / 1e6 }
            },
            Figure(lane: "the render lane", label: "render p95", floor: 0.1, unit: .frameInterval, format: ms) {
                $0.lanes.first { $0.lane == .render }?.cost.map { Double($0.p95) / 1e6 }
            },
            Figure(lane: "hitches", label: "hitch time ratio", floor: 1, unit: .frameInterval, format: { ReportFormat.fixed($0, decimals: 1) + " ms/s" }) {
                $0.summary.frameCount > 0 ? $0.summary.hitchTimeRatio : nil
            },
            Figure(lane: TraceCategory.input.name, label: "input p95", floor: 0.1, unit: .frameInterval, format: ms) { $0.input?.latency.map { Double($0.p95) / 1e6 } },
            Figure(lane: TraceCategory.input.name, label: "ignored inputs", floor: 1, unit: .count, format: { "\(Int($0))" }) { $0.input.map { Double($0.ignored) } },
        ]
        var order: [String] = []
        for run in runs where !order.contains(run.scenario) { order.append(run.scenario) }
        typealias Run = (scenario: String, strategy: String, report: FrameReport)
        /// The figure that separates `candidates` the most: (figure, the best runs, the best value,
        /// the worst run and value). "Most" is the largest gap between best and worst in frames'
        /// worth (see ``Figure``), not the largest ratio: a ratio of two figures near zero is
        /// noise (a main thread that works 0.07 ms a frame and once waited 4 ms for a core),
        /// while a gap measured against the frame budget is what a user would feel.
        func separating(_ candidates: [Run]) -> (figure: Figure, winners: [String], low: Double, loser: String, high: Double)? {
            var best: (figure: Figure, winners: [String], low: Double, loser: String, high: Double, gap: Double)?
            let interval = candidates.map { Double($0.report.method.frameIntervalNanoseconds) / 1e6 }.max() ?? 0
            for figure in figures {
                let values = candidates.compactMap { run in figure.value(run.report).map { (run.strategy, $0) } }
                guard values.count == candidates.count, let low = values.min(by: { $0.1 < $1.1 }), let high = values.max(by: { $0.1 < $1.1 }),
                      high.1 - low.1 >= figure.floor
                else { continue }
                let gap = figure.unit == .count || interval <= 0 ? high.1 - low.1 : (high.1 - low.1) / interval
                let winners = values.filter { $0.1 - low.1 < figure.floor / 2 }.map(\.0)
                if best.map({ gap > $0.gap }) ?? true { best = (figure, winners, low.1, high.0, high.1, gap) }
            }
            return best.map { ($0.figure, $0.winners, $0.low, $0.loser, $0.high) }
        }
        func tieBreakGap(_ candidates: [Run]) -> Double {
            0.25 * (candidates.map { Double($0.report.method.frameIntervalNanoseconds) / 1e6 }.max() ?? 0)
        }
        func list(_ names: [String]) -> String {
            names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
        return order.map { scenario in
            let candidates = runs.filter { $0.scenario == scenario }
            guard candidates.count > 1 else { return "\(scenario): one strategy, nothing to compare." }
            guard let best = separating(candidates) else { return "\(scenario): no strategy stands out by 0.1 ms or more in any lane." }
            let ratio = best.high / max(best.low, best.figure.floor)
            var sentence = "\(scenario): \(list(best.winners)) \(best.winners.count == 1 ? "wins" : "win") in \(best.figure.lane): "
                + "\(best.figure.label) \(best.figure.format(best.low)) against \(best.figure.format(best.high)) for \(best.loser)"
                + (best.low >= best.figure.floor ? " (\(ReportFormat.fixed(ratio, decimals: 1))× less)" : "")
            // Several strategies tie: the next figure that separates them, when it does so by a
            // quarter of a frame or more (less, between strategies that tie, is a few slow
            // wake-ups of a main thread sharing the cores with the workers).
            if best.winners.count > 1, let next = separating(candidates.filter { best.winners.contains($0.strategy) }),
               next.figure.unit == .count || next.high - next.low >= tieBreakGap(candidates) {
                sentence += "; among those, \(list(next.winners)) in \(next.figure.lane): \(next.figure.label) "
                    + "\(next.figure.format(next.low)) against \(next.figure.format(next.high)) for \(next.loser)"
            }
            return sentence + "."
        }
    }
}
