/// One side-by-side table of several runs' reports: the demo's summary of every scenario and
/// strategy.
public enum RunComparisonTable {
    /// The work categories the techniques move around, shown as columns in this order.
    public static let workCategories = ["layout", "image-decode", "corner-rounding", "diff-apply"]

    /// The render lane's category, shown apart from the rest of the background work.
    static let renderCategory = "render"

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
    ///     scenario, strategy, hitch time ratio, slow frames, p95 of main-thread cost, the top
    ///     main-thread category per frame and the p95 of input latency.
    /// - Returns: The table; numbers carry their unit in the heading (`-` where a run has no
    ///   frames or no input events).
    public static func make(title: String, runs: [(scenario: String, strategy: String, report: FrameReport)], wide: Bool = true) -> ReportTable {
        var columns: [(String, ReportTable.Alignment)] = [
            ("scenario", .left), ("strategy", .left), ("hitch\nms/s", .right), ("slow", .right), ("main\np95 ms", .right),
        ]
        if wide {
            columns.insert(("frames", .right), at: 2)
            columns += workCategories.map { ("main \($0)\nms/frame", .right) }
            columns += [
                ("main total\nms/frame", .right), ("background\nms/interval", .right), ("render\nms/interval", .right),
                ("background outside\nframes ms", .right), ("input\np95 ms", .right), ("ignored\ninputs", .right),
            ]
        } else {
            columns += [("top main category\nms/frame", .left), ("input\np95 ms", .right)]
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
                row += [perFrame(mainTotal), perInterval(background), perInterval(render)]
                row += [milliseconds(summary.backgroundOutsideFramesNanoseconds), inputP95, report.input.map { "\($0.ignored)" } ?? "-"]
            } else {
                let top = mainByCategory.max { ($0.value, $1.key) < ($1.value, $0.key) }
                row.append(top.map { "\($0.key.isEmpty ? "(none)" : $0.key) \(perFrame($0.value))" } ?? "-")
                row.append(inputP95)
            }
            table.rows.append(row)
        }
        return table
    }
}
