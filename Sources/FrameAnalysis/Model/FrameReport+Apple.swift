package import FrameTrace

extension FrameReport {
    /// Apple's verdict on a frame of an Instruments recording with a `hitches` table: whether
    /// Instruments called it a hitch and for how long. When a frame carries one, it decides the
    /// frame's lateness (the hitch's duration, 0 when Apple saw no hitch) and its missed vsyncs
    /// (the duration in refresh intervals, rounded, as Apple's own rows read: 16,666,666 ns is one
    /// vsync at 60 Hz, not two).
    package struct AppleVerdict: Sendable, Hashable {
        /// The hitch time Apple gave the frame; 0 when it was not a hitch.
        package var hitchNanoseconds: Int64
        /// Apple's "Potential Issue" text for the hitch (`Potentially expensive app update(s)`).
        package var potentialIssue: String?
        /// When the hitch began, as Apple's row says; the frame's vsync when it was no hitch.
        package var hitchStart: Int64

        /// Creates a verdict.
        package init(hitchNanoseconds: Int64, potentialIssue: String?, hitchStart: Int64) {
            self.hitchNanoseconds = hitchNanoseconds
            self.potentialIssue = potentialIssue
            self.hitchStart = hitchStart
        }

        /// The vsyncs a hitch of this length missed: its duration in intervals, rounded, at least
        /// one for a hitch.
        package func missedVsyncs(interval: Int64) -> Int64 {
            guard hitchNanoseconds > 0 else { return 0 }
            guard interval > 0 else { return 1 }
            let (whole, rest) = hitchNanoseconds.quotientAndRemainder(dividingBy: interval)
            return max(1, rest >= interval - rest ? whole.addingSaturating(1) : whole)
        }
    }

    /// Where an Instruments recording's frame interval came from (``FrameIntervalSource/instruments(_:)``).
    package enum AppleRateSource: String, Sendable, Hashable, CaseIterable {
        /// The median budget of framescope's frame signposts in the recording.
        case frameBudgets = "frame-budgets"
        /// The median spacing of the app's display's vsyncs (`display-vsyncs-interval`).
        case vsyncs = "display-vsyncs"
        /// The main display's maximum refresh rate (`device-display-info`).
        case displayInfo = "device-display-info"
    }

    /// Which of an Instruments recording's tables gave its frames (``SourceDetail/instrumentsHitches(frames:frameTable:hitches:unmatched:systemHitches:)``).
    package enum AppleFrameTable: String, Sendable, Hashable, CaseIterable {
        /// framescope's own frame signposts (`frame` intervals).
        case frameSignposts = "framescope-frame-signposts"
        /// The display's surfaces (`displayed-surfaces-interval`).
        case displayedSurfaces = "displayed-surfaces-interval"
        /// No frame table: each of Apple's hitches is a frame.
        case hitchesAlone = "hitches"
    }

    /// A hang Instruments found (`potential-hangs`): the main run loop unresponsive for a while.
    /// Not a hitch, and never counted in hitch time.
    package struct Hang: Sendable, Hashable {
        /// When it began, on the trace clock.
        package var start: Int64
        /// How long it lasted.
        package var duration: Int64
        /// Apple's kind (`Brief Unresponsiveness`, `Potential Interaction Delay`, `Hang`).
        package var type: String
        /// The thread that hung and its name.
        package var thread: ThreadKey
        package var threadName: String?

        /// Creates a hang.
        package init(start: Int64, duration: Int64, type: String, thread: ThreadKey, threadName: String?) {
            self.start = start
            self.duration = duration
            self.type = type
            self.thread = thread
            self.threadName = threadName
        }
    }
}
