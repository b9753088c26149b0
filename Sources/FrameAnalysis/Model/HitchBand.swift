/// Apple's band for a scrolling hitch time ratio: the verdict a report gives the ratio.
///
/// A report without frames has no band (`FrameReport.Summary.hitchBand` is `nil`): a ratio of
/// 0 ms/s over nothing measured is no evidence of smooth scrolling. Renderers turn the band into
/// words; code and tests compare the case, never a sentence.
///
/// ```swift
/// HitchBand(hitchTimeRatio: 4.2)    // .good
/// HitchBand(hitchTimeRatio: 12)     // .critical
/// ```
package enum HitchBand: String, Sendable, Hashable, CaseIterable {
    /// Under 5 ms/s.
    case good
    /// 5 ms/s up to 10.
    case warning
    /// 10 ms/s and over.
    case critical

    /// Where ``warning`` begins, in ms/s: a ratio under it is ``good``.
    package static let warningFrom: Double = 5
    /// Where ``critical`` begins, in ms/s.
    package static let criticalFrom: Double = 10

    /// The band of a hitch time ratio in ms/s: under ``warningFrom`` (5) good, up to
    /// ``criticalFrom`` (10) warning, from there on critical.
    /// - Parameter hitchTimeRatio: Hitch milliseconds per measured second.
    package init(hitchTimeRatio: Double) {
        self = hitchTimeRatio < Self.warningFrom ? .good : hitchTimeRatio < Self.criticalFrom ? .warning : .critical
    }

    /// The stable identifier JSON and HTML use: `good`, `warning`, `critical`.
    package var identifier: String { rawValue }
}
