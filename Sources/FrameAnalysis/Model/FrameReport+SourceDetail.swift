package import FrameTrace

extension FrameReport {
    /// What a frame source decided beyond its frames, as values: which events or marks made the
    /// frames and the counts of what it left out. Text and HTML print its `description`
    /// (Rendering/ReportPhrases.swift); JSON writes its fields (`frame-boundaries-detail`,
    /// Rendering/FrameReport+JSON.swift).
    package enum SourceDetail: Sendable, Hashable {
        /// Spans in the `frame` category on the main thread: `frames` of them made frames, and
        /// `nested` more lay inside them and are no frames of their own.
        case frameSpans(frames: Int, nested: Int)
        /// Spans named `name` made the frames, on `thread` (`isMain` when it is the main thread).
        case markerSpans(name: String, thread: ThreadKey, threadName: String, isMain: Bool)
        /// Instants named `name`: each frame is shown until the next mark, in whole vsyncs.
        case markerInstants(name: String)
        /// Chrome's `PipelineReporter` states. Not counted as frames: reporters whose state said
        /// no update was desired, forked or repeated reporters, and reporters with no known
        /// state; `partiallyPresented` frames that do not affect smoothness count as presented.
        case chromeReporters(noUpdateDesired: Int, forkedOrRepeated: Int, unknownState: Int, partiallyPresented: Int)
        /// Chrome's `BeginFrame`/`DrawFrame`/`DroppedFrame` events; `idleBeginFrames` drew
        /// nothing and are not frames.
        case chromeBeginFrames(idleBeginFrames: Int)
        /// Android's FrameTimeline: `frames` actual surface frames of `processID` (on `layer`
        /// when known), with main lanes from `mainSlices` slices named `mainSliceName` and render
        /// lanes from `renderSlices` `DrawFrames` slices of the same token.
        case androidFrameTimeline(
            frames: Int, processID: Int64, layer: String?, mainSliceName: String, mainSlices: Int, renderSlices: Int)
        /// An Instruments recording with Apple's `hitches`: `frames` frames from `frameTable`
        /// (framescope's frame signposts, the displayed surfaces, or the hitches alone), `hitches` of the app's hitches
        /// matched to the frame each follows and `unmatched` that followed none (shown as frames
        /// of their own), `systemHitches` of the system's left out.
        case instrumentsHitches(
            frames: Int, frameTable: AppleFrameTable, hitches: Int, unmatched: Int, systemHitches: Int)
        /// No frame events: each stretch of main-thread work is a frame.
        case estimated
        /// Nothing said (a method made by hand).
        case unspecified

        /// The kind, as JSON writes it: `frame-spans`, `marker-spans`, `marker-instants`,
        /// `chrome-reporters`, `chrome-begin-frames`, `android-frame-timeline`, `estimated` or
        /// `unspecified`.
        package var identifier: String {
            switch self {
            case .frameSpans: "frame-spans"
            case .markerSpans: "marker-spans"
            case .markerInstants: "marker-instants"
            case .chromeReporters: "chrome-reporters"
            case .chromeBeginFrames: "chrome-begin-frames"
            case .androidFrameTimeline: "android-frame-timeline"
            case .instrumentsHitches: "instruments-hitches"
            case .estimated: "estimated"
            case .unspecified: "unspecified"
            }
        }
    }
}
