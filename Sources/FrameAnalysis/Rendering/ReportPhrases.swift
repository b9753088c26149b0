import FrameSupport
import FrameTrace

// The words the text, Markdown and HTML outputs print for the model's values: one place for the
// display text, so the model types (FrameReport and its method's sources and rules, HitchHold,
// HitchBand, MetricUnit) hold only data and decisions. Numbers are formatted by ReportFormat.

extension FrameReport.FrameSource {
    /// A few words for headings: `frame spans`, `Chrome frame events`, `frame markers`,
    /// `estimated frames`.
    package var shortPhrase: String {
        switch self {
        case .frameSpans: "frame spans"
        case .chromeFrames: "Chrome frame events"
        case .frameTimeline: "Android FrameTimeline"
        case .instruments: "Instruments frames"
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
        case .instruments: "Instruments (the recording's displayed frames or Apple's hitches)"
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

extension FrameReport.SourceDetail: CustomStringConvertible {
    /// One line for a reader of the report; names from the trace appear as they are (each
    /// renderer escapes its own output), except a layer name, which is shortened.
    package var description: String {
        switch self {
        case .frameSpans(let frames, let nested):
            var text = "\(frames) spans in category \"\(FrameContract.frameCategory)\" on the main thread"
            if nested > 0 {
                text +=
                    "; \(nested) more inside them are no frames of their own (their time is the frame's own, "
                    + "\(FrameAnalyzer.unattributedCategory))"
            }
            return text
        case .markerSpans(let name, _, let threadName, let isMain):
            return "spans named \"\(name)\" on \(isMain ? "the main thread" : "thread \(threadName)")"
        case .markerInstants(let name):
            return "instants named \"\(name)\": each frame is shown until the next mark, in whole vsyncs"
        case .chromeReporters(let noUpdate, let forked, let unknown, let partial):
            var text =
                "PipelineReporter states; \(noUpdate) no-update-desired, \(forked) forked or repeated reporters"
                + (unknown > 0 ? ", \(unknown) without a known state" : "") + " not counted as frames"
            if partial > 0 {
                text +=
                    "; \(partial) partially presented \(partial == 1 ? "frame that does" : "frames that do") not affect "
                    + "smoothness, counted as presented"
            }
            return text
        case .chromeBeginFrames(let idle):
            return
                "BeginFrame/DrawFrame/DroppedFrame; \(idle) idle BeginFrames (nothing drawn) not counted as frames"
        case .androidFrameTimeline(
            let frames, let processID, let layer, let mainSliceName, let mainSlices, let renderSlices):
            var text = "\(frames) actual surface frames of process \(processID)"
            if let layer { text += " (layer \(UntrustedText.shortened(layer)))" }
            return text
                + "; lanes from \(mainSliceName) (\(mainSlices)) and DrawFrames (\(renderSlices)) of the same token"
        case .instrumentsHitches(let frames, let table, let hitches, let unmatched, let system):
            var text =
                "\(frames) frames from \(table.phrase); late frames are Apple's \(hitches) hitches (hitches table)"
            if unmatched > 0 { text += ", \(unmatched) of them matching no frame (shown as frames of their own)" }
            if system > 0 { text += "; \(system) system hitches (is-system) left out" }
            return text
        case .estimated:
            return
                "each stretch of main-thread work is a frame, late only by what it ran past P; record frames with "
                + "Recorder.withFrame or name them with --frame-marker"
        case .unspecified:
            return ""
        }
    }
}

extension FrameReport.FrameIntervalSource: CustomStringConvertible {
    /// For people: `--fps 120 (over trace metadata 16.67 ms)`, `budget fps 100`, `trace metadata`,
    /// `Chrome BeginFrame interval`, `default 60 fps`.
    package var description: String {
        switch self {
        case .requested(let rate, let requester, let overriding):
            let over = overriding.map { " (over trace metadata \(ReportFormat.milliseconds($0)))" } ?? ""
            return "\(requester == .option ? "--fps" : "budget fps") \(formatNumber(rate.hertz))" + over
        case .traceMetadata: return "trace metadata"
        case .chromeBeginFrames: return "Chrome BeginFrame interval"
        case .androidFrameTimeline(let gaps, let atMedian, let stretches):
            guard stretches.count > 1 else {
                return "Android FrameTimeline: median spacing of expected frame starts, \(atMedian) of \(gaps) gaps"
            }
            return "Android FrameTimeline: median spacing of expected frame starts per stretch of one rate, "
                + "\(atMedian) of \(gaps) gaps at their stretch's: " + stretches.phrase
        case .instruments(.frameBudgets): return "Instruments: framescope frame signposts' budgets"
        case .instruments(.vsyncs): return "Instruments: the display's vsync intervals"
        case .instruments(.displayInfo): return "Instruments: the main display's refresh rate (device-display-info)"
        case .defaultRate: return "default 60 fps"
        }
    }
}

extension [FrameReport.DisplayStretch] {
    /// The stretches in time order, each its period, rate and frames: `16.67 ms (60 Hz) for 24
    /// frames, 8.33 ms (120 Hz) for 48`.
    package var phrase: String {
        enumerated().map { position, stretch in
            let hertz = (1e9 / Double(Swift.max(1, stretch.intervalNanoseconds))).rounded()
            return "\(ReportFormat.milliseconds(stretch.intervalNanoseconds)) (\(ReportFormat.trimmed(hertz)) Hz) for "
                + "\(stretch.frames)\(position == 0 ? " frames" : "")"
        }.joined(separator: ", ")
    }
}

extension FrameReport.MainThreadRule: CustomStringConvertible {
    /// For people: `--main-thread`, `--process`, `trace metadata`, the page's renderer, `thread name`, `busiest thread`, `no threads`.
    package var description: String {
        switch self {
        case .option: "--main-thread"
        case .process: "--process"
        case .pageRenderer: "the page's renderer, as the browser names it"
        case .busiestRenderer: "the busiest CrRendererMain: the browser does not say which is the page's"
        case .traceMetadata: "trace metadata"
        case .androidUIThread: "Android: the app's UI thread (tid = pid)"
        case .threadName: "thread name"
        case .busiestThread: "busiest thread"
        case .none: "no threads"
        }
    }
}

extension FrameReport.Summary {
    /// Android's headline figure: janky frames (late by Android's rule, ``AndroidFrame/isJanky``)
    /// as a share of all frames, as JankStats, Macrobenchmark's `FrameTimingMetric` and Play
    /// vitals state it; 0 without frames.
    package var jankyShare: Double { frameCount > 0 ? Double(lateFrames) / Double(frameCount) : 0 }

    /// The janky share in words, with the app start's frames apart from the steady state where
    /// the trace marks a start: `16 of 739 frames; app start 5 of 79, steady state 11 of 660 (1.7%)`.
    package var jankyPhrase: String {
        var text = "\(lateFrames) of \(frameCount) frames, as Android's JankStats counts them"
        if let start = appStartFrames, let startJanky = appStartJankyFrames {
            let steady = frameCount - start
            let steadyJanky = lateFrames - startJanky
            text +=
                "; app start \(startJanky) of \(start), steady state \(steadyJanky) of \(steady)"
                + " (\(ReportFormat.percent(steady > 0 ? Double(steadyJanky) / Double(steady) : 0)))"
        }
        return text
    }
}

extension FrameReport.Summary {
    /// The app start's frames, the mark that ended them and what fell in them, as a reader counts
    /// them in Perfetto's UI: `frames #0-#49, to the first done after reportFullyDrawn (657.83 ms
    /// after #0's vsync): 6 janky, 247.03 ms of hitch time`; `nil` when the trace marks no start.
    package var appStartPhrase: String? {
        guard let janky = appStartJankyFrames, let mark = appStartMark else { return nil }
        let rule = mark.isFullDisplay ? "to the first done after" : "to the first begun after"
        return "frames #0-#\(mark.lastFrame), \(rule) \(mark.name) "
            + "(\(ReportFormat.milliseconds(mark.afterFirstVsync)) after #0's vsync): \(janky) janky, "
            + "\(ReportFormat.milliseconds(appStartHitchNanoseconds ?? 0)) of hitch time"
    }
}

extension FrameReport.AppleFrameTable {
    /// Where an Instruments recording's frames came from, as the report says it.
    var phrase: String {
        switch self {
        case .frameSignposts: "framescope frame signposts"
        case .displayedSurfaces: "displayed-surfaces-interval"
        case .hitchesAlone: "Apple's hitches alone (no frame table)"
        }
    }
}
