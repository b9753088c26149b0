import FrameTrace

/// The frames of an Android app's start, where the trace marks it, so that the headline counts
/// them apart from the steady state: a cold start's first frames are often janky, and JankStats,
/// Macrobenchmark's `FrameTimingMetric` and Play vitals judge the frames a user scrolls through.
///
/// The marks are those trace processor's startup metrics read (its standard library's
/// `android/startup/time_to_display.sql`, `android_startup_time_to_display`):
/// - with `reportFullyDrawn()` on the app's process, the start runs to time to full display: the
///   first frame whose work ends after `reportFullyDrawn` began (`_ttfd`), that frame included;
/// - else, after `bindApplication`, `activityStart` or `activityResume`, to time to initial
///   display: the first frame that starts after the latest of them (`_ttid`), that frame included;
/// - else the trace does not mark a start, and no frame is counted apart.
///
/// The report says which mark ended the start and when (``FrameReport/AppStartMark``), so that a
/// reader can count the same frames in Perfetto's UI: every frame up to the one named.
enum AndroidAppStart {
    /// The slice names that mark time to full display, and a start's beginning.
    static let fullyDrawnPrefix = "reportFullyDrawn"
    static let startNames: Set<String> = ["bindApplication", "activityStart", "activityResume"]

    /// The app's start as the trace marks it: how many leading frames (in work-start order) belong
    /// to it, and the mark that ends it; `nil` when the trace marks none.
    /// - Parameters:
    ///   - frames: The app's frames as (work start, work end), in work-start order.
    static func window(frames: [(start: Int64, end: Int64)], trace: Trace, spans: SpanIndex, processID: Int64)
        -> (frames: Int, mark: String, time: Int64)?
    {
        var fullyDrawn: (time: Int64, name: String)?
        var started: (time: Int64, name: String)?
        // Per name symbol: 1 for reportFullyDrawn, 2 for a start mark, else 0 (each name read once).
        let kinds: [UInt8] = trace.symbols.strings.map {
            $0.hasPrefix(fullyDrawnPrefix) ? 1 : (startNames.contains($0) ? 2 : 0)
        }
        guard kinds.contains(where: { $0 != 0 }) else { return nil }
        for (slot, thread) in spans.threads.enumerated() where thread.processID == processID {
            for span in spans.spans(inSlot: slot) {
                let raw = Int(span.name.rawValue)
                guard raw < kinds.count, kinds[raw] != 0 else { continue }
                if kinds[raw] == 1 {
                    if span.start < fullyDrawn?.time ?? .max { fullyDrawn = (span.start, fullyDrawnPrefix) }
                } else if span.start > started?.time ?? .min {
                    started = (span.start, trace.symbols.strings[raw])
                }
            }
        }
        if let fullyDrawn, let last = frames.firstIndex(where: { $0.end > fullyDrawn.time }) {
            return (last + 1, fullyDrawn.name, fullyDrawn.time)
        }
        if let started, let first = frames.firstIndex(where: { $0.start >= started.time }) {
            return (first + 1, started.name, started.time)
        }
        return nil
    }

    /// Writes the app start's frames, janky frames and the hitch time of its janky frames into
    /// `summary`, when any frame is marked.
    /// - Parameter lateSpans: Every late frame's span past its deadline, by frame position.
    static func count(
        _ frames: [FrameReport.Frame], lateSpans: [(frame: Int, start: Int64, end: Int64)],
        into summary: inout FrameReport.Summary
    ) {
        var start = 0
        var janky = 0
        for index in frames.indices {
            guard let android = frames[index].android, android.isAppStart else { continue }
            start += 1
            if android.isJanky { janky += 1 }
        }
        guard start > 0 else { return }
        summary.appStartFrames = start
        summary.appStartJankyFrames = janky
        let spans = lateSpans.filter { frames[$0.frame].android?.isAppStart == true }
        summary.appStartHitchNanoseconds = FrameAnalyzer.hitchByCause(spans.map { ($0.start, $0.end, .unknown) }).total
    }
}
