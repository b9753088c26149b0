/// Something inconsistent in a trace that could still be loaded.
///
/// Readers attach these to the ``Trace`` instead of failing: an `E` with nothing open, a `B` never
/// closed, `X` events that partially overlap on one thread, a negative duration, skipped phases.
public struct TraceDiagnostic: Sendable, Hashable {
    /// The kind of inconsistency, with a stable name for JSON output and tests.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An end (`E`) with no begin open on its thread; the end is ignored.
        case unmatchedEnd = "unmatched-end"
        /// A begin (`B`) that nothing ends; it is closed at the end of the trace.
        case unclosedBegin = "unclosed-begin"
        /// An end whose name differs from the innermost open begin, which it closes anyway.
        case mismatchedEndName = "mismatched-end-name"
        /// A span that starts inside an enclosing span on its thread but ends after it.
        case partialOverlap = "partial-overlap"
        /// A complete event with a negative duration, read as 0.
        case negativeDuration = "negative-duration"
        /// Begin and end events earlier than the begin or end before them on the same thread (a
        /// summary).
        case outOfOrder = "out-of-order"
        /// Events of a phase framescope does not model, skipped (a summary per phase).
        case skippedPhase = "skipped-phase"
        /// Argument values nested too deeply to keep, skipped (a summary).
        case skippedArgument = "skipped-argument"
        /// An event that cannot be read as one, such as one without a phase, with a duration out of
        /// range or an async event without an id; it is dropped.
        case invalidEvent = "invalid-event"
        /// An async end with no begin open under its id (or, in Perfetto traces, an Android
        /// async slice or FrameTimeline frame that does not pair).
        case unmatchedAsync = "unmatched-async"
        /// A flow step or end with no start, or a flow that starts and never ends.
        case unmatchedFlow = "unmatched-flow"
        /// The input ends before the trace does, as a file cut short by a killed writer does;
        /// what came before the cut is kept.
        case truncated = "truncated"
        /// The recorder that wrote the trace dropped events because a buffer was full, as the
        /// trace's metadata says.
        case droppedEvents = "dropped-events"
    }

    /// What is wrong.
    public var kind: Kind
    /// The index of the event in the input (0-based, counting every element of the event array),
    /// or `nil` when the diagnostic is about the trace as a whole.
    public var eventIndex: Int?
    /// A one-line human explanation.
    public var message: String
    /// How many occurrences this diagnostic stands for: 1 for one event, more for a summary
    /// (skipped phases, skipped arguments, out-of-order events, and the "N more" line a reader adds
    /// when one kind occurs more often than it lists individually).
    public var count: Int

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - eventIndex: The event's index in the input, or `nil` for the trace as a whole.
    ///   - message: A one-line explanation.
    ///   - count: How many occurrences it stands for; 1 unless it is a summary.
    public init(_ kind: Kind, eventIndex: Int?, _ message: String, count: Int = 1) {
        self.kind = kind
        self.eventIndex = eventIndex
        self.message = message
        self.count = count
    }
}

extension TraceDiagnostic: CustomStringConvertible {
    /// `kind at event N: message`.
    public var description: String {
        if let eventIndex { return "\(kind.rawValue) at event \(eventIndex): \(message)" }
        return "\(kind.rawValue): \(message)"
    }
}
