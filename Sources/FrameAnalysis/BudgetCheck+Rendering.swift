import FrameTrace
public import FrameTraceReader

extension BudgetCheck {
    /// One table per trace: rule, measured value, limit and verdict.
    public func tables() -> [ReportTable] {
        traces.map { trace in
            var table = ReportTable(
                title: "\(trace.name): \(Self.headline(trace.rules)) (\(trace.frameCount) frames from \(trace.frameSource.shortPhrase) at "
                    + "\(ReportFormat.milliseconds(trace.frameIntervalNanoseconds)), \(trace.frameIntervalSource))",
                columns: [("rule", .left), ("measured", .right), ("limit", .right), ("verdict", .left)])
            table.rows = trace.rules.map { rule in
                [rule.id, Self.measured(rule), Self.limit(rule), Self.verdictText(rule.verdict)]
            }
            return table
        }
    }

    /// The check as plain text: a heading, one table per trace, and a closing result line.
    ///
    /// ```
    /// framescope check: budget.json
    ///
    /// feed.json: pass, 0 of 3 rules exceeded (120 frames at 16.67 ms, trace metadata)
    ///   rule              measured      limit  verdict
    ///   hitch-time-ratio  0.00 ms/s  5.00 ms/s  pass
    /// ...
    /// result: pass, 0 of 3 rules exceeded, across 1 trace
    /// ```
    public func text() -> String {
        var text = "framescope check: budget \(budgetSource)\n\n"
        text += tables().map { $0.text() }.joined(separator: "\n")
        text += "\n" + legend + "\n"
        text += "result: \(resultLine)\n"
        return text
    }

    /// The check as Markdown, for a pull-request comment or a CI step summary.
    public func markdown() -> String {
        var text = "## framescope check: \(passed ? "✅" : "❌") \(resultLine)\n\nBudget: `\(budgetSource)`\n\n"
        for var table in tables() {
            table.rows = table.rows.map { row in
                var row = row
                row[0] = "`\(row[0])`"
                row[3] = row[3] == "FAIL" ? "❌ **FAIL**" : row[3] == "pass" ? "✅ pass" : "⚠️ " + row[3]
                return row
            }
            text += table.markdown() + "\n"
        }
        text += legend + "\n"
        let charted = traces.filter { $0.frameCount > 0 }
        if !charted.isEmpty {
            text += "\n### Main-thread cost per frame\n\n"
            if charted.count > Self.maximumCharts {
                text += "(charts for the first \(Self.maximumCharts) of \(charted.count) traces)\n\n"
            }
            for trace in charted.prefix(Self.maximumCharts) { text += trace.chart.mermaid(title: trace.name) + "\n" }
        }
        return text
    }

    /// The check as JSON, schema `framescope.check` version ``schemaVersion``.
    ///
    /// `passed` says whether every rule passed; `counts` has `rules`, `passed`, `near-limit` and
    /// `failed`; each trace has `name`, `source`, `frames`, `frame-interval-ns`,
    /// `frame-interval-source`, `verdict` and `rules`, each rule `id`, `summary`, `measured`
    /// (`null` without frames), `limit`, `unit` (`ms`, `ms/s`, `share`, `frames`), `limit-path`
    /// and `verdict` (`pass`, `near-limit`, `fail`).
    public func jsonValue() -> JSONValue {
        let all = results
        return .object([
            ("schema", .string("framescope.check")),
            ("version", .integer(Int64(Self.schemaVersion))),
            ("budget", .string(budgetSource)),
            ("passed", .bool(passed)),
            ("counts", .object([
                ("rules", .integer(Int64(all.count))),
                ("passed", .integer(Int64(all.filter { $0.verdict == .pass }.count))),
                ("near-limit", .integer(Int64(all.filter { $0.verdict == .nearLimit }.count))),
                ("failed", .integer(Int64(all.filter { $0.verdict == .fail }.count))),
            ])),
            ("traces", .array(traces.map { trace in
                .object([
                    ("name", .string(trace.name)),
                    ("source", .string(trace.source)),
                    ("frames", .integer(Int64(trace.frameCount))),
                    ("frame-boundaries", .string(trace.frameSource.identifier)),
                    ("frame-interval-ns", .integer(trace.frameIntervalNanoseconds)),
                    ("frame-interval-source", .string(trace.frameIntervalSource)),
                    ("verdict", .string(trace.verdict.rawValue)),
                    ("rules", .array(trace.rules.map { rule in
                        .object([
                            ("id", .string(rule.id)),
                            ("summary", .string(rule.summary)),
                            ("measured", rule.measured.map(JSONValue.number) ?? .null),
                            ("limit", .number(rule.limit)),
                            ("unit", .string(rule.unit.rawValue)),
                            ("limit-path", .string(rule.limitPath)),
                            ("verdict", .string(rule.verdict.rawValue)),
                        ])
                    })),
                ])
            })),
        ])
    }

    /// The check as a JUnit report: one test suite per trace, one test case per rule, a failure
    /// for each rule over its limit.
    public func junit() -> JUnitReport {
        JUnitReport(name: "framescope check", suites: traces.map { trace in
            JUnitReport.Suite(name: "framescope check: \(trace.name)", cases: trace.rules.map { rule in
                let detail = "\(rule.summary)\nmeasured: \(Self.measured(rule))\nlimit: \(rule.unit.format(rule.limit)) (\(rule.limitPath))"
                return JUnitReport.TestCase(
                    name: rule.id, className: JUnitReport.className("framescope.check", trace.name),
                    failure: rule.verdict == .fail
                        ? JUnitReport.Failure(message: Self.finding(rule), type: "budget-exceeded", details: detail) : nil,
                    output: rule.verdict == .fail ? nil : detail)
            })
        })
    }

    /// GitHub annotations: an error per rule over its limit and a warning per rule near it.
    /// Render them with ``GitHubAnnotations/lines(_:limit:)``, which orders them worst first.
    public func annotations() -> [GitHubAnnotation] {
        results.compactMap { rule in
            switch rule.verdict {
            case .pass: return nil
            case .fail:
                return GitHubAnnotation(level: .error, title: "framescope check: \(rule.id)", message: Self.finding(rule), severity: rule.excess)
            case .nearLimit:
                return GitHubAnnotation(
                    level: .warning, title: "framescope check: \(rule.id)",
                    message: "\(rule.traceName): \(rule.summary) is \(Self.measured(rule)), within 10% of the limit "
                        + "\(rule.unit.format(rule.limit)) (\(rule.limitPath))",
                    severity: rule.limit > 0 ? (rule.measured ?? 0) / rule.limit : 0)
            }
        }
    }

    // MARK: - Pieces

    /// `pass, 0 of 14 rules exceeded, across 2 traces` or `FAIL, 3 of 14 rules exceeded, across 2 traces`.
    var resultLine: String {
        "\(Self.headline(results)), across \(traces.count) trace\(traces.count == 1 ? "" : "s")"
    }

    var legend: String {
        "A value exactly at its limit passes; \"near limit\" passes at 90% of the limit or more.\n"
            + "Limits marked (traces[N]) come from that trace section of the budget."
    }

    static func headline(_ rules: [RuleResult]) -> String {
        let failed = rules.filter { $0.verdict == .fail }.count
        let near = rules.filter { $0.verdict == .nearLimit }.count
        var text = "\(failed == 0 ? "pass" : "FAIL"), \(failed) of \(rules.count) rule\(rules.count == 1 ? "" : "s") exceeded"
        if near > 0 { text += ", \(near) near the limit" }
        return text
    }

    static func measured(_ rule: RuleResult) -> String {
        rule.measured.map(rule.unit.format) ?? "no frames"
    }

    static func limit(_ rule: RuleResult) -> String {
        let formatted = rule.unit.format(rule.limit)
        guard rule.limitPath.hasPrefix("traces["), let end = rule.limitPath.firstIndex(of: "]") else { return formatted }
        return formatted + " (" + rule.limitPath[...end] + ")"
    }

    static func verdictText(_ verdict: RuleResult.Verdict) -> String {
        switch verdict {
        case .pass: "pass"
        case .nearLimit: "near limit"
        case .fail: "FAIL"
        }
    }

    /// One sentence for a failed rule: `reload.json: hitch time ratio is 99.23 ms/s, over the limit 5.00 ms/s (limits.hitch-time-ratio)`.
    static func finding(_ rule: RuleResult) -> String {
        guard rule.measured != nil else { return "\(rule.traceName): \(rule.summary): the trace has no frames to measure" }
        return "\(rule.traceName): \(rule.summary) is \(measured(rule)), over the limit \(rule.unit.format(rule.limit)) (\(rule.limitPath))"
    }
}
