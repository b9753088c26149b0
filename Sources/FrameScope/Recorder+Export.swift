import CFrameScope
public import FrameTrace

/// What exports remember between calls: static names already read, flows with one end seen, and
/// the next id for async pairs. Guarded by the recorder's export lock, which also serialises
/// consumers of the threads' rings.
struct ExportState: Sendable {
    var staticNames: [UInt64: String] = [:]
    var pendingFlows: [UInt64: PendingFlow] = [:]
    var nextAsyncID: UInt64 = 1
}

/// One end of a flow whose other end has not been exported yet.
struct PendingFlow: Sendable {
    var name: String
    var category: String
    var thread: ThreadKey
    var timestamp: Int64
    var isStart: Bool
}

extension Recorder {
    /// Copies everything recorded so far into a trace, leaving it in the buffers.
    ///
    /// Safe while other threads record: each thread's records up to the moment its buffer is read
    /// are included whole, never torn. A flow appears only when both its ends are recorded.
    /// - Returns: The trace, with metadata (clock, frame interval, main thread, dropped events).
    /// - Complexity: O(*n*) in the recorded events.
    public func snapshot() -> Trace { collect(consume: false) }

    /// Moves everything recorded so far into a trace, freeing the buffers for more events.
    ///
    /// Events are handed out exactly once across drains: nothing counted twice, nothing lost.
    /// Use it to stream long recordings (see ``TraceStream``).
    /// - Returns: The drained events, with metadata.
    /// - Complexity: O(*n*) in the drained events.
    public func drain() -> Trace { collect(consume: true) }

    /// Writes a snapshot of the recording as a Chrome trace (object form) to `path`.
    /// - Parameter path: The file to create; `-` for standard output.
    /// - Throws: `FileError` when the file cannot be written.
    public func writeChromeJSON(to path: String) throws(FileError) {
        try snapshot().writeChromeJSON(toFile: path)
    }

    /// Writes a snapshot of the recording to `path` in a format: by default the one the path's
    /// ending chooses (`.pftrace` or `.perfetto-trace` for Perfetto's protobuf, Chrome JSON
    /// otherwise; see FrameTrace's `TraceFormat`).
    /// - Parameters:
    ///   - path: The file to create; `-` for standard output.
    ///   - format: The format to write, or `nil` to choose it from the path's ending.
    /// - Throws: `FileError` when the file cannot be written.
    public func writeTrace(to path: String, format: TraceFormat? = nil) throws(FileError) {
        try snapshot().write(toFile: path, format: format)
    }

    /// Adds a fact to the metadata of this recorder's traces, such as the scenario, strategy and
    /// seed of a run; setting a key again replaces its value.
    ///
    /// The facts are written in the order their keys were first set, beside the metadata the
    /// recorder writes itself (see ``traceMetadata``).
    ///
    /// ```swift
    /// recorder.annotate("scenario", .string("feed-scroll"))
    /// ```
    /// - Parameters:
    ///   - key: The metadata key.
    ///   - value: The value to write under `key`.
    public func annotate(_ key: String, _ value: JSONValue) {
        annotations.withLockAnnounced { list in
            if let index = list.firstIndex(where: { $0.key == key }) {
                list[index].value = value
            } else {
                list.append(Argument(key, value))
            }
        }
    }

    /// The metadata this recorder writes into its traces.
    public var traceMetadata: TraceMetadata {
        var extra = annotations.withLockAnnounced { $0 }
        let open = openIntervalCount
        if open > 0 { extra.append(Argument("open-intervals", .int(open))) }
        return TraceMetadata(
            producer: FramescopeVersion.producer, producerVersion: FramescopeVersion.current,
            clock: TraceClock(rawValue: clock.name),
            frameIntervalNanoseconds: frameRate?.intervalNanoseconds, mainThread: mainThreadKey,
            droppedEvents: droppedEventCounts, extra: extra)
    }

    private func collect(consume: Bool) -> Trace {
        exportState.withLockAnnounced { state in
            var working = state
            var builder = TraceAssembler(recorder: self)
            // Counter ticks become monotonic nanoseconds along a line through the first
            // calibration point and one taken now, after everything being exported was recorded.
            if clock.readsCounter { builder.conversion = CounterCalibration.refresh() }
            let threads = buffers.withLockAnnounced { $0.bySerial.values.sorted { $0.serial < $1.serial } }
            builder.mainSerial = mainSerial.load(ordering: .relaxed)
            var exited: [ThreadBuffer] = []
            for buffer in threads {
                // Read before the ring's tail: once the owner has exited, this drain takes its
                // last record, and the buffer can be handed back.
                if consume, fs_ring_exited(buffer.ring) { exited.append(buffer) }
                builder.add(buffer, consume: consume, state: &working)
            }
            if !exited.isEmpty {
                buffers.withLockAnnounced { buffers in
                    for buffer in exited { buffers.retire(buffer) }
                }
            }
            if consume {
                state = working
            } else {
                state.staticNames = working.staticNames
            }
            var trace = builder.trace
            // Records are written when spans end, so children come before their parents. Readers
            // expect each thread's events by start time, enclosing spans first.
            // Ties keep the order of recording (stable), which nested async slices that begin or
            // end at the same moment rely on: outer begin first, outer end last.
            let events = trace.events
            trace.events = events.indices
                .sorted {
                    (events[$0].timestamp, events[$1].duration, $0) < (events[$1].timestamp, events[$0].duration, $1)
                }
                .map { events[$0] }
            Self.encloseEqualSpans(&trace.events)
            trace.metadata = traceMetadata
            return trace
        }
    }
}

extension Recorder {
    /// Puts the enclosing span first among complete spans of one thread that start and end at
    /// the same moment, in `events` sorted by start, longer first, recording order on ties.
    ///
    /// On a manual clock that did not move between them, a frame and the one span inside it
    /// share both ends. Records are written when spans end, so the recording order has the inner
    /// one first, and a reader that nests ties in file order (framescope's analysis, Perfetto)
    /// would put the frame inside its own work. Within one thread the span recorded later ended
    /// later, so it encloses the others: each thread's complete spans in a run of equal start and
    /// duration are reversed, in the positions they hold. Other events keep their order.
    /// - Complexity: O(*n*); a run of ties costs O(*k* log *k*) more for its *k* events.
    static func encloseEqualSpans(_ events: inout [TraceEvent]) {
        var start = events.startIndex
        while start < events.endIndex {
            var end = start + 1
            while end < events.endIndex, events[end].timestamp == events[start].timestamp,
                events[end].duration == events[start].duration
            {
                end += 1
            }
            if end - start > 1 {
                var positionsByThread: [ThreadKey: [Int]] = [:]
                for index in start..<end where events[index].phase == .complete {
                    positionsByThread[events[index].thread, default: []].append(index)
                }
                for positions in positionsByThread.values where positions.count > 1 {
                    let reversed = positions.reversed().map { events[$0] }
                    for (position, event) in zip(positions, reversed) { events[position] = event }
                }
            }
            start = end
        }
    }
}

/// Turns one export's records into trace events.
private struct TraceAssembler {
    let recorder: Recorder
    // Both tables only grow. A record can name an entry added after these copies were taken (a
    // thread registered a category or interned a name, then recorded, while this export ran), so
    // they are read again when a record refers past their end.
    var categoryNames = CategoryRegistry.shared.allNames()
    var dynamicNames: [String]
    var trace = Trace()
    var nameSymbols: [UInt64: Symbol] = [:]
    var mainSerial: UInt64 = 1
    /// How recorded counter ticks become nanoseconds; `nil` when records hold nanoseconds.
    var conversion: TickConversion?

    init(recorder: Recorder) {
        self.recorder = recorder
        dynamicNames = recorder.dynamicNames.withLockAnnounced { $0.names }
        trace.processes[recorder.processID] = TraceProcess(
            processID: recorder.processID, name: recorder.configuration.processName)
    }

    mutating func add(_ buffer: ThreadBuffer, consume: Bool, state: inout ExportState) {
        let key = recorder.threadKey(serial: buffer.serial)
        trace.setThread(
            TraceThread(
                key: key, name: buffer.name.withLockAnnounced { $0 },
                sortIndex: buffer.serial == mainSerial ? 0 : Int64(buffer.serial)))
        let ring = buffer.ring
        let head = fs_ring_head(ring)
        let tail = fs_ring_tail_acquire(ring)
        guard head != tail else { return }
        let attachments: [UInt32: Attachment] = buffer.attachments.withLockAnnounced { attachments in
            var taken: [UInt32: Attachment] = [:]
            var cursor = fs_ring_cursor_at_head(ring)
            for _ in head..<tail {
                let index = fs_ring_cursor_next(&cursor).extra
                guard index != 0, let attachment = attachments[index] else { continue }
                taken[index] = attachment
                if consume { attachments[index] = nil }
            }
            return taken
        }
        trace.events.reserveCapacity(trace.events.count + Int(tail - head))
        var cursor = fs_ring_cursor_at_head(ring)
        for _ in head..<tail {
            let record = fs_ring_cursor_next(&cursor)
            let attachment = record.extra == 0 ? nil : attachments[record.extra]
            append(record, thread: key, attachment: attachment, state: &state)
        }
        if consume { fs_ring_release(ring, tail) }
    }

    private mutating func append(
        _ record: fs_record, thread: ThreadKey, attachment: Attachment?, state: inout ExportState
    ) {
        let kind = RecordKind(rawValue: record.meta & 0x7) ?? .instant
        var record = record
        if let conversion, record.meta & nanosecondsFlag == 0 {
            record.start = conversion.nanoseconds(ticks: record.start)
            // `end` is a time only for spans; counters and flows keep a value or an id there.
            if kind == .span || kind == .crossThreadSpan {
                record.end = max(record.start, conversion.nanoseconds(ticks: record.end))
            }
        }
        let categoryIndex = Int((record.meta >> 4) & 0xFFF)
        if categoryIndex >= categoryNames.count { categoryNames = CategoryRegistry.shared.allNames() }
        let category = trace.symbols.intern(categoryIndex < categoryNames.count ? categoryNames[categoryIndex] : "?")
        let name = symbol(forName: record.name, length: Int(record.meta >> 16), state: &state)
        let arguments = trace.addArguments(attachment?.arguments ?? [])
        switch kind {
        case .span:
            trace.events.append(
                TraceEvent(
                    phase: .complete, name: name, category: category, thread: thread, timestamp: record.start,
                    duration: record.end - record.start, arguments: arguments))
        case .crossThreadSpan:
            let id = state.nextAsyncID
            state.nextAsyncID += 1
            let beginThread = recorder.threadKey(serial: attachment?.beginSerial ?? 0)
            trace.events.append(
                TraceEvent(
                    phase: .asyncBegin, name: name, category: category, thread: beginThread, timestamp: record.start,
                    id: id, arguments: arguments))
            trace.events.append(
                TraceEvent(
                    phase: .asyncEnd, name: name, category: category, thread: thread, timestamp: record.end, id: id))
        case .instant:
            trace.events.append(
                TraceEvent(
                    phase: .instant, name: name, category: category, thread: thread, timestamp: record.start,
                    arguments: arguments))
        case .counter:
            let value = Double(bitPattern: UInt64(bitPattern: record.end))
            trace.events.append(
                TraceEvent(
                    phase: .counter, name: name, category: category, thread: thread, timestamp: record.start,
                    arguments: trace.addArguments([Argument("value", .double(value))])))
        case .timelineSlice:
            appendTimelineSlice(
                record, name: name, category: category, thread: thread, arguments: arguments, attachment: attachment,
                state: &state)
        case .flowStart, .flowEnd:
            appendFlowEnd(
                record, isStart: kind == .flowStart, name: name, category: category, thread: thread, state: &state)
        }
    }

    /// Emits a frame timeline slice as an async pair with an id of its own; an actual slice (one
    /// with a hitch cause) gets a slice named by its outcome inside it, over the same time, so the
    /// track keeps the outer slice's name (viewers name an async track after its first slice).
    private mutating func appendTimelineSlice(
        _ record: fs_record, name: Symbol, category: Symbol, thread: ThreadKey, arguments: UInt32,
        attachment: Attachment?,
        state: inout ExportState
    ) {
        let id = state.nextAsyncID
        state.nextAsyncID += 1
        let outcome = attachment?.timelineCause.map {
            trace.symbols.intern($0 == .none ? "on time" : "late: \($0.identifier)")
        }
        trace.events.append(
            TraceEvent(
                phase: .asyncBegin, name: name, category: category, thread: thread, timestamp: record.start, id: id,
                arguments: arguments))
        if let outcome {
            trace.events.append(
                TraceEvent(
                    phase: .asyncBegin, name: outcome, category: category, thread: thread, timestamp: record.start,
                    id: id, arguments: arguments))
            trace.events.append(
                TraceEvent(
                    phase: .asyncEnd, name: outcome, category: category, thread: thread, timestamp: record.end, id: id))
        }
        trace.events.append(
            TraceEvent(phase: .asyncEnd, name: name, category: category, thread: thread, timestamp: record.end, id: id))
    }

    /// Emits a flow's two events once both ends are known; holds the first end until then.
    private mutating func appendFlowEnd(
        _ record: fs_record, isStart: Bool, name: Symbol, category: Symbol, thread: ThreadKey, state: inout ExportState
    ) {
        let id = UInt64(bitPattern: record.end)
        guard let other = state.pendingFlows.removeValue(forKey: id), other.isStart != isStart else {
            state.pendingFlows[id] = PendingFlow(
                name: trace.symbols[name], category: trace.symbols[category], thread: thread, timestamp: record.start,
                isStart: isStart)
            return
        }
        let here = (thread: thread, timestamp: record.start)
        let start = isStart ? here : (thread: other.thread, timestamp: other.timestamp)
        let finish = isStart ? (thread: other.thread, timestamp: other.timestamp) : here
        trace.events.append(
            TraceEvent(
                phase: .flowStart, name: name, category: category, thread: start.thread, timestamp: start.timestamp,
                id: id))
        trace.events.append(
            TraceEvent(
                phase: .flowEnd, name: name, category: category, thread: finish.thread, timestamp: finish.timestamp,
                id: id,
                bindingPoint: .enclosing))
    }

    private mutating func symbol(forName bits: UInt64, length: Int, state: inout ExportState) -> Symbol {
        if let symbol = nameSymbols[bits] { return symbol }
        let string: String
        if bits & dynamicNameTag != 0 {
            let index = Int(bits & ~dynamicNameTag)
            if index >= dynamicNames.count { dynamicNames = recorder.dynamicNames.withLockAnnounced { $0.names } }
            string = index < dynamicNames.count ? dynamicNames[index] : "?"
        } else if let cached = state.staticNames[bits] {
            string = cached
        } else {
            let pointer = UnsafePointer<UInt8>(bitPattern: UInt(bits))
            string = String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
            state.staticNames[bits] = string
        }
        let symbol = trace.symbols.intern(string)
        nameSymbols[bits] = symbol
        return symbol
    }
}
