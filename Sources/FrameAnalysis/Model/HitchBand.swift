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
public enum HitchBand: String, Sendable, Hashable, CaseIterable {
    /// Under 5 ms/s.
    case good
    /// 5 ms/s up to 10.
    case warning
    /// 10 ms/s and over.
    case critical

    /// The band of a hitch time ratio in ms/s: under 5 good, 5–10 warning, 10 and over critical.
    /// - Parameter hitchTimeRatio: Hitch milliseconds per measured second.
    public init(hitchTimeRatio: Double) {
        self = hitchTimeRatio < 5 ? .good : hitchTimeRatio < 10 ? .warning : .critical
    }

    /// The stable identifier JSON and HTML use: `good`, `warning`, `critical`.
    public var identifier: String { rawValue }

    /// The band in words, for text and Markdown.
    public var phrase: String { rawValue }

    /// What renderers print where a report has no band because it has no frames.
    public static let noFramesPhrase = "no frames"
}
