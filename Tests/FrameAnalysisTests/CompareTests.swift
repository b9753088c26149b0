import FrameSupport
import FrameTrace
import Testing

@testable import FrameAnalysis

/// A report of back-to-back frames with the given main-thread costs (nanoseconds): each frame
/// starts at a vsync, spends `layoutShare` of its cost in `layout` and the rest in `other`, and
/// the next frame starts at the first vsync after it ends.
func syntheticReport(costs: [Double], layoutShare: Double = 0.3, interval: Int64 = 16_666_667) -> FrameReport {
    var frames: [FrameReport.Frame] = []
    var vsync: Int64 = 0
    for (index, cost) in costs.enumerated() {
        let main = Int64(cost.rounded())
        let layout = Int64((cost * layoutShare).rounded())
        frames.append(
            FrameReport.Frame(
                index: index, vsync: vsync, deadline: vsync + interval, workStart: vsync, commitEnd: vsync + main,
                mainThreadNanoseconds: main, mainByCategory: ["layout": layout, "other": main - layout],
                backgroundByCategory: [:]))
        vsync += max(1, (main + interval - 1) / interval) * interval
    }
    return FrameReport(
        method: .init(
            frameRate: FrameRate(intervalNanoseconds: interval)!, frameIntervalSource: .defaultRate, mainThread: nil,
            mainThreadName: nil,
            mainThreadRule: .none, frameSource: .frameSpans),
        frames: frames, summary: FrameAnalyzer.summarize(frames, interval: interval, mainOutside: 0), categories: [],
        worstFrames: [],
        threads: [], diagnostics: [])
}

/// Compares one synthetic run per side.
func compareCosts(_ base: [Double], _ head: [Double], thresholds: RegressionThresholds = .defaults) -> Comparison {
    Comparison(
        base: [syntheticReport(costs: base)], head: [syntheticReport(costs: head)], baseSources: ["base.json"],
        headSources: ["head.json"], thresholds: thresholds)
}

@Suite("Compare: noise-aware verdicts on seeded synthetic runs")
struct CompareTests {
    /// Frames per run: about five seconds of scrolling at 60 Hz.
    static let frames = 300

    @Test("Identical runs pass with no change in any metric")
    func identicalRuns() {
        let (base, _) = FrameCostGenerator.runs(seed: 1, frames: Self.frames)
        let comparison = compareCosts(base, base)
        #expect(comparison.passed)
        #expect(
            comparison.metrics.map(\.id) == [
                "main-thread-ms", "overrun-ms", "categories.other.main-ms-per-frame",
                "categories.layout.main-ms-per-frame",
            ])
        for metric in comparison.metrics {
            #expect(metric.verdict == .unchanged, "\(metric.id)")
            #expect(metric.shift == 0)
            #expect(metric.p95Difference == 0)
            #expect(metric.pValue == 1)
        }
        #expect(comparison.summaries.allSatisfy { $0.delta == 0 })
    }

    @Test("Two runs of the same distribution pass in at least 99 of 100 seeds")
    func sameDistributionPasses() {
        var passes = 0
        var flagged: [UInt64: [String]] = [:]
        for seed in UInt64(1)...100 {
            let (base, head) = FrameCostGenerator.runs(seed: seed, frames: Self.frames)
            let comparison = compareCosts(base, head)
            if comparison.passed {
                passes += 1
            } else {
                flagged[seed] = comparison.metrics.filter { $0.fails }.map(\.id)
            }
        }
        #expect(passes >= 99, "false alarms: \(flagged)")
    }

    @Test("Main-thread cost 20% higher fails in at least 99 of 100 seeds, as a main-thread regression")
    func twentyPercentRegressionFails() {
        var failures = 0
        var missed: [UInt64: String] = [:]
        for seed in UInt64(1)...100 {
            let (base, head) = FrameCostGenerator.runs(seed: seed, frames: Self.frames, headScale: 1.2)
            let comparison = compareCosts(base, head)
            let main = comparison.metrics[0]
            if !comparison.passed && main.verdict == .regression { failures += 1 } else { missed[seed] = main.reason }
        }
        #expect(failures >= 99, "missed: \(missed)")
    }

    @Test("A 20% regression is found from its median shift, measured relative to the base median")
    func regressionReason() throws {
        let (base, head) = FrameCostGenerator.runs(seed: 7, frames: Self.frames, headScale: 1.2)
        let main = compareCosts(base, head).metrics[0]
        #expect(main.verdict == .regression)
        let relative = try #require(main.relativeShift)
        #expect(relative > 0.1 && relative < 0.3)
        #expect(try #require(main.pValue) < 0.01)
        #expect(main.reason.hasPrefix("median shift +"))
    }

    @Test("A 20% improvement is reported as one and passes")
    func improvement() {
        let (base, head) = FrameCostGenerator.runs(seed: 3, frames: Self.frames, headScale: 0.8)
        let comparison = compareCosts(base, head)
        #expect(comparison.passed)
        #expect(comparison.metrics[0].verdict == .improvement)
    }

    @Test("A slower tail fails through the p95 even when the median does not move")
    func tailRegression() throws {
        // Five cheap frames in six and one expensive one (a list update); head makes only the
        // expensive frames 20% dearer, which moves the p95 and leaves the median alone.
        var generator = FrameCostGenerator(seed: 11)
        func run(expensiveScale: Double) -> [Double] {
            (0..<600).map { index in
                let cost = generator.next()
                return index % 6 == 0 ? 2.5 * cost * expensiveScale : cost / 8
            }
        }
        let base = run(expensiveScale: 1)
        let head = run(expensiveScale: 1.2)
        let main = compareCosts(base, head).metrics[0]
        #expect(main.verdict == .regression)
        #expect(abs(try #require(main.relativeShift)) < 0.1, "the typical frame did not change")
        let interval = try #require(main.p95Interval)
        #expect(interval.lower > 0)
        #expect(interval.confidence == 0.99)
        #expect(main.reason.hasPrefix("p95 +"))
    }

    @Test("Worse by the minimum effects but not significant is a possible regression, which passes")
    func possibleRegression() {
        // Ten frames a side, the fewest that are judged (MetricComparison.minimumFrames).
        let base: [Double] = [8, 9, 10, 11, 12, 8.2, 9.2, 10.2, 11.2, 12.2].map { $0 * 1e6 }
        let head: [Double] = [8.5, 10, 11.5, 12.5, 14, 8.7, 10.2, 11.7, 12.7, 14.2].map { $0 * 1e6 }
        let comparison = compareCosts(base, head)
        let main = comparison.metrics[0]
        #expect(main.verdict == .possibleRegression)
        #expect(main.reason.hasSuffix("not significant at alpha 0.01"))
        #expect(comparison.passed)
        #expect(comparison.annotations().first?.level == .warning)
    }

    @Test("A change below either minimum effect is no change, however significant")
    func minimumEffects() {
        let (base, head) = FrameCostGenerator.runs(seed: 5, frames: Self.frames, headScale: 1.2)
        let strictAbsolute = RegressionThresholds(
            alpha: 0.01, minimumRelativeEffect: 0.1, minimumAbsoluteMilliseconds: 5)
        #expect(compareCosts(base, head, thresholds: strictAbsolute).metrics[0].verdict == .unchanged)
        let strictRelative = RegressionThresholds(
            alpha: 0.01, minimumRelativeEffect: 0.5, minimumAbsoluteMilliseconds: 0)
        #expect(compareCosts(base, head, thresholds: strictRelative).metrics[0].verdict == .unchanged)
    }

    @Test("Several runs per side are pooled frame by frame")
    func pooledRuns() {
        let runs = (UInt64(1)...6).map { FrameCostGenerator.runs(seed: $0, frames: 100).base }
        let pooled = Comparison(
            base: runs[0..<3].map { syntheticReport(costs: $0) }, head: runs[3..<6].map { syntheticReport(costs: $0) },
            baseSources: ["b1", "b2", "b3"], headSources: ["h1", "h2", "h3"])
        let single = compareCosts(runs[0..<3].flatMap { $0 }, runs[3..<6].flatMap { $0 })
        #expect(pooled.baseFrameCount == 300)
        #expect(pooled.headFrameCount == 300)
        #expect(pooled.metrics == single.metrics)
        #expect(pooled.summaries.first { $0.id == "frames" }?.base == 300)
    }

    @Test("A category that ran in a few frames is compared over every frame, 0 where it did not run")
    func sparseCategories() {
        // Frame i runs category c(i % 7) only, and `layout` in every third frame; head's c3 is
        // twice as slow. Each category's metric must equal a comparison of the per-frame values
        // written out in full, zeros included.
        func report(c3Scale: Double, seed: UInt64) -> FrameReport {
            var generator = SeededGenerator(seed: seed)
            var frames: [FrameReport.Frame] = []
            for index in 0..<400 {
                let vsync = Int64(index) * 16_666_667
                var byCategory: [String: Int64] = [
                    "c\(index % 7)": Int64.random(in: 1_000_000...3_000_000, using: &generator)
                ]
                if index % 7 == 3 { byCategory["c3"] = Int64(Double(byCategory["c3"]!) * c3Scale) }
                if index % 3 == 0 { byCategory["layout"] = Int64.random(in: 100_000...900_000, using: &generator) }
                let main = byCategory.values.reduce(0, +)
                frames.append(
                    FrameReport.Frame(
                        index: index, vsync: vsync, deadline: vsync + 16_666_667, workStart: vsync,
                        commitEnd: vsync + main,
                        mainThreadNanoseconds: main, mainByCategory: CategoryTimes(byCategory),
                        backgroundByCategory: [:]))
            }
            var result = syntheticReport(costs: [])
            result.frames = frames
            result.summary = FrameAnalyzer.summarize(frames, interval: 16_666_667, mainOutside: 0)
            return result
        }
        let base = report(c3Scale: 1, seed: 1)
        let head = report(c3Scale: 2, seed: 2)
        let comparison = Comparison(base: [base], head: [head], baseSources: ["b"], headSources: ["h"])
        let categories = comparison.metrics.filter { $0.id.hasPrefix("categories.") }
        #expect(categories.count == 8)
        for metric in categories {
            let name = String(metric.id.dropFirst("categories.".count).dropLast(".main-ms-per-frame".count))
            let dense = MetricComparison.compare(
                id: metric.id, label: metric.label,
                base: base.frames.map { Double($0.mainByCategory[name] ?? 0) / 1e6 },
                head: head.frames.map { Double($0.mainByCategory[name] ?? 0) / 1e6 }, thresholds: .defaults)
            #expect(
                metric.base?.p50 == dense.base?.p50 && metric.base?.p95 == dense.base?.p95
                    && metric.head?.max == dense.head?.max, "\(name)")
            #expect(
                metric.shift == dense.shift && metric.pValue == dense.pValue && metric.verdict == dense.verdict,
                "\(name)")
            #expect(metric.base?.count == 400 && metric.head?.count == 400, "\(name)")
        }
        #expect(categories.first { $0.id == "categories.c3.main-ms-per-frame" }?.verdict == .regression)
        #expect(categories.filter { $0.verdict == .regression }.count == 1)
    }

    @Test("A side without frames cannot be compared and fails")
    func noData() {
        let comparison = compareCosts([], [8e6, 9e6])
        #expect(!comparison.passed)
        #expect(comparison.metrics.allSatisfy { $0.verdict == .noData })
    }

    @Test("Text, Markdown, JUnit and JSON match the golden files")
    func goldenOutputs() throws {
        // Integer-only samples, so the figures are the same on every platform.
        let base = (0..<240).map { Double(6_000_000 + ($0 * 7_919) % 4_000_000) }
        var head = base.map { ($0 * 1.25).rounded() }
        head[0] = 80_000_000
        // Head's extra cost is all outside layout: 0.24 of 1.25 times the cost is base's 0.3.
        let comparison = Comparison(
            base: [syntheticReport(costs: base)],
            head: [
                syntheticReport(costs: Array(head.prefix(120)), layoutShare: 0.24),
                syntheticReport(costs: Array(head.dropFirst(120)), layoutShare: 0.24),
            ],
            baseSources: ["base.json"], headSources: ["head-1.json", "head-2.json"])
        try expectGolden(comparison.text(), named: "compare.txt")
        try expectGolden(comparison.markdown(), named: "compare.md")
        try expectGolden(comparison.junit().xml(), named: "compare.junit.xml")
        try expectGolden(comparison.json() + "\n", named: "compare.json")
        let lines = GitHubAnnotations.lines(comparison.annotations())
        #expect(lines.count == comparison.metrics.filter { $0.verdict == .regression }.count)
    }
}
