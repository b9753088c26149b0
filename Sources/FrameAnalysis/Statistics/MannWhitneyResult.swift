#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The outcome of a two-sided Mann–Whitney U test of whether one sample tends to be larger than
/// another.
///
/// Frame costs are skewed and spiky, so framescope compares runs by ranks rather than by means.
/// `u` counts the (base, head) pairs in which the head value is larger, ties counting one half;
/// with no difference between the runs it is about half of all pairs.
///
/// ```swift
/// let result = mannWhitneyTest(base: before, head: after)!
/// if result.pValue < 0.01 && result.commonLanguageEffectSize > 0.5 { print("head is slower") }
/// ```
package struct MannWhitneyResult: Hashable, Sendable {
    /// How the p-value was computed.
    package enum Method: Hashable, Sendable {
        /// From the exact distribution of U: both samples have at most 20 values and there are
        /// no ties.
        case exact
        /// From the normal approximation, with tie-corrected variance and a continuity
        /// correction of one half.
        case normalApproximation
    }

    /// The number of base values.
    package var baseCount: Int
    /// The number of head values.
    package var headCount: Int
    /// U for the head sample: the number of pairs with the head value larger, ties counting 1/2.
    package var u: Double
    /// U standardized by the normal approximation (continuity- and tie-corrected), positive when
    /// the head values tend to be larger. Reported for either method.
    package var z: Double
    /// The two-sided p-value.
    package var pValue: Double
    /// How `pValue` was computed.
    package var method: Method
    /// The probability that a random head value exceeds a random base value, ties counting one
    /// half: `u / (baseCount · headCount)`. 0.5 means no tendency.
    package var commonLanguageEffectSize: Double
}

/// Runs a two-sided Mann–Whitney U test (Wilcoxon rank-sum test) of a head sample against a
/// base sample.
///
/// Values are ranked together, tied values sharing their average rank. When both samples have
/// at most 20 values and none are tied, the p-value comes from the exact distribution of U
/// (the coefficients of a Gaussian binomial, counted in integers); otherwise from the normal
/// approximation with the tie-corrected variance
/// `n₁n₂/12 · ((N + 1) − Σ(t³ − t) / (N(N − 1)))` and a continuity correction of one half.
/// When every value is the same, nothing can be told apart: z is 0 and the p-value 1.
///
/// ```swift
/// let result = mannWhitneyTest(base: [1, 2, 3, 4, 5], head: [3.5, 6, 7, 8, 9])!
/// result.u          // 23
/// result.pValue     // 0.0317 (exact)
/// ```
///
/// - Parameters:
///   - base: The reference values (for example per-frame main-thread cost before a change).
///   - head: The values to compare with it. Neither may contain NaN.
/// - Returns: The test result, or `nil` when either sample is empty.
/// - Complexity: O(*N* log *N*) for *N* values in all; the exact distribution adds at most
///   O(*n*₁² *n*₂).
package func mannWhitneyTest(base: [Double], head: [Double]) -> MannWhitneyResult? {
    guard !base.isEmpty, !head.isEmpty else { return nil }
    // Ranks come from walking the two sorted samples side by side, one group of equal values at
    // a time: the same ranks as sorting the pooled values, without sorting pairs.
    let sortedBase = base.sorted()
    let sortedHead = head.sorted()
    var headRankSum = 0.0
    var tieTerm = 0.0
    var start = 0
    var i = 0
    var j = 0
    while i < sortedBase.count || j < sortedHead.count {
        let value =
            j == sortedHead.count || (i < sortedBase.count && sortedBase[i] < sortedHead[j])
            ? sortedBase[i] : sortedHead[j]
        let firstBase = i
        while i < sortedBase.count && sortedBase[i] == value { i += 1 }
        let firstHead = j
        while j < sortedHead.count && sortedHead[j] == value { j += 1 }
        let headsInGroup = j - firstHead
        let end = start + (i - firstBase) + headsInGroup
        let tied = Double(end - start)
        headRankSum += Double(headsInGroup) * Double(start + 1 + end) / 2
        tieTerm += tied * tied * tied - tied
        start = end
    }
    let baseCount = Double(base.count)
    let headCount = Double(head.count)
    let total = baseCount + headCount
    let u = headRankSum - headCount * (headCount + 1) / 2
    let deviation = u - baseCount * headCount / 2
    let variance = baseCount * headCount / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
    let z =
        variance > 0
        ? Double(signOf: deviation, magnitudeOf: Swift.max(0, abs(deviation) - 0.5)) / variance.squareRoot() : 0
    let isExact = base.count <= 20 && head.count <= 20 && tieTerm == 0
    let pValue =
        isExact
        ? exactTwoSidedPValue(u: Int(u), baseCount: base.count, headCount: head.count)
        : variance > 0 ? Swift.min(1, erfc(abs(z) / 2.0.squareRoot())) : 1
    return MannWhitneyResult(
        baseCount: base.count, headCount: head.count, u: u, z: z, pValue: pValue,
        method: isExact ? .exact : .normalApproximation,
        commonLanguageEffectSize: u / (baseCount * headCount)
    )
}

/// The exact two-sided p-value of U without ties: twice the smaller tail, at most 1.
private func exactTwoSidedPValue(u: Int, baseCount: Int, headCount: Int) -> Double {
    let counts = uArrangementCounts(baseCount, headCount)
    let all = Double(counts.reduce(0, +))
    let lower = Double(counts[...u].reduce(0, +))
    let upper = Double(counts[u...].reduce(0, +))
    return Swift.min(1, 2 * Swift.min(lower, upper) / all)
}

/// How many of the C(m + n, m) orderings of two tie-free samples of sizes m and n give each value
/// of U: the coefficients of the Gaussian binomial [m + n choose m]_q, built as
/// ∏ᵢ₌₁…ₘ (1 − q^(n+i)) / (1 − q^i). Every partial product is itself a Gaussian binomial, so the
/// division is exact; coefficients above degree m·n only feed higher ones and can be dropped.
private func uArrangementCounts(_ m: Int, _ n: Int) -> [Int] {
    let degree = m * n
    var counts = [Int](repeating: 0, count: degree + 1)
    counts[0] = 1
    for i in stride(from: 1, through: m, by: 1) {
        for k in stride(from: degree, through: n + i, by: -1) {
            counts[k] -= counts[k - n - i]
        }
        for k in stride(from: i, through: degree, by: 1) {
            counts[k] += counts[k - i]
        }
    }
    return counts
}
