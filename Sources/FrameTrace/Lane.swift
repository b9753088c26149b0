/// Where a frame's work runs: the stages of the frame pipeline, declared once for the recorder,
/// the simulation, the analysis and every renderer.
///
/// A frame passes through lanes, each with its own deadline (see the project's DOMAIN.md,
/// "Lanes"): the **main** lane (the commit phase, due by the next vsync), the **render** lane
/// (the render server or compositor turning the commit into pixels, due one interval later) and
/// the **background** lanes (worker jobs whose results the frame applied). Traces with finer
/// stages add their own: Chrome's `PipelineReporter` splits a frame into compositor, main, raster
/// and gpu stages.
///
/// The identifier is what every output writes (`"render"`); it never changes.
public enum Lane: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The app's main thread from the frame's vsync to its commit (Chrome: `SendBeginMainFrameToCommit`).
    case main
    /// The render server's work on the frame's commit (iOS render server, Android RenderThread).
    case render
    /// Chrome's compositor thread: `BeginImplFrameToSendBeginMainFrame` and
    /// `EndActivateToSubmitCompositorFrame`.
    case compositor
    /// Chrome's commit, raster and activation: `Commit`, `EndCommitToActivation`, `Activation`.
    case raster
    /// Chrome's GPU/viz process: `SubmitCompositorFrameToPresentationCompositorFrame` and its children.
    case gpu
    /// Worker jobs whose results the frame applied (found through the trace's flows).
    case background

    /// The stable identifier written in every output.
    public var identifier: String { rawValue }

    /// The hitch cause named when this lane holds a late frame: `commit` for the main lane
    /// (Apple's commit hitch), the lane's own identifier for the others; `nil` for background
    /// work, which makes a late result (a placeholder), not a late frame.
    public var hitchCause: HitchCause? {
        switch self {
        case .main: .commit
        case .render: .render
        case .compositor: .compositor
        case .raster: .raster
        case .gpu: .gpu
        case .background: nil
        }
    }

    /// Pipeline order: main, render, compositor, raster, gpu, background.
    /// - Parameters:
    ///   - lhs: A lane.
    ///   - rhs: Another lane.
    /// - Returns: `true` when `lhs` comes before `rhs` in the pipeline.
    public static func < (lhs: Lane, rhs: Lane) -> Bool { lhs.order < rhs.order }

    /// The position in declaration order, without building ``allCases`` per comparison.
    private var order: Int {
        switch self {
        case .main: 0
        case .render: 1
        case .compositor: 2
        case .raster: 3
        case .gpu: 4
        case .background: 5
        }
    }
}

/// Why a frame was late: the lane that held it, the one whose work was still running when the
/// frame needed that lane done (see ``Lane/hitchCause``; the analysis's `HitchHold` says which
/// work and which frame).
///
/// `commit` is a frame held by main-thread work (its own commit, or an earlier frame's still
/// running); `render` one held by render-server work (offscreen passes, masks, blending);
/// `compositor`, `raster` and `gpu` one held by Chrome's stages in those lanes (`compositor` also
/// Android's SurfaceFlinger missing its CPU or GPU deadline); `display-hal`, `buffer-stuffing`
/// and `prediction-error` are Android FrameTimeline's jank types outside the app and the
/// compositor; `unknown` a late frame whose trace does not say which lane made it late.
public enum HitchCause: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The frame was on time.
    case none
    /// Main-thread work held the frame: its commit came late.
    case commit
    /// Render-server work held the frame: it rendered late.
    case render
    /// Chrome's compositor stages held the frame.
    case compositor
    /// Chrome's commit/raster/activation stages held the frame.
    case raster
    /// Chrome's GPU/viz stages held the frame.
    case gpu
    /// Android: the display HAL presented the frame late (FrameTimeline's `Display HAL`).
    case displayHAL = "display-hal"
    /// Android: the app was on time, but its buffer queued behind an earlier one
    /// (FrameTimeline's `Buffer Stuffing`).
    case bufferStuffing = "buffer-stuffing"
    /// Android: the vsync prediction the frame was scheduled against was wrong
    /// (FrameTimeline's `Prediction Error`).
    case predictionError = "prediction-error"
    /// The frame was late, but the trace does not say where: a frame Chrome dropped without
    /// recording its stages (the older `DroppedFrame` events), or with no lane busy at its
    /// deadline and no stage longer than its typical duration.
    case unknown
    /// Android: FrameTimeline says the app missed its deadline (`App Deadline Missed`), and the
    /// trace has none of the app's own frame slices (`Choreographer#doFrame`, `DrawFrame`) to say
    /// in which of its lanes.
    case appDeadlineMissed = "app-deadline-missed"

    /// The stable identifier written in every output.
    public var identifier: String { rawValue }

    /// The lane this cause belongs to: `nil` for ``none``, ``unknown``, Android's causes outside
    /// the app and the compositor (``displayHAL``, ``bufferStuffing``, ``predictionError``) and
    /// the app's missed deadline without its lanes (``appDeadlineMissed``).
    public var lane: Lane? {
        switch self {
        case .none, .unknown, .displayHAL, .bufferStuffing, .predictionError, .appDeadlineMissed: nil
        case .commit: .main
        case .render: .render
        case .compositor: .compositor
        case .raster: .raster
        case .gpu: .gpu
        }
    }

    /// Declaration order: ``none`` first, then the lanes in pipeline order, Android's causes,
    /// ``unknown``, and ``appDeadlineMissed`` (added after ``unknown``, so that the positions
    /// outputs already write for the others do not move).
    /// - Parameters:
    ///   - lhs: A cause.
    ///   - rhs: Another cause.
    /// - Returns: `true` when `lhs` is declared before `rhs`.
    public static func < (lhs: HitchCause, rhs: HitchCause) -> Bool { lhs.order < rhs.order }

    /// The position in declaration order, without building ``allCases`` per comparison.
    private var order: Int {
        switch self {
        case .none: 0
        case .commit: 1
        case .render: 2
        case .compositor: 3
        case .raster: 4
        case .gpu: 5
        case .displayHAL: 6
        case .bufferStuffing: 7
        case .predictionError: 8
        case .unknown: 9
        case .appDeadlineMissed: 10
        }
    }
}
