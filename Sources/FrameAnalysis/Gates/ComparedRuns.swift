package import FrameTrace

/// One side of a comparison as its metrics see it: each frame's values, pooled over the side's
/// runs, from reports or from frames rows alike.
///
/// Every metric ``Comparison`` judges is computed from these values and nothing else, so a
/// comparison of reports and one of the frames rows written from the same reports are one
/// computation on equal numbers (``FrameRows/readRun(_:)``).
///
/// ```swift
/// let base = ComparedRuns(reports: [before])
/// let head = ComparedRuns(pooling: [try FrameRows.readRun(rows)])
/// let comparison = Comparison(base: base, head: head, baseSources: ["before.json"], headSources: ["after.jsonl"])
/// ```
package struct ComparedRuns: Sendable {
    /// One frame's values, in integer nanoseconds.
    package struct Frame: Sendable, Hashable {
        /// The frame's main-thread cost (`main-thread-ms`).
        package var mainNanoseconds: Int64
        /// The frame's overrun, negative for headroom (`overrun-ms`).
        package var overrunNanoseconds: Int64
        /// The frame's budget, deadline − vsync: the median of the base side's is what overrun
        /// changes are measured against.
        package var budgetNanoseconds: Int64
        /// The cost of each lane the frame has work in (`lane-ms.LANE`); a lane not listed
        /// counts 0. The first entry of a lane is the one used, as ``FrameReport/Frame/lane(_:)``
        /// does.
        package var laneNanoseconds: [LaneCost]
        /// Main-thread time per category (`categories.NAME.main-ms-per-frame`); a category not
        /// listed counts 0.
        package var mainByCategory: CategoryTimes

        /// Creates a frame's values.
        package init(
            mainNanoseconds: Int64, overrunNanoseconds: Int64, budgetNanoseconds: Int64,
            laneNanoseconds: [LaneCost] = [],
            mainByCategory: CategoryTimes = [:]
        ) {
            self.mainNanoseconds = mainNanoseconds
            self.overrunNanoseconds = overrunNanoseconds
            self.budgetNanoseconds = budgetNanoseconds
            self.laneNanoseconds = laneNanoseconds
            self.mainByCategory = mainByCategory
        }

        /// A report's frame: its main-thread cost, overrun, deadline − vsync (saturating), lane
        /// costs and main-thread time per category.
        package init(_ frame: borrowing FrameReport.Frame) {
            self.init(
                mainNanoseconds: frame.mainThreadNanoseconds, overrunNanoseconds: frame.overrun,
                budgetNanoseconds: frame.deadline.subtractingSaturating(frame.vsync),
                laneNanoseconds: frame.lanes.map { LaneCost(lane: $0.lane, nanoseconds: $0.costNanoseconds) },
                mainByCategory: frame.mainByCategory)
        }

        /// The frame's cost in `lane`, 0 when it has no work there.
        package func cost(in lane: Lane) -> Int64 {
            laneNanoseconds.first { $0.lane == lane }?.nanoseconds ?? 0
        }
    }

    /// A frame's cost in one lane.
    package struct LaneCost: Sendable, Hashable {
        /// The lane.
        package var lane: Lane
        /// The frame's cost in it.
        package var nanoseconds: Int64

        /// Creates a lane's cost.
        package init(lane: Lane, nanoseconds: Int64) {
            self.lane = lane
            self.nanoseconds = nanoseconds
        }
    }

    /// The summary figures a report has and frames rows do not: pooled over the runs.
    package struct Summary: Sendable, Hashable {
        /// Total hitch time.
        package var hitchNanoseconds: Int64 = 0
        /// Total measured time.
        package var measuredNanoseconds: Int64 = 0
        /// Slow frames.
        package var slowFrames = 0
        /// Frozen frames.
        package var frozenFrames = 0
        /// Hitch time per cause.
        package var hitchNanosecondsByCause: [HitchCause: Int64] = [:]

        /// Adds another run's figures, saturating.
        mutating func add(_ other: Summary) {
            hitchNanoseconds = hitchNanoseconds.addingSaturating(other.hitchNanoseconds)
            measuredNanoseconds = measuredNanoseconds.addingSaturating(other.measuredNanoseconds)
            slowFrames = slowFrames.addingSaturating(other.slowFrames)
            frozenFrames = frozenFrames.addingSaturating(other.frozenFrames)
            for (cause, nanoseconds) in other.hitchNanosecondsByCause {
                hitchNanosecondsByCause[cause] = (hitchNanosecondsByCause[cause] ?? 0).addingSaturating(nanoseconds)
            }
        }
    }

    /// Every frame of the runs, run after run, each run's in its order.
    package var frames: [Frame] = []
    /// The lanes the runs have, whether or not a frame has work in them.
    package var lanes: Set<Lane> = []
    /// Where the runs' frames came from, each source once, in run order.
    package var frameSources: [FrameReport.FrameSource] = []
    /// The pooled summary figures; `nil` when a run did not carry them (frames rows).
    package var summary: Summary?
    /// The first run's main-thread cost per frame; `nil` when it has no frames.
    package var chart: FrameChart?

    /// Creates one run's values, or an empty side.
    package init(
        frames: [Frame] = [], lanes: Set<Lane> = [], frameSources: [FrameReport.FrameSource] = [],
        summary: Summary? = nil,
        chart: FrameChart? = nil
    ) {
        self.frames = frames
        self.lanes = lanes
        self.frameSources = frameSources
        self.summary = summary
        self.chart = chart
    }

    /// Pools runs: their frames in order, the union of their lanes, their frame sources each
    /// once, their summaries summed (`nil` when any run has none), and the first run's chart.
    package init(pooling runs: [ComparedRuns]) {
        frames.reserveCapacity(runs.reduce(0) { $0 + $1.frames.count })
        summary = runs.isEmpty ? nil : Summary()
        for run in runs {
            frames += run.frames
            lanes.formUnion(run.lanes)
            for source in run.frameSources where !frameSources.contains(source) { frameSources.append(source) }
            if let figures = run.summary { summary?.add(figures) } else { summary = nil }
        }
        chart = runs.first?.chart
    }

    /// Reports' frames, lanes, frame sources and summaries, pooled in order.
    /// - Complexity: O(frames + lanes and categories of all frames); category dictionaries are
    ///   shared with the reports, not copied.
    package init(reports: [FrameReport]) {
        self.init(pooling: reports.map(ComparedRuns.init(report:)))
    }

    /// One report as a run.
    package init(report: FrameReport) {
        var frames = [Frame]()
        frames.reserveCapacity(report.frames.count)
        for index in report.frames.indices { frames.append(Frame(report.frames[index])) }
        let s = report.summary
        self.init(
            frames: frames, lanes: Set(report.lanes.map(\.lane)), frameSources: [report.method.frameSource],
            summary: Summary(
                hitchNanoseconds: s.hitchNanoseconds, measuredNanoseconds: s.measuredNanoseconds,
                slowFrames: s.slowFrames,
                frozenFrames: s.frozenFrames, hitchNanosecondsByCause: s.hitchNanosecondsByCause),
            chart: report.frames.isEmpty ? nil : FrameChart(report: report))
    }
}
