/// A statistic of a sample that a bootstrap can compare between two runs.
///
/// ```swift
/// SampleStatistic.percentile(95).value(of: [3, 1, 2])   // 3
/// SampleStatistic.mean.value(of: [3, 1, 2])             // 2
/// ```
package enum SampleStatistic: Hashable, Sendable {
    /// The arithmetic mean.
    case mean
    /// The nearest-rank percentile (see ``SortedSample``), 0 through 100.
    case percentile(Double)

    /// The nearest-rank median.
    package static let median = SampleStatistic.percentile(50)

    /// Computes the statistic.
    /// - Parameter values: The sample, which must not contain NaN.
    /// - Returns: The statistic's value, or `nil` when there are no values.
    /// - Complexity: O(*n* log *n*).
    package func value(of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return value(ofSorted: values.sorted(), weights: Array(repeating: 1, count: values.count), total: values.count)
    }

    /// The statistic of the sample in which `sorted[i]` occurs `weights[i]` times, `total` being
    /// the sum of the weights (at least 1). A bootstrap resample is such a sample over the
    /// sorted original, so evaluating one takes no sort.
    /// - Complexity: O(*n*) in the number of distinct positions.
    func value(ofSorted sorted: [Double], weights: [Int], total: Int) -> Double {
        switch self {
        case .mean:
            var sum = 0.0
            for index in sorted.indices where weights[index] > 0 {
                sum += sorted[index] * Double(weights[index])
            }
            return sum / Double(total)
        case .percentile(let p):
            let index = SortedSample<Double>.nearestRankIndex(percentile: p, count: total)
            var seen = 0
            for position in sorted.indices {
                seen += weights[position]
                if seen > index { return sorted[position] }
            }
            preconditionFailure("weights sum to less than total")
        }
    }
}
