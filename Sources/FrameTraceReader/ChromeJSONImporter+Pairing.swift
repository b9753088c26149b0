@_spi(FramescopeInternals) import FrameTrace

/// Stage three of reading, pairing: what opens in one event and closes in a later one (a thread's
/// `B` and `E`, nestable async `b`/`e`, flows `s`/`f`), kept open while the events are read and
/// settled once all are (``BeginEndPairer`` for `B`/`E`, as speedscope pairs them: in timestamp
/// order, names breaking ties).
extension ChromeJSONImporter {
    /// The pairing stage's state: the event builder records begins and ends here (`+Events`),
    /// and reading ends by settling them (below).
    struct Pairing {
        /// Per thread, in ``ThreadSlots`` order: its `B`/`E` records and what stays open.
        var threadStates: [ThreadState] = []
        /// Open nestable async spans: input index and position in `events` of each `b`.
        var openAsync: [AsyncKey: [(inputIndex: Int, position: Int)]] = [:]
        /// The arguments of `E` events, until they are merged into their begins.
        var pendingEndArguments: [[Argument]] = []
        /// Flow starts still waiting for their end, by id.
        var openFlows: [UInt64: OpenFlow] = [:]
    }

    /// The key that nestable async events pair on.
    struct AsyncKey: Hashable {
        var category: Symbol
        var id: UInt64
    }

    /// Flow starts still waiting for their end.
    struct OpenFlow {
        var count: Int
        var firstIndex: Int
    }

    /// What the reader tracks per thread while reading.
    struct ThreadState {
        var thread: ThreadKey
        var lastTimestamp: Int64 = .min
        /// The thread's `B` and `E` events in input order, paired when reading ends.
        var beginsAndEnds: [BeginEndPairer.Record] = []
        /// `B` events left open after pairing: their position in `events` and their input index.
        var open: [(position: Int, inputIndex: Int)] = []
    }
}

extension ChromeJSONImporter.Parser {
    /// Pairs every thread's `B` and `E` events (``BeginEndPairer``) and applies the outcome:
    /// each closed begin gets its duration and its end's arguments; an end that closes a begin
    /// of another name is kept and flagged; one that closes nothing is dropped and reported.
    mutating func pairBeginsAndEnds() {
        for slot in pairing.threadStates.indices where !pairing.threadStates[slot].beginsAndEnds.isEmpty {
            let (outcomes, open) = BeginEndPairer.pair(pairing.threadStates[slot].beginsAndEnds)
            pairing.threadStates[slot].beginsAndEnds = []
            let thread = pairing.threadStates[slot].thread
            for outcome in outcomes {
                switch outcome {
                case .unmatched(let end, let hadOpenBegins):
                    let endName = end.name
                    report(.unmatchedEnd, end.inputIndex) { p in
                        let name = endName.map { "end \(p.quoted(p.trace.symbols[$0]))" } ?? "end"
                        return
                            "\(name) on thread \(thread) has no open begin\(hadOpenBegins ? " of that name" : ""); it is dropped"
                    }
                case .closed(let begin, let end):
                    let position = begin.payload
                    let beginName = trace.events[position].name
                    if let endName = end.name, endName != beginName {
                        report(.mismatchedEndName, end.inputIndex) { p in
                            "end \(p.quoted(p.trace.symbols[endName])) closes begin \(p.quoted(p.trace.symbols[beginName])) (the innermost open one)"
                        }
                    }
                    trace.events[position].duration = max(
                        0, saturatingDifference(end.timestamp, trace.events[position].timestamp))
                    if end.payload >= 0 { mergeEndArguments(pairing.pendingEndArguments[end.payload], into: position) }
                }
            }
            pairing.threadStates[slot].open = open.map { (position: $0.payload, inputIndex: $0.inputIndex) }
        }
        pairing.pendingEndArguments = []
    }

    /// Merges an end's arguments into its begin's own (unshared) list; the end's value wins.
    private mutating func mergeEndArguments(_ endArguments: [Argument], into position: Int) {
        if trace.events[position].arguments == 0 {
            trace.events[position].arguments = store(endArguments)
            return
        }
        let list = Int(trace.events[position].arguments)
        for argument in endArguments {
            if let existing = trace.argumentLists[list].firstIndex(where: { $0.key == argument.key }) {
                trace.argumentLists[list][existing].value = argument.value
            } else {
                trace.argumentLists[list].append(argument)
            }
        }
    }

    /// A `B` never closed ends at the trace's last timestamp.
    mutating func closeUnclosedBegins() {
        var unclosed: [(position: Int, inputIndex: Int)] = []
        for state in pairing.threadStates { unclosed += state.open }
        unclosed.sort { $0.inputIndex < $1.inputIndex }
        for (position, inputIndex) in unclosed {
            let begin = trace.events[position]
            trace.events[position].duration = max(0, saturatingDifference(lastTimestamp, begin.timestamp))
            report(.unclosedBegin, inputIndex) { p in
                "begin \(p.quoted(p.trace.symbols[begin.name])) on thread \(begin.thread) is never closed; it is closed at the trace's end"
            }
        }
        for slot in pairing.threadStates.indices { pairing.threadStates[slot].open = [] }
    }

    mutating func reportUnpairedAsyncAndFlows() {
        var begins: [(inputIndex: Int, position: Int)] = []
        for open in pairing.openAsync.values { begins += open }
        begins.sort { $0.inputIndex < $1.inputIndex }
        for (index, position) in begins {
            report(.unmatchedAsync, index) { p in
                let begin = p.trace.events[position]
                return "async begin \(p.quoted(p.trace.symbols[begin.name])) (id \(p.hex(begin.id))) has no end"
            }
        }
        let flows = pairing.openFlows.sorted { $0.value.firstIndex < $1.value.firstIndex }
        for (id, open) in flows {
            report(.unmatchedFlow, open.firstIndex) { p in "flow (id \(p.hex(id))) starts but never ends" }
        }
    }
}
