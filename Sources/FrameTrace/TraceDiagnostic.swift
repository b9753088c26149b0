/// Something inconsistent in a trace that could still be loaded.
///
/// Readers attach these to the ``Trace`` instead of failing: an `E` with nothing open, a `B` never
/// closed, `X` events that partially overlap on one thread, a negative duration, skipped phases.
public struct TraceDiagnostic: Sendable, Hashable {
    /// The kind of inconsistency, with a stable name for JSON output and tests.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case unmatchedEnd = "unmatched-end"
        case unclosedBegin = "unclosed-begin"
        case mismatchedEndName = "mismatched-end-name"
        case partialOverlap = "partial-overlap"
        case negativeDuration = "negative-duration"
        case outOfOrder = "out-of-order"
        case skippedPhase = "skipped-phase"
        case skippedArgument = "skipped-argument"
        case invalidEvent = "invalid-event"
        case unmatchedAsync = "unmatched-async"
        case unmatchedFlow = "unmatched-flow"
        case truncated = "truncated"
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
