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
        /// The median spacing of Android FrameTimeline's frame starts: the app's expected surface
        /// frames and SurfaceFlinger's expected display frames (``AndroidFrameTimeline``). `gaps`
        /// counts the spacings measured, `atMedian` those within an eighth of the median: the
        /// others are stretches at another rate or vsyncs nobody drew, stated, not used.
        case androidFrameTimeline(gaps: Int, atMedian: Int)
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
