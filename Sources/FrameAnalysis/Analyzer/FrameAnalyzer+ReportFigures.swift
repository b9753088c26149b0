@_spi(FramescopeInternals) import FrameTrace

extension FrameAnalyzer {
    /// The report's figures drawn from its finished frames, but for the lanes' (made beside
    /// them on all cores, ``laneFigures(_:interval:onAllCores:)``): the summary, the categories
    /// and the worst frames.
    struct ReportFigures: Sendable {
        var summary: FrameReport.Summary
        /// Every category, the most main-thread time first.
        var categories: [FrameReport.CategoryFigures]
        /// The latest frames, at most the options' ``AnalysisOptions/worstFrameCount``.
        var worstFrames: [FrameReport.WorstFrame]

        /// - Parameters:
        ///   - frames: The finished frames, their self time and lanes filled in.
        ///   - perFrameMain: Per category name number, its main-thread time in each frame it ran
        ///     in (``FrameAccounting/finish(into:categoryNames:spanNames:onAllCores:)``).
        init(_ frames: [FrameReport.Frame], measured: Measurements, perFrameMain: [[Int64]], worstFrameCount: Int) {
            let interval = measured.frameRate.intervalNanoseconds
            summary = FrameAnalyzer.summarize(
                frames, interval: interval, mainOutside: measured.accounting.mainOutsideFrames)
            summary.backgroundInFramesNanoseconds = measured.accounting.backgroundInFrames
            summary.backgroundOutsideFramesNanoseconds = measured.accounting.backgroundOutsideFrames
            summary.chromeDroppedFrameEvents = measured.found.chromeDroppedFrameEvents
            if summary.appStartFrames != nil { summary.appStartMark = measured.found.appStartMark }
            measured.found.apple?.adjust(&summary, frames: frames)
            categories = Self.categories(
                measured, perFrameMain: perFrameMain, frameCount: frames.count,
                measuredTime: summary.measuredNanoseconds)
            worstFrames = Self.worstFrames(frames, interval: interval, count: worstFrameCount)
        }

        /// Each category's figures, the most main-thread time first. A category's per-frame summary
        /// counts 0 in every frame it did not run in, without writing those zeros out: O(its
        /// frames), not O(all frames), per category.
        private static func categories(
            _ measured: Measurements, perFrameMain: [[Int64]], frameCount: Int, measuredTime: Int64
        ) -> [FrameReport.CategoryFigures] {
            let names = measured.names
            return measured.totals.indices.map { number in
                let totals = measured.totals[number]
                let values = perFrameMain[names.nameOfCategory[number]]
                return FrameReport.CategoryFigures(
                    name: names.names[names.nameOfCategory[number]], spanCount: totals.spanCount,
                    mainNanoseconds: totals.main,
                    backgroundNanoseconds: totals.background,
                    budgetShare: measuredTime > 0 ? min(1, Double(totals.mainMeasured) / Double(measuredTime)) : nil,
                    perFrameMain: PercentileSummary(values, zeroCount: frameCount - values.count))
            }.sorted {
                ($0.mainNanoseconds, $0.backgroundNanoseconds, $1.name) > (
                    $1.mainNanoseconds, $1.backgroundNanoseconds, $0.name
                )
            }
        }

        /// The first `count` frames by lateness, then overrun, then main-thread time.
        private static func worstFrames(_ frames: [FrameReport.Frame], interval: Int64, count: Int)
            -> [FrameReport.WorstFrame]
        {
            // The sort keys are gathered first, from stored properties: a frame read out of the
            // array is copied, which retains the dictionaries it holds.
            let worstKeys = frames.indices.map { index in
                let overrun = FrameReport.Frame.overrun(
                    commitEnd: frames[index].commitEnd, deadline: frames[index].deadline, lanes: frames[index].lanes,
                    android: frames[index].android, apple: frames[index].apple)
                return (
                    lateness: FrameReport.Frame.lateness(
                        overrun: overrun, android: frames[index].android,
                        interval: frames[index].displayInterval ?? interval, apple: frames[index].apple),
                    overrun: overrun,
                    main: frames[index].mainThreadNanoseconds, index: frames[index].index
                )
            }
            // The first few in order, not every frame sorted to keep five.
            let worst = FrameAnalyzer.firstInOrder(count, of: worstKeys.indices) { a, b in
                let (x, y) = (worstKeys[a], worstKeys[b])
                return (x.lateness, x.overrun, x.main, y.index) > (y.lateness, y.overrun, y.main, x.index)
            }
            .map { FrameReport.WorstFrame(frame: frames[$0], topSpans: frames[$0].topSpans) }
            return Array(worst)
        }
    }
}
