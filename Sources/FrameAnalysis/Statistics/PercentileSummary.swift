/// The figures DOMAIN.md asks for from a set of per-frame values: count, p50, p90, p95, p99,
/// max, mean and total.
///
/// Percentiles are exact nearest-rank percentiles (see ``SortedSample``), so every one of them
/// is a value that occurred. A summary of no values is `nil`, not zeros: there is no median of
/// nothing, and zeros would read as a perfect run.
///
/// ```swift
/// let summary = PercentileSummary([8_100_000, 7_900_000, 31_000_000] as [Int64])!
/// summary.p50     // 8_100_000
/// summary.max     // 31_000_000
/// summary.mean    // 15_666_666.67
/// ```
package struct PercentileSummary<Value: Comparable & AdditiveArithmetic & Sendable>: Equatable, Sendable {
    /// The number of values.
    package var count: Int
    /// The 50th percentile (median; the lower middle value for an even count).
    package var p50: Value
    /// The 90th percentile.
    package var p90: Value
    /// The 95th percentile.
    package var p95: Value
    /// The 99th percentile.
    package var p99: Value
    /// The largest value.
    package var max: Value
    /// The arithmetic mean.
    package var mean: Double
    /// The sum of the values.
    package var total: Value

    private init?(_ values: some Sequence<Value>, toDouble: (Value) -> Double, add: (Value, Value) -> Value) {
        let sample = SortedSample(values)
        guard let max = sample.values.last else { return nil }
        count = sample.count
        p50 = sample.percentile(50)!
        p90 = sample.percentile(90)!
        p95 = sample.percentile(95)!
        p99 = sample.percentile(99)!
        self.max = max
        total = sample.values.reduce(.zero, add)
        // The mean is summed in Double, so it stays right when an integer total saturates.
        mean = sample.values.reduce(0.0) { $0 + toDouble($1) } / Double(count)
    }
}

extension PercentileSummary: Hashable where Value: Hashable {}

extension PercentileSummary where Value: FixedWidthInteger {
    /// Summarizes `values` together with `zeroCount` more zeros, without making the zeros: the
    /// same summary as of `values + Array(repeating: 0, count: zeroCount)`.
    ///
    /// A category's per-frame time is 0 in every frame it did not run in; with many categories
    /// and many frames, writing those zeros out would cost categories × frames.
    /// - Complexity: O(*k*) for *k* values (a radix sort), whatever `zeroCount`.
    init?(_ values: [Value], zeroCount: Int) {
        precondition(zeroCount >= 0, "zeroCount must not be negative")
        let sorted = values.radixSorted()
        let count = sorted.count + zeroCount
        guard count > 0 else { return nil }
        // The zeros sit after the negative values in sorted order.
        var negatives = 0
        while negatives < sorted.count, sorted[negatives] < 0 { negatives += 1 }
        func value(at index: Int) -> Value {
            index < negatives ? sorted[index] : index < negatives + zeroCount ? 0 : sorted[index - zeroCount]
        }
        func percentile(_ p: Double) -> Value {
            value(at: SortedSample<Value>.nearestRankIndex(percentile: p, count: count))
        }
        self.count = count
        p50 = percentile(50)
        p90 = percentile(90)
        p95 = percentile(95)
        p99 = percentile(99)
        max = value(at: count - 1)
        total = sorted.reduce(0) { $0.addingSaturating($1) }
        mean = sorted.reduce(0.0) { $0 + Double($1) } / Double(count)
    }
}

extension PercentileSummary where Value: FixedWidthInteger {
    /// Summarizes integer values, such as nanoseconds. The ``total`` saturates at the type's
    /// bounds instead of overflowing.
    /// - Parameter values: The values, in any order.
    /// - Returns: The summary, or `nil` when there are no values.
    /// - Complexity: O(*n*) (a radix sort).
    package init?(_ values: some Sequence<Value>) {
        self.init(Array(values), zeroCount: 0)
    }
}

extension PercentileSummary where Value: BinaryFloatingPoint {
    /// Summarizes floating-point values, which must not be NaN.
    /// - Parameter values: The values, in any order.
    /// - Returns: The summary, or `nil` when there are no values.
    /// - Complexity: O(*n* log *n*).
    package init?(_ values: some Sequence<Value>) {
        self.init(values, toDouble: { Double($0) }, add: +)
    }
}
