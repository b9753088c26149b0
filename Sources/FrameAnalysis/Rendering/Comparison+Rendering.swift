import FrameSupport
package import FrameTrace

extension Comparison {
    /// The per-metric table and the summary table, shared by the text and Markdown renderers.
    package func tables() -> [ReportTable] {
        var metricTable = ReportTable(
            title:
                "Per-frame distributions (shift: Hodges-Lehmann estimate of head - base; p: Mann-Whitney U, two-sided)",
            columns: [
                ("metric", .left), ("base p50", .right), ("head p50", .right), ("shift", .right), ("p", .right),
                ("base p95", .right), ("head p95", .right), ("delta p95", .right), ("verdict", .left),
            ])
        metricTable.rows = metrics.map { metric in
            [
                metric.id,
                metric.base.map { ReportFormat.fixed($0.p50, decimals: 2) + " ms" } ?? "-",
                metric.head.map { ReportFormat.fixed($0.p50, decimals: 2) + " ms" } ?? "-",
                metric.shift.map(signedMilliseconds) ?? "-",
                metric.pValue.map { $0 < 0.0001 ? "<0.0001" : ReportFormat.fixed($0, decimals: 4) } ?? "-",
                metric.base.map { ReportFormat.fixed($0.p95, decimals: 2) + " ms" } ?? "-",
                metric.head.map { ReportFormat.fixed($0.p95, decimals: 2) + " ms" } ?? "-",
                metric.p95Difference.map(signedMilliseconds) ?? "-",
                Self.verdictText(metric.verdict),
            ]
        }
        // Frames rows carry no report summary: say what the table leaves out, rather than show
        // figures that would not mean their labels.
        let summaryTitle =
            input == .frameRows
            ? "Summary (for information; no verdict; from frames rows: frames only, since hitch time ratio, slow and frozen frames need the traces)"
            : "Summary (for information; no verdict)"
        var summaryTable = ReportTable(
            title: summaryTitle,
            columns: [("figure", .left), ("base", .right), ("head", .right), ("delta", .right)])
        summaryTable.rows = summaries.map { figure in
            let delta = figure.unit.format(figure.delta)
            return [
                figure.label, figure.unit.format(figure.base), figure.unit.format(figure.head),
                delta.hasPrefix("-") ? delta : "+" + delta,
            ]
        }
        return [metricTable, summaryTable]
    }

    /// The comparison as plain text: what was compared, the thresholds, both tables, why each
    /// metric that moved got its verdict, and a result line.
    package func text() -> String {
        var text = "framescope compare: \(heading(UntrustedText.terminal))\n"
        text += "thresholds: \(thresholdsText)\n\n"
        text += tables().map { $0.text() }.joined(separator: "\n")
        let reasons = notableMetrics
        if !reasons.isEmpty {
            text +=
                "\nWhy\n"
                + reasons.map {
                    "  \(UntrustedText.terminal($0.id)): \(Self.verdictText($0.verdict)): \(UntrustedText.terminal($0.reason))\n"
                }.joined()
        }
        if !unreadableTraces.isEmpty {
            text += "\n" + unreadableTraces.map { "error: \(UntrustedText.terminal($0.reason))\n" }.joined()
        }
        text += "\nresult: \(resultLine)\n"
        return text
    }

    /// The comparison as GitHub Markdown (``unboundedMarkdown()``), at most ``MarkdownLimit/bytes`` long.
    package func markdown() -> String {
        MarkdownLimit.fit(unboundedMarkdown())
    }

    /// The comparison as Markdown, for a pull-request comment or a CI step summary.
    private func unboundedMarkdown() -> String {
        var text = "## framescope compare: \(passed ? "✅" : "❌") \(resultLine)\n\n"
        text +=
            "\(heading(UntrustedText.markdownText).replacingAll("\n", with: "\n\n"))\n\nThresholds: \(thresholdsText)\n\n"
        for (tableIndex, table) in tables().enumerated() {
            text +=
                table.markdown { row, column, cell in
                    if column == 0 { return UntrustedText.markdownCode(cell) }
                    guard tableIndex == 0, column == 8, metrics.indices.contains(row) else { return nil }
                    let metric = metrics[row]
                    if metric.fails { return "❌ **\(cell)**" }
                    switch metric.verdict {
                    case .possibleRegression, .noData: return "⚠️ " + cell
                    case .improvement: return "✅ improvement"
                    default: return nil
                    }
                } + "\n"
        }
        let reasons = notableMetrics
        if !reasons.isEmpty {
            text +=
                "### Why\n\n"
                + reasons.prefix(ReportTable.markdownRowLimit).map {
                    "- \(UntrustedText.markdownCode($0.id)): \(Self.verdictText($0.verdict)): \(UntrustedText.markdownText($0.reason))\n"
                }.joined()
            if reasons.count > ReportTable.markdownRowLimit {
                text +=
                    "- … \(reasons.count - ReportTable.markdownRowLimit) more: the text and JSON outputs list them all\n"
            }
            text += "\n"
        }
        if !unreadableTraces.isEmpty {
            text += unreadableTraces.prefix(ReportTable.markdownRowLimit).map {
                "- ❌ error: \(UntrustedText.markdownText($0.reason))\n"
            }.joined()
            if unreadableTraces.count > ReportTable.markdownRowLimit {
                text += "- … \(unreadableTraces.count - ReportTable.markdownRowLimit) more unreadable traces\n"
            }
            text += "\n"
        }
        if let headChart, let source = headSources.first {
            text += "### Head: main-thread cost per frame\n\n" + headChart.mermaid(title: source) + "\n"
        }
        return text
    }

    /// The comparison as JSON, schema `framescope.compare` version ``schemaVersion``.
    ///
    /// `passed`; `input` (`traces`, or `frame-rows`: then `summary` holds only `frames`); `base` and `head` (`sources`, `frames`, `frame-boundaries`: the frame sources); `thresholds` (`alpha`, `min-relative`,
    /// `min-absolute-ms`); `metrics`, each with `id`, `label`, `verdict` (`regression`,
    /// `possible-regression`, `improvement`, `unchanged`, `no-data`), `reason`, `base` and `head`
    /// percentile objects in ms (`count p50 p90 p95 p99 max mean`), `shift-ms`, `relative-shift`,
    /// `p-value`, `p95-delta-ms`, `relative-p95-delta` and `p95-interval` (`lower upper
    /// confidence`, or `null` when it could not change the verdict); `summary`, each with `id`, `label`, `unit`,
    /// `base`, `head`, `delta`. Relative changes from 0 are `null`.
    package func json() -> String {
        JSONStream.text { json in
            json.member("schema", "framescope.compare")
            json.member("version", Self.schemaVersion)
            json.member("passed", passed)
            json.member("input", input.rawValue)
            json.array("errors") { json in
                for trace in unreadableTraces {
                    json.object { json in
                        json.member("kind", "unreadable")
                        json.member("source", trace.source)
                        json.member("message", trace.reason)
                    }
                }
            }
            json.key("base")
            Self.writeSide(baseSources, baseFrameCount, baseFrameSources, into: &json)
            json.key("head")
            Self.writeSide(headSources, headFrameCount, headFrameSources, into: &json)
            json.object("thresholds") { json in
                json.member("alpha", thresholds.alpha)
                json.member("min-relative", thresholds.minimumRelativeEffect)
                json.member("min-absolute-ms", thresholds.minimumAbsoluteMilliseconds)
            }
            json.array("metrics") { json in for metric in metrics { Self.write(metric, into: &json) } }
            json.array("summary") { json in
                for figure in summaries {
                    json.object { json in
                        json.member("id", figure.id)
                        json.member("label", figure.label)
                        json.member("unit", figure.unit.rawValue)
                        json.member("base", figure.base)
                        json.member("head", figure.head)
                        json.member("delta", figure.delta)
                    }
                }
            }
        }
    }

    /// ``json()`` as a value tree.
    package func jsonValue() -> JSONValue { JSONStream.parsed(json()) }

    private static func writeSide(
        _ sources: [String], _ frames: Int, _ frameSources: [FrameReport.FrameSource], into json: inout JSONStream
    ) {
        json.object { json in
            json.array("sources") { json in for source in sources { json.value(source) } }
            json.member("frames", frames)
            json.array("frame-boundaries") { json in for source in frameSources { json.value(source.identifier) } }
        }
    }

    private static func write(_ metric: MetricComparison, into json: inout JSONStream) {
        json.object { json in
            json.member("id", metric.id)
            json.member("label", metric.label)
            json.member("verdict", metric.verdict.rawValue)
            json.member("reason", metric.reason)
            json.key("base")
            writeSummary(metric.base, into: &json)
            json.key("head")
            writeSummary(metric.head, into: &json)
            // Non-finite figures, which JSON cannot hold, are written as null.
            json.member("shift-ms", metric.shift)
            json.member("relative-shift", metric.relativeShift)
            json.member("p-value", metric.pValue)
            json.member("p95-delta-ms", metric.p95Difference)
            json.member("relative-p95-delta", metric.relativeP95Difference)
            json.key("p95-interval")
            if let interval = metric.p95Interval {
                json.object { json in
                    json.member("lower", interval.lower)
                    json.member("upper", interval.upper)
                    json.member("confidence", interval.confidence)
                }
            } else {
                json.null()
            }
        }
    }

    /// A percentile object in ms (`count p50 p90 p95 p99 max mean`), or `null`.
    private static func writeSummary(_ summary: PercentileSummary<Double>?, into json: inout JSONStream) {
        guard let summary else { return json.null() }
        json.object { json in
            json.member("count", summary.count)
            json.member("p50", summary.p50)
            json.member("p90", summary.p90)
            json.member("p95", summary.p95)
            json.member("p99", summary.p99)
            json.member("max", summary.max)
            json.member("mean", summary.mean)
        }
    }

    /// The comparison as a JUnit report: one test case per metric, a failure for each regression.
    /// Each trace that could not be read adds an `<error>` case (``junit(unreadable:)``).
    package func junit() -> JUnitReport {
        var report = junitOfMetrics()
        report.suites += Self.junit(unreadable: unreadableTraces).suites
        return report
    }

    /// A JUnit report of unreadable traces alone, one `<error>` case each with its one-line
    /// reason: what `compare` writes when a side has no trace it could read.
    package static func junit(unreadable: [UnreadableTrace]) -> JUnitReport {
        guard !unreadable.isEmpty else { return JUnitReport(name: "framescope compare", suites: []) }
        return JUnitReport(
            name: "framescope compare",
            suites: [
                JUnitReport.Suite(
                    name: "framescope compare: unreadable traces",
                    cases: unreadable.map { trace in
                        JUnitReport.TestCase(
                            name: "read \(trace.source)", className: "framescope.compare.input",
                            error: JUnitReport.Failure(message: trace.reason, type: "unreadable", details: trace.reason)
                        )
                    })
            ])
    }

    private func junitOfMetrics() -> JUnitReport {
        JUnitReport(
            name: "framescope compare",
            suites: [
                JUnitReport.Suite(
                    name: "framescope compare",
                    cases: metrics.map { metric in
                        func side(_ name: String, _ sources: [String], _ summary: PercentileSummary<Double>?) -> String
                        {
                            let values = summary.map {
                                "p50 \(ReportFormat.fixed($0.p50, decimals: 2)) ms, p95 \(ReportFormat.fixed($0.p95, decimals: 2)) ms"
                            }
                            return "\(name) (\(sources.joined(separator: ", "))): \(values ?? "no frames")"
                        }
                        let details =
                            side("base", baseSources, metric.base) + "\n" + side("head", headSources, metric.head)
                        return JUnitReport.TestCase(
                            name: metric.id, className: "framescope.compare",
                            failure: metric.fails
                                ? JUnitReport.Failure(
                                    message: "\(metric.label): \(metric.reason)", type: metric.verdict.rawValue,
                                    details: details) : nil,
                            output: metric.fails
                                ? nil : "\(Self.verdictText(metric.verdict)): \(metric.reason)\n\(details)")
                    })
            ])
    }

    /// GitHub annotations: an error per regression (or side without frames), a warning per
    /// possible regression or metric with too few frames to judge, the largest relative change
    /// first.
    package func annotations() -> [GitHubAnnotation] {
        unreadableTraces.map { trace in
            GitHubAnnotation(
                level: .error, title: "framescope compare: \(trace.source)", message: trace.reason, severity: .infinity)
        }
            + metrics.compactMap { metric in
                let severity = max(metric.relativeShift ?? 0, metric.relativeP95Difference ?? 0)
                switch metric.verdict {
                case .regression:
                    return GitHubAnnotation(
                        level: .error, title: "framescope compare: \(metric.id)",
                        message: "\(metric.label) regressed: \(metric.reason)",
                        severity: severity)
                case .noData:
                    return GitHubAnnotation(
                        level: metric.fails ? .error : .warning, title: "framescope compare: \(metric.id)",
                        message: "\(metric.label) not judged: \(metric.reason)", severity: .infinity)
                case .possibleRegression:
                    return GitHubAnnotation(
                        level: .warning, title: "framescope compare: \(metric.id)",
                        message: "\(metric.label) may have regressed: \(metric.reason)",
                        severity: severity)
                case .improvement, .unchanged:
                    return nil
                }
            }
    }

    // MARK: - Pieces

    /// What was compared, with each source written through `escape`.
    func heading(_ escape: (String) -> String) -> String {
        func side(_ sources: [String], _ frames: Int, _ frameSources: [FrameReport.FrameSource]) -> String {
            let sources = sources.map(escape)
            let runs = sources.count == 1 ? sources[0] : "\(sources.count) runs (\(sources.joined(separator: ", ")))"
            let from = frameSources.isEmpty ? "" : " (\(frameSources.map(\.shortPhrase).joined(separator: ", ")))"
            return "\(runs), \(frames) frames\(from)"
        }
        var heading =
            "base \(side(baseSources, baseFrameCount, baseFrameSources)) vs head \(side(headSources, headFrameCount, headFrameSources))"
        if Set(baseFrameSources) != Set(headFrameSources) {
            heading += "\nwarning: base and head found their frames differently; their frames may not be comparable"
        }
        return heading
    }

    var thresholdsText: String {
        "a change counts when significant at alpha \(formatNumber(thresholds.alpha)) and at least "
            + "\(formatNumber(thresholds.minimumRelativeEffect * 100))% and \(formatNumber(thresholds.minimumAbsoluteMilliseconds)) ms"
    }

    var notableMetrics: [MetricComparison] { metrics.filter { $0.verdict != .unchanged } }

    var resultLine: String {
        let failing = metrics.filter(\.fails).count
        let unjudged = metrics.filter { $0.verdict == .noData && !$0.fails }.count
        let possible = metrics.filter { $0.verdict == .possibleRegression }.count
        let improved = metrics.filter { $0.verdict == .improvement }.count
        let judged = metrics.count - unjudged
        var text =
            failing == 0 ? "pass, no regression in \(judged) metrics" : "REGRESSION in \(failing) of \(judged) metrics"
        if !unreadableTraces.isEmpty {
            let inputs = input == .frameRows ? "rows file" : "trace"
            text =
                "ERROR, \(unreadableTraces.count) \(inputs)\(unreadableTraces.count == 1 ? "" : "s") not read; " + text
        }
        if possible > 0 { text += ", \(possible) possible (not significant)" }
        if improved > 0 { text += ", \(improved) improved" }
        if unjudged > 0 { text += ", \(unjudged) not judged (too few frames)" }
        return text
    }

    static func verdictText(_ verdict: MetricComparison.Verdict) -> String {
        switch verdict {
        case .regression: "REGRESSION"
        case .possibleRegression: "possible regression"
        case .improvement: "improvement"
        case .unchanged: "no change"
        case .noData: "NO DATA"
        }
    }
}

extension MetricComparison {
    /// Why the metric got its verdict, in one line, from its ``grounds`` and figures:
    /// `median shift +1.62 ms (+20.3%), p < 0.0001`, `p95 +5.00 ms (+46.3%), 99% interval [+4.30,
    /// +5.70] ms`, `median shift +1.40 ms (+14.0%), p = 0.1402; not significant at alpha 0.01`,
    /// `too few frames to judge: 1 base, 1 head (at least 10 a side)`, `no frames on the base side`.
    package var reason: String {
        switch grounds {
        case .noFrames(let side):
            return "no frames on the \(side == .base ? "base" : "head") side"
        case .tooFewFrames(let base, let head):
            return "too few frames to judge: \(base) base, \(head) head (at least \(Self.minimumFrames) a side)"
        case .significant(let parts):
            return quoting(parts)
        case .notSignificant(let parts, let alpha):
            return quoting(parts) + "; not significant at alpha \(formatNumber(alpha))"
        case .noChangeThatCounts:
            return quoting(.both)
        }
    }

    /// The judgements `parts` names, typical frame first, joined by `; `: `median shift +1.62 ms
    /// (+20.3%), p < 0.0001; p95 +0.00 ms (+0.0%)`. A part whose figures are missing is left out.
    private func quoting(_ parts: Parts) -> String {
        var quoted: [String] = []
        if parts != .slowTail, let shift, let relativeShift, let pValue {
            quoted.append(
                "median shift \(signedMilliseconds(shift)) (\(signedPercent(relativeShift))), p \(pValueText(pValue))")
        }
        if parts != .typicalFrame, let p95Difference, let relativeP95Difference {
            let interval = p95Interval.map {
                ", \(percentText($0.confidence)) interval [\(signedNumber($0.lower)), \(signedNumber($0.upper))] ms"
            }
            quoted.append(
                "p95 \(signedMilliseconds(p95Difference)) (\(signedPercent(relativeP95Difference)))" + (interval ?? ""))
        }
        return quoted.joined(separator: "; ")
    }
}
