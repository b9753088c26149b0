import FrameSupport
import FrameTrace

/// A bootstrap confidence interval for the difference of a statistic between two runs,
/// `statistic(head) − statistic(base)`.
///
/// An interval that excludes 0 says the runs differ in that statistic at the interval's
/// confidence; its bounds say by how much, in the units of the data.
///
/// ```swift
/// let interval = bootstrapDifferenceInterval(base: before, head: after, statistic: .percentile(95), seed: 1)!
/// if interval.lower > 0 { print("p95 grew by at least \(interval.lower) ns") }
/// ```
package struct DifferenceInterval: Hashable, Sendable {
    /// The difference on the observed samples.
    package var estimate: Double
    /// The lower bound.
    package var lower: Double
    /// The upper bound.
    package var upper: Double
    /// The confidence level, between 0 and 1 (0.95 for a 95% interval).
    package var confidence: Double

    /// Whether a difference lies inside the interval, bounds included.
    /// - Parameter difference: A difference, such as 0 for "no change".
    /// - Returns: Whether `lower <= difference <= upper`.
    package func contains(_ difference: Double) -> Bool {
        lower <= difference && difference <= upper
    }
}

/// Computes a percentile-method bootstrap confidence interval for
/// `statistic(head) − statistic(base)`.
///
/// Each of `resamples` rounds draws `base.count` values from `base` and `head.count` values from
/// `head`, with replacement and independently, and records the difference of the statistic.
/// The interval runs from the nearest-rank (1 − confidence)/2 percentile of those differences
/// to the (1 + confidence)/2 percentile. Draws come from a ``SeededGenerator``, so a seed gives
/// the same interval on every machine.
///
/// ```swift
/// let interval = bootstrapDifferenceInterval(
///     base: before, head: after, statistic: .median, confidence: 0.95, resamples: 2_000, seed: 7)!
/// interval.contains(0)   // false when the medians clearly differ
/// ```
///
/// - Parameters:
///   - base: The reference values.
///   - head: The values to compare with them.
///   - statistic: The statistic to compare.
///   - confidence: The confidence level, strictly between 0 and 1.
///   - resamples: The number of bootstrap rounds, at least 1.
///   - seed: Fixes the draws.
/// - Returns: The interval, or `nil` when either sample is empty.
/// - Complexity: O(*r* · *n* + *n* log *n*) for *r* resamples of *n* values: each resample is
///   drawn as a count per position of the sorted sample, so it needs no sort.
package func bootstrapDifferenceInterval(
    base: [Double], head: [Double], statistic: SampleStatistic,
    confidence: Double = 0.95, resamples: Int = 2_000, seed: UInt64
) -> DifferenceInterval? {
    precondition(confidence > 0 && confidence < 1, "confidence is strictly between 0 and 1, not \(confidence)")
    precondition(resamples >= 1, "a bootstrap needs at least one resample")
    guard !base.isEmpty, !head.isEmpty else { return nil }
    var generator = SeededGenerator(seed: seed)
    let sortedBase = base.sorted()
    let sortedHead = head.sorted()
    // A resample is drawn as a count per position of the sorted sample, which is all a
    // statistic needs: no values are copied and nothing is sorted again.
    func resampledStatistic(_ sorted: [Double]) -> Double {
        var weights = [Int](repeating: 0, count: sorted.count)
        // Index = high word of a 64-bit draw times the count (Lemire): bias below count / 2^64.
        let count = UInt64(sorted.count)
        for _ in sorted.indices {
            weights[Int(truncatingIfNeeded: generator.next().multipliedFullWidth(by: count).high)] += 1
        }
        return statistic.value(ofSorted: sorted, weights: weights, total: sorted.count)
    }
    let differences = SortedSample(
        (0..<resamples).map { _ in
            resampledStatistic(sortedHead) - resampledStatistic(sortedBase)
        })
    let tail = (1 - confidence) / 2 * 100
    return DifferenceInterval(
        estimate: statistic.value(of: head)! - statistic.value(of: base)!,
        lower: differences.percentile(tail)!,
        upper: differences.percentile(100 - tail)!,
        confidence: confidence
    )
}
