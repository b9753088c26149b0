/// One Android frame's figures as Perfetto's trace processor gives them: what Android's own tools
/// (its standard library's `android_frames`, `android_frames_overrun`,
/// `android_app_vsync_delay_per_frame`, `android_cpu_time_per_frame` and the FrameTimeline
/// slice tables) say of the frame, kept beside framescope's own figures for it.
///
/// A frame is one vsync id (`token`) of the app process. Where the process has several actual
/// surface frames for it (one per layer, or a buffer and its retry), the frame's figures are those
/// of the first one trace processor parsed (`android_frames_overrun` takes the actual slice with
/// the lowest id), and ``layers`` counts them all.
package struct AndroidFrame: Sendable, Hashable {
    /// The frame's vsync id: FrameTimeline's surface frame token, the number in
    /// `Choreographer#doFrame <id>` and `DrawFrame(s) <id>`.
    package var token: Int64
    /// The layer of the frame's first actual surface frame, when FrameTimeline names it.
    package var layer: String?
    /// Actual surface frames of the process for this token (one per layer drawn).
    package var layers: Int
    /// The expected surface frame's start and end (the app's vsync and deadline), when the trace
    /// has it.
    package var expectedStart: Int64?
    package var expectedEnd: Int64?
    /// The actual surface frame's start and end. An actual frame that never ended ends at
    /// `actualStart − 1`, as trace processor's `dur = -1` does.
    package var actualStart: Int64
    package var actualEnd: Int64
    /// Trace processor's `Jank type` (`App Deadline Missed, Buffer Stuffing`), `Present type`
    /// (`Late Present`), `Jank tag` (`Self Jank`) and `On time finish`.
    package var jankType: String
    package var presentType: String
    package var jankTag: String
    package var onTimeFinish: Bool
    /// The `Choreographer#doFrame <token>` slice's duration (`android_frames_ui_time`), when the
    /// process has one.
    package var doFrameNanoseconds: Int64?
    /// The summed durations of every `DrawFrame(s) <token>` slice of the process
    /// (`android_cpu_time_per_frame.draw_frame_dur`), and how many there were.
    package var drawFrameNanoseconds: Int64?
    package var drawFrames: Int
    /// How far SurfaceFlinger's display frame ended past its expected end, when the trace has the
    /// display frame that presented this one.
    package var presentDelay: Int64?
    /// Whether the frame belongs to the app's start as the trace marks it (``AndroidAppStart``):
    /// counted apart from the steady state in the headline.
    package var isAppStart = false
    /// When the first actual slice is not janky but a later one of the same token is (a buffer
    /// retried on the same layer, late): that slice's jank type, present type and end. Trace
    /// processor's jank metrics (`android_jank_cuj`) count the frame janky by any of its slices;
    /// its overrun stays the first slice's (`android_frames_overrun`), its hitch time is this one's.
    package var laterJank: (jankType: String, presentType: String, end: Int64)? {
        get { laterJankType.map { ($0, laterPresentType ?? "", laterJankEnd ?? actualEnd) } }
        set {
            laterJankType = newValue?.jankType
            laterPresentType = newValue?.presentType
            laterJankEnd = newValue?.end
        }
    }
    /// The layers with a janky actual slice for this token, in the order of their first janky
    /// slice. A metric scoped to one layer (`android_jank_cuj` follows its CUJ's layer) counts the
    /// token missed when its layer is among them; the app's frame is janky when any layer is.
    package var jankyLayers: [String] = []
    private var laterJankType: String?
    private var laterPresentType: String?
    private var laterJankEnd: Int64?

    /// Creates a frame's figures.
    package init(
        token: Int64, layer: String?, layers: Int, expectedStart: Int64?, expectedEnd: Int64?, actualStart: Int64,
        actualEnd: Int64,
        jankType: String, presentType: String, jankTag: String, onTimeFinish: Bool, doFrameNanoseconds: Int64?,
        drawFrameNanoseconds: Int64?, drawFrames: Int, presentDelay: Int64?
    ) {
        self.token = token
        self.layer = layer
        self.layers = layers
        self.expectedStart = expectedStart
        self.expectedEnd = expectedEnd
        self.actualStart = actualStart
        self.actualEnd = actualEnd
        self.jankType = jankType
        self.presentType = presentType
        self.jankTag = jankTag
        self.onTimeFinish = onTimeFinish
        self.doFrameNanoseconds = doFrameNanoseconds
        self.drawFrameNanoseconds = drawFrameNanoseconds
        self.drawFrames = drawFrames
        self.presentDelay = presentDelay
    }

    /// Android's frame overrun (`android_frames_overrun`, Macrobenchmark's `frameOverrunMs`):
    /// the actual frame's end minus the expected frame's end. Positive when the frame finished
    /// late, negative headroom otherwise; `nil` without an expected frame.
    package var overrun: Int64? { expectedEnd.map { actualEnd.subtractingSaturating($0) } }

    /// `android_app_vsync_delay_per_frame`: how long after its expected start the app began the
    /// frame; `nil` without an expected frame.
    package var appVsyncDelay: Int64? { expectedStart.map { actualStart.subtractingSaturating($0) } }

    /// `android_cpu_time_per_frame.cpu_time`: the app vsync delay plus the `doFrame` and the
    /// summed `DrawFrame` durations; `nil` unless the frame has all three.
    package var cpuTime: Int64? {
        guard let delay = appVsyncDelay, let ui = doFrameNanoseconds, let draw = drawFrameNanoseconds else {
            return nil
        }
        return delay.addingSaturating(ui).addingSaturating(draw)
    }

    /// The jank type's reasons, as trace processor joins them.
    package var jankReasons: [Substring] { jankType.split(separator: ",").map { $0.drop { $0 == " " } } }

    /// Whether Android calls the frame janky: its jank type names a missed deadline, the app's
    /// (`App Deadline Missed`, `App Resynced Jitter`) or SurfaceFlinger's and the display's
    /// (`SurfaceFlinger CPU/GPU Deadline Missed`, `SurfaceFlinger Scheduling`, `Prediction
    /// Error`, `Display HAL`), or a `Dropped Frame`: trace processor's
    /// `android_is_missed_frame_type`. `Buffer Stuffing` and `SurfaceFlinger Stuffing` are not
    /// jank ("more of a state than a jank"), nor are `None`, `Unknown Jank`, `Non Animating` and
    /// `Display not ON`.
    ///
    /// A frame whose first slice is not janky is janky when a later slice is (``laterJank``).
    package var isJanky: Bool { Self.isJanky(jankType: jankType) || laterJankType != nil }

    /// Whether a jank type names a missed deadline (``isJanky``).
    package static func isJanky(jankType: String) -> Bool {
        reasons(of: jankType).contains { missedFrameReasons.contains(String($0)) }
    }

    /// The reasons of the slice that made the frame janky: the first slice's, else the later
    /// janky slice's (``laterJank``).
    package var jankingReasons: [Substring] { laterJankType.map(Self.reasons(of:)) ?? jankReasons }

    private static func reasons(of jankType: String) -> [Substring] {
        jankType.split(separator: ",").map { $0.drop { $0 == " " } }
    }

    /// The jank reasons that make a frame janky (``isJanky``).
    package static let missedFrameReasons: Set<String> = [
        "App Deadline Missed", "App Resynced Jitter", "SurfaceFlinger CPU Deadline Missed",
        "SurfaceFlinger GPU Deadline Missed",
        "SurfaceFlinger Scheduling", "Prediction Error", "Display HAL", "Dropped Frame",
    ]

    /// Whether the frame was stuffed and not janky: its jank type holds `Buffer Stuffing` (the app
    /// queued buffers ahead, so each is shown a vsync later) or `SurfaceFlinger Stuffing`, and no
    /// missed deadline. Android: "more of a state than a jank … frames will still be smooth in
    /// this state but there is an increased input latency". It adds latency, not hitch time.
    package var isStuffed: Bool {
        !isJanky && jankReasons.contains { $0 == "Buffer Stuffing" || $0 == "SurfaceFlinger Stuffing" }
    }

    /// How late the frame reached the screen: the larger of its ``overrun`` and its
    /// ``presentDelay``, 0 when neither was positive. A janky frame's hitch time and a stuffed
    /// frame's added latency.
    ///
    /// A frame janky by a later slice (``laterJank``) is as late as that slice: its end past the
    /// expected end.
    package var lateness: Int64 {
        let later = laterJankEnd.flatMap { end in expectedEnd.map { end.subtractingSaturating($0) } } ?? 0
        return max(0, overrun ?? 0, presentDelay ?? 0, later)
    }
}
