/// One side-by-side table of several runs' reports: the demo's summary of every scenario and
/// strategy.
public enum RunComparisonTable {
    /// The work categories the techniques move around, shown as columns in this order.
    public static let workCategories = ["layout", "image-decode", "corner-rounding", "diff-apply"]

    /// Builds the table.
    /// - Parameters:
    ///   - title: The table's heading.
    ///   - runs: A label per run (e.g. scenario and strategy) with its report.
    /// - Returns: Hitch time ratio, slow frames, main-thread ms per frame by work category, total
    ///   main-thread and background ms per frame, the render lane's ms per frame, the p95 of input
    ///   latency and the number of ignored inputs (`-` for both when a run has no input events).
    public static func make(title: String, runs: [(scenario: String, strategy: String, report: FrameReport)]) -> ReportTable {
        var columns: [(String, ReportTable.Alignment)] = [
            ("scenario", .left), ("strategy", .left), ("frames", .right), ("hitch ratio", .right), ("slow", .right),
            ("p95 main", .right),
        ]
        columns += workCategories.map { ("main \($0)/frame", .right) }
        columns += [("main total/frame", .right), ("background/frame", .right), ("render/frame", .right)]
        columns += [("input p95", .right), ("ignored inputs", .right)]
        var table = ReportTable(title: title, columns: columns)
        for run in runs {
            let report = run.report
            let frames = max(1, report.summary.frameCount)
            func perFrame(_ nanoseconds: Int64) -> String { ReportFormat.milliseconds(nanoseconds / Int64(frames)) }
            let categories = Dictionary(uniqueKeysWithValues: report.categories.map { ($0.name, $0) })
            var row = [
                run.scenario, run.strategy, "\(report.summary.frameCount)",
                ReportFormat.fixed(report.summary.hitchTimeRatio, decimals: 1) + " ms/s",
                "\(report.summary.slowFrames + report.summary.frozenFrames)",
                ReportFormat.optionalMilliseconds(report.summary.mainThreadCost?.p95),
            ]
            row += workCategories.map { perFrame(categories[$0]?.mainNanoseconds ?? 0) }
            let mainTotal = report.frames.reduce(Int64(0)) { $0.addingSaturating($1.mainThreadNanoseconds) }
            let background = report.categories.filter { $0.name != "render" }.reduce(Int64(0)) { $0.addingSaturating($1.backgroundNanoseconds) }
            row += [perFrame(mainTotal), perFrame(background), perFrame(categories["render"]?.backgroundNanoseconds ?? 0)]
            row += [ReportFormat.optionalMilliseconds(report.input?.latency?.p95), report.input.map { "\($0.ignored)" } ?? "-"]
            table.rows.append(row)
        }
        return table
    }
}
