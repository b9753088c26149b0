// The words the text, Markdown and HTML outputs print for the model's values: one place for the
// display text, so the model types (FrameReport, HitchHold, HitchBand, MetricUnit) hold only data
// and decisions. Numbers are formatted by ReportFormat.

extension FrameReport.FrameSource {
    /// A few words for headings: `frame spans`, `Chrome frame events`, `frame markers`,
    /// `estimated frames`.
    package var shortPhrase: String {
        switch self {
        case .frameSpans: "frame spans"
        case .chromeFrames: "Chrome frame events"
        case .frameTimeline: "Android FrameTimeline"
        case .frameMarkers: "frame markers"
        case .estimated: "estimated frames"
        }
    }

    /// A phrase for the text outputs' `frames from` line: `framescope frame spans`, `estimated
    /// from main-thread work (no frame events in the trace)`.
    package var phrase: String {
        switch self {
        case .frameSpans: "framescope frame spans"
        case .chromeFrames: "Chrome frame events"
        case .frameTimeline: "Android FrameTimeline (SurfaceFlinger's expected and actual frames)"
        case .frameMarkers: "frame markers"
        case .estimated: "estimated from main-thread work (no frame events in the trace)"
        }
    }
}

extension FrameReport.HitchHold {
    /// The work that filled the holding window, for people: `style 25.91 ms, script 3.10 ms;
    /// UpdateLayoutTree`. Empty when no span ran in the window.
    package var workPhrase: String {
        let kinds = work.map {
            "\(FrameAnalyzer.categoryLabel($0.name)) \(ReportFormat.milliseconds($0.nanoseconds))"
        }
        var phrase = kinds.joined(separator: ", ")
        if let top = spans.first { phrase += (phrase.isEmpty ? "" : "; ") + top.name }
        return phrase
    }
}

extension FrameReport.Frame {
    /// The cause for people: `-` when on time, else the cause and, when an earlier frame's work
    /// held this one, that frame: `commit, held by #3`.
    package var causePhrase: String {
        guard hitchCause != .none else { return "-" }
        if let holder = hitchHold?.frame, holder != index { return "\(hitchCause.identifier), held by #\(holder)" }
        return hitchCause.identifier
    }
}

extension HitchBand {
    /// The bands' bounds as the text report prints them, from the constants the bands apply:
    /// `good < 5, warning 5-10, critical >= 10`.
    package static var legend: String {
        let warning = ReportFormat.trimmed(warningFrom)
        let critical = ReportFormat.trimmed(criticalFrom)
        return "good < \(warning), warning \(warning)-\(critical), critical >= \(critical)"
    }

    /// The band in words, for text and Markdown.
    package var phrase: String { rawValue }

    /// What renderers print where a report has no band because it has no frames.
    package static let noFramesPhrase = "no frames"
}

extension MetricUnit {
    /// A value in this unit for people: fixed decimals and the unit.
    /// - Parameter value: The value.
    /// - Returns: For example `12.34 ms`, `4.20 ms/s`, `5.0%` or `3`.
    package func format(_ value: Double) -> String {
        switch self {
        case .milliseconds: ReportFormat.fixed(value, decimals: 2) + " ms"
        case .millisecondsPerSecond: ReportFormat.fixed(value, decimals: 2) + " ms/s"
        case .share: ReportFormat.percent(value)
        case .frames: ReportFormat.fixed(value, decimals: 0)
        }
    }
}
