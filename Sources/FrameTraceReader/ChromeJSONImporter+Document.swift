import FrameJSON
import FrameSupport
import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stage two of reading, the document: walks either form of a trace (an array of events, or an
/// object with `traceEvents` and `metadata`), hands each element of the event array to the event
/// builder (`+EventBuilder`), and deals with an input that ends early and with memory.
extension ChromeJSONImporter.Parser {
    // MARK: - Document

    /// Why an input of `count` bytes that holds no JSON value (only white space, perhaps after a
    /// byte-order mark) is no trace. A line feed is also the first byte of a Perfetto packet, and
    /// a lone one is too short to be a packet: the message says both, so a Perfetto trace cut
    /// after one byte is not called empty.
    static func blankInputMessage(count: Int, first: UInt8?) -> String {
        switch (count, first) {
        case (0, _): return "the input is empty"
        case (1, UInt8(ascii: "\n")):
            return "the input is 1 byte, a line feed: no JSON value, and too short to hold one Perfetto packet"
        case (_, 0xEF?):
            return "the input is \(count) bytes with nothing after its byte-order mark but white space: no JSON value"
        case (_, UInt8(ascii: "\n")):
            return "the input is \(count) bytes of white space: no JSON value, nor a Perfetto trace"
        default: return "the input is \(count) byte\(count == 1 ? "" : "s") of white space: no JSON value"
        }
    }

    /// Reads the whole input: either form, then nothing but whitespace.
    mutating func parseDocument() throws(TraceReadError) {
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else {
            throw TraceReadError(
                .notJSON,
                Self.blankInputMessage(count: scanner.count, first: scanner.count > 0 ? scanner.base[0] : nil), at: 0)
        }
        switch scanner.current {
        case UInt8(ascii: "["):
            try readEventArray(isTopLevel: true)
        case UInt8(ascii: "{"):
            try readObjectForm()
        case UInt8(ascii: "\""):
            throw TraceReadError(
                .notATrace, "expected an array of trace events or an object with \"traceEvents\", found a string",
                at: scanner.position)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            throw TraceReadError(
                .notATrace, "expected an array of trace events or an object with \"traceEvents\", found a number",
                at: scanner.position)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = try scanner.scanLiteral()
            throw TraceReadError(
                .notATrace, "expected an array of trace events or an object with \"traceEvents\", found a literal",
                at: 0)
        default:
            throw TraceReadError(
                .notJSON, "the input is not JSON: it starts with \(TraceScanner.describe(scanner.current))",
                at: scanner.position)
        }
        guard !isTruncated else { return }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw scanner.unexpected(expecting: "the end of the input after the trace") }
    }

    /// Reads `{"traceEvents": [...], ...}`. Cut off after the events began, it loads what was
    /// complete with a ``TraceDiagnostic/Kind/truncated`` diagnostic; cut off before, it fails.
    private mutating func readObjectForm() throws(TraceReadError) {
        let start = scanner.position
        scanner.position += 1
        do throws(TraceReadError) {
            var next = try scanner.peekValue("a member name or '}'")
            if next != UInt8(ascii: "}") {
                while true {
                    guard next == UInt8(ascii: "\"") else {
                        throw scanner.unexpected(expecting: "a member name in quotes")
                    }
                    let key = try scanner.scanString()
                    try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
                    switch topLevelKey(key) {
                    case "traceEvents":
                        guard try scanner.peekValue("an array of events") == UInt8(ascii: "[") else {
                            throw TraceReadError(
                                .notATrace, "\"traceEvents\" must be an array of events", at: scanner.position)
                        }
                        try readEventArray(isTopLevel: false)
                        if isTruncated { return }
                    case "metadata":
                        try readTopLevelMetadata()
                    default:
                        try scanner.skipValue()  // systemTraceEvents, otherData, stackFrames, samples, ...
                    }
                    next = try scanner.peekValue("',' or '}' after a member")
                    if next == UInt8(ascii: ",") {
                        scanner.position += 1
                        next = try scanner.peekValue("a member name")
                        continue
                    }
                    guard next == UInt8(ascii: "}") else {
                        throw scanner.unexpected(expecting: "',' or '}' after a member")
                    }
                    break
                }
            }
            scanner.position += 1
        } catch {
            guard error.isEndOfInput, sawEventArray else { throw error }
            markTruncated(eventIndex: nil, "the input ends before the trace object is closed")
            return
        }
        guard sawEventArray else {
            throw TraceReadError(.notATrace, "the object has no \"traceEvents\" array", at: start)
        }
    }

    /// The name of a top-level member, decoded only when it is one the reader handles.
    private func topLevelKey(_ key: JSONStringToken) -> String {
        guard key.hasEscapes || key.length == 11 || key.length == 8 else { return "" }
        return scanner.string(key)
    }

    /// Reads an array of events starting at `[`. The top-level array may end without `]`
    /// (after whitespace or a trailing comma): that is legal and not diagnosed. An event cut off
    /// by the end of the input is dropped with a ``TraceDiagnostic/Kind/truncated``
    /// diagnostic.
    private mutating func readEventArray(isTopLevel: Bool) throws(TraceReadError) {
        sawEventArray = true
        scanner.position += 1
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { return endOfArray(isTopLevel: isTopLevel) }
        if scanner.current == UInt8(ascii: "]") {
            scanner.position += 1
            return
        }
        let ending = usesPipeline() ? readEventsPipelined() ?? readEvents() : readEvents()
        switch ending {
        case .closed: return
        case .endOfInput: endOfArray(isTopLevel: isTopLevel)
        case .truncated: markCutOff()
        case .failed(let error): throw error
        }
    }

    /// Reads the event array from its first element to its end on the calling thread.
    private mutating func readEvents() -> ChromeJSONImporter.ArrayEnding {
        while true {
            do throws(TraceReadError) {
                try readEvent()
            } catch {
                return error.isEndOfInput ? .truncated : .failed(error)
            }
            releaseReadInput()
            if let ending = tokenizer.skipSeparator() { return ending }
        }
    }

    /// Marks the trace truncated inside the element last counted (`eventIndex - 1`).
    private mutating func markCutOff() {
        let cut = eventIndex - 1
        markTruncated(
            eventIndex: cut,
            "the input ends inside event \(cut); the \(cut) event\(cut == 1 ? "" : "s") before it \(cut == 1 ? "was" : "were") read"
        )
    }

    private mutating func endOfArray(isTopLevel: Bool) {
        if !isTopLevel { markTruncated(eventIndex: nil, "the input ends before the \"traceEvents\" array is closed") }
        isTruncated = true
    }

    mutating func markTruncated(eventIndex: Int?, _ message: String) {
        if !isTruncated || trace.log.count(of: .truncated) == 0 { trace.log.add(.truncated, eventIndex, message) }
        isTruncated = true
    }

    /// Reads the object form's `metadata`: framescope's fills ``Trace/metadata``; others are
    /// validated and ignored.
    private mutating func readTopLevelMetadata() throws(TraceReadError) {
        scanner.skipWhitespace()
        let start = scanner.position
        try scanner.skipValue()
        guard let value = subdocument(from: start, to: scanner.position),
            value["producer"]?.stringValue == FramescopeVersion.producer
        else { return }
        adoptFramescopeMetadata(value)
    }

    /// Parses an already validated stretch of the input as a small document.
    func subdocument(from start: Int, to end: Int) -> JSONValue? {
        var sub = JSONScanner<JSONParseError>(UnsafeBufferPointer(start: scanner.base + start, count: end - start))
        return try? JSONValue.parseValue(&sub, maxDepth: TraceReader.keptNestingDepth)
    }

    // MARK: - Memory

    /// Hands pages already read back to the system, so a mapped file does not stay resident.
    @inline(__always)
    mutating func releaseReadInput() {
        if !hasReservedCapacity, eventIndex == 4096 { reserveCapacity() }
        readPages.release(before: scanner.position)
    }

    /// Reserves room for the events the rest of the input probably holds, judged from the
    /// density so far, so the event array grows once instead of doubling (and copying) again
    /// and again. Untouched capacity costs address space, not memory.
    ///
    /// The argument lists and each thread's `B`/`E` records are reserved in proportion to what
    /// the events so far held: growing them by doubling copied them and touched fresh memory at
    /// every step, a page fault per 4 KiB.
    private mutating func reserveCapacity() {
        hasReservedCapacity = true
        let bytesPerEvent = max(8, scanner.position / max(eventIndex, 1))
        let estimate = min(scanner.count / bytesPerEvent + scanner.count / bytesPerEvent / 8 + 1024, scanner.count / 8)
        guard estimate > trace.events.capacity else { return }
        trace.events.reserveCapacity(estimate)
        inputIndexes.reserveCapacity(estimate)
        trace.events.adviseHugePages()
        inputIndexes.adviseHugePages()
        // Each count so far is at most `eventIndex` + 1, and `scale` times `eventIndex` at most
        // `estimate`, so the products below cannot overflow. Each reservation stops at 4 Mi
        // elements (32 MB of list slots; 160 MB of records per thread, and the threads' records
        // together stay near the estimate's), so input whose first events mislead the estimate
        // reserves little beyond the event array; past that the arrays grow as before.
        let scale = estimate / max(eventIndex, 1) + 1
        let most = 1 << 22
        trace.argumentLists.reserveCapacity(min(trace.argumentLists.count * scale, most))
        for slot in pairing.threadStates.indices where !pairing.threadStates[slot].beginsAndEnds.isEmpty {
            pairing.threadStates[slot].beginsAndEnds.reserveCapacity(
                min(pairing.threadStates[slot].beginsAndEnds.count * scale, most))
        }
    }
}
