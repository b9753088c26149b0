/// Writes traces as Chrome Trace Event JSON, in pieces, so a long recording can be written as it is
/// drained.
///
/// One writer serves both forms of the format:
/// - **Object form** (``Form/object``): `{"traceEvents":[...],"displayTimeUnit":"ms","metadata":{...},"otherData":{...}}`.
///   Use it for a finished recording: it carries framescope's metadata (producer, clock, frame
///   interval, main thread, dropped-event counts) where tools look for it.
/// - **Array form** (``Form/array``): `[{...},{...}`. Use it for streaming to a file while the
///   program runs: every chunk is appended as it is drained, so a process killed mid-run leaves a
///   file that viewers still load (the format allows the closing `]` to be missing). The metadata
///   travels in a `framescope` `M` event written when the stream finishes.
///
/// The writer guarantees what viewers rely on: metadata events (`process_name`, `thread_name`,
/// `thread_sort_index`) before a thread's first event; timestamps rebased to the trace start and
/// written exactly from integer nanoseconds with at most three decimals; every string escaped;
/// no two `X` events on one thread that partially overlap — such a span is written as an async
/// `b`/`e` pair instead (the check runs within each chunk passed to ``append(_:)``); counter
/// values that JSON cannot hold as numbers (NaN, infinities) left out, and a counter sample with no
/// number left skipped.
///
/// ```swift
/// var writer = ChromeTraceWriter(form: .object, baseTimestamp: trace.events.first?.timestamp ?? 0)
/// var bytes = writer.begin()
/// bytes += writer.append(trace)
/// bytes += writer.finish(metadata: trace.metadata)
/// ```
public struct ChromeTraceWriter: Sendable {
    /// The two legal top-level shapes of a Chrome trace.
    public enum Form: Sendable {
        /// `{"traceEvents":[...],...}`: events and the producer's metadata in one object.
        case object
        /// `[{...},{...}`: the bare event array, which may be cut off anywhere after an event.
        case array
    }

    /// The shape being written.
    public let form: Form
    /// Nanoseconds subtracted from every timestamp so the trace starts near zero.
    public let baseTimestamp: Int64
    private var describedThreads: Set<ThreadKey> = []
    private var describedProcesses: Set<Int64> = []
    private var wroteEvent = false
    private var nextAsyncID: UInt64 = 1 << 48

    /// Creates a writer.
    /// - Parameters:
    ///   - form: Object form for finished traces, array form for streaming.
    ///   - baseTimestamp: The timestamp, in nanoseconds, that becomes `ts` 0. Events before it
    ///     are clamped to 0.
    public init(form: Form, baseTimestamp: Int64) {
        self.form = form
        self.baseTimestamp = baseTimestamp
    }

    /// The bytes that open the document.
    /// - Returns: `{"traceEvents":[` for the object form, `[` for the array form, and a newline.
    public func begin() -> [UInt8] {
        Array((form == .object ? "{\"traceEvents\":[\n" : "[\n").utf8)
    }

    /// Returns the bytes for a chunk of events, preceded by metadata events for threads and
    /// processes not described before.
    /// - Parameter trace: The chunk. Its thread and process tables describe its threads.
    /// - Returns: The chunk's UTF-8 bytes, each event preceded by a separator when one is due;
    ///   empty when the chunk writes nothing.
    /// - Complexity: O(*n* log *n*) in the chunk's `complete` events, for the nesting check.
    public mutating func append(_ trace: Trace) -> [UInt8] {
        var out = JSONOutput(capacity: trace.events.count * 120 + 256)
        var escaped = EscapedSymbols(count: trace.symbols.count)
        writeDescriptions(of: trace, into: &out)
        let overlapping = ChromeTraceWriter.partiallyOverlappingSpans(in: trace.events)
        for (index, event) in trace.events.enumerated() {
            if event.phase == .counter, event.arguments != 0,
                !trace.argumentLists[Int(event.arguments)].contains(where: {
                    ChromeTraceWriter.isCounterValue($0.value)
                })
            {
                continue  // every sample is NaN, infinite or not a number: nothing a viewer can plot
            }
            if overlapping.contains(index) {
                let id = nextAsyncID
                nextAsyncID += 1
                var begin = event
                begin.phase = .asyncBegin
                begin.id = id
                begin.duration = 0
                var end = begin
                end.phase = .asyncEnd
                end.timestamp = event.endTimestamp
                end.arguments = 0
                write(begin, of: trace, escaped: &escaped, into: &out)
                write(end, of: trace, escaped: &escaped, into: &out)
            } else {
                write(event, of: trace, escaped: &escaped, into: &out)
            }
        }
        return out.bytes
    }

    /// The bytes that close the document, carrying the producer's metadata.
    /// - Parameters:
    ///   - metadata: What to record about the trace; dropped-event counts belong here.
    ///   - closeArray: For the array form, whether to write the closing `]`. The object form
    ///     always closes.
    /// - Returns: For the object form, the end of the event array and the `metadata` and
    ///   `otherData` objects; for the array form, a `framescope` metadata event (unless `metadata`
    ///   is empty) and the `]` if asked for.
    public mutating func finish(metadata: TraceMetadata, closeArray: Bool = true) -> [UInt8] {
        var out = JSONOutput(capacity: 512)
        switch form {
        case .object:
            out.append("\n],\"displayTimeUnit\":\"ms\",\"metadata\":")
            ChromeTraceWriter.writeMetadata(metadata, into: &out)
            out.append(",\"otherData\":{\"producer\":")
            out.append(string: "\(metadata.producer ?? "unknown") \(metadata.producerVersion ?? "")")
            for argument in metadata.extra {
                out.append(",")
                out.append(string: argument.key)
                out.append(":")
                out.append(value: argument.value)
            }
            out.append("}}\n")
        case .array:
            if !metadata.isEmpty {
                separator(into: &out)
                out.append("{\"ph\":\"M\",\"name\":\"framescope\",\"pid\":")
                out.append(integer: metadata.mainThread?.processID ?? 0)
                out.append(",\"tid\":0,\"args\":")
                ChromeTraceWriter.writeMetadata(metadata, into: &out)
                out.append("}")
            }
            if closeArray { out.append("\n]\n") }
        }
        return out.bytes
    }

    /// Writes a whole trace in one document.
    ///
    /// Timestamps are rebased so the earliest event that is not metadata is at `ts` 0.
    /// - Parameters:
    ///   - trace: The trace to write.
    ///   - form: The document's shape; the object form by default.
    /// - Returns: The UTF-8 bytes of the document.
    public static func document(for trace: Trace, form: Form = .object) -> [UInt8] {
        document(for: trace, form: form, baseTimestamp: trace.earliestTimestamp ?? 0)
    }

    /// Writes a whole trace in one document, its times less `baseTimestamp`.
    /// - Parameters:
    ///   - trace: The trace to write.
    ///   - form: The document's shape.
    ///   - baseTimestamp: The time that becomes `ts` 0, in nanoseconds; 0 keeps times as they are.
    /// - Returns: The UTF-8 bytes of the document.
    public static func document(for trace: Trace, form: Form, baseTimestamp: Int64) -> [UInt8] {
        var writer = ChromeTraceWriter(form: form, baseTimestamp: baseTimestamp)
        var bytes = writer.begin()
        bytes += writer.append(trace)
        bytes += writer.finish(metadata: trace.metadata)
        return bytes
    }

    // MARK: - Pieces

    private mutating func separator(into out: inout JSONOutput) {
        if wroteEvent { out.append(",\n") }
        wroteEvent = true
    }

    private mutating func writeDescriptions(of trace: Trace, into out: inout JSONOutput) {
        var processIDs = Set(trace.processes.keys)
        for event in trace.events { processIDs.insert(event.thread.processID) }
        for thread in trace.threads.keys { processIDs.insert(thread.processID) }
        for pid in processIDs.sorted() where !describedProcesses.contains(pid) {
            describedProcesses.insert(pid)
            guard let process = trace.processes[pid] else { continue }
            if let name = process.name {
                separator(into: &out)
                out.append("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":")
                out.append(integer: pid)
                out.append(",\"tid\":0,\"args\":{\"name\":")
                out.append(string: name)
                out.append("}}")
            }
            if let sortIndex = process.sortIndex {
                separator(into: &out)
                out.append("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":")
                out.append(integer: pid)
                out.append(",\"tid\":0,\"args\":{\"sort_index\":")
                out.append(integer: sortIndex)
                out.append("}}")
            }
        }
        for thread in trace.threads.values.sorted(by: { $0.key < $1.key }) where !describedThreads.contains(thread.key)
        {
            describedThreads.insert(thread.key)
            if let name = thread.name {
                separator(into: &out)
                writeThreadMetadataHead("thread_name", thread.key, into: &out)
                out.append("\"name\":")
                out.append(string: name)
                out.append("}}")
            }
            if let sortIndex = thread.sortIndex {
                separator(into: &out)
                writeThreadMetadataHead("thread_sort_index", thread.key, into: &out)
                out.append("\"sort_index\":")
                out.append(integer: sortIndex)
                out.append("}}")
            }
        }
    }

    private func writeThreadMetadataHead(_ name: StaticString, _ key: ThreadKey, into out: inout JSONOutput) {
        out.append("{\"ph\":\"M\",\"name\":\"")
        out.append(name)
        out.append("\",\"pid\":")
        out.append(integer: key.processID)
        out.append(",\"tid\":")
        out.append(integer: key.threadID)
        out.append(",\"args\":{")
    }

    private mutating func write(
        _ event: TraceEvent, of trace: Trace, escaped: inout EscapedSymbols, into out: inout JSONOutput
    ) {
        separator(into: &out)
        out.append("{\"ph\":\"")
        out.append(event.phase.rawValue)
        out.append("\",\"name\":\"")
        escaped.append(event.name, of: trace.symbols, into: &out)
        if event.category != .empty {
            out.append("\",\"cat\":\"")
            escaped.append(event.category, of: trace.symbols, into: &out)
        }
        out.append("\",\"pid\":")
        out.append(integer: event.thread.processID)
        out.append(",\"tid\":")
        out.append(integer: event.thread.threadID)
        out.append(",\"ts\":")
        out.append(microsecondsFromNanoseconds: max(0, event.timestamp &- baseTimestamp))
        switch event.phase {
        case .complete:
            out.append(",\"dur\":")
            out.append(microsecondsFromNanoseconds: max(0, event.duration))
        case .asyncBegin, .asyncInstant, .asyncEnd, .flowStart, .flowStep, .flowEnd:
            out.append(",\"id\":")
            out.append(unsigned: event.id)
            if event.bindingPoint == .enclosing { out.append(",\"bp\":\"e\"") }
            if event.bindingPoint == .next { out.append(",\"bp\":\"n\"") }
        case .instant:
            switch event.scope {
            case .thread: out.append(",\"s\":\"t\"")
            case .process: out.append(",\"s\":\"p\"")
            case .global: out.append(",\"s\":\"g\"")
            }
        case .begin, .end, .counter, .metadata:
            break
        }
        if event.phase == .counter, event.arguments != 0 {
            // Counter values must be numbers; JSON has none for NaN or infinity.
            out.append(",\"args\":")
            out.append(
                arguments: trace.argumentLists[Int(event.arguments)].filter {
                    ChromeTraceWriter.isCounterValue($0.value)
                })
        } else if event.arguments != 0 {
            out.append(",\"args\":")
            out.append(arguments: trace.argumentLists[Int(event.arguments)])
        } else if event.phase == .counter {
            out.append(",\"args\":{\"value\":0}")
        }
        out.append("}")
    }

    /// Whether a counter argument is a number a viewer can plot: an integer or a finite double.
    static func isCounterValue(_ value: JSONValue) -> Bool {
        switch value {
        case .int: true
        case .double(let double): double.isFinite
        case .string, .bool, .null, .array, .object: false
        }
    }

    static func writeMetadata(_ metadata: TraceMetadata, into out: inout JSONOutput) {
        func key(_ name: String, first: Bool = false) {
            if !first { out.append(",") }
            out.append(string: name)
            out.append(":")
        }
        out.append("{")
        key(FrameContract.Metadata.producer, first: true)
        out.append(string: metadata.producer ?? "unknown")
        if let version = metadata.producerVersion {
            key(FrameContract.Metadata.version)
            out.append(string: version)
        }
        if let clock = metadata.clock {
            key(FrameContract.Metadata.clock)
            out.append(string: clock.rawValue)
        }
        if let interval = metadata.frameIntervalNanoseconds {
            key(FrameContract.Metadata.frameInterval)
            out.append(integer: interval)
        }
        if let main = metadata.mainThread {
            key(FrameContract.Metadata.mainThread)
            out.append("{\"pid\":")
            out.append(integer: main.processID)
            out.append(",\"tid\":")
            out.append(integer: main.threadID)
            out.append("}")
        }
        key(FrameContract.Metadata.droppedEvents)
        out.append("{\"total\":")
        out.append(integer: metadata.totalDroppedEvents)
        out.append(",\"threads\":[")
        for (index, (key, count)) in metadata.droppedEvents.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out.append(",") }
            out.append("{\"pid\":")
            out.append(integer: key.processID)
            out.append(",\"tid\":")
            out.append(integer: key.threadID)
            out.append(",\"count\":")
            out.append(integer: count)
            out.append("}")
        }
        out.append("]}")
        if !metadata.extra.isEmpty {
            key(FrameContract.Metadata.extra)
            out.append(arguments: metadata.extra)
        }
        out.append("}")
    }

    /// Indexes of `complete` events that partially overlap an enclosing span on their thread.
    ///
    /// Spans are visited per thread in order of start (longer first on ties) against a stack of
    /// open spans; one that starts inside the top span but ends after it cannot nest.
    static func partiallyOverlappingSpans(in events: [TraceEvent]) -> Set<Int> {
        var byThread: [ThreadKey: [Int]] = [:]
        for (index, event) in events.enumerated() where event.phase == .complete {
            byThread[event.thread, default: []].append(index)
        }
        var result: Set<Int> = []
        for (_, var indexes) in byThread {
            NestingStack.sort(&indexes, of: events)
            var open = NestingStack()
            for index in indexes where !open.push(start: events[index].timestamp, end: events[index].endTimestamp) {
                result.insert(index)
            }
        }
        return result
    }
}

/// Escaped UTF-8 of each symbol of one trace, made the first time the symbol is written.
private struct EscapedSymbols {
    private var cache: [[UInt8]?]

    init(count: Int) { cache = Array(repeating: nil, count: count) }

    mutating func append(_ symbol: Symbol, of table: SymbolTable, into out: inout JSONOutput) {
        let index = Int(symbol.rawValue)
        if let bytes = cache[index] {
            out.append(bytes: bytes)
            return
        }
        var bytes: [UInt8] = []
        JSONOutput.escape(table[symbol], into: &bytes)
        cache[index] = bytes
        out.append(bytes: bytes)
    }
}

extension Trace {
    /// The trace as one Chrome Trace Event JSON document (object form by default).
    ///
    /// Timestamps are rebased so the earliest event is at `ts` 0.
    /// - Parameter form: `.object` for a complete document with metadata, `.array` for the bare
    ///   event array.
    /// - Returns: UTF-8 bytes.
    public func chromeJSON(form: ChromeTraceWriter.Form = .object) -> [UInt8] {
        ChromeTraceWriter.document(for: self, form: form)
    }
}
