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
enum AndroidAppStart {
    /// The slice names that mark time to full display, and a start's beginning.
    static let fullyDrawnPrefix = "reportFullyDrawn"
    static let startNames: Set<String> = ["bindApplication", "activityStart", "activityResume"]

    /// The number of leading frames (in work-start order) that belong to the app's start: 0
    /// when the trace marks none.
    /// - Parameters:
    ///   - frames: The app's frames as (work start, work end), in work-start order.
    static func frameCount(frames: [(start: Int64, end: Int64)], trace: Trace, spans: SpanIndex, processID: Int64)
        -> Int
    {
        var fullyDrawn: Int64?
        var started: Int64?
        // Per name symbol: 1 for reportFullyDrawn, 2 for a start mark, else 0 (each name read once).
        let kinds: [UInt8] = trace.symbols.strings.map {
            $0.hasPrefix(fullyDrawnPrefix) ? 1 : (startNames.contains($0) ? 2 : 0)
        }
        guard kinds.contains(where: { $0 != 0 }) else { return 0 }
        for (slot, thread) in spans.threads.enumerated() where thread.processID == processID {
            for span in spans.spans(inSlot: slot) {
                let raw = Int(span.name.rawValue)
                guard raw < kinds.count, kinds[raw] != 0 else { continue }
                if kinds[raw] == 1 {
                    fullyDrawn = min(fullyDrawn ?? .max, span.start)
                } else {
                    started = max(started ?? .min, span.start)
                }
            }
        }
        if let fullyDrawn, let last = frames.firstIndex(where: { $0.end > fullyDrawn }) { return last + 1 }
        if let started, let first = frames.firstIndex(where: { $0.start >= started }) { return first + 1 }
        return 0
    }

    /// Writes the app start's frames and janky frames into `summary`, when any frame is marked.
    static func count(_ frames: [FrameReport.Frame], into summary: inout FrameReport.Summary) {
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
    }
}
