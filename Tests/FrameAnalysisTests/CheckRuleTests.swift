import FrameTrace
import Testing

@testable import FrameAnalysis

/// A trace with every kind of figure a budget limits, in whole and decimal milliseconds: frames
/// every 10 ms (metadata), two of them late, one frozen, layout and image decode on main.
func checkSketch(imageDecodeOnMain: Bool = true) -> TraceSketch {
    var sketch = TraceSketch(metadataMain: true, interval: ms(10))
    sketch.span("frame", "frame", from: 0, to: 4)
    sketch.span("layout", "layout", from: 0, to: 3)
    sketch.span("frame", "frame", from: 10, to: 22)
    sketch.span("layout", "layout", from: 10, to: 14.2)
    sketch.span("decode", "image-decode", from: 14.2, to: 16.2, on: imageDecodeOnMain ? nil : sketch.worker)
    sketch.span("frame", "frame", from: 30, to: 36)
    sketch.span("layout", "layout", from: 30, to: 32.5)
    sketch.span("frame", "frame", from: 40, to: 52.5)
    sketch.span("frame", "frame", from: 60, to: 64)
    sketch.span("frame", "frame", from: 100, to: 810)
    sketch.span("decode", "image-decode", from: 2, to: 9, on: sketch.worker)
    return sketch
}

@Suite("Budget check: every rule and its edge")
struct CheckRuleTests {
    static let metrics: [Budget.Rule.Metric] = [
        .hitchTimeRatio, .slowFrameShare, .frozenFrames,
        .mainThread(.p50), .mainThread(.p90), .mainThread(.p95), .mainThread(.p99), .mainThread(.max),
        .overrun(.p50), .overrun(.p95), .overrun(.max),
        .categoryPerFrame("layout", .p50), .categoryPerFrame("layout", .p95), .categoryPerFrame("layout", .max),
        .categoryTotal("layout"), .categoryTotal("image-decode"),
        .laneCost(.main, .p95), .laneCost(.main, .max), .hitchTimeRatioByCause(.commit),
    ]

    /// A budget with one limit on `metric`.
    static func budget(_ metric: Budget.Rule.Metric, limit: Double) -> Budget {
        var budget = Budget()
        switch metric {
        case .hitchTimeRatio: budget.limits.hitchTimeRatio = limit
        case .slowFrameShare: budget.limits.slowFrameShare = limit
        case .frozenFrames: budget.limits.frozenFrames = Int(limit)
        case .mainThread(let p): budget.limits.mainThreadMilliseconds[p] = limit
        case .overrun(let p): budget.limits.overrunMilliseconds[p] = limit
        case .categoryPerFrame(let name, let p):
            budget.categories = [.init(name: name, mainMillisecondsPerFrame: [p: limit])]
        case .categoryTotal(let name): budget.categories = [.init(name: name, mainMillisecondsTotal: limit)]
        case .categoryOffMainThread(let name): budget.categories = [.init(name: name, offMainThread: true)]
        case .laneCost(let lane, let p): budget.limits.laneMilliseconds[lane] = [p: limit]
        case .hitchTimeRatioByCause(let cause): budget.limits.hitchTimeRatioByCause[cause] = limit
        case .deliveryLatency(let p): budget.limits.deliveryLatencyFrames[p] = limit
        }
        return budget
    }

    static func measure(_ metric: Budget.Rule.Metric, report: FrameReport) throws -> RuleResult {
        try #require(
            BudgetCheck.evaluate(report: report, traceName: "t.json", budget: budget(metric, limit: 1e9)).first)
    }

    @Test("A value exactly at its limit passes; the next value below the measured one fails", arguments: metrics)
    func edge(metric: Budget.Rule.Metric) throws {
        let report = FrameAnalyzer.analyze(checkSketch().trace)
        let measured = try #require(try Self.measure(metric, report: report).measured)
        let atLimit = BudgetCheck.evaluate(
            report: report, traceName: "t.json", budget: Self.budget(metric, limit: measured))
        #expect(atLimit.count == 1)
        #expect(atLimit[0].verdict != .fail, "\(atLimit[0].id) at its limit \(measured)")
        let below = metric == .frozenFrames ? measured - 1 : measured.nextDown
        if metric != .frozenFrames || measured > 0 {
            let over = BudgetCheck.evaluate(
                report: report, traceName: "t.json", budget: Self.budget(metric, limit: below))
            #expect(over[0].verdict == .fail, "\(over[0].id) over its limit")
        }
    }

    @Test(
        "A budget naming thousands of categories no trace has gives a bounded list of errors, suggestions for the first, in linear time"
    )
    func manyUnknownCategories() throws {
        let report = FrameAnalyzer.analyze(checkSketch().trace)
        var budget = Budget()
        budget.categories =
            (0..<5_000).map { .init(name: "missing-\($0)", mainMillisecondsTotal: 1) } + [
                .init(name: "layot", mainMillisecondsTotal: 1)
            ]
        budget.traceSections = (0..<300).map { .init(match: "other-\($0)-*", limits: .init(hitchTimeRatio: 5)) }
        let traces = [BudgetCheck.TraceResult(name: "t.json", source: "t.json", report: report, budget: budget)]
        let check = BudgetCheck(budgetSource: "b.json", budget: budget, traces: traces)
        #expect(check.unknownCategories.count == 5_001)
        #expect(check.unknownCategories.filter { $0.suggestion != nil }.count <= BudgetCheck.suggestedCount)
        #expect(check.unknownCategories.last?.suggestion == nil, "past the first 50, no suggestion is looked for")
        let errors = check.errorLines { $0 }
        #expect(errors.count == BudgetCheck.listedLimit + 1)
        #expect(errors.last == "… and 4801 more categories in no checked trace: --format json lists them all")
        let warnings = check.warningLines { $0 }
        #expect(
            warnings.count == BudgetCheck.listedLimit + 1
                && warnings.last?.hasPrefix("… and 100 more trace sections") == true)
        #expect(check.markdown().utf8.count < MarkdownLimit.bytes)
    }

    @Test("A category no trace has is an error naming the nearest one; a trace no rule applies to is not checked")
    func checkingNothing() throws {
        let report = FrameAnalyzer.analyze(checkSketch().trace)
        var budget = Budget()
        budget.limits.frozenFrames = 5
        budget.categories = [.init(name: "layot", mainMillisecondsTotal: 100)]
        budget.traceSections = [.init(match: "other-*", limits: .init(hitchTimeRatio: 5))]
        let traces = [BudgetCheck.TraceResult(name: "t.json", source: "t.json", report: report, budget: budget)]
        let check = BudgetCheck(budgetSource: "b.json", budget: budget, traces: traces)
        #expect(check.unknownCategories == [.init(name: "layot", paths: ["categories.layot"], suggestion: "layout")])
        #expect(check.unmatchedSections == [.init(index: 0, match: "other-*")])
        #expect(check.hasErrors)
        #expect(check.traces[0].rules.map(\.verdict) == [.pass, .notInTrace])

        let empty = BudgetCheck(
            budgetSource: "b.json", budget: Budget(),
            traces: [
                BudgetCheck.TraceResult(name: "t.json", source: "t.json", report: report, budget: Budget())
            ])
        #expect(empty.traces.isEmpty)
        #expect(empty.skippedTraces == [.init(name: "t.json", source: "t.json", reason: .noRules)])
        #expect(BudgetCheck.editDistance("image-decod", "image-decode") == 1)
        #expect(BudgetCheck.editDistance("", "abc") == 3)
        #expect(BudgetCheck.editDistance("kitten", "sitting") == 3)
        #expect(BudgetCheck.editDistance(Array("kitten"), Array("sitting"), atMost: 2) == nil)
        // Suggestions: the nearest name when it is near (a third of the length, at least 2), the
        // first in sorted order among equals; none for a name far from every other.
        let names = BudgetCheck.Suggestions([
            "layout", "layer", "image-decode", "diff-apply", String(repeating: "x", count: 500),
        ])
        #expect(names.nearest(to: "layot") == "layout")
        #expect(names.nearest(to: "laye") == "layer")
        #expect(names.nearest(to: "image-decod") == "image-decode")
        #expect(names.nearest(to: "network") == nil)
        #expect(
            names.nearest(to: String(repeating: "x", count: 499)) == nil, "names over 100 characters are not compared")
    }

    @Test("Measured values are the report's figures in the rule's unit")
    func measuredValues() throws {
        let report = FrameAnalyzer.analyze(checkSketch().trace)
        func value(_ metric: Budget.Rule.Metric) throws -> Double? { try Self.measure(metric, report: report).measured }
        #expect(report.summary.frameCount == 6)
        #expect(try value(.frozenFrames) == 1)
        #expect(try value(.slowFrameShare) == 2.0 / 6.0, "the frozen frame is not also slow")
        #expect(try value(.hitchTimeRatio) == report.summary.hitchTimeRatio)
        #expect(try value(.mainThread(.max)) == 710)
        #expect(try value(.categoryPerFrame("layout", .max)) == 4.2)
        #expect(
            try value(.categoryPerFrame("absent", .p95)) == nil,
            "a category the trace does not have is not measured as 0 ms")
        #expect(try Self.measure(.categoryPerFrame("absent", .p95), report: report).verdict == .notInTrace)
        #expect(try Self.measure(.categoryOffMainThread("absent"), report: report).verdict == .notInTrace)
        #expect(try value(.categoryTotal("layout")) == 9.7)
        #expect(try value(.categoryTotal("image-decode")) == 2, "only main-thread time counts")
        #expect(try value(.overrun(.max)) == 700)
    }

    @Test("Limits written in the file compare exactly with nanosecond measurements")
    func decimalLimitsFromJSON() throws {
        let report = FrameAnalyzer.analyze(checkSketch().trace)
        let atLimit = try Budget.parse(
            """
            {"version": 1, "limits": {"main-thread-ms": {"max": 710}, "overrun-ms": {"p50": -4}, "frozen-frames": 1,
             "slow-frame-share": 0.3333333333333333},
             "categories": {"layout": {"main-ms-per-frame": {"max": 4.2}, "main-ms-total": 9.7}, "image-decode": {"main-ms-total": 2}}}
            """)
        let results = BudgetCheck.evaluate(report: report, traceName: "t.json", budget: atLimit)
        #expect(results.count == 7)
        #expect(results.allSatisfy { $0.verdict != .fail }, "\(results.filter { $0.verdict == .fail }.map(\.id))")
        let justOver = try Budget.parse(
            #"{"version": 1, "categories": {"layout": {"main-ms-per-frame": {"max": 4.199999}}}}"#)
        #expect(BudgetCheck.evaluate(report: report, traceName: "t.json", budget: justOver)[0].verdict == .fail)
    }

    @Test("off-main-thread passes at exactly 0 ms on main and fails otherwise")
    func offMainThread() throws {
        let budget = Self.budget(.categoryOffMainThread("image-decode"), limit: 0)
        let offMain = BudgetCheck.evaluate(
            report: FrameAnalyzer.analyze(checkSketch(imageDecodeOnMain: false).trace), traceName: "t.json",
            budget: budget)
        #expect(offMain.map(\.id) == ["categories.image-decode.off-main-thread"])
        #expect(offMain[0].measured == 0)
        #expect(offMain[0].limit == 0)
        #expect(offMain[0].verdict == .pass)
        let onMain = BudgetCheck.evaluate(
            report: FrameAnalyzer.analyze(checkSketch().trace), traceName: "t.json", budget: budget)
        #expect(onMain[0].measured == 2)
        #expect(onMain[0].verdict == .fail)
    }

    @Test("At 90% of a positive limit or more a rule passes as near-limit")
    func nearLimit() throws {
        let report = FrameAnalyzer.analyze(checkSketch().trace)
        func verdict(_ limit: Double) -> RuleResult.Verdict {
            BudgetCheck.evaluate(
                report: report, traceName: "t.json", budget: Self.budget(.categoryTotal("layout"), limit: limit))[0]
                .verdict
        }
        #expect(verdict(9.7) == .nearLimit)
        #expect(verdict(9.7 / 0.9) == .nearLimit)
        #expect(verdict(11) == .pass)
        #expect(verdict(9.6) == .fail)
    }

    @Test("A trace without frames fails every rule: nothing in it could be measured")
    func noFrames() throws {
        let report = FrameAnalyzer.analyze(Trace())
        let results = BudgetCheck.evaluate(
            report: report, traceName: "empty.json", budget: Self.budget(.hitchTimeRatio, limit: 5))
        #expect(results[0].measured == nil)
        #expect(results[0].verdict == .fail)
        #expect(results[0].excess == .infinity)
    }

    @Test("The budget's fps wins over the trace's metadata and says so; an explicit --fps wins over both")
    func budgetFramesPerSecond() throws {
        let budget = Budget(frameRate: FrameRate(hertz: 120))
        var withoutMetadata = checkSketch()
        withoutMetadata.trace.metadata.frameIntervalNanoseconds = nil
        let fromBudget = budget.analyze(withoutMetadata.trace, options: AnalysisOptions())
        #expect(fromBudget.method.frameRate.intervalNanoseconds == 8_333_333)
        #expect(fromBudget.method.frameIntervalSource.description == "budget fps 120")
        let fromTrace = budget.analyze(checkSketch().trace, options: AnalysisOptions())
        #expect(fromTrace.method.frameRate.intervalNanoseconds == 8_333_333)
        #expect(fromTrace.method.frameIntervalSource.description == "budget fps 120 (over trace metadata 10.00 ms)")
        #expect(
            Budget().analyze(checkSketch().trace, options: AnalysisOptions()).method.frameIntervalSource.description
                == "trace metadata")
        let fromOptions = budget.analyze(
            withoutMetadata.trace, options: AnalysisOptions(frameRate: FrameRate(hertz: 30)))
        #expect(fromOptions.method.frameIntervalSource.description == "--fps 30")
    }
}
