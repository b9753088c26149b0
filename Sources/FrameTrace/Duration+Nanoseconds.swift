extension Duration {
    /// The duration in whole nanoseconds (attoseconds truncated toward zero), saturating at the
    /// limits of `Int64`: the one conversion the recorder's clocks and frames and ``FrameRate``
    /// share.
    package var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, carry) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || carry { return seconds < 0 ? .min : .max }
        return sum
    }
}
