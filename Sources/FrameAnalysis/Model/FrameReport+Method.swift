package import FrameTrace

extension FrameReport {
    /// Where the frame interval `P` came from. Outputs write ``identifier``; text renders
    /// ``description``.
    package enum FrameIntervalSource: Sendable, Hashable, CustomStringConvertible {
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
        /// Nothing said: 60 Hz.
        case defaultRate

        /// `option`, `budget`, `trace-metadata`, `chrome-begin-frames` or `default`: what JSON keeps.
        package var identifier: String {
            switch self {
            case .requested(_, let requester, _): requester.rawValue
            case .traceMetadata: "trace-metadata"
            case .chromeBeginFrames: "chrome-begin-frames"
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

        /// For people: `--fps 120 (over trace metadata 16.67 ms)`, `budget fps 100`, `trace metadata`,
        /// `Chrome BeginFrame interval`, `default 60 fps`.
        package var description: String {
            switch self {
            case .requested(let rate, let requester, let overriding):
                let over = overriding.map { " (over trace metadata \(ReportFormat.milliseconds($0)))" } ?? ""
                return "\(requester == .option ? "--fps" : "budget fps") \(formatNumber(rate.hertz))" + over
            case .traceMetadata: return "trace metadata"
            case .chromeBeginFrames: return "Chrome BeginFrame interval"
            case .defaultRate: return "default 60 fps"
            }
        }
    }

    /// How the main thread was chosen. Outputs write ``identifier``; text renders ``description``.
    package enum MainThreadRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
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

        /// For people: `--main-thread`, `--process`, `trace metadata`, the page's renderer, `thread name`, `busiest thread`, `no threads`.
        package var description: String {
            switch self {
            case .option: "--main-thread"
            case .process: "--process"
            case .pageRenderer: "the page's renderer, as the browser names it"
            case .busiestRenderer: "the busiest CrRendererMain: the browser does not say which is the page's"
            case .traceMetadata: "trace metadata"
            case .androidUIThread: "Android: the app's UI thread (tid = pid)"
            case .threadName: "thread name"
            case .busiestThread: "busiest thread"
            case .none: "no threads"
            }
        }
    }
}
