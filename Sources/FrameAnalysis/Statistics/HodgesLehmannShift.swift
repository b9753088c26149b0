import FrameSupport
import FrameTrace

/// The Hodges–Lehmann estimate of how far the head sample is shifted from the base sample: the
/// median of all pairwise differences `head[j] − base[i]`.
///
/// It is the shift estimate that goes with the Mann–Whitney test: robust to the spikes frame
/// costs have, and in the units of the data. For an even number of pairs it is the mean of the
/// two middle differences.
///
/// The *n*₁·*n*₂ differences are never listed. With both samples sorted, the differences form a
/// matrix whose rows and columns are sorted, so the number of differences below any pivot can be
/// counted along a staircase in O(*n*₁ + *n*₂); the median is then selected by repeatedly
/// counting around a pivot drawn at random from the differences still in play (Monahan's
/// algorithm), discarding the side that cannot hold it. The pivots come from a fixed seed and
/// the result is exact whatever they are.
///
/// ```swift
/// hodgesLehmannShift(base: [10, 12, 11], head: [13, 15, 14])   // 3
/// ```
///
/// - Parameters:
///   - base: The reference values.
///   - head: The values to compare with it. Neither may contain NaN.
/// - Returns: The estimated shift of head over base (positive when head is larger), or `nil`
///   when either sample is empty.
/// - Complexity: O(*n* log *n*) expected for *n* = *n*₁ + *n*₂ values.
package func hodgesLehmannShift(base: [Double], head: [Double]) -> Double? {
    guard !base.isEmpty, !head.isEmpty else { return nil }
    let differences = PairwiseDifferences(subtrahends: base.sorted(), minuends: head.sorted())
    let count = base.count * head.count
    let upperMiddle = differences.smallest(rank: count / 2)
    return count % 2 == 1 ? upperMiddle : (differences.smallest(rank: count / 2 - 1) + upperMiddle) / 2
}

/// The implicit matrix `minuends[j] − subtrahends[i]`: ascending along each row (j) and
/// descending down each column (i), both inputs being sorted.
private struct PairwiseDifferences {
    let subtrahends: [Double]
    let minuends: [Double]

    /// The difference of zero-based `rank` in ascending order.
    func smallest(rank: Int) -> Double {
        var generator = SeededGenerator(seed: 0x484C)
        // Row i's differences still in play are the columns low[i]..<high[i]; every difference
        // left of low[i] ranks below `rank` and every one from high[i] on ranks above it.
        var low = [Int](repeating: 0, count: subtrahends.count)
        var high = [Int](repeating: minuends.count, count: subtrahends.count)
        while true {
            let inPlay = zip(low, high).reduce(0) { $0 + $1.1 - $1.0 }
            if inPlay <= subtrahends.count + minuends.count {
                let remaining = subtrahends.indices.flatMap { i in
                    (low[i]..<high[i]).map { minuends[$0] - subtrahends[i] }
                }
                return remaining.sorted()[rank - low.reduce(0, +)]
            }
            let pivot = difference(atInPlayOffset: Int.random(in: 0..<inPlay, using: &generator), low: low, high: high)
            let below = columnsBelow(pivot, orEqual: false)
            let belowOrEqual = columnsBelow(pivot, orEqual: true)
            if rank < below.reduce(0, +) {
                high = zip(high, below).map { Swift.min($0, $1) }
            } else if rank < belowOrEqual.reduce(0, +) {
                return pivot
            } else {
                low = zip(low, belowOrEqual).map { Swift.max($0, $1) }
            }
        }
    }

    private func difference(atInPlayOffset offset: Int, low: [Int], high: [Int]) -> Double {
        var offset = offset
        for i in subtrahends.indices {
            let width = high[i] - low[i]
            if offset < width { return minuends[low[i] + offset] - subtrahends[i] }
            offset -= width
        }
        preconditionFailure("offset beyond the differences in play")
    }

    /// For each row, the number of differences below `pivot` (or at most `pivot`): a staircase,
    /// since the boundary only moves right as the subtrahend grows.
    private func columnsBelow(_ pivot: Double, orEqual: Bool) -> [Int] {
        var column = 0
        return subtrahends.map { subtrahend in
            while column < minuends.count {
                let difference = minuends[column] - subtrahend
                guard difference < pivot || (orEqual && difference == pivot) else { break }
                column += 1
            }
            return column
        }
    }
}
