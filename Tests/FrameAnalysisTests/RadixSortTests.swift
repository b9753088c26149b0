import FrameSupport
import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Radix sort of integers")
struct RadixSortTests {
    /// Values of one width from a seeded generator: every bit pattern, extremes and many ties.
    private func values<Value: FixedWidthInteger>(_: Value.Type, count: Int, seed: UInt64, spread: Bool) -> [Value] {
        var generator = SeededGenerator(seed: seed)
        var extremes: [Value] = [Value.min, Value.max, Value.zero, Value(1)]
        extremes.append(Value.min + 1)
        extremes.append(Value.max - 1)
        if Value.isSigned { extremes.append(Value.zero - 1) }
        return (0..<count).map { index in
            if index % 17 == 0 { return extremes[index % extremes.count] }
            // Narrow values share their high bytes, which the sort skips; wide ones do not.
            return spread
                ? Value.random(in: .min ... .max, using: &generator) : Value.random(in: 0...999, using: &generator)
        }
    }

    @Test(
        "radixSorted() is sorted() for signed and unsigned integers of every width, short and long",
        arguments: [0, 1, 255, 256, 300, 5_000])
    func matchesSorted(count: Int) {
        for seed in UInt64(0)..<4 {
            for spread in [false, true] {
                let int64 = values(Int64.self, count: count, seed: seed, spread: spread)
                #expect(int64.radixSorted() == int64.sorted(), "Int64, seed \(seed)")
                let int32 = values(Int32.self, count: count, seed: seed, spread: spread)
                #expect(int32.radixSorted() == int32.sorted(), "Int32, seed \(seed)")
                let uint64 = values(UInt64.self, count: count, seed: seed, spread: spread)
                #expect(uint64.radixSorted() == uint64.sorted(), "UInt64, seed \(seed)")
                let uint16 = values(UInt16.self, count: count, seed: seed, spread: spread)
                #expect(uint16.radixSorted() == uint16.sorted(), "UInt16, seed \(seed)")
                let int8 = values(Int8.self, count: count, seed: seed, spread: spread)
                #expect(int8.radixSorted() == int8.sorted(), "Int8, seed \(seed)")
            }
        }
    }

    @Test("A summary made through the radix sort equals one of the sorted values")
    func summaryUnchanged() throws {
        let values = values(Int64.self, count: 2_000, seed: 7, spread: false).map { $0 / 4 - 100 }
        let summary = try #require(PercentileSummary(values))
        let sorted = values.sorted()
        #expect(summary.max == sorted.last)
        #expect(summary.p50 == SortedSample(values).percentile(50))
        #expect(summary.p99 == SortedSample(values).percentile(99))
        #expect(summary.mean == sorted.reduce(0.0) { $0 + Double($1) } / Double(sorted.count))
    }
}
