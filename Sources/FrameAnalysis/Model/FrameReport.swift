public import FrameTrace

/// Where every frame's budget went in one trace: frames, their costs by category and thread,
/// the summary figures of `../shared/DOMAIN.md`, and how each was determined.
///
/// Made by ``FrameAnalyzer/analyze(_:options:)``; rendered as text, Markdown or JSON.
public struct FrameReport: Sendable {
    /// The version of the JSON schema this report renders to.
    public static let schemaVersion = 4

    /// How the frame interval, main thread and frame boundaries were chosen.
    public var method: Method
    /// Every frame, in time order.
    public var frames: [Frame]
    /// Totals, rates and percentiles over all frames.
    public var summary: Summary
    /// Per-category figures, largest main-thread cost first.
    public var categories: [CategoryFigures]
    /// The frames with the largest overrun (then main-thread cost), worst first.
    public var worstFrames: [WorstFrame]
    /// Per-thread figures, main thread first.
    public var threads: [ThreadFigures]
    /// Per-lane figures in pipeline order: every lane some frame has.
    public var lanes: [LaneFigures] = []
    /// Background jobs whose results frames applied, in the order of their application.
    public var backgroundJobs: [BackgroundJob] = []
    /// What the reader and the analysis found inconsistent.
    public var diagnostics: [TraceDiagnostic]
    /// Input events and how long each waited for a frame to reflect it; `nil` when the trace has
    /// no input events (see ``FrameAnalyzer/inputFigures(of:frames:)`` for the convention).
    public var input: InputFigures? = nil

    /// How the analysis read the trace.
    public struct Method: Sendable, Hashable {
        /// The frame rate whose interval `P` frames were judged against
        /// (``FrameTrace/FrameRate/intervalNanoseconds``).
        public var frameRate: FrameRate
        /// Where `P` came from, and what it overrode: `--fps 120 (over trace metadata 16.67 ms)`,
        /// `budget fps 120`, `trace metadata`, `Chrome BeginFrame interval`, `default 60 fps`.
        public var frameIntervalSource: FrameIntervalSource
        /// The thread treated as the main (UI) thread, if the trace has any thread.
        public var mainThread: ThreadKey?
        /// Its name, if known.
        public var mainThreadName: String?
        /// The rule that chose it: `--main-thread`, `trace metadata`, `thread name`, `busiest thread`.
        public var mainThreadRule: MainThreadRule
        /// The clock the trace says its timestamps come from (`TraceMetadata.clock`): `virtual`
        /// for the simulated display on virtual time, whose times are priced work, `cpu-time` for
        /// it on CPU time; neither is wall time.
        public var clock: TraceClock?
        /// Where the frames came from.
        public var frameSource: FrameSource
        /// The rule within that source and its counts: which events, which process, what was
        /// left out.
        public var frameSourceDetail: SourceDetail
        /// Chrome renderers other than the analysed one that recorded frames (out-of-process
        /// iframes, other tabs), busiest first: `--process PID` reports any of them.
        public var otherRenderers: [RendererFrames] = []
        /// An Android app's RenderThread, the render lane's thread, when the main thread is an
        /// Android app's UI thread; `nil` otherwise.
        public var renderThread: ThreadKey? = nil
        /// Its name, if known.
        public var renderThreadName: String? = nil

        /// Creates a method description.
        public init(
            frameRate: FrameRate, frameIntervalSource: FrameIntervalSource, mainThread: ThreadKey?, mainThreadName: String?,
            mainThreadRule: MainThreadRule, frameSource: FrameSource, frameSourceDetail: SourceDetail = .unspecified, clock: TraceClock? = nil
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
    public struct RendererFrames: Sendable, Hashable {
        /// The process.
        public var processID: Int64
        /// Frames Chrome recorded for it (``FrameAnalyzer``'s rules, as for the analysed one).
        public var frames: Int
        /// Of those, the ones Chrome dropped.
        public var droppedFrames: Int

        /// Creates a renderer's figures.
        public init(processID: Int64, frames: Int, droppedFrames: Int) {
            self.processID = processID
            self.frames = frames
            self.droppedFrames = droppedFrames
        }
    }

    /// Where a report's frames came from, most trusted first (see `../shared/DOMAIN.md`).
    public enum FrameSource: String, Sendable, Hashable, CaseIterable {
        /// framescope frame spans: its own traces, and any app using the frame API.
        case frameSpans = "frame-spans"
        /// Chrome's own frame accounting (`PipelineReporter`, or `BeginFrame`/`DrawFrame`/`DroppedFrame`).
        case chromeFrames = "chrome-frames"
        /// Android's FrameTimeline (SurfaceFlinger's expected and actual surface frames, with
        /// their jank types), lanes from the `Choreographer#doFrame` and `DrawFrames` of each
        /// frame's token.
        case frameTimeline = "android-frame-timeline"
        /// Named frame markers from other platforms (`Choreographer#doFrame`, `--frame-marker NAME`).
        case frameMarkers = "frame-markers"
        /// No frame events: frames estimated from the main thread's busy time.
        case estimated = "estimated"

        /// The stable identifier of `method.frame-boundaries` in the JSON report.
        public var identifier: String { rawValue }

        /// A phrase for the text outputs.
        /// A few words for headings: `frame spans`, `Chrome frame events`, `frame markers`,
        /// `estimated frames`.
        public var shortPhrase: String {
            switch self {
            case .frameSpans: "frame spans"
            case .chromeFrames: "Chrome frame events"
            case .frameTimeline: "Android FrameTimeline"
            case .frameMarkers: "frame markers"
            case .estimated: "estimated frames"
            }
        }

        public var phrase: String {
            switch self {
            case .frameSpans: "framescope frame spans"
            case .chromeFrames: "Chrome frame events"
            case .frameTimeline: "Android FrameTimeline (SurfaceFlinger's expected and actual frames)"
            case .frameMarkers: "frame markers"
            case .estimated: "estimated from main-thread work (no frame events in the trace)"
            }
        }
    }

    /// One frame: one pass of main-thread work from a vsync to its commit.
    public struct Frame: Sendable, Hashable {
        /// 0-based position in the report.
        public var index: Int
        /// The vsync the frame started on, in nanoseconds on the trace clock.
        public var vsync: Int64
        /// The commit deadline: the next vsync after the frame started.
        public var deadline: Int64
        /// When the frame's main-thread work began.
        public var workStart: Int64
        /// When the frame's main-thread work ended (its commit). For a frame Chrome dropped, one
        /// interval after its deadline: it was shown one vsync late.
        public var commitEnd: Int64
        /// Main-thread busy time inside the frame.
        public var mainThreadNanoseconds: Int64
        /// Main-thread busy time by category (self time of the innermost span).
        public var mainByCategory: [String: Int64]
        /// Work on other threads by category inside the frame's window.
        public var backgroundByCategory: [String: Int64]
        /// What became of the frame, as its source tells it.
        public var outcome: Outcome = .measured
        /// The largest main-thread contributors inside the frame's work window by span name
        /// (self time), largest first, at most three.
        public var topSpans: [Contributor] = []
        /// The frame's lanes in pipeline order (``FrameTrace/Lane``): what each cost and, where
        /// the trace says, when it ended and its deadline. The main lane is always first; the
        /// render lane is present when the trace records render work per frame (framescope's
        /// render spans, Android's `DrawFrame`), Chrome frames carry their stage lanes, and the
        /// background lane is present when the frame applied results of worker jobs.
        public var lanes: [LaneTiming] = []
        /// Why the frame was late: the lane that held it (``hitchHold``'s, else the lane that
        /// missed its deadline first; `none` when on time).
        public var hitchCause: HitchCause = .none
        /// The stage within the cause lane whose work held the frame (a Chrome stage such as
        /// `SendBeginMainFrameToCommit`, or a long main-thread task); `nil` otherwise: ``hitchHold``'s
        /// ``HitchHold/stage``.
        public var hitchStage: String? { hitchHold?.stage }
        /// What held the frame when it was late: the lane, the work and the frame it was for,
        /// and what filled it (``HitchHold``); `nil` when on time or when the trace does not say.
        public var hitchHold: HitchHold? = nil
        /// Whether Chrome says the frame affects smoothness (`affects_smoothness`: something was
        /// animating or scrolling); `nil` for other sources and older traces.
        public var affectsSmoothness: Bool? = nil
        /// Background jobs whose results this frame applied; `nil` when it applied none.
        public var feed: BackgroundFeed? = nil
        /// When the frame was presented, where the trace says (framescope's render spans).
        public var presentation: Int64? = nil
        /// The frame's own index in the trace (a frame span's `index` argument, an Android
        /// frame's vsync id), which links its render work to it.
        var sourceIndex: Int64? = nil
        /// Android's own figures for the frame (trace processor's), when the frame comes from an
        /// Android trace with FrameTimeline: they decide its ``overrun`` and whether it was late.
        public var android: AndroidFrame? = nil

        /// The timing of one lane in the frame.
        public func lane(_ lane: Lane) -> LaneTiming? { lanes.first { $0.lane == lane } }

        /// Creates a frame.
        public init(
            index: Int, vsync: Int64, deadline: Int64, workStart: Int64, commitEnd: Int64, mainThreadNanoseconds: Int64 = 0,
            mainByCategory: [String: Int64] = [:], backgroundByCategory: [String: Int64] = [:], outcome: Outcome = .measured
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
        public var overrun: Int64 { Self.overrun(commitEnd: commitEnd, deadline: deadline, lanes: lanes, android: android) }

        /// How long the frame was late, 0 when it was on time: what it adds to the hitch time.
        /// For most frames the positive part of ``overrun``. An Android frame is late exactly
        /// when Android calls it janky (``AndroidFrame/isJanky``), by its
        /// ``AndroidFrame/lateness``, or one interval when it missed a vsync by Android's account
        /// but no end in the trace was late (SurfaceFlinger's own misses, dropped frames); a
        /// buffer-stuffed frame is not late.
        /// - Parameter interval: The report's frame interval `P`, in nanoseconds.
        public func lateness(interval: Int64) -> Int64 { Self.lateness(overrun: overrun, android: android, interval: interval) }

        /// Whether the frame was late: ``lateness(interval:)`` is positive.
        public func isLate(interval: Int64) -> Bool { lateness(interval: interval) > 0 }

        /// The vsyncs the frame missed at `interval` (the report's P): its lateness in whole
        /// intervals, rounded up; 0 for a frame on time. The one definition every output uses.
        public func missedVsyncs(interval: Int64) -> Int64 {
            Self.missedVsyncs(lateness: lateness(interval: interval), interval: interval)
        }

        /// ``missedVsyncs(interval:)`` from a lateness already computed.
        static func missedVsyncs(lateness: Int64, interval: Int64) -> Int64 {
            FrameRate.missedVsyncs(lateness: lateness, interval: interval)
        }

        /// ``lateness(interval:)`` from an overrun already computed.
        static func lateness(overrun: Int64, android: AndroidFrame?, interval: Int64) -> Int64 {
            guard let android else { return max(0, overrun) }
            guard android.isJanky else { return 0 }
            let lateness = android.lateness
            return lateness > 0 ? lateness : max(1, interval)
        }

        /// ``overrun`` from the fields it depends on: for code that reads frames in an array,
        /// where calling a computed property on `frames[index]` copies the whole frame (and
        /// retains every dictionary it holds), while reading a stored property does not.
        static func overrun(commitEnd: Int64, deadline: Int64, lanes: [LaneTiming], android: AndroidFrame?) -> Int64 {
            if let overrun = android?.overrun { return overrun }
            var result = commitEnd.subtractingSaturating(deadline)
            for timing in lanes where timing.lane != .main {
                if let overrun = timing.overrun, overrun > result { result = overrun }
            }
            return result
        }
        /// `commitEnd − deadline`: the main lane's overrun alone.
        public var commitOverrun: Int64 { commitEnd.subtractingSaturating(deadline) }
        /// From the vsync to the commit.
        public var duration: Int64 { commitEnd.subtractingSaturating(vsync) }

        /// What became of a frame.
        public enum Outcome: String, Sendable, Hashable {
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
    public struct LaneTiming: Sendable, Hashable {
        /// The lane.
        public var lane: Lane
        /// The lane's work for this frame, in nanoseconds (Chrome: the stages' durations).
        public var costNanoseconds: Int64
        /// When the lane's work for the frame began, if known.
        public var start: Int64?
        /// When it ended, if known.
        public var end: Int64?
        /// When it was due, if the lane has a deadline.
        public var deadline: Int64?
        /// The cost by category (self time), where the trace gives categories.
        public var byCategory: [String: Int64]

        /// Creates a lane timing.
        public init(lane: Lane, costNanoseconds: Int64, start: Int64? = nil, end: Int64? = nil, deadline: Int64? = nil, byCategory: [String: Int64] = [:]) {
            self.lane = lane
            self.costNanoseconds = costNanoseconds
            self.start = start
            self.end = end
            self.deadline = deadline
            self.byCategory = byCategory
        }

        /// `end − deadline` when both are known: positive when the lane missed its deadline.
        public var overrun: Int64? {
            guard let end, let deadline else { return nil }
            return end.subtractingSaturating(deadline)
        }
    }

    /// One lane's figures over all frames.
    public struct LaneFigures: Sendable, Hashable {
        /// The lane.
        public var lane: Lane
        /// Frames with work in this lane.
        public var framesWithWork: Int
        /// Percentiles of the lane's cost per frame over all frames (0 where a frame had no work
        /// in it), in nanoseconds; `nil` without frames.
        public var cost: PercentileSummary<Int64>?
        /// Frames in which this lane ended past its deadline.
        public var lateFrames: Int
        /// The lane's cost by category, largest first.
        public var categories: [LaneCategory]
        /// Background lane only: jobs applied in frames.
        public var jobs: Int?
        /// Background lane only: percentiles of delivery latency in frames, from the frame that
        /// requested a job to the frame that applied its result.
        public var deliveryLatencyFrames: PercentileSummary<Int64>?
    }

    /// One category's cost in one lane.
    public struct LaneCategory: Sendable, Hashable {
        /// The category name.
        public var name: String
        /// Its total over all frames, in nanoseconds.
        public var totalNanoseconds: Int64
        /// Percentiles per frame (0 where it did not run); `nil` without frames.
        public var perFrame: PercentileSummary<Int64>?
    }

    /// A background job whose result a frame applied: a span on a worker thread linked by a flow
    /// to the main-thread span that applied its result.
    public struct BackgroundJob: Sendable, Hashable {
        /// The worker thread.
        public var thread: ThreadKey
        /// The job span's start and end.
        public var start: Int64
        public var end: Int64
        /// When the job was requested (its start minus its `since-request-ns`, else its start).
        public var requestedAt: Int64
        /// When the main thread applied its result (the flow's finish).
        public var appliedAt: Int64
        /// The report position of the frame whose window held the request.
        public var requestFrame: Int
        /// The report position of the frame that applied the result.
        public var appliedFrame: Int
        /// The job span's category.
        public var category: String

        /// The job's duration, in nanoseconds.
        public var cost: Int64 { end.subtractingSaturating(start) }
        /// Frames from the request to the application: 0 when applied in the frame that asked.
        public var latencyFrames: Int { appliedFrame - requestFrame }
    }

    /// The background jobs whose results one frame applied, found through the trace's flows (a
    /// flow from a worker's job span to the main-thread span that applied its result).
    public struct BackgroundFeed: Sendable, Hashable {
        /// Jobs applied in the frame.
        public var jobs: Int
        /// Their summed cost (each job span's duration), in nanoseconds.
        public var costNanoseconds: Int64
        /// Their cost by category.
        public var byCategory: [String: Int64]
        /// Per job, frames from the request to the application (0: applied in the frame that
        /// asked), in job order.
        public var latencyFrames: [Int]

        /// Creates a feed.
        public init(jobs: Int, costNanoseconds: Int64, byCategory: [String: Int64] = [:], latencyFrames: [Int] = []) {
            self.jobs = jobs
            self.costNanoseconds = costNanoseconds
            self.byCategory = byCategory
            self.latencyFrames = latencyFrames
        }
    }

    /// Summary figures over all frames.
    public struct Summary: Sendable, Hashable {
        /// Frames found.
        public var frameCount: Int
        /// Frames longer than `P` and not frozen.
        public var slowFrames: Int
        /// Frames longer than 700 ms.
        public var frozenFrames: Int
        /// Frames that were late (``Frame/isLate(interval:)``): whose commit or a lane ended
        /// after its deadline; on Android, the frames Android calls janky.
        public var lateFrames: Int
        /// Vsyncs missed: the sum of `ceil(lateness / P)` over late frames.
        public var missedVsyncs: Int64
        /// Hitch time, in nanoseconds: how long some frame was late (the union of late frames'
        /// spans past their deadlines; the sum of overruns when frames do not overlap). At most
        /// the measured time.
        public var hitchNanoseconds: Int64
        /// The time measured: from the first frame's vsync to the latest frame end or deadline.
        public var measuredNanoseconds: Int64
        /// Hitch milliseconds per measured second.
        public var hitchTimeRatio: Double
        /// Apple's band for the ratio: `good` (< 5 ms/s), `warning` (5–10), `critical` (≥ 10);
        /// `nil` without frames, where nothing was measured to judge.
        public var hitchBand: HitchBand?
        /// Frame delay: the sum of (actual − expected) over late frames, in seconds.
        public var frameDelaySeconds: Double
        /// Percentiles of per-frame main-thread cost, in nanoseconds; `nil` without frames.
        public var mainThreadCost: PercentileSummary<Int64>?
        /// Percentiles of per-frame overrun (negative = headroom), in nanoseconds; `nil` without frames.
        public var overrun: PercentileSummary<Int64>?
        /// Main-thread busy time that falls in no frame.
        public var mainOutsideFramesNanoseconds: Int64
        /// Hitch time split by cause (``FrameReport/Frame/hitchCause``); the parts add up to
        /// ``hitchNanoseconds``. Causes with no hitch time are absent.
        public var hitchNanosecondsByCause: [HitchCause: Int64] = [:]
        /// Frames Chrome presented only partially (0 for other sources).
        public var partialFrames: Int = 0
        /// Frames dropped (Chrome's, and Android's `Dropped Frame` present type; 0 for other
        /// sources; they are also late frames).
        public var droppedFrames: Int = 0
        /// Android frames that were buffer- or SurfaceFlinger-stuffed and not janky
        /// (``AndroidFrame/isStuffed``): shown a vsync later, smooth, with more input latency.
        /// They add no hitch time. `nil` for frames that are not Android's.
        public var stuffedFrames: Int? = nil
        /// Percentiles of the stuffed frames' added latency (``AndroidFrame/lateness``), in
        /// nanoseconds; `nil` without stuffed frames.
        public var stuffingLatency: PercentileSummary<Int64>? = nil
        /// Of ``droppedFrames``, those a reporter says affect smoothness (Chrome's smoothness
        /// metrics count only these); `nil` when the trace does not say.
        public var droppedFramesAffectingSmoothness: Int? = nil
        /// `DroppedFrame` events in the analysed renderer: Chrome's own count of dropped frames
        /// that affect smoothness; `nil` for other sources.
        public var chromeDroppedFrameEvents: Int? = nil
        /// Busy time of every thread but the main thread inside the frame windows (from each
        /// frame's vsync to the next frame's vsync, the last one to its end): at most the
        /// measured time × those threads.
        public var backgroundInFramesNanoseconds: Int64 = 0
        /// Busy time of every thread but the main thread before the first frame's vsync or after
        /// the last frame's end: work that outlived the frames is reported here, not spread over them.
        public var backgroundOutsideFramesNanoseconds: Int64 = 0

        /// Background busy time inside the frame windows per frame interval `P` of measured time:
        /// never more than the background threads × `P`. `nil` when nothing was measured.
        /// - Parameter interval: The frame interval `P`, in nanoseconds.
        public func backgroundPerInterval(_ interval: Int64) -> Int64? {
            guard measuredNanoseconds > 0, interval > 0 else { return nil }
            let perNanosecond: Double = Double(backgroundInFramesNanoseconds) / Double(measuredNanoseconds)
            return Int64((perNanosecond * Double(interval)).rounded())
        }
    }

    /// One category's share of the work.
    public struct CategoryFigures: Sendable, Hashable {
        /// The category name as written in the trace (empty for none).
        public var name: String
        /// Spans of this category on all threads.
        public var spanCount: Int
        /// Main-thread self time, in nanoseconds.
        public var mainNanoseconds: Int64
        /// Self time on other threads, in nanoseconds.
        public var backgroundNanoseconds: Int64
        /// Main-thread self time inside the measured time (``Summary/measuredNanoseconds``) as
        /// a share of it, 0–1: how much of the frames' budget, every vsync interval of the
        /// measured time, this category used. `nil` when nothing was measured.
        public var budgetShare: Double?
        /// Percentiles over frames of this category's main-thread time per frame; `nil` without frames.
        public var perFrameMain: PercentileSummary<Int64>?
    }

    /// A frame among the worst, with what cost the most in it.
    public struct WorstFrame: Sendable, Hashable {
        /// The frame.
        public var frame: Frame
        /// The largest main-thread contributors by span name, largest first (at most three).
        public var topSpans: [Contributor]
    }

    /// A named share of time.
    public struct Contributor: Sendable, Hashable {
        /// A span or category name.
        public var name: String
        /// Its self time, in nanoseconds.
        public var nanoseconds: Int64
    }

    /// One thread's figures.
    public struct ThreadFigures: Sendable, Hashable {
        /// The thread.
        public var key: ThreadKey
        /// Its name, if the trace gave one.
        public var name: String?
        /// Whether this is the main thread of the analysis.
        public var isMain: Bool
        /// Spans (`X`, and `B`/`E` pairs) on the thread.
        public var spanCount: Int
        /// Time covered by at least one span.
        public var busyNanoseconds: Int64
        /// The category with the most self time on the thread.
        public var topCategory: String?
    }

    /// The input events of a trace and their latency: from the user's input to the end of the
    /// frame that reflects it.
    ///
    /// Every event in category `input` counts, whatever its thread and phase. An `ignored` input
    /// (the app dropped it) and an input after the last frame (`unreflected`) have no latency; every
    /// other input has exactly one, so `latency.count == inputs − ignored − unreflected`.
    public struct InputFigures: Sendable, Hashable {
        /// Input events found (instants and spans in category `input`), ignored ones included.
        public var inputs: Int
        /// Inputs whose `ignored` argument is true: the app dropped them.
        public var ignored: Int
        /// Inputs after the last frame's end, which no frame reflects.
        public var unreflected: Int
        /// Percentiles of input latency in nanoseconds over the reflected inputs; `nil` when none
        /// was reflected.
        public var latency: PercentileSummary<Int64>?

        /// Creates input figures.
        public init(inputs: Int, ignored: Int, unreflected: Int, latency: PercentileSummary<Int64>?) {
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
    public static let otherCategoriesLabel = "(other categories)"
}
