package import FrameTrace

/// Where every frame's budget went in one trace: frames, their costs by category and thread,
/// the summary figures of `../shared/DOMAIN.md`, and how each was determined.
///
/// Made by ``FrameAnalyzer/analyze(_:options:)``; rendered as text, Markdown or JSON.
package struct FrameReport: Sendable {
    /// The version of the JSON schema this report renders to.
    package static let schemaVersion = 4

    /// How the frame interval, main thread and frame boundaries were chosen.
    package var method: Method
    /// Every frame, in time order.
    package var frames: [Frame]
    /// Totals, rates and percentiles over all frames.
    package var summary: Summary
    /// Per-category figures, largest main-thread cost first.
    package var categories: [CategoryFigures]
    /// The frames with the largest overrun (then main-thread cost), worst first.
    package var worstFrames: [WorstFrame]
    /// Per-thread figures, main thread first.
    package var threads: [ThreadFigures]
    /// Per-lane figures in pipeline order: every lane some frame has.
    package var lanes: [LaneFigures] = []
    /// Background jobs whose results frames applied, in the order of their application.
    package var backgroundJobs: [BackgroundJob] = []
    /// What the reader and the analysis found inconsistent.
    package var diagnostics: [TraceDiagnostic]
    /// Input events and how long each waited for a frame to reflect it; `nil` when the trace has
    /// no input events (see ``FrameAnalyzer/inputFigures(of:frames:)`` for the convention).
    package var input: InputFigures? = nil
    /// Hangs an Instruments recording found (`potential-hangs`), in time order: not hitches.
    package var hangs: [Hang] = []

    /// The stretches at one display rate the frames were judged in, when the trace's rate changed
    /// (``FrameIntervalSource/stretches``); empty otherwise.
    package var displayStretches: [DisplayStretch] { method.frameIntervalSource.stretches }

    /// The mark that ends an Android app's start (``AndroidAppStart``): `reportFullyDrawn` (the
    /// start runs to the first frame done after it) or the latest of `bindApplication`,
    /// `activityStart` and `activityResume` (to the first frame begun after it).
    package struct AppStartMark: Sendable, Hashable {
        /// `reportFullyDrawn`, `bindApplication`, `activityStart` or `activityResume`.
        package var name: String
        /// When the mark's slice began, on the trace clock, and how long after the first frame's vsync.
        package var time: Int64
        package var afterFirstVsync: Int64
        /// The report index of the start's last frame (its frames are `0...lastFrame`).
        package var lastFrame: Int

        /// Whether the start runs to time to full display (`reportFullyDrawn`).
        package var isFullDisplay: Bool { name == AndroidAppStart.fullyDrawnPrefix }

        /// Creates a mark.
        package init(name: String, time: Int64, afterFirstVsync: Int64, lastFrame: Int) {
            self.name = name
            self.time = time
            self.afterFirstVsync = afterFirstVsync
            self.lastFrame = lastFrame
        }
    }

    /// How the analysis read the trace.
    package struct Method: Sendable, Hashable {
        /// The frame rate whose interval `P` frames were judged against
        /// (``FrameTrace/FrameRate/intervalNanoseconds``).
        package var frameRate: FrameRate
        /// Where `P` came from, and what it overrode: `--fps 120 (over trace metadata 16.67 ms)`,
        /// `budget fps 120`, `trace metadata`, `Chrome BeginFrame interval`, `default 60 fps`.
        package var frameIntervalSource: FrameIntervalSource
        /// The thread treated as the main (UI) thread, if the trace has any thread.
        package var mainThread: ThreadKey?
        /// Its name, if known.
        package var mainThreadName: String?
        /// The rule that chose it: `--main-thread`, `trace metadata`, `thread name`, `busiest thread`.
        package var mainThreadRule: MainThreadRule
        /// The clock the trace says its timestamps come from (`TraceMetadata.clock`): `virtual`
        /// for the simulated display on virtual time, whose times are priced work, `cpu-time` for
        /// it on CPU time; neither is wall time.
        package var clock: TraceClock?
        /// Where the frames came from.
        package var frameSource: FrameSource
        /// The rule within that source and its counts: which events, which process, what was
        /// left out.
        package var frameSourceDetail: SourceDetail
        /// Chrome renderers other than the analysed one that recorded frames (out-of-process
        /// iframes, other tabs), busiest first: `--process PID` reports any of them.
        package var otherRenderers: [RendererFrames] = []
        /// An Android app's RenderThread, the render lane's thread, when the main thread is an
        /// Android app's UI thread; `nil` otherwise.
        package var renderThread: ThreadKey? = nil
        /// Its name, if known.
        package var renderThreadName: String? = nil

        /// Creates a method description.
        package init(
            frameRate: FrameRate, frameIntervalSource: FrameIntervalSource, mainThread: ThreadKey?,
            mainThreadName: String?,
            mainThreadRule: MainThreadRule, frameSource: FrameSource, frameSourceDetail: SourceDetail = .unspecified,
            clock: TraceClock? = nil
        ) {
            self.clock = clock
            self.frameRate = frameRate
            self.frameIntervalSource = frameIntervalSource
            self.mainThread = mainThread
            self.mainThreadName = mainThreadName
            self.mainThreadRule = mainThreadRule
            self.frameSource = frameSource
            self.frameSourceDetail = frameSourceDetail
        }
    }

    /// A Chrome renderer process the report did not analyse, and the frames it recorded.
    package struct RendererFrames: Sendable, Hashable {
        /// The process.
        package var processID: Int64
        /// Frames Chrome recorded for it (``FrameAnalyzer``'s rules, as for the analysed one).
        package var frames: Int
        /// Of those, the ones Chrome dropped.
        package var droppedFrames: Int

        /// Creates a renderer's figures.
        package init(processID: Int64, frames: Int, droppedFrames: Int) {
            self.processID = processID
            self.frames = frames
            self.droppedFrames = droppedFrames
        }
    }

    /// Where a report's frames came from, most trusted first (see `../shared/DOMAIN.md`).
    package enum FrameSource: String, Sendable, Hashable, CaseIterable {
        /// framescope frame spans: its own traces, and any app using the frame API.
        case frameSpans = "frame-spans"
        /// Chrome's own frame accounting (`PipelineReporter`, or `BeginFrame`/`DrawFrame`/`DroppedFrame`).
        case chromeFrames = "chrome-frames"
        /// Android's FrameTimeline (SurfaceFlinger's expected and actual surface frames, with
        /// their jank types), lanes from the `Choreographer#doFrame` and `DrawFrames` of each
        /// frame's token.
        case frameTimeline = "android-frame-timeline"
        /// An Instruments recording's own frames: its displayed surfaces, or Apple's hitches alone
        /// when it has no frame table.
        case instruments = "instruments"
        /// Named frame markers from other platforms (`Choreographer#doFrame`, `--frame-marker NAME`).
        case frameMarkers = "frame-markers"
        /// No frame events: frames estimated from the main thread's busy time.
        case estimated = "estimated"

        /// The stable identifier of `method.frame-boundaries` in the JSON report.
        package var identifier: String { rawValue }
    }

    /// One frame: one pass of main-thread work from a vsync to its commit.
    package struct Frame: Sendable, Hashable {
        /// 0-based position in the report.
        package var index: Int
        /// The vsync the frame started on, in nanoseconds on the trace clock.
        package var vsync: Int64
        /// The commit deadline: the next vsync after the frame started.
        package var deadline: Int64
        /// When the frame's main-thread work began.
        package var workStart: Int64
        /// When the frame's main-thread work ended (its commit). For a frame Chrome dropped, one
        /// interval after its deadline: it was shown one vsync late.
        package var commitEnd: Int64
        /// Main-thread busy time inside the frame.
        package var mainThreadNanoseconds: Int64
        /// Main-thread busy time by category (self time of the innermost span).
        package var mainByCategory: CategoryTimes
        /// Work on other threads by category inside the frame's window.
        package var backgroundByCategory: CategoryTimes
        /// What became of the frame, as its source tells it.
        package var outcome: Outcome = .measured
        /// The largest main-thread contributors inside the frame's work window by span name
        /// (self time), largest first, at most three.
        package var topSpans: Contributors = []
        /// The frame's lanes in pipeline order (``FrameTrace/Lane``): what each cost and, where
        /// the trace says, when it ended and its deadline. The main lane is always first; the
        /// render lane is present when the trace records render work per frame (framescope's
        /// render spans, Android's `DrawFrame`), Chrome frames carry their stage lanes, and the
        /// background lane is present when the frame applied results of worker jobs.
        package var lanes: [LaneTiming] = []
        /// Why the frame was late: the lane that held it (``hitchHold``'s, else the lane that
        /// missed its deadline first; `none` when on time).
        package var hitchCause: HitchCause = .none
        /// The stage within the cause lane whose work held the frame (a Chrome stage such as
        /// `SendBeginMainFrameToCommit`, or a long main-thread task); `nil` otherwise: ``hitchHold``'s
        /// ``HitchHold/stage``.
        package var hitchStage: String? { hitchHold?.stage }
        /// What held the frame when it was late: the lane, the work and the frame it was for,
        /// and what filled it (``HitchHold``); `nil` when on time or when the trace does not say.
        package var hitchHold: HitchHold? {
            get { hitchHoldStorage?.value }
            set { hitchHoldStorage = newValue.map(OutOfLine.init) }
        }
        private var hitchHoldStorage: OutOfLine<HitchHold>? = nil
        /// Whether Chrome says the frame affects smoothness (`affects_smoothness`: something was
        /// animating or scrolling); `nil` for other sources and older traces.
        package var affectsSmoothness: Bool? = nil
        /// Background jobs whose results this frame applied; `nil` when it applied none.
        package var feed: BackgroundFeed? {
            get { feedStorage?.value }
            set { feedStorage = newValue.map(OutOfLine.init) }
        }
        private var feedStorage: OutOfLine<BackgroundFeed>? = nil
        /// When the frame was presented, where the trace says (framescope's render spans).
        package var presentation: Int64? = nil
        /// The display's period for this frame when the trace's rate changed during the recording
        /// (an Android phone switching between 60 and 120 Hz: its stretch's period,
        /// ``DisplayStretch``); `nil`: the report's `P`. Missed vsyncs and slow frames count in it.
        package var displayInterval: Int64? = nil
        /// The frame's own index in the trace (a frame span's `index` argument, an Android
        /// frame's vsync id), which links its render work to it.
        var sourceIndex: Int64? = nil
        /// Android's own figures for the frame (trace processor's), when the frame comes from an
        /// Android trace with FrameTimeline: they decide its ``overrun`` and whether it was late.
        package var android: AndroidFrame? {
            get { androidStorage?.value }
            set { androidStorage = newValue.map(OutOfLine.init) }
        }
        private var androidStorage: OutOfLine<AndroidFrame>? = nil
        /// Apple's verdict, when the frame comes from an Instruments recording with a `hitches`
        /// table: it decides the frame's ``overrun``, whether it was late and its missed vsyncs.
        package var apple: AppleVerdict? {
            get { appleStorage?.value }
            set { appleStorage = newValue.map(OutOfLine.init) }
        }
        private var appleStorage: OutOfLine<AppleVerdict>? = nil

        /// The timing of one lane in the frame.
        package func lane(_ lane: Lane) -> LaneTiming? { lanes.first { $0.lane == lane } }

        /// Creates a frame.
        package init(
            index: Int, vsync: Int64, deadline: Int64, workStart: Int64, commitEnd: Int64,
            mainThreadNanoseconds: Int64 = 0,
            mainByCategory: CategoryTimes = [:], backgroundByCategory: CategoryTimes = [:],
            outcome: Outcome = .measured
        ) {
            self.index = index
            self.vsync = vsync
            self.deadline = deadline
            self.workStart = workStart
            self.commitEnd = commitEnd
            self.mainThreadNanoseconds = mainThreadNanoseconds
            self.mainByCategory = mainByCategory
            self.backgroundByCategory = backgroundByCategory
            self.outcome = outcome
        }

        /// How late the frame was: the largest `end − deadline` over its lanes that have a
        /// deadline (the commit: `commitEnd − deadline`; the render lane: render end − render
        /// deadline). Positive when late, negative headroom otherwise. An Android frame's is
        /// Android's own (``AndroidFrame/overrun``: the actual frame's end minus the expected
        /// frame's end), where the trace has its expected frame.
        package var overrun: Int64 {
            Self.overrun(commitEnd: commitEnd, deadline: deadline, lanes: lanes, android: android, apple: apple)
        }

        /// How long the frame was late, 0 when it was on time: what it adds to the hitch time.
        /// For most frames the positive part of ``overrun``. An Android frame is late exactly
        /// when Android calls it janky (``AndroidFrame/isJanky``), by its
        /// ``AndroidFrame/lateness``, or one interval when it missed a vsync by Android's account
        /// but no end in the trace was late (SurfaceFlinger's own misses, dropped frames); a
        /// buffer-stuffed frame is not late.
        /// - Parameter interval: The report's frame interval `P`, in nanoseconds (the frame's own
        ///   ``displayInterval`` wins).
        package func lateness(interval: Int64) -> Int64 {
            Self.lateness(overrun: overrun, android: android, interval: displayInterval ?? interval, apple: apple)
        }

        /// Whether the frame was late: ``lateness(interval:)`` is positive.
        package func isLate(interval: Int64) -> Bool { lateness(interval: interval) > 0 }

        /// The vsyncs the frame missed at `interval` (the report's P), or at its own
        /// ``displayInterval`` when it has one: its lateness in whole periods, rounded up; 0 for
        /// a frame on time. The one definition every output uses.
        package func missedVsyncs(interval: Int64) -> Int64 {
            let period = displayInterval ?? interval
            if let apple { return apple.missedVsyncs(interval: period) }
            return Self.missedVsyncs(lateness: lateness(interval: period), interval: period)
        }

        /// ``missedVsyncs(interval:)`` from a lateness already computed.
        static func missedVsyncs(lateness: Int64, interval: Int64) -> Int64 {
            FrameRate.missedVsyncs(lateness: lateness, interval: interval)
        }

        /// ``lateness(interval:)`` from an overrun already computed.
        static func lateness(overrun: Int64, android: AndroidFrame?, interval: Int64, apple: AppleVerdict? = nil)
            -> Int64
        {
            if let apple { return max(0, apple.hitchNanoseconds) }
            guard let android else { return max(0, overrun) }
            guard android.isJanky else { return 0 }
            let lateness = android.lateness
            return lateness > 0 ? lateness : max(1, interval)
        }

        /// ``overrun`` from the fields it depends on: for code that reads frames in an array,
        /// where calling a computed property on `frames[index]` copies the whole frame (and
        /// retains every dictionary it holds), while reading a stored property does not.
        static func overrun(
            commitEnd: Int64, deadline: Int64, lanes: [LaneTiming], android: AndroidFrame?, apple: AppleVerdict? = nil
        ) -> Int64 {
            if let overrun = android?.overrun { return overrun }
            if let apple, apple.hitchNanoseconds > 0 { return apple.hitchNanoseconds }
            var result = commitEnd.subtractingSaturating(deadline)
            for timing in lanes where timing.lane != .main {
                if let overrun = timing.overrun, overrun > result { result = overrun }
            }
            return apple == nil ? result : min(0, result)  // Apple saw no hitch: headroom at most
        }
        /// `commitEnd − deadline`: the main lane's overrun alone.
        package var commitOverrun: Int64 { commitEnd.subtractingSaturating(deadline) }
        /// From the vsync to the commit.
        package var duration: Int64 { commitEnd.subtractingSaturating(vsync) }

        /// What became of a frame.
        package enum Outcome: String, Sendable, Hashable {
            /// Its commit time was recorded (frame spans and markers): late or not by its overrun.
            case measured
            /// Chrome presented it in full.
            case presented
            /// Chrome presented it partially (some of its updates missed the frame).
            case partial
            /// Chrome dropped it: late by one vsync.
            case dropped
            /// Estimated from main-thread work: late only when the work itself overran `P`.
            case estimated
        }
    }

    /// One lane of one frame.
    package struct LaneTiming: Sendable, Hashable {
        /// The lane.
        package var lane: Lane
        /// The lane's work for this frame, in nanoseconds (Chrome: the stages' durations).
        package var costNanoseconds: Int64
        /// When the lane's work for the frame began, if known.
        package var start: Int64?
        /// When it ended, if known.
        package var end: Int64?
        /// When it was due, if the lane has a deadline.
        package var deadline: Int64?
        /// The cost by category (self time), where the trace gives categories.
        package var byCategory: CategoryTimes

        /// Creates a lane timing.
        package init(
            lane: Lane, costNanoseconds: Int64, start: Int64? = nil, end: Int64? = nil, deadline: Int64? = nil,
            byCategory: CategoryTimes = [:]
        ) {
            self.lane = lane
            self.costNanoseconds = costNanoseconds
            self.start = start
            self.end = end
            self.deadline = deadline
            self.byCategory = byCategory
        }

        /// `end − deadline` when both are known: positive when the lane missed its deadline.
        package var overrun: Int64? {
            guard let end, let deadline else { return nil }
            return end.subtractingSaturating(deadline)
        }
    }

    /// One lane's figures over all frames.
    package struct LaneFigures: Sendable, Hashable {
        /// The lane.
        package var lane: Lane
        /// Frames with work in this lane.
        package var framesWithWork: Int
        /// Percentiles of the lane's cost per frame over all frames (0 where a frame had no work
        /// in it), in nanoseconds; `nil` without frames.
        package var cost: PercentileSummary<Int64>?
        /// Frames in which this lane ended past its deadline.
        package var lateFrames: Int
        /// The lane's cost by category, largest first.
        package var categories: [LaneCategory]
        /// Background lane only: jobs applied in frames.
        package var jobs: Int?
        /// Background lane only: percentiles of delivery latency in frames, from the frame that
        /// requested a job to the frame that applied its result.
        package var deliveryLatencyFrames: PercentileSummary<Int64>?
    }

    /// One category's cost in one lane.
    package struct LaneCategory: Sendable, Hashable {
        /// The category name.
        package var name: String
        /// Its total over all frames, in nanoseconds.
        package var totalNanoseconds: Int64
        /// Percentiles per frame (0 where it did not run); `nil` without frames.
        package var perFrame: PercentileSummary<Int64>?
    }

    /// A background job whose result a frame applied: a span on a worker thread linked by a flow
    /// to the main-thread span that applied its result.
    package struct BackgroundJob: Sendable, Hashable {
        /// The worker thread.
        package var thread: ThreadKey
        /// The job span's start and end.
        package var start: Int64
        package var end: Int64
        /// When the job was requested (its start minus its `since-request-ns`, else its start).
        package var requestedAt: Int64
        /// When the main thread applied its result (the flow's finish).
        package var appliedAt: Int64
        /// The report position of the frame whose window held the request.
        package var requestFrame: Int
        /// The report position of the frame that applied the result.
        package var appliedFrame: Int
        /// The job span's category.
        package var category: String

        /// The job's duration, in nanoseconds.
        package var cost: Int64 { end.subtractingSaturating(start) }
        /// Frames from the request to the application: 0 when applied in the frame that asked.
        package var latencyFrames: Int { appliedFrame - requestFrame }
    }

    /// The background jobs whose results one frame applied, found through the trace's flows (a
    /// flow from a worker's job span to the main-thread span that applied its result).
    package struct BackgroundFeed: Sendable, Hashable {
        /// Jobs applied in the frame.
        package var jobs: Int
        /// Their summed cost (each job span's duration), in nanoseconds.
        package var costNanoseconds: Int64
        /// Their cost by category.
        package var byCategory: CategoryTimes
        /// Per job, frames from the request to the application (0: applied in the frame that
        /// asked), in job order.
        package var latencyFrames: [Int]

        /// Creates a feed.
        package init(jobs: Int, costNanoseconds: Int64, byCategory: CategoryTimes = [:], latencyFrames: [Int] = []) {
            self.jobs = jobs
            self.costNanoseconds = costNanoseconds
            self.byCategory = byCategory
            self.latencyFrames = latencyFrames
        }
    }

    /// Summary figures over all frames.
    package struct Summary: Sendable, Hashable {
        /// Frames found.
        package var frameCount: Int
        /// Frames longer than `P` and not frozen.
        package var slowFrames: Int
        /// Frames longer than 700 ms.
        package var frozenFrames: Int
        /// Frames that were late (``Frame/isLate(interval:)``): whose commit or a lane ended
        /// after its deadline; on Android, the frames Android calls janky.
        package var lateFrames: Int
        /// Vsyncs missed: the sum of `ceil(lateness / P)` over late frames.
        package var missedVsyncs: Int64
        /// Hitch time, in nanoseconds: how long some frame was late (the union of late frames'
        /// spans past their deadlines; the sum of overruns when frames do not overlap). At most
        /// the measured time.
        package var hitchNanoseconds: Int64
        /// The time measured: from the first frame's vsync to the latest frame end or deadline.
        package var measuredNanoseconds: Int64
        /// Hitch milliseconds per measured second.
        package var hitchTimeRatio: Double
        /// Apple's band for the ratio: `good` (< 5 ms/s), `warning` (5–10), `critical` (≥ 10);
        /// `nil` without frames, where nothing was measured to judge.
        package var hitchBand: HitchBand?
        /// Frame delay: the sum of (actual − expected) over late frames, in seconds.
        package var frameDelaySeconds: Double
        /// Percentiles of per-frame main-thread cost, in nanoseconds; `nil` without frames.
        package var mainThreadCost: PercentileSummary<Int64>?
        /// Percentiles of per-frame overrun (negative = headroom), in nanoseconds; `nil` without frames.
        package var overrun: PercentileSummary<Int64>?
        /// Main-thread busy time that falls in no frame.
        package var mainOutsideFramesNanoseconds: Int64
        /// Hitch time split by cause (``FrameReport/Frame/hitchCause``); the parts add up to
        /// ``hitchNanoseconds``. Causes with no hitch time are absent.
        package var hitchNanosecondsByCause: [HitchCause: Int64] = [:]
        /// Whether the recording's length is known, so that ``hitchTimeRatio`` means something:
        /// `false` for an Instruments export with hitches but no frame table and no run TOC
        /// (``measuredNanoseconds`` is then 0 and there is no band), rather than a guess.
        package var isMeasuredTimeKnown = true
        /// Hitches in the recording that are the system's own (Instruments' `is-system`): not the
        /// app's, not in hitch time; `nil` for traces that do not say.
        package var systemHitches: Int? = nil
        /// Frames Chrome presented only partially (0 for other sources).
        package var partialFrames: Int = 0
        /// Frames dropped (Chrome's, and Android's `Dropped Frame` present type; 0 for other
        /// sources; they are also late frames).
        package var droppedFrames: Int = 0
        /// Android frames that were buffer- or SurfaceFlinger-stuffed and not janky
        /// (``AndroidFrame/isStuffed``): shown a vsync later, smooth, with more input latency.
        /// They add no hitch time. `nil` for frames that are not Android's.
        package var stuffedFrames: Int? = nil
        /// Percentiles of the stuffed frames' added latency (``AndroidFrame/lateness``), in
        /// nanoseconds; `nil` without stuffed frames.
        package var stuffingLatency: PercentileSummary<Int64>? = nil
        /// Of ``droppedFrames``, those a reporter says affect smoothness (Chrome's smoothness
        /// metrics count only these); `nil` when the trace does not say.
        package var droppedFramesAffectingSmoothness: Int? = nil
        /// `DroppedFrame` events in the analysed renderer: Chrome's own count of dropped frames
        /// that affect smoothness; `nil` for other sources.
        package var chromeDroppedFrameEvents: Int? = nil
        /// Busy time of every thread but the main thread inside the frame windows (from each
        /// frame's vsync to the next frame's vsync, the last one to its end): at most the
        /// measured time × those threads.
        package var backgroundInFramesNanoseconds: Int64 = 0
        /// Busy time of every thread but the main thread before the first frame's vsync or after
        /// the last frame's end: work that outlived the frames is reported here, not spread over them.
        package var backgroundOutsideFramesNanoseconds: Int64 = 0
        /// Android: the frames of the app's start as the trace marks it (``AndroidAppStart``), and
        /// how many of them Android calls janky; `nil` when the trace marks no start.
        package var appStartFrames: Int? = nil
        package var appStartJankyFrames: Int? = nil
        /// Android: the hitch time of the app start's janky frames (the union of their spans past
        /// their deadlines, as ``hitchNanoseconds`` counts all frames'), and the mark that ended
        /// the start; `nil` when the trace marks no start.
        package var appStartHitchNanoseconds: Int64? = nil
        package var appStartMark: AppStartMark? = nil

        /// Background busy time inside the frame windows per frame interval `P` of measured time:
        /// never more than the background threads × `P`. `nil` when nothing was measured.
        /// - Parameter interval: The frame interval `P`, in nanoseconds.
        package func backgroundPerInterval(_ interval: Int64) -> Int64? {
            guard measuredNanoseconds > 0, interval > 0 else { return nil }
            let perNanosecond: Double = Double(backgroundInFramesNanoseconds) / Double(measuredNanoseconds)
            return Int64((perNanosecond * Double(interval)).rounded())
        }
    }

    /// One category's share of the work.
    package struct CategoryFigures: Sendable, Hashable {
        /// The category name as written in the trace (empty for none).
        package var name: String
        /// Spans of this category on all threads.
        package var spanCount: Int
        /// Main-thread self time, in nanoseconds.
        package var mainNanoseconds: Int64
        /// Self time on other threads, in nanoseconds.
        package var backgroundNanoseconds: Int64
        /// Main-thread self time inside the measured time (``Summary/measuredNanoseconds``) as
        /// a share of it, 0–1: how much of the frames' budget, every vsync interval of the
        /// measured time, this category used. `nil` when nothing was measured.
        package var budgetShare: Double?
        /// Percentiles over frames of this category's main-thread time per frame; `nil` without frames.
        package var perFrameMain: PercentileSummary<Int64>?
    }

    /// A frame among the worst, with what cost the most in it.
    package struct WorstFrame: Sendable, Hashable {
        /// The frame.
        package var frame: Frame
        /// The largest main-thread contributors by span name, largest first (at most three).
        package var topSpans: Contributors
    }

    /// A named share of time.
    package struct Contributor: Sendable, Hashable {
        /// A span or category name.
        package var name: String
        /// Its self time, in nanoseconds.
        package var nanoseconds: Int64
    }

    /// One thread's figures.
    package struct ThreadFigures: Sendable, Hashable {
        /// The thread.
        package var key: ThreadKey
        /// Its name, if the trace gave one.
        package var name: String?
        /// Whether this is the main thread of the analysis.
        package var isMain: Bool
        /// Spans (`X`, and `B`/`E` pairs) on the thread.
        package var spanCount: Int
        /// Time covered by at least one span.
        package var busyNanoseconds: Int64
        /// The category with the most self time on the thread.
        package var topCategory: String?
    }

    /// The input events of a trace and their latency: from the user's input to the end of the
    /// frame that reflects it.
    ///
    /// Every event in category `input` counts, whatever its thread and phase. An `ignored` input
    /// (the app dropped it) and an input after the last frame (`unreflected`) have no latency; every
    /// other input has exactly one, so `latency.count == inputs − ignored − unreflected`.
    package struct InputFigures: Sendable, Hashable {
        /// Input events found (instants and spans in category `input`), ignored ones included.
        package var inputs: Int
        /// Inputs whose `ignored` argument is true: the app dropped them.
        package var ignored: Int
        /// Inputs after the last frame's end, which no frame reflects.
        package var unreflected: Int
        /// Percentiles of input latency in nanoseconds over the reflected inputs; `nil` when none
        /// was reflected.
        package var latency: PercentileSummary<Int64>?

        /// Creates input figures.
        package init(inputs: Int, ignored: Int, unreflected: Int, latency: PercentileSummary<Int64>?) {
            self.inputs = inputs
            self.ignored = ignored
            self.unreflected = unreflected
            self.latency = latency
        }
    }
}

extension FrameReport {
    /// The label of the categories the HTML timeline folds together: in parentheses, like every
    /// label of framescope's, so no trace name can equal it (``FrameAnalyzer/traceName(_:)``).
    package static let otherCategoriesLabel = "(other categories)"
}
