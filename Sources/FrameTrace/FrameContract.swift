/// The frame contract: the names a framescope trace uses for frames and inputs, declared once so
/// that the recorder that writes them, the reader and the analysis that read them agree.
///
/// A **frame span** is a complete span in category ``frameCategory`` on the main thread. Its
/// arguments place it on the display's clock, relative to the span itself so that they survive
/// rebasing: ``Key/sinceVsync`` is how long after its vsync the frame's work began, and
/// ``Key/budget`` how long the frame had from its vsync to its deadline (the next vsync, or the
/// display link's target time on a variable-refresh display). An **input** is any event in
/// ``inputCategory``; ``Key/sinceInput`` says how long before the event the user's input happened
/// and ``Key/ignored`` marks an input the app dropped.
///
/// ```swift
/// let budget = trace.arguments(of: event)[FrameContract.Key.budget]?.integerValue
/// ```
public enum FrameContract {
    /// The category of frame spans: structure, not a cost.
    public static let frameCategory = TraceCategory.frame.name
    /// The name framescope gives its frame spans (a `StaticString`, as the recorder's span names
    /// are; the analysis goes by the category, never the name).
    public static let frameSpanName: StaticString = "frame"
    /// The category of input events.
    public static let inputCategory = TraceCategory.input.name
    /// The category of a frame's commit to the render server.
    public static let commitCategory = TraceCategory.commit.name

    /// Argument keys of frame spans and inputs.
    public enum Key {
        /// A frame's 0-based index in the recording.
        public static let index = "index"
        /// Nanoseconds from the frame's vsync to the start of its span (non-negative).
        public static let sinceVsync = "since-vsync-ns"
        /// Nanoseconds from the frame's vsync to its deadline (positive).
        public static let budget = "budget-ns"
        /// Nanoseconds from the user's input to the input event (non-negative).
        public static let sinceInput = "since-input-ns"
        /// `true` when the app dropped the input.
        public static let ignored = "ignored"

        /// On a render-lane span: the ``index`` of the frame whose commit it renders. A span in
        /// category ``renderCategory`` that carries this key is the render lane of that frame; the
        /// frame's render cost is the sum of its render spans.
        public static let renderedFrame = "frame"
        /// On a render-lane span: nanoseconds from the span's start to its lane's deadline
        /// (negative when the work began after it). framescope's display loop sets the render
        /// deadline one interval after the vsync that took the commit.
        public static let untilDeadline = "until-deadline-ns"
        /// On a render-lane span: nanoseconds from the span's end to the vsync that presented
        /// the frame (non-negative).
        public static let untilPresent = "until-present-ns"
        /// On a background job span: nanoseconds from the request (when the job was queued) to
        /// the span's start (non-negative). The frame whose window holds the request time asked
        /// for the result; the frame that applied it (the flow from the job to the main thread
        /// says which) is the one it fed.
        public static let sinceRequest = "since-request-ns"
    }

    /// The category of render-lane work (compositing, offscreen passes, blending).
    public static let renderCategory = TraceCategory.render.name

    /// The frame timeline tracks framescope writes so that Perfetto and chrome://tracing show
    /// frames without framescope: async slices, one per frame, on two tracks (expected and
    /// actual), and one track per lane that a frame lists (``laneTrack(_:)``).
    public enum Timeline {
        /// The category of both tracks' slices.
        public static let category = TraceCategory.frameTimeline.name
        /// The track of expected frames: from the vsync to the expected presentation, one interval
        /// after the commit deadline (commit by `V + P`, render by `V + 2P`, shown at `V + 2P`), so
        /// that an on-time frame's actual slice ends where its expected slice ends.
        public static let expectedTrack: StaticString = "Expected Timeline"
        /// The track of actual frames: from the work's start to the presentation, named by
        /// outcome and cause (`on time`, `late: commit`, `late: render`).
        public static let actualTrack: StaticString = "Actual Timeline"
        /// On an actual slice: the frame's ``HitchCause`` identifier.
        public static let causeKey = "hitch-cause"
        /// On an actual slice: nanoseconds from the expected presentation to the actual one
        /// (0 when on time). On a lane's slice: nanoseconds from the lane's deadline to its end.
        public static let lateKey = "late-ns"

        /// The track of one lane's actual work per frame (`Actual Timeline: main`, `Actual
        /// Timeline: render`): a slice from the lane's start to its end, with the frame's `index`
        /// and `late-ns` past the lane's deadline, so Perfetto shows which lane ran late.
        /// - Parameter lane: The lane whose track to name.
        /// - Returns: The track's name: `Actual Timeline: ` and the lane's ``Lane/identifier``.
        public static func laneTrack(_ lane: Lane) -> StaticString {
            switch lane {
            case .main: "Actual Timeline: main"
            case .render: "Actual Timeline: render"
            case .compositor: "Actual Timeline: compositor"
            case .raster: "Actual Timeline: raster"
            case .gpu: "Actual Timeline: gpu"
            case .background: "Actual Timeline: background"
            }
        }
    }

    /// Keys of the trace-level metadata framescope writes.
    public enum Metadata {
        /// The recorder's nominal frame interval, in nanoseconds.
        public static let frameInterval = "frame-interval-ns"
        /// What wrote the trace: `framescope`.
        public static let producer = "producer"
        /// The producer's version.
        public static let version = "version"
        /// The clock timestamps come from (see `TraceMetadata.clock`).
        public static let clock = "clock"
        /// The designated main thread: an object with `pid` and `tid`.
        public static let mainThread = "main-thread"
        /// Events the recorder dropped: `total`, and `threads`, each with `pid`, `tid` and `count`.
        public static let droppedEvents = "dropped-events"
        /// The app's own annotations, an object.
        public static let extra = "extra"
    }
}
