import FrameSupport
package import FrameTrace

extension BudgetCheck {
    /// One table per trace: rule, measured value, limit and verdict.
    package func tables() -> [ReportTable] {
        traces.map { trace in
            var table = ReportTable(
                title:
                    "\(trace.name): \(Self.headline(trace.rules)) (\(trace.frameCount) frames from \(trace.frameSource.shortPhrase) at "
                    + "\(ReportFormat.milliseconds(trace.frameRate.intervalNanoseconds)), \(trace.frameIntervalSource))",
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
    ///
    /// Traces that could not be checked and categories no trace has follow the tables as
    /// `error:` lines, trace sections that matched nothing as `warning:` lines.
    package func text() -> String {
        var text = "framescope check: budget \(UntrustedText.terminal(budgetSource))\n\n"
        text += tables().map { $0.text() }.joined(separator: "\n")
        let problems =
            errorLines(UntrustedText.terminal).map { "error: " + $0 }
            + warningLines(UntrustedText.terminal).map { "warning: " + $0 }
        if !problems.isEmpty { text += (traces.isEmpty ? "" : "\n") + problems.joined(separator: "\n") + "\n" }
        text += "\n" + legend + "\n"
        text += "result: \(resultLine)\n"
        return text
    }

    /// The check as GitHub Markdown (``unboundedMarkdown()``), at most ``MarkdownLimit/bytes`` long.
    package func markdown() -> String {
        MarkdownLimit.fit(unboundedMarkdown())
    }

    /// The check as Markdown, for a pull-request comment or a CI step summary.
    private func unboundedMarkdown() -> String {
        var text = "## framescope check: \(passed && !hasErrors ? "✅" : "❌") \(resultLine)\n\n"
        text += "Budget: \(UntrustedText.markdownCode(budgetSource))\n\n"
        for (table, trace) in zip(tables(), traces) {
            text +=
                table.markdown { row, column, cell in
                    switch column {
                    case 0: UntrustedText.markdownCode(cell)
                    case 3:
                        switch trace.rules[row].verdict {
                        case .fail: "❌ **FAIL**"
                        case .pass: "✅ pass"
                        case .nearLimit: "⚠️ near limit"
                        case .notInTrace: "➖ not in trace"
                        }
                    default: nil
                    }
                } + "\n"
        }
        let problems =
            errorLines(UntrustedText.markdownText).map { "- ❌ error: " + $0 }
            + warningLines(UntrustedText.markdownText).map { "- ⚠️ warning: " + $0 }
        // errorLines and warningLines already list at most listedLimit of each kind.
        if !problems.isEmpty { text += problems.joined(separator: "\n") + "\n\n" }
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
    package func json() -> String {
        JSONStream.text { json in
            json.member("schema", "framescope.check")
            json.member("version", Self.schemaVersion)
            json.member("budget", budgetSource)
            json.member("passed", passed)
            json.object("counts") { json in
                let all = results
                json.member("rules", all.count)
                json.member("passed", all.count { $0.verdict == .pass })
                json.member("near-limit", all.count { $0.verdict == .nearLimit })
                json.member("failed", all.count { $0.verdict == .fail })
                json.member("not-in-trace", all.count { $0.verdict == .notInTrace })
            }
            json.array("errors") { writeErrors(into: &$0) }
            json.array("warnings") { json in
                for section in unmatchedSections {
                    json.object { json in
                        json.member("kind", "unmatched-section")
                        json.member("section", section.index)
                        json.member("match", section.match)
                        json.member("message", Self.sentence(section, budget: budgetSource, { $0 }))
                    }
                }
            }
            json.array("traces") { json in for trace in traces { Self.write(trace, into: &json) } }
        }
    }

    /// ``json()`` as a value tree.
    package func jsonValue() -> JSONValue { JSONStream.parsed(json()) }

    /// The traces that could not be checked, then the budget's categories no trace has.
    private func writeErrors(into json: inout JSONStream) {
        for skipped in skippedTraces {
            json.object { json in
                json.member("kind", skipped.reason.identifier)
                json.member("trace", skipped.name)
                json.member("source", skipped.source)
                json.member("message", Self.sentence(skipped, budget: budgetSource, { $0 }))
            }
        }
        for unknown in unknownCategories {
            json.object { json in
                json.member("kind", "unknown-category")
                json.member("category", unknown.name)
                json.array("paths") { json in for path in unknown.paths { json.value(path) } }
                json.member("suggestion", unknown.suggestion)
                json.member("message", Self.sentence(unknown, budget: budgetSource, { $0 }))
            }
        }
    }

    private static func write(_ trace: TraceResult, into json: inout JSONStream) {
        json.object { json in
            json.member("name", trace.name)
            json.member("source", trace.source)
            json.member("frames", trace.frameCount)
            json.member("frame-boundaries", trace.frameSource.identifier)
            json.key(text: FrameContract.Metadata.frameInterval)
            json.value(trace.frameRate.intervalNanoseconds)
            json.member("frame-interval-source", trace.frameIntervalSource.identifier)
            json.member("frame-interval-requested-fps", trace.frameIntervalSource.requestedFrameRate?.hertz)
            json.member("verdict", trace.verdict.rawValue)
            json.array("rules") { json in
                for rule in trace.rules {
                    json.object { json in
                        json.member("id", rule.id)
                        json.member("summary", rule.summary)
                        json.member("measured", rule.measured)
                        json.member("limit", rule.limit)
                        json.member("unit", rule.unit.rawValue)
                        json.member("limit-path", rule.limitPath)
                        json.member("verdict", rule.verdict.rawValue)
                    }
                }
            }
        }
    }

    /// The check as a JUnit report: one test suite per trace, one test case per rule, a failure
    /// for each rule over its limit.
    ///
    /// A rule on a category the trace does not have is a skipped case; a trace that could not be
    /// checked is a suite of its own with one `<error>` case (its one-line reason), and a category
    /// no trace has is an `<error>` case in a suite named after the budget.
    package func junit() -> JUnitReport {
        var suites = traces.map { trace in
            JUnitReport.Suite(
                name: "framescope check: \(trace.name)",
                cases: trace.rules.map { rule in
                    let detail =
                        "\(rule.summary)\nmeasured: \(Self.measured(rule))\nlimit: \(rule.unit.format(rule.limit)) (\(rule.limitPath))"
                    return JUnitReport.TestCase(
                        name: rule.id, className: JUnitReport.className("framescope.check", trace.name),
                        failure: rule.verdict == .fail
                            ? JUnitReport.Failure(message: Self.finding(rule), type: "budget-exceeded", details: detail)
                            : nil,
                        output: rule.verdict == .fail ? nil : detail,
                        skipped: rule.verdict == .notInTrace
                            ? "\(rule.traceName): category \(rule.category ?? "") is not in the trace" : nil)
                })
        }
        suites += skippedTraces.map { skipped in
            let sentence = Self.sentence(skipped, budget: budgetSource, { $0 })
            return JUnitReport.Suite(
                name: "framescope check: \(skipped.name)",
                cases: [
                    JUnitReport.TestCase(
                        name: "read and check \(skipped.name)",
                        className: JUnitReport.className("framescope.check", skipped.name),
                        error: JUnitReport.Failure(
                            message: sentence, type: skipped.reason.identifier, details: sentence))
                ])
        }
        if !unknownCategories.isEmpty {
            suites.append(
                JUnitReport.Suite(
                    name: "framescope check: budget \(budgetSource)",
                    cases: unknownCategories.map { unknown in
                        let sentence = Self.sentence(unknown, budget: budgetSource, { $0 })
                        return JUnitReport.TestCase(
                            name: "categories.\(unknown.name)", className: "framescope.check.budget",
                            error: JUnitReport.Failure(message: sentence, type: "unknown-category", details: sentence))
                    }))
        }
        return JUnitReport(name: "framescope check", suites: suites)
    }

    /// GitHub annotations: an error per rule over its limit and a warning per rule near it.
    /// Render them with ``GitHubAnnotations/lines(_:limit:)``, which orders them worst first.
    /// Traces not checked and unknown categories are errors too; trace sections that matched
    /// no trace are warnings.
    package func annotations() -> [GitHubAnnotation] {
        let problems =
            skippedTraces.map { skipped in
                GitHubAnnotation(
                    level: .error, title: "framescope check: \(skipped.name)",
                    message: Self.sentence(skipped, budget: budgetSource, { $0 }),
                    severity: .infinity)
            }
            + unknownCategories.map { unknown in
                GitHubAnnotation(
                    level: .error, title: "framescope check: categories.\(unknown.name)",
                    message: Self.sentence(unknown, budget: budgetSource, { $0 }), severity: .infinity)
            }
            + unmatchedSections.map { section in
                GitHubAnnotation(
                    level: .warning, title: "framescope check: traces[\(section.index)]",
                    message: Self.sentence(section, budget: budgetSource, { $0 }),
                    severity: .infinity)
            }
        return problems
            + results.compactMap { rule in
                switch rule.verdict {
                case .pass, .notInTrace: return nil
                case .fail:
                    return GitHubAnnotation(
                        level: .error, title: "framescope check: \(rule.id)", message: Self.finding(rule),
                        severity: rule.excess)
                case .nearLimit:
                    return GitHubAnnotation(
                        level: .warning, title: "framescope check: \(rule.id)",
                        message:
                            "\(rule.traceName): \(rule.summary) is \(Self.measured(rule)), within 10% of the limit "
                            + "\(rule.unit.format(rule.limit)) (\(rule.limitPath))",
                        severity: rule.limit > 0 ? (rule.measured ?? 0) / rule.limit : 0)
                }
            }
    }

    // MARK: - Pieces

    /// `pass, 0 of 14 rules exceeded, across 2 traces` or `FAIL, 3 of 14 rules exceeded, across 2 traces`.
    package var resultLine: String {
        var line = "\(Self.headline(results)), across \(traces.count) trace\(traces.count == 1 ? "" : "s")"
        guard hasErrors else { return line }
        var errors: [String] = []
        if !skippedTraces.isEmpty {
            errors.append("\(skippedTraces.count) trace\(skippedTraces.count == 1 ? "" : "s") not checked")
        }
        if !unknownCategories.isEmpty {
            errors.append("\(unknownCategories.count) categor\(unknownCategories.count == 1 ? "y" : "ies") in no trace")
        }
        line = "ERROR, " + errors.joined(separator: ", ") + "; " + line
        return line
    }

    /// The errors — traces not checked, categories in no trace — as lines without the `error: `
    /// prefix, names written through `escape` (``UntrustedText/terminal(_:)`` for stderr).
    ///
    /// Each list shows its first ``listedLimit`` entries and a line that counts the rest, so a
    /// budget naming 100,000 categories no trace has gives a few hundred lines, not 100,000.
    package func errorLines(_ escape: (String) -> String) -> [String] {
        Self.limited(skippedTraces.map { Self.sentence($0, budget: budgetSource, escape) }, more: "traces not checked")
            + Self.limited(
                unknownCategories.prefix(Self.listedLimit + 1).map { Self.sentence($0, budget: budgetSource, escape) },
                total: unknownCategories.count, more: "categories in no checked trace")
    }

    /// The most entries of one kind the error and warning lines list.
    package static let listedLimit = 200

    /// The first ``listedLimit`` lines, then `… and N more WHAT: --format json lists them all`.
    static func limited(_ lines: [String], total: Int? = nil, more what: String) -> [String] {
        let total = total ?? lines.count
        guard total > listedLimit else { return lines }
        return Array(lines.prefix(listedLimit)) + [
            "… and \(total - listedLimit) more \(what): --format json lists them all"
        ]
    }

    /// The warnings — trace sections that match no trace — as lines without the `warning: `
    /// prefix, names written through `escape`.
    package func warningLines(_ escape: (String) -> String) -> [String] {
        Self.limited(
            unmatchedSections.prefix(Self.listedLimit + 1).map { Self.sentence($0, budget: budgetSource, escape) },
            total: unmatchedSections.count, more: "trace sections that match no trace")
    }

    /// `reload.json: no rule of budget feed.json applies to it; nothing to check`, and the like.
    static func sentence(_ skipped: SkippedTrace, budget: String, _ escape: (String) -> String) -> String {
        switch skipped.reason {
        case .unreadable(let reason): escape(reason)
        case .noFrames: "\(escape(skipped.source)): no frames found; nothing to check"
        case .noRules: "\(escape(skipped.source)): no rule of budget \(escape(budget)) applies to it; nothing to check"
        }
    }

    /// `budget.json: categories.image-decod: no checked trace has category image-decod; did you mean image-decode?`
    static func sentence(_ unknown: UnknownCategory, budget: String, _ escape: (String) -> String) -> String {
        var paths = unknown.paths.prefix(5).map(escape).joined(separator: ", ")
        if unknown.paths.count > 5 { paths += " and \(unknown.paths.count - 5) more" }
        var text = "\(escape(budget)): \(paths): no checked trace has category \(escape(unknown.name))"
        if let suggestion = unknown.suggestion { text += "; did you mean \(escape(suggestion))?" }
        return text
    }

    /// `budget.json: traces[1].match feed-* matches none of the traces given; its limits apply to nothing`
    static func sentence(_ section: UnmatchedSection, budget: String, _ escape: (String) -> String) -> String {
        "\(escape(budget)): traces[\(section.index)].match \(escape(section.match)) matches none of the traces given; its limits apply to nothing"
    }

    var legend: String {
        "A value exactly at its limit passes; \"near limit\" passes at 90% of the limit or more.\n"
            + "Limits marked (traces[N]) come from that trace section of the budget."
    }

    static func headline(_ rules: [RuleResult]) -> String {
        let failed = rules.filter { $0.verdict == .fail }.count
        let near = rules.filter { $0.verdict == .nearLimit }.count
        let absent = rules.filter { $0.verdict == .notInTrace }.count
        let judged = rules.count - absent
        var text = "\(failed == 0 ? "pass" : "FAIL"), \(failed) of \(judged) rule\(judged == 1 ? "" : "s") exceeded"
        if near > 0 { text += ", \(near) near the limit" }
        if absent > 0 { text += ", \(absent) not in trace" }
        return text
    }

    package static func measured(_ rule: RuleResult) -> String {
        rule.verdict == .notInTrace ? "not in trace" : rule.measured.map(rule.unit.format) ?? "no frames"
    }

    package static func limit(_ rule: RuleResult) -> String {
        let formatted = rule.unit.format(rule.limit)
        guard rule.limitPath.hasPrefix("traces["), let end = rule.limitPath.firstIndex(of: "]") else {
            return formatted
        }
        return formatted + " (" + rule.limitPath[...end] + ")"
    }

    static func verdictText(_ verdict: RuleResult.Verdict) -> String {
        switch verdict {
        case .pass: "pass"
        case .nearLimit: "near limit"
        case .fail: "FAIL"
        case .notInTrace: "not in trace"
        }
    }

    /// One sentence for a failed rule: `reload.json: hitch time ratio is 99.23 ms/s, over the limit 5.00 ms/s (limits.hitch-time-ratio)`.
    package static func finding(_ rule: RuleResult) -> String {
        guard rule.measured != nil else {
            return "\(rule.traceName): \(rule.summary): the trace has no frames to measure"
        }
        return
            "\(rule.traceName): \(rule.summary) is \(measured(rule)), over the limit \(rule.unit.format(rule.limit)) (\(rule.limitPath))"
    }
}
