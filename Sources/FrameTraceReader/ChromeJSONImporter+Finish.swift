@_spi(FramescopeInternals) import FrameTrace
extension ChromeJSONImporter.Parser {
    /// Closes what is still open, runs the checks that need every event, and assembles the trace.
    mutating func finish() -> Trace {
        pairBeginsAndEnds()
        closeUnclosedBegins()
        reportUnpairedAsyncAndFlows()
        reportPartialOverlaps()
        reportSummaries()
        nameSyntheticThreads()

        var trace = Trace()
        trace.events = events
        trace.symbols = symbols
        trace.argumentLists = argumentLists
        trace.keptArgumentKeys = argumentKeys?.keys
        trace.processes = processes
        for thread in threads.values { trace.setThread(thread) }
        trace.metadata = metadata
        trace.diagnostics = log.finished()
        return trace
    }

    /// A `B` never closed ends at the trace's last timestamp.
    private mutating func closeUnclosedBegins() {
        var unclosed: [(position: Int, inputIndex: Int)] = []
        for state in threadStates { unclosed += state.open }
        unclosed.sort { $0.inputIndex < $1.inputIndex }
        for (position, inputIndex) in unclosed {
            let begin = events[position]
            events[position].duration = max(0, saturatingDifference(lastTimestamp, begin.timestamp))
            report(.unclosedBegin, inputIndex) { p in "begin \(p.quoted(p.symbols[begin.name])) on thread \(begin.thread) is never closed; it is closed at the trace's end" }
        }
        for slot in threadStates.indices { threadStates[slot].open = [] }
    }

    private mutating func reportUnpairedAsyncAndFlows() {
        var begins: [(inputIndex: Int, position: Int)] = []
        for open in openAsync.values { begins += open }
        begins.sort { $0.inputIndex < $1.inputIndex }
        for (index, position) in begins {
            report(.unmatchedAsync, index) { p in
                let begin = p.events[position]
                return "async begin \(p.quoted(p.symbols[begin.name])) (id \(p.hex(begin.id))) has no end"
            }
        }
        let flows = openFlows.sorted { $0.value.firstIndex < $1.value.firstIndex }
        for (id, open) in flows {
            report(.unmatchedFlow, open.firstIndex) { p in "flow (id \(p.hex(id))) starts but never ends" }
        }
    }

    /// Finds `complete` events that start inside another on the same thread but end after it.
    ///
    /// Threads whose spans arrive in start order (longer first on equal starts) are checked in
    /// one pass with a stack of open ends; the others are sorted first. A thread is known to be
    /// out of order only where its first out-of-order span is, so the pass keeps its positions
    /// from there on, and a second walk, over the events before the last such place only,
    /// collects its earlier ones.
    private mutating func reportPartialOverlaps() {
        struct Track {
            var open = NestingStack()
            var lastStart = Int64.min
            var lastEnd = Int64.max
            /// The position of the thread's first span out of start order; -1 while in order.
            var unsortedFrom = -1
            /// In order: the positions of spans that do not nest. Out of order: every position
            /// from `unsortedFrom` on.
            var positions: [Int] = []
        }
        let events = self.events
        var slots = threadSlots  // every event's thread has its slot: this walk adds none
        var tracks = [Track](repeating: Track(), count: threadStates.count)
        var rewalkEnd = 0
        tracks.withUnsafeMutableBufferPointer { tracks in
            for position in events.indices where events[position].phase == .complete {
                let event = events[position]
                let slot = slots.slot(of: event.thread)
                if tracks[slot].unsortedFrom >= 0 {
                    tracks[slot].positions.append(position)
                    continue
                }
                let start = event.timestamp
                let end = event.endTimestamp
                if start < tracks[slot].lastStart || (start == tracks[slot].lastStart && end > tracks[slot].lastEnd) {
                    tracks[slot].unsortedFrom = position
                    tracks[slot].open.removeAll()
                    tracks[slot].positions = [position]
                    rewalkEnd = position
                    continue
                }
                tracks[slot].lastStart = start
                tracks[slot].lastEnd = end
                if !tracks[slot].open.push(start: start, end: end) { tracks[slot].positions.append(position) }
            }
        }
        var overlapping: [Int] = []
        if rewalkEnd > 0 {
            // The order the positions are gathered in does not matter: each thread's are sorted.
            for position in 0..<rewalkEnd where events[position].phase == .complete {
                let slot = slots.slot(of: events[position].thread)
                if position < tracks[slot].unsortedFrom { tracks[slot].positions.append(position) }
            }
        }
        for slot in tracks.indices {
            guard tracks[slot].unsortedFrom >= 0 else {
                overlapping += tracks[slot].positions
                continue
            }
            var positions = tracks[slot].positions
            tracks[slot].positions = []
            NestingStack.sort(&positions, of: events)
            var open = NestingStack()
            for position in positions where !open.push(start: events[position].timestamp, end: events[position].endTimestamp) {
                overlapping.append(position)
            }
        }
        overlapping.sort()
        for position in overlapping {
            let event = events[position]
            report(.partialOverlap, Int(inputIndexes[position])) { p in "\(p.quoted(p.symbols[event.name])) on thread \(event.thread) starts inside an enclosing span but ends after it" }
        }
        inputIndexes = []
    }

    /// One diagnostic per skipped phase, one for skipped arguments, one for out-of-order events,
    /// one for events the recorder dropped.
    private mutating func reportSummaries() {
        for phase in 0..<256 where skippedPhaseCounts[phase] > 0 {
            let count = skippedPhaseCounts[phase]
            let letter = String(decoding: [UInt8(phase)], as: UTF8.self)
            log.addSummary(
                .skippedPhase, skippedPhaseFirst[phase],
                "phase \"\(letter)\": \(count) event\(count == 1 ? "" : "s") skipped (not modelled)", count: count)
        }
        for (letter, skipped) in skippedOtherPhases.sorted(by: { $0.value.first < $1.value.first }) {
            log.addSummary(
                .skippedPhase, skipped.first,
                "phase \"\(letter)\": \(skipped.count) event\(skipped.count == 1 ? "" : "s") skipped (not modelled)",
                count: skipped.count)
        }
        if skippedArgumentCount > 0 {
            log.addSummary(
                .skippedArgument, skippedArgumentFirst,
                "\(skippedArgumentCount) argument value\(skippedArgumentCount == 1 ? "" : "s") nested more than \(TraceReader.keptNestingDepth) levels deep skipped",
                count: skippedArgumentCount)
        }
        if outOfOrderCount > 0 {
            let threadCount = outOfOrderThreads.count
            log.addSummary(
                .outOfOrder, outOfOrderFirst,
                "\(outOfOrderCount) begin/end event\(outOfOrderCount == 1 ? "" : "s") \(outOfOrderCount == 1 ? "is" : "are") earlier than the begin/end event before on the same thread (\(threadCount)\(threadCount >= 1000 ? "+" : "") thread\(threadCount == 1 ? "" : "s"))",
                count: outOfOrderCount)
        }
        let dropped = metadata.droppedEvents.values.reduce(0) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 }
        if dropped > 0 {
            log.addSummary(
                .droppedEvents, nil, "the recorder dropped \(dropped) event\(dropped == 1 ? "" : "s") because a buffer was full",
                count: Int(clamping: dropped))
        }
    }

    /// Threads and processes known only by a string id are named by that string.
    private mutating func nameSyntheticThreads() {
        guard !syntheticNames.isEmpty else { return }
        func syntheticName(_ id: Int64) -> String? {
            let index = id &- ChromeJSONImporter.EventTokenizer.syntheticBase
            guard index >= 0, index < Int64(syntheticNames.count) else { return nil }
            return syntheticNames[Int(index)]
        }
        var keys = Set(threadSlots.threads)
        keys.formUnion(threads.keys)
        for key in keys {
            if threads[key]?.name == nil, let name = syntheticName(key.threadID) {
                threads[key, default: TraceThread(key: key)].name = name
            }
            if processes[key.processID]?.name == nil, let name = syntheticName(key.processID) {
                processes[key.processID, default: TraceProcess(processID: key.processID)].name = name
            }
        }
    }

    // MARK: - framescope metadata

    /// Fills ``Trace/metadata`` from framescope's metadata object (the shape
    /// `ChromeTraceWriter.writeMetadata` writes).
    mutating func adoptFramescopeMetadata(_ value: JSONValue) {
        if let adopted = ChromeJSONImporter.framescopeMetadata(from: value) { metadata = adopted }
    }
}

extension ChromeJSONImporter {
    /// A name quoted for a diagnostic message, shortened past 80 characters; `(unnamed)` when
    /// empty. Both readers' diagnostics use it.
    static func quotedName(_ name: String) -> String {
        if name.isEmpty { return "(unnamed)" }
        return "\"" + (name.count > 80 ? String(name.prefix(77)) + "..." : name) + "\""
    }

    /// framescope's metadata object (the shape `ChromeTraceWriter.writeMetadata` writes) as
    /// values; `nil` when `value` is not an object. Shared by the JSON and Perfetto readers.
    static func framescopeMetadata(from value: JSONValue) -> TraceMetadata? {
        guard case .object = value else { return nil }
        var result = TraceMetadata()
        result.producer = value[FrameContract.Metadata.producer]?.stringValue
        result.producerVersion = value[FrameContract.Metadata.version]?.stringValue
        result.clock = value[FrameContract.Metadata.clock]?.stringValue.map(TraceClock.init(rawValue:))
        result.frameIntervalNanoseconds = value[FrameContract.Metadata.frameInterval]?.integerValue
        if let main = value[FrameContract.Metadata.mainThread], let pid = main["pid"]?.integerValue, let tid = main["tid"]?.integerValue {
            result.mainThread = ThreadKey(processID: pid, threadID: tid)
        }
        for entry in value[FrameContract.Metadata.droppedEvents]?["threads"]?.arrayValue ?? [] {
            guard let pid = entry["pid"]?.integerValue, let tid = entry["tid"]?.integerValue,
                let count = entry["count"]?.integerValue
            else { continue }
            let key = ThreadKey(processID: pid, threadID: tid)
            let (sum, overflow) = result.droppedEvents[key, default: 0].addingReportingOverflow(count)
            result.droppedEvents[key] = overflow ? .max : sum
        }
        for (key, member) in value[FrameContract.Metadata.extra]?.objectValue ?? [] {
            switch member {
            case .null: result.extra.append(Argument(key, .null))
            case .bool(let bool): result.extra.append(Argument(key, .bool(bool)))
            case .int(let integer): result.extra.append(Argument(key, .int(integer)))
            case .double(let number): result.extra.append(Argument(key, .double(number)))
            case .string(let string): result.extra.append(Argument(key, .string(string)))
            case .array, .object: continue
            }
        }
        return result
    }
}

extension ChromeJSONImporter {
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
}
