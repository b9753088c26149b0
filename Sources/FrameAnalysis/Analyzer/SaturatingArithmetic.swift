extension FixedWidthInteger {
    /// `self + other`, clamped to the type's range instead of trapping.
    ///
    /// Times read from a file can be anywhere in the range the reader accepts, so every sum and
    /// difference the analysis forms from them uses these.
    @inline(__always)
    func addingSaturating(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self − other`, clamped to the type's range instead of trapping.
    @inline(__always)
    func subtractingSaturating(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    /// `self × other`, clamped to the type's range instead of trapping.
    @inline(__always)
    func multipliedSaturating(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension Int64 {
    /// Nanoseconds for a frame rate, or `nil` when the rate gives no representable interval
    /// (zero, negative, not finite, or so small that the interval passes ~292 years).
    static func frameInterval(framesPerSecond fps: Double) -> Int64? {
        guard fps.isFinite, fps > 0 else { return nil }
        let nanoseconds = (1e9 / fps).rounded()
        guard nanoseconds >= 1, nanoseconds < 9e18 else { return nil }
        return Int64(nanoseconds)
    }
}
