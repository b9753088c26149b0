import FrameAnalysis
import FrameSupport
import FrameTrace
import Testing

@Suite("Mann–Whitney U test")
struct MannWhitneyTests {
    /// Reference values from SciPy 1.17: `scipy.stats.mannwhitneyu(head, base,
    /// alternative="two-sided", method=..., use_continuity=True)`, whose statistic is U of the
    /// first argument.
    static let references:
        [(base: [Double], head: [Double], u: Double, pValue: Double, method: MannWhitneyResult.Method)] = [
            ([1, 2, 3, 4, 5], [0.1, 0.2, 0.3, 0.4, 2.5], 2, 0.031746031746031744, .exact),
            (
                Array(0...9).map(Double.init), [9.5, 9.6, 2.5, -1, -2, -3, -4, -5, -6, -7], 23, 0.04325705254497823,
                .exact
            ),
            (
                Array(0...9).map(Double.init), [9.5, 9.6, 3.5, -1, -2, -3, -4, -5, -6, -7], 24, 0.0524259022711035,
                .exact
            ),
            (Array(1...10).map(Double.init), Array(11...20).map(Double.init), 100, 1.082508822446903e-05, .exact),
            (Array(0..<15).map(Double.init), (0..<12).map { 0.25 + 1.3 * Double($0) }, 95, 0.8290957244248401, .exact),
            ([1, 2, 2, 3], [2, 3, 3, 4], 13, 0.1720337089218229, .normalApproximation),
            (
                [1, 2, 3, 3, 4, 5, 5, 6, 7], [3, 3, 4, 5, 5, 5, 6, 7, 8, 9, 9, 12], 80.5, 0.06169509120681044,
                .normalApproximation
            ),
            (
                Array(0..<25).map(Double.init), (0..<30).map { 0.25 + 1.3 * Double($0) }, 512, 0.021039710723773676,
                .normalApproximation
            ),
        ]

    @Test("U and the p-value match SciPy's, exact for small tie-free samples", arguments: references.indices)
    func matchesReference(index: Int) throws {
        let reference = Self.references[index]
        let result = try #require(mannWhitneyTest(base: reference.base, head: reference.head))
        #expect(result.u == reference.u)
        #expect(abs(result.pValue - reference.pValue) <= 1e-9 * reference.pValue)
        #expect(result.method == reference.method)
    }

    @Test(
        "Exact p-values equal the tails counted over every split of the ranks",
        arguments: [(1, 1), (1, 6), (3, 5), (5, 5), (4, 9), (7, 8)])
    func exactMatchesEnumeration(baseCount: Int, headCount: Int) throws {
        // Every way to choose which of the ranks 0..<N belong to the head sample.
        let total = baseCount + headCount
        let splits = (0..<(1 << total)).filter { $0.nonzeroBitCount == headCount }
        func uOfHead(_ split: Int) -> Int {
            (0..<total).filter { split >> $0 & 1 == 1 }.map { rank in (0..<rank).filter { split >> $0 & 1 == 0 }.count }
                .reduce(0, +)
        }
        let us = splits.map(uOfHead)
        var checked = Set<Int>()
        for (split, u) in zip(splits, us) where checked.insert(u).inserted {
            let lower = Double(us.filter { $0 <= u }.count)
            let upper = Double(us.filter { $0 >= u }.count)
            let expected = min(1, 2 * min(lower, upper) / Double(us.count))
            let ranks = (0..<total).map(Double.init)
            let result = try #require(
                mannWhitneyTest(
                    base: ranks.filter { split >> Int($0) & 1 == 0 }, head: ranks.filter { split >> Int($0) & 1 == 1 }))
            #expect(result.method == .exact)
            #expect(result.u == Double(u))
            #expect(abs(result.pValue - expected) < 1e-12, "U = \(u)")
        }
        #expect(checked.count == baseCount * headCount + 1)
    }

    @Test("Identical samples and constant values give no evidence of a difference")
    func noDifference() throws {
        var costs = FrameCostGenerator(seed: 4)
        let sample = costs.sample(300)
        let identical = try #require(mannWhitneyTest(base: sample, head: sample))
        #expect(identical.u == 300 * 300 / 2)
        #expect(identical.z == 0 && identical.pValue == 1)
        #expect(identical.commonLanguageEffectSize == 0.5)
        let constant = try #require(mannWhitneyTest(base: [8, 8, 8], head: [8, 8]))
        #expect(constant.z == 0 && constant.pValue == 1)
    }

    @Test("The effect size is the share of pairs in which head is larger")
    func effectSizeCountsPairs() throws {
        let slower = try #require(mannWhitneyTest(base: [1, 2, 3], head: [4, 5]))
        #expect(slower.commonLanguageEffectSize == 1)
        #expect(slower.z > 0)
        let faster = try #require(mannWhitneyTest(base: [4, 5], head: [1, 2, 3]))
        #expect(faster.commonLanguageEffectSize == 0)
        #expect(faster.z < 0)
    }

    @Test(
        "U, z and the p-value equal ranks computed by sorting the pooled values, with heavy ties",
        arguments: UInt64(1)...20)
    func pooledRanksReference(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        // Mostly zeros (a category that rarely runs) and a few repeated small values.
        func sample(_ count: Int) -> [Double] {
            (0..<count).map { _ in
                Int.random(in: 0..<10, using: &generator) < 7 ? 0 : Double(Int.random(in: 1...5, using: &generator))
            }
        }
        let base = sample(Int.random(in: 1...60, using: &generator))
        let head = sample(Int.random(in: 1...60, using: &generator))
        let pooled = (base.map { ($0, false) } + head.map { ($0, true) }).sorted { $0.0 < $1.0 }
        var headRankSum = 0.0
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end < pooled.count && pooled[end].0 == pooled[start].0 { end += 1 }
            let heads = pooled[start..<end].filter(\.1).count
            headRankSum += Double(heads) * Double(start + 1 + end) / 2
            let tied = Double(end - start)
            tieTerm += tied * tied * tied - tied
            start = end
        }
        let expectedU = headRankSum - Double(head.count) * Double(head.count + 1) / 2
        let result = mannWhitneyTest(base: base, head: head)!
        #expect(result.u == expectedU)
        let total = Double(base.count + head.count)
        let variance = Double(base.count * head.count) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
        if variance > 0, result.method == .normalApproximation {
            let deviation = expectedU - Double(base.count * head.count) / 2
            #expect(
                abs(
                    result.z - Double(signOf: deviation, magnitudeOf: max(0, abs(deviation) - 0.5))
                        / variance.squareRoot()) < 1e-12)
        }
    }

    @Test("Empty samples give no result")
    func emptySamples() {
        #expect(mannWhitneyTest(base: [], head: [1]) == nil)
        #expect(mannWhitneyTest(base: [1], head: []) == nil)
    }

    @Test("Two runs of 300 frames from the same distribution are rejected at 0.01 in at most 3 of 100 seeds")
    func nullRarelyRejects() throws {
        var rejections = 0
        var pValues: [Double] = []
        for seed in UInt64(0)..<100 {
            let runs = FrameCostGenerator.runs(seed: seed, frames: 300)
            let result = try #require(mannWhitneyTest(base: runs.base, head: runs.head))
            if result.pValue < 0.01 { rejections += 1 }
            pValues.append(result.pValue)
        }
        #expect(rejections <= 3)
        // Uniform-ish: about half of the p-values fall below 0.5.
        #expect((35...65).contains(pValues.filter { $0 < 0.5 }.count))
    }

    @Test("Main-thread cost 20% higher is detected at 0.01 in at least 99 of 100 seeds")
    func shiftIsDetected() throws {
        var detections = 0
        for seed in UInt64(0)..<100 {
            let runs = FrameCostGenerator.runs(seed: seed, frames: 300, headScale: 1.2)
            let result = try #require(mannWhitneyTest(base: runs.base, head: runs.head))
            if result.pValue < 0.01 && result.commonLanguageEffectSize > 0.5 { detections += 1 }
        }
        #expect(detections >= 99)
    }
}
