import FrameSupport
import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Bootstrap difference interval")
struct BootstrapTests {
    /// Each statistic with the run length that pins it down: a p95 rests on the few frames in
    /// the tail, so it needs a longer run than a median or a mean to see a 20% change.
    static let cases: [(statistic: SampleStatistic, frames: Int)] = [
        (.median, 300), (.percentile(95), 1_000), (.mean, 300),
    ]

    private func interval(seed: UInt64, scale: Double, statistic: SampleStatistic, frames: Int) throws
        -> DifferenceInterval
    {
        let runs = FrameCostGenerator.runs(seed: seed, frames: frames, headScale: scale)
        return try #require(
            bootstrapDifferenceInterval(
                base: runs.base, head: runs.head, statistic: statistic, resamples: 500, seed: seed))
    }

    @Test("A seed reproduces the interval; another seed draws other resamples")
    func seedReproducesInterval() throws {
        let (base, head) = FrameCostGenerator.runs(seed: 3, frames: 300)
        let first = bootstrapDifferenceInterval(base: base, head: head, statistic: .median, seed: 1)
        #expect(first == bootstrapDifferenceInterval(base: base, head: head, statistic: .median, seed: 1))
        #expect(first != bootstrapDifferenceInterval(base: base, head: head, statistic: .median, seed: 2))
        #expect(first?.confidence == 0.95)
    }

    @Test("The estimate is the difference of the statistic on the observed samples")
    func estimateIsObservedDifference() throws {
        let median = try #require(
            bootstrapDifferenceInterval(base: [1, 2, 3, 10], head: [2, 4, 6], statistic: .median, seed: 1))
        #expect(median.estimate == 4 - 2)
        let mean = try #require(bootstrapDifferenceInterval(base: [1, 2, 3], head: [5, 5], statistic: .mean, seed: 1))
        #expect(mean.estimate == 3)
        #expect(mean.lower <= mean.estimate && mean.estimate <= mean.upper)
    }

    @Test("A statistic of a resample is the statistic of its values listed out")
    func statisticValues() {
        #expect(SampleStatistic.percentile(95).value(of: [3, 1, 2]) == 3)
        #expect(SampleStatistic.median.value(of: [4, 1, 3, 2]) == 2)
        #expect(SampleStatistic.mean.value(of: [3, 1, 2]) == 2)
        #expect(SampleStatistic.mean.value(of: []) == nil)
    }

    @Test(
        "A resample held as counts per sorted position has the statistic of its values listed out",
        arguments: [SampleStatistic.mean, .median, .percentile(0), .percentile(95), .percentile(100)])
    func countedResampleMatchesListedValues(statistic: SampleStatistic) throws {
        for seed in UInt64(0)..<200 {
            var generator = SeededGenerator(seed: seed)
            let sorted = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                Double(Int.random(in: 0...9, using: &generator))
            }.sorted()
            var weights = sorted.map { _ in Int.random(in: 0...3, using: &generator) }
            weights[0] += 1
            let listed = zip(sorted, weights).flatMap { repeatElement($0, count: $1) }
            let expected = try #require(statistic.value(of: listed))
            let counted = statistic.value(ofSorted: sorted, weights: weights, total: listed.count)
            #expect(abs(counted - expected) <= 1e-12 * max(1, abs(expected)), "seed \(seed)")
        }
    }

    @Test("Identical samples give an interval that covers 0", arguments: cases)
    func identicalSamplesCoverZero(statistic: SampleStatistic, frames: Int) throws {
        for seed in UInt64(0)..<5 {
            var costs = FrameCostGenerator(seed: seed)
            let sample = costs.sample(frames)
            let result = try #require(
                bootstrapDifferenceInterval(
                    base: sample, head: sample, statistic: statistic, resamples: 500, seed: seed))
            #expect(result.estimate == 0)
            #expect(result.contains(0), "seed \(seed)")
        }
    }

    @Test("Two runs from one distribution give a 95% interval covering 0 in at least 17 of 20 seeds", arguments: cases)
    func sameDistributionUsuallyCoversZero(statistic: SampleStatistic, frames: Int) throws {
        var covered = 0
        for seed in UInt64(0)..<20
        where try interval(seed: seed, scale: 1, statistic: statistic, frames: frames).contains(0) {
            covered += 1
        }
        #expect(covered >= 17)
    }

    @Test("Main-thread cost 20% higher gives an interval above 0 in every seed", arguments: cases)
    func shiftExcludesZero(statistic: SampleStatistic, frames: Int) throws {
        for seed in UInt64(0)..<10 {
            let result = try interval(seed: seed, scale: 1.2, statistic: statistic, frames: frames)
            #expect(result.lower > 0, "seed \(seed)")
        }
    }

    @Test("Empty samples give no interval")
    func emptySamples() {
        #expect(bootstrapDifferenceInterval(base: [], head: [1], statistic: .median, seed: 0) == nil)
        #expect(bootstrapDifferenceInterval(base: [1], head: [], statistic: .median, seed: 0) == nil)
    }
}
