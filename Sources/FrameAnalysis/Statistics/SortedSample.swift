/// Values sorted once, so that any number of exact percentiles then cost O(1) each.
///
/// Percentiles use the **nearest-rank** definition: the *p*-th percentile is the smallest value
/// such that at least *p*% of the values are less than or equal to it. It is always one of the
/// values (never an interpolation), `percentile(0)` is the minimum and `percentile(100)` the
/// maximum. With *n* values it is the value of rank ⌈*p*·*n*/100⌉ (at least 1).
///
/// `p` is a `Double`, and a decimal such as 99.9 has no exact binary value; ranks are computed
/// with a relative tolerance of 10⁻¹² so that such percentiles behave as written.
///
/// ```swift
/// let costs = SortedSample([9, 3, 7, 1, 5] as [Int64])
/// costs.percentile(50)    // 5
/// costs.percentile(90)    // 9: 4 of 5 values (80%) are <= 7, not enough
/// costs.percentile(0)     // 1
/// ```
///
/// Values must have a strict weak order: no NaN.
package struct SortedSample<Value: Comparable & Sendable>: Equatable, Sendable {
    /// The values in ascending order.
    package let values: [Value]

    /// Sorts values.
    /// - Parameter values: The values, in any order.
    /// - Complexity: O(*n* log *n*).
    package init(_ values: some Sequence<Value>) {
        self.values = values.sorted()
    }

    /// The number of values.
    package var count: Int { values.count }

    /// Whether there are no values.
    package var isEmpty: Bool { values.isEmpty }

    /// The median by the nearest-rank definition: the lower middle value when the count is even.
    package var median: Value? { percentile(50) }

    /// The nearest-rank percentile.
    /// - Parameter p: The percentile, 0 through 100.
    /// - Returns: The smallest value such that at least `p`% of the values are less than or
    ///   equal to it, or `nil` when there are no values.
    /// - Complexity: O(1).
    package func percentile(_ p: Double) -> Value? {
        guard !values.isEmpty else { return nil }
        return values[Self.nearestRankIndex(percentile: p, count: values.count)]
    }

    /// The zero-based index of the nearest-rank `p`-th percentile among `count` sorted values.
    static func nearestRankIndex(percentile p: Double, count: Int) -> Int {
        precondition((0...100).contains(p), "a percentile is between 0 and 100, not \(p)")
        let rank = (p * Double(count) / 100 * (1 - 1e-12)).rounded(.up)
        return Swift.max(1, Int(rank)) - 1
    }
}
