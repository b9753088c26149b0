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

        return trace.finished(keptArgumentKeys: argumentKeys?.keys)
    }

    /// Finds `complete` events that start inside another on the same thread but end after it.
    ///
    /// Threads whose spans arrive in start order (longer first on equal starts) are checked in
    /// one pass with a stack of open ends; the others are sorted first. A thread is known to be
    /// out of order only where its first out-of-order span is, so the pass keeps its positions
    /// from there on, and a second walk, over the events before the last such place only,
    /// collects its earlier ones.
    private mutating func reportPartialOverlaps() {
        let events = trace.events
        var slots = threadSlots  // every event's thread has its slot: this walk adds none
        var (tracks, rewalkEnd) = Self.walkSpans(events, slots: &slots, threadCount: pairing.threadStates.count)
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
            for position in positions
            where !open.push(start: events[position].timestamp, end: events[position].endTimestamp) {
                overlapping.append(position)
            }
        }
        overlapping.sort()
        for position in overlapping {
            let event = events[position]
            report(.partialOverlap, Int(inputIndexes[position])) { p in
                "\(p.quoted(p.trace.symbols[event.name])) on thread \(event.thread) starts inside an enclosing span but ends after it"
            }
        }
        inputIndexes = []
    }

    /// One thread's spans as ``reportPartialOverlaps()`` walks them.
    private struct OverlapTrack {
        var open = NestingStack()
        var lastStart = Int64.min
        var lastEnd = Int64.max
        /// The position of the thread's first span out of start order; -1 while in order.
        var unsortedFrom = -1
        /// In order: the positions of spans that do not nest. Out of order: every position
        /// from `unsortedFrom` on.
        var positions: [Int] = []
    }

    /// The one pass over every `complete` event, per thread slot; returns each thread's track and
    /// the position of the last span found out of start order (0 for none), before which a
    /// second walk collects the earlier positions of threads out of order.
    private static func walkSpans(_ events: [TraceEvent], slots: inout ThreadSlots, threadCount: Int) -> (
        [OverlapTrack], Int
    ) {
        var tracks = [OverlapTrack](repeating: OverlapTrack(), count: threadCount)
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
        return (tracks, rewalkEnd)
    }

    /// One diagnostic per skipped phase, one for skipped arguments, one for out-of-order events,
    /// one for events the recorder dropped.
    private mutating func reportSummaries() {
        skipped.report(into: &trace.log)
        let dropped = trace.metadata.droppedEvents.values.reduce(0) {
            $0.addingReportingOverflow($1).overflow ? .max : $0 + $1
        }
        if dropped > 0 {
            trace.log.addSummary(
                .droppedEvents, nil,
                "the recorder dropped \(dropped) event\(dropped == 1 ? "" : "s") because a buffer was full",
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
        keys.formUnion(trace.threads.keys)
        for key in keys {
            if trace.threads[key]?.name == nil, let name = syntheticName(key.threadID) {
                trace.threads[key, default: TraceThread(key: key)].name = name
            }
            if trace.processes[key.processID]?.name == nil, let name = syntheticName(key.processID) {
                trace.processes[key.processID, default: TraceProcess(processID: key.processID)].name = name
            }
        }
    }

    // MARK: - framescope metadata

    /// Fills ``Trace/metadata`` from framescope's metadata object (the shape
    /// `ChromeTraceWriter.writeMetadata` writes).
    mutating func adoptFramescopeMetadata(_ value: JSONValue) {
        if let adopted = TraceAssembly.framescopeMetadata(from: value) { trace.metadata = adopted }
    }
}
