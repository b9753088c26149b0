import FrameTrace

/// Diagnostics as they are found, at most ``listLimit`` listed per kind.
struct DiagnosticLog {
    /// How many diagnostics of one kind are listed individually; the rest become one summary.
    static let listLimit = 100

    private var listed: [TraceDiagnostic] = []
    private var counts: [TraceDiagnostic.Kind: Int] = [:]

    /// How many diagnostics of `kind` were added (listed or not).
    func count(of kind: TraceDiagnostic.Kind) -> Int { counts[kind, default: 0] }

    /// Whether the next diagnostic of `kind` will be listed (so its message is worth making).
    func lists(_ kind: TraceDiagnostic.Kind) -> Bool { counts[kind, default: 0] < DiagnosticLog.listLimit }

    /// Adds one occurrence, listed while fewer than ``listLimit`` of its kind are.
    mutating func add(_ kind: TraceDiagnostic.Kind, _ eventIndex: Int?, _ message: String) {
        let count = counts[kind, default: 0] + 1
        counts[kind] = count
        if count <= DiagnosticLog.listLimit { listed.append(TraceDiagnostic(kind, eventIndex: eventIndex, message)) }
    }

    /// Adds a summary that stands for `count` occurrences; always listed.
    mutating func addSummary(_ kind: TraceDiagnostic.Kind, _ eventIndex: Int?, _ message: String, count: Int) {
        listed.append(TraceDiagnostic(kind, eventIndex: eventIndex, message, count: count))
    }

    /// The listed diagnostics in input order (whole-trace ones last), then one "more" line per
    /// kind that had more than ``listLimit``.
    func finished() -> [TraceDiagnostic] {
        var result = listed.enumerated().sorted { a, b in
            let ia = a.element.eventIndex ?? Int.max
            let ib = b.element.eventIndex ?? Int.max
            return ia != ib ? ia < ib : a.offset < b.offset
        }.map(\.element)
        for kind in TraceDiagnostic.Kind.allCases {
            let count = counts[kind, default: 0]
            guard count > DiagnosticLog.listLimit else { continue }
            let more = count - DiagnosticLog.listLimit
            result.append(
                TraceDiagnostic(
                    kind, eventIndex: nil, "\(more) more \(kind.rawValue) diagnostics not listed (\(count) in total)",
                    count: more))
        }
        return result
    }
}
