package import FrameTrace

extension FrameReport {
    /// Where the frame interval `P` came from. Outputs write ``identifier``; text renders its
    /// `description` (Rendering/ReportPhrases.swift).
    package enum FrameIntervalSource: Sendable, Hashable {
        /// Who asked for a frame rate.
        package enum Requester: String, Sendable, Hashable, CaseIterable {
            /// The analysis options (the CLI's `--fps`).
            case option
            /// The budget file's `fps`.
            case budget
        }

        /// A rate that was asked for; `overriding` is the trace metadata's interval it replaced,
        /// when it differed.
        case requested(FrameRate, by: Requester, overriding: Int64?)
        /// The trace's own metadata (framescope's recorder writes it).
        case traceMetadata
        /// The median interval between Chrome's `BeginFrame` events.
        case chromeBeginFrames
        /// The spacing of Android FrameTimeline's frame starts, per stretch at one display rate:
        /// the app's expected surface frames and SurfaceFlinger's expected display frames
        /// (``AndroidFrameTimeline``). `gaps` counts the spacings measured, `atMedian` those within
        /// an eighth of a whole number of their stretch's period (the others are irregular:
        /// stated, not used); `stretches` are the stretches in time order, the interval `P` the
        /// period of the one with the most frames. Each frame's vsync figures (missed vsyncs,
        /// slow frames) use its stretch's period (``Frame/displayInterval``).
        case androidFrameTimeline(gaps: Int, atMedian: Int, stretches: [DisplayStretch])
        /// An Instruments recording: its frame signposts' budgets, its display's vsyncs, or its
        /// display's refresh rate (``AppleRateSource``).
        case instruments(AppleRateSource)
        /// Nothing said: 60 Hz.
        case defaultRate

        /// `option`, `budget`, `trace-metadata`, `chrome-begin-frames`, `android-frame-timeline`,
        /// `instruments-…` or `default`: what JSON keeps.
        package var identifier: String {
            switch self {
            case .requested(_, let requester, _): requester.rawValue
            case .traceMetadata: "trace-metadata"
            case .chromeBeginFrames: "chrome-begin-frames"
            case .androidFrameTimeline: "android-frame-timeline"
            case .instruments(let source): "instruments-" + source.rawValue
            case .defaultRate: "default"
            }
        }

        /// The stretches at one display rate the trace showed (Android's FrameTimeline); empty
        /// for every other source.
        package var stretches: [DisplayStretch] {
            if case .androidFrameTimeline(_, _, let stretches) = self { return stretches }
            return []
        }

        /// The rate asked for, for ``requested(_:by:overriding:)``.
        package var requestedFrameRate: FrameRate? {
            if case .requested(let rate, _, _) = self { return rate }
            return nil
        }

        /// The trace metadata's interval a requested rate replaced.
        package var overriddenNanoseconds: Int64? {
            if case .requested(_, _, let overriding) = self { return overriding }
            return nil
        }
    }

    /// A stretch of a recording at one display rate, as the trace's own vsyncs space it: from
    /// ``start`` to the next stretch's start.
    package struct DisplayStretch: Sendable, Hashable {
        /// The first vsync of the stretch, on the trace clock (the first stretch also holds every
        /// frame before it).
        package var start: Int64
        /// The display's period in the stretch.
        package var intervalNanoseconds: Int64
        /// The report's frames whose vsync lies in the stretch.
        package var frames: Int

        /// Creates a stretch.
        package init(start: Int64, intervalNanoseconds: Int64, frames: Int) {
            self.start = start
            self.intervalNanoseconds = intervalNanoseconds
            self.frames = frames
        }
    }

    /// How the main thread was chosen. Outputs write ``identifier``; text renders its `description`
    /// (Rendering/ReportPhrases.swift).
    package enum MainThreadRule: String, Sendable, Hashable, CaseIterable {
        /// The analysis options named it (the CLI's `--main-thread`).
        case option
        /// The trace's metadata designates it.
        case traceMetadata = "trace-metadata"
        /// The main thread of the process the analysis options named (the CLI's `--process`).
        case process = "process-option"
        /// The renderer main thread of the page's own process: the main frame's, as Chrome's
        /// `TracingStartedInBrowser` and `FrameCommittedInBrowser` name it (``ChromeRenderers``).
        case pageRenderer = "page-renderer"
        /// The busiest of several `CrRendererMain` threads: the trace does not say which
        /// renderer is the page's.
        case busiestRenderer = "busiest-renderer"
        /// An Android app's UI thread: the thread whose tid is the app's pid.
        case androidUIThread = "android-ui-thread"
        /// Its name is a main thread's (`main`, `CrRendererMain`, ...).
        case threadName = "thread-name"
        /// It is the busiest thread.
        case busiestThread = "busiest-thread"
        /// The trace has no threads.
        case none

        /// What JSON keeps.
        package var identifier: String { rawValue }
    }
}
