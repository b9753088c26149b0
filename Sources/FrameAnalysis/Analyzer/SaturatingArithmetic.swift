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
