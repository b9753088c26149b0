/// The spans still open on one thread, visited in nesting order (by start, longer first on equal
/// starts): framescope's one check for spans that cannot nest, used by the writer (which exports
/// those as async pairs) and by the reader (which reports them).
///
/// Public only under the `FramescopeInternals` SPI, not API: this toolchain inlines an
/// `@inlinable` function into another module only when it is public (a `package` one stays a call),
/// and `push` runs once per span in the reader's partial-overlap check.
///
/// ```swift
/// var open = NestingStack()
/// open.push(start: 0, end: 10)    // true
/// open.push(start: 5, end: 15)    // false: starts inside [0, 10) but ends after it
/// ```
@_spi(FramescopeInternals) public struct NestingStack: Sendable {
    /// End timestamps of the open spans, innermost last.
    @usableFromInline var ends: [Int64] = []

    public init() {}

    /// Closes the spans that ended by `start`, then opens `[start, end)` if it nests in the
    /// innermost open span.
    /// - Returns: `false`, opening nothing, when the span starts inside the innermost open span but
    ///   ends after it.
    @inlinable
    public mutating func push(start: Int64, end: Int64) -> Bool {
        while let top = ends.last, top <= start { ends.removeLast() }
        if let top = ends.last, end > top { return false }
        ends.append(end)
        return true
    }

    /// Forgets every open span.
    public mutating func removeAll() { ends.removeAll() }

    /// Sorts positions of `complete` events into nesting order: by start, longer first on equal
    /// starts, then by position.
    public static func sort(_ positions: inout [Int], of events: [TraceEvent]) {
        positions.sort { a, b in
            let ea = events[a]
            let eb = events[b]
            if ea.timestamp != eb.timestamp { return ea.timestamp < eb.timestamp }
            if ea.endTimestamp != eb.endTimestamp { return ea.endTimestamp > eb.endTimestamp }
            return a < b
        }
    }
}
