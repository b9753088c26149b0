package import FrameTrace

/// Stage three of reading: pairs one thread's `B` and `E` events as their producer meant.
///
/// The event builder records each `B` and `E` as a ``Record`` while it reads (a `B` is already a
/// complete event in the trace, at `payload`); once every event is read, ``pair(_:)`` matches them
/// as speedscope's importer does: in timestamp order (file order where timestamps tie), each `E`
/// closes the innermost open `B`; among `E`s with the same timestamp, the one named like the
/// innermost `B` goes first. So `B A@0, B B@5, E A@10, E B@7` reads as A = [0, 10], B = [5, 7].
/// An `E` whose name matches no open `B` is unmatched; one that closes a `B` of another name
/// closes it all the same (the caller flags it). The pairing is a pure function of the records,
/// so the reader applies its outcomes — durations, merged arguments, diagnostics — in one place.
package struct BeginEndPairer {
    /// One `B` or `E` event, as the pairing needs it.
    package struct Record {
        package var timestamp: Int64
        package var inputIndex: Int
        /// The name; `nil` for an `E` without one.
        package var name: Symbol?
        package var isEnd: Bool
        /// For a `B`, its position in the trace's events; for an `E`, what the caller attached
        /// (the reader: its arguments' index, or -1 for none).
        package var payload: Int

        package init(timestamp: Int64, inputIndex: Int, name: Symbol?, isEnd: Bool, payload: Int) {
            self.timestamp = timestamp
            self.inputIndex = inputIndex
            self.name = name
            self.isEnd = isEnd
            self.payload = payload
        }
    }

    /// What became of one `E`, in the order the pairing met them.
    package enum Outcome {
        /// `end` closed `begin`, the innermost open `B` (perhaps of another name).
        case closed(begin: Record, end: Record)
        /// `end` closed nothing: no `B` was open, or none of its name.
        case unmatched(end: Record, hadOpenBegins: Bool)
    }

    /// Pairs one thread's records, given in input order.
    /// - Returns: Every `E`'s outcome, and the `B`s left open, outermost first.
    /// - Complexity: O(*n* log *n*) when the records are out of timestamp order, O(*n*) otherwise,
    ///   plus the scan for a named begin among the open ones.
    package static func pair(_ records: [Record]) -> (outcomes: [Outcome], open: [Record]) {
        var records = records
        if zip(records, records.dropFirst()).contains(where: { $0.timestamp > $1.timestamp }) {
            records = records.enumerated().sorted {
                ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
            }.map(\.element)
        }
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(records.reduce(0) { $0 + ($1.isEnd ? 1 : 0) })  // one per end
        var open: [Record] = []
        var next = 0
        while next < records.count {
            guard records[next].isEnd else {
                open.append(records[next])
                next += 1
                continue
            }
            // The run of ends at this timestamp, matched to the open begins innermost first.
            var run = next
            while run < records.count, records[run].isEnd, records[run].timestamp == records[next].timestamp {
                run += 1
            }
            var ends = Array(records[next..<run])
            next = run
            while !ends.isEmpty {
                var chosen = 0
                if let top = open.last, let named = ends.firstIndex(where: { $0.name == top.name }) { chosen = named }
                let end = ends.remove(at: chosen)
                guard let top = open.last, end.name.map({ name in open.contains { $0.name == name } }) ?? true else {
                    outcomes.append(.unmatched(end: end, hadOpenBegins: !open.isEmpty))
                    continue
                }
                open.removeLast()
                outcomes.append(.closed(begin: top, end: end))
            }
        }
        return (outcomes, open)
    }
}
