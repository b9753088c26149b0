extension RandomAccessCollection {
    /// The first index whose element satisfies `isInSecondPartition`, or `endIndex` when none
    /// does; the collection must already be partitioned by it (every element that fails comes
    /// before every element that passes). framescope's one binary search.
    ///
    /// ```swift
    /// let starts = [0, 10, 20, 30]
    /// starts.partitioningIndex { $0 > 15 }   // 2: the first start after 15
    /// ```
    /// - Complexity: O(log *n*) predicate calls.
    ///
    /// Public only under the `FramescopeInternals` SPI, not API, so other modules get it
    /// specialized and inlined (a `package` generic function stays an unspecialized call).
    @_spi(FramescopeInternals) @inlinable
    public func partitioningIndex(where isInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try isInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
