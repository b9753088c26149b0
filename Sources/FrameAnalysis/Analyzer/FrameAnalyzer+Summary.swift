@_spi(FramescopeInternals) import FrameTrace

extension FrameAnalyzer {
    static func summarize(_ frames: [FrameReport.Frame], interval: Int64, mainOutside: Int64) -> FrameReport.Summary {
        var counts = FrameCounts(frameCount: frames.count)
        for index in frames.indices { counts.add(frames, at: index, interval: interval) }
        // Hitch time is the time during which some frame was late: the union of the late frames'
        // spans past their deadlines. Frames that overlap (a dropped Chrome frame still pending
        // while the next begins, or an interval forced longer than the frames' spacing) would
        // otherwise count the same moment twice, and hitch time could pass the measured time.
        // Each moment is credited to the cause of the frame that was late first then.
        let (hitch, hitchByCause) = hitchByCause(counts.lateSpans)
        let measured = frames.isEmpty ? 0 : counts.measuredEnd.subtractingSaturating(counts.firstVsync)
        let ratio = measured > 0 ? (Double(hitch) / 1e6) / (Double(measured) / 1e9) : 0
        var summary = FrameReport.Summary(
            frameCount: frames.count, slowFrames: counts.slow, frozenFrames: counts.frozen,
            lateFrames: counts.late, missedVsyncs: counts.missed,
            hitchNanoseconds: hitch, measuredNanoseconds: measured, hitchTimeRatio: ratio,
            hitchBand: frames.isEmpty ? nil : HitchBand(hitchTimeRatio: ratio),
            frameDelaySeconds: Double(counts.delay) / 1e9,
            mainThreadCost: PercentileSummary(counts.mainThreadCosts, zeroCount: 0),
            overrun: PercentileSummary(counts.overruns, zeroCount: 0), mainOutsideFramesNanoseconds: mainOutside)
        summary.hitchNanosecondsByCause = hitchByCause
        summary.partialFrames = counts.partial
        summary.droppedFrames = counts.dropped
        if frames.indices.contains(where: { frames[$0].android != nil }) {
            summary.stuffedFrames = counts.stuffed
            summary.stuffingLatency = PercentileSummary(counts.stuffingLatency, zeroCount: 0)
            AndroidAppStart.count(frames, lateSpans: counts.lateFrames, into: &summary)
        }
        if frames.indices.contains(where: { frames[$0].affectsSmoothness != nil }) {
            summary.droppedFramesAffectingSmoothness = frames.indices.reduce(0) {
                $0 + (frames[$1].outcome == .dropped && frames[$1].affectsSmoothness == true ? 1 : 0)
            }
        }
        return summary
    }

    /// What ``summarize(_:interval:mainOutside:)`` counts and gathers over the frames, one frame
    /// at a time.
    private struct FrameCounts {
        var slow = 0
        var frozen = 0
        var late = 0
        var partial = 0
        var dropped = 0
        var stuffed = 0
        var stuffingLatency: [Int64] = []
        var missed: Int64 = 0
        var delay: Int64 = 0
        /// Each late frame's time past its deadline (past its hitch's start, for Apple's), and why.
        var lateSpans: [(start: Int64, end: Int64, cause: HitchCause)] = []
        /// The late Android frames' spans, by frame position.
        var lateFrames: [(frame: Int, start: Int64, end: Int64)] = []
        var measuredEnd = Int64.min
        var firstVsync = Int64.max
        var mainThreadCosts: [Int64] = []
        var overruns: [Int64] = []

        init(frameCount: Int) {
            mainThreadCosts.reserveCapacity(frameCount)
            overruns.reserveCapacity(frameCount)
        }

        /// Counts `frames[index]`. Stored properties only, by position: a frame read out of the
        /// array (a binding, or a computed property called on `frames[index]`) is copied, which
        /// retains every dictionary and array it holds.
        mutating func add(_ frames: [FrameReport.Frame], at index: Int, interval: Int64) {
            let deadline = frames[index].deadline
            let android = frames[index].android
            let apple = frames[index].apple
            let interval = frames[index].displayInterval ?? interval  // the frame's stretch's period
            let overrun = FrameReport.Frame.overrun(
                commitEnd: frames[index].commitEnd, deadline: deadline, lanes: frames[index].lanes, android: android,
                apple: apple)
            let lateness = FrameReport.Frame.lateness(
                overrun: overrun, android: android, interval: interval, apple: apple)
            if let android, android.isStuffed {
                stuffed += 1
                stuffingLatency.append(android.lateness)
            }
            mainThreadCosts.append(frames[index].mainThreadNanoseconds)
            overruns.append(overrun)
            firstVsync = min(firstVsync, frames[index].vsync)
            // A frame is measured until its commit, its deadline, or as long as it was late.
            measuredEnd = max(measuredEnd, frames[index].commitEnd, deadline, deadline.addingSaturating(lateness))
            let duration = frames[index].commitEnd.subtractingSaturating(frames[index].vsync)  // the frame's duration
            if duration > FrameAnalyzer.frozenThreshold {
                frozen += 1
            } else if duration > interval {
                slow += 1
            }
            if frames[index].outcome == .partial { partial += 1 }
            if frames[index].outcome == .dropped { dropped += 1 }
            guard lateness > 0 else { return }
            late += 1
            delay = delay.addingSaturating(lateness)
            let cause = frames[index].hitchCause
            let from = apple?.hitchStart ?? deadline  // Apple's hitch, where it began
            lateSpans.append((from, from.addingSaturating(lateness), cause == .none ? .commit : cause))
            if android != nil { lateFrames.append((index, from, from.addingSaturating(lateness))) }
            missed = missed.addingSaturating(
                apple?.missedVsyncs(interval: interval)
                    ?? FrameReport.Frame.missedVsyncs(lateness: lateness, interval: interval))
        }
    }

    /// Apple's bands for scrolling hitch time ratio.
    package static func hitchBand(_ ratio: Double) -> HitchBand { HitchBand(hitchTimeRatio: ratio) }
}
