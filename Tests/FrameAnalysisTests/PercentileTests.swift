import FrameAnalysis
import FrameSupport
import FrameTrace
import Testing

@Suite("Nearest-rank percentiles")
struct PercentileTests {
    /// The definition itself: the smallest value such that at least p% of the values are <= it,
    /// in exact integer arithmetic.
    private func oracle<Value: Comparable>(_ p: Int, _ values: [Value]) -> Value? {
        values.filter { candidate in values.filter { $0 <= candidate }.count * 100 >= p * values.count }.min()
    }

    /// Short arrays with many ties: lengths 0 through 40, values from a range of 12.
    private func randomIntegers(seed: UInt64) -> [Int64] {
        var generator = SeededGenerator(seed: seed)
        return (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int64.random(in: -3...8, using: &generator) }
    }

    @Test("Integer percentiles 0 through 100 agree with the definition on 400 seeded arrays", arguments: 0..<4)
    func integerPercentilesMatchOracle(batch: UInt64) {
        for seed in batch * 100..<(batch + 1) * 100 {
            let values = randomIntegers(seed: seed)
            let sample = SortedSample(values)
            for p in 0...100 {
                #expect(sample.percentile(Double(p)) == oracle(p, values), "seed \(seed), p\(p)")
            }
        }
    }

    @Test("Double percentiles agree with the definition on 200 seeded arrays")
    func doublePercentilesMatchOracle() {
        for seed in UInt64(0)..<200 {
            var generator = SeededGenerator(seed: seed)
            let values = (0..<Int.random(in: 1...50, using: &generator)).map { _ in
                Double(Int.random(in: 0...20, using: &generator)) / 4
            }
            let sample = SortedSample(values)
            for p in [0, 1, 25, 50, 90, 95, 99, 100] {
                #expect(sample.percentile(Double(p)) == oracle(p, values), "seed \(seed), p\(p)")
            }
        }
    }

    @Test("The summary's fields agree with the definition, the sum and the mean", arguments: 0..<2)
    func summaryMatchesOracle(batch: UInt64) throws {
        for seed in batch * 200..<(batch + 1) * 200 {
            let values = randomIntegers(seed: seed)
            guard let summary = PercentileSummary(values) else {
                #expect(values.isEmpty, "seed \(seed)")
                continue
            }
            #expect(summary.count == values.count)
            #expect(summary.p50 == oracle(50, values) && summary.p90 == oracle(90, values), "seed \(seed)")
            #expect(summary.p95 == oracle(95, values) && summary.p99 == oracle(99, values), "seed \(seed)")
            #expect(summary.max == values.max(), "seed \(seed)")
            #expect(summary.total == values.reduce(0, +), "seed \(seed)")
            #expect(abs(summary.mean - Double(summary.total) / Double(values.count)) < 1e-9, "seed \(seed)")
        }
    }

    @Test("Empty data has no percentiles and no summary")
    func emptyDataHasNoSummary() {
        #expect(SortedSample([Double]()).percentile(50) == nil)
        #expect(PercentileSummary([Int64]()) == nil)
        #expect(PercentileSummary([Double]()) == nil)
    }

    @Test("A single value is every percentile, the max, the mean and the total")
    func singleValue() throws {
        let summary = try #require(PercentileSummary([16_667_000] as [Int64]))
        #expect(summary.count == 1)
        let fields = [summary.p50, summary.p90, summary.p95, summary.p99, summary.max, summary.total]
        #expect(fields == Array(repeating: 16_667_000, count: 6))
        #expect(summary.mean == 16_667_000)
    }

    @Test("Percentiles are values that occurred: the median of an even count is the lower middle")
    func percentilesAreObservedValues() {
        let sample = SortedSample([9, 3, 7, 1, 5] as [Int64])
        #expect(sample.percentile(50) == 5)
        #expect(sample.percentile(90) == 9)
        #expect(sample.percentile(0) == 1)
        #expect(SortedSample([4, 1, 3, 2] as [Int64]).median == 2)
    }

    @Test(
        "Decimal percentiles behave as written", arguments: [(99.9, 999), (95, 950), (99, 990), (0.1, 1), (12.5, 125)])
    func decimalPercentiles(p: Double, expected: Int64) {
        #expect(SortedSample(Array(Int64(1)...1_000)).percentile(p) == expected)
    }
}
