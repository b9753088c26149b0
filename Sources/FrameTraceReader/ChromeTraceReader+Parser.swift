import FrameTrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ChromeTraceReader {
    /// The state of one read: the scanner, the trace being built, and what pairs events up.
    ///
    /// This file walks the document; `+Events` turns each event object into trace values;
    /// `+Finish` closes what is still open and assembles the ``Trace``.
    struct Parser {
        var scanner: JSONScanner
        /// Whether the input is a private file mapping whose read pages may be dropped.
        let releasesInput: Bool
        var releasedUpTo = 0
        var hasReservedCapacity = false

        // The trace being built.
        var events: [TraceEvent] = []
        /// The input index of each event in `events`, for diagnostics found after reading.
        var inputIndexes: [UInt32] = []
        var symbols = SymbolTable()
        var argumentLists: [[Argument]] = [[]]
        var threads: [ThreadKey: TraceThread] = [:]
        var processes: [Int64: TraceProcess] = [:]
        var metadata = TraceMetadata()
        var log = DiagnosticLog()

        // Interning without making a String per occurrence.
        var symbolCache = JSONStringInterner()
        var argumentCache = ArgumentCache()
        var stringCache = JSONStringInterner()
        var cachedStrings: [String] = []
        var syntheticIDs = JSONStringInterner()
        var syntheticNames: [String] = []

        // The event being read.
        var event = RawEvent()
        var arguments: [ScratchArgument] = []
        var scratchBytes: [UInt8] = []

        // State across events.
        var eventIndex = 0
        var threadSlots: [ThreadKey: Int] = [:]
        var threadStates: [ThreadState] = []
        var lastThreadKey = ThreadKey(processID: .min, threadID: .min)
        var lastThreadSlot = -1
        /// The latest end of any timed event: where unclosed `B` events are closed.
        var lastTimestamp: Int64 = .min
        /// Open nestable async spans: input index and position in `events` of each `b`.
        var openAsync: [AsyncKey: [(inputIndex: Int, position: Int)]] = [:]
        /// The arguments of `E` events, until they are merged into their begins.
        var pendingEndArguments: [[Argument]] = []
        var openFlows: [UInt64: OpenFlow] = [:]
        var skippedPhaseCounts = [Int](repeating: 0, count: 256)
        var skippedPhaseFirst = [Int](repeating: -1, count: 256)
        var skippedOtherPhases: [String: (count: Int, first: Int)] = [:]
        var outOfOrderCount = 0
        var outOfOrderFirst = -1
        var outOfOrderThreads: Set<ThreadKey> = []
        var skippedArgumentCount = 0
        var skippedArgumentFirst = -1
        var sawEventArray = false
        var isTruncated = false

        init(_ input: UnsafeBufferPointer<UInt8>, releasesInput: Bool) {
            scanner = JSONScanner(input)
            self.releasesInput = releasesInput
        }

        // MARK: - Document

        /// Reads the whole input: either form, then nothing but whitespace.
        mutating func parseDocument() throws(TraceReadError) {
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw TraceReadError(.notJSON, "the input is empty", at: 0) }
            switch scanner.current {
            case 0x5B:
                try readEventArray(isTopLevel: true)
            case 0x7B:
                try readObjectForm()
            case 0x22:
                throw TraceReadError(.notATrace, "expected an array of trace events or an object with \"traceEvents\", found a string", at: scanner.position)
            case 0x2D, 0x30...0x39:
                throw TraceReadError(.notATrace, "expected an array of trace events or an object with \"traceEvents\", found a number", at: scanner.position)
            case 0x74, 0x66, 0x6E:
                _ = try scanner.scanLiteral()
                throw TraceReadError(.notATrace, "expected an array of trace events or an object with \"traceEvents\", found a literal", at: 0)
            default:
                throw TraceReadError(.notJSON, "the input is not JSON: it starts with \(JSONScanner.describe(scanner.current))", at: scanner.position)
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
                if next != 0x7D {
                    while true {
                        guard next == 0x22 else { throw scanner.unexpected(expecting: "a member name in quotes") }
                        let key = try scanner.scanString()
                        try scanner.expect(0x3A, "':' after a member name")
                        switch topLevelKey(key) {
                        case "traceEvents":
                            guard try scanner.peekValue("an array of events") == 0x5B else {
                                throw TraceReadError(.notATrace, "\"traceEvents\" must be an array of events", at: scanner.position)
                            }
                            try readEventArray(isTopLevel: false)
                            if isTruncated { return }
                        case "metadata":
                            try readTopLevelMetadata()
                        default:
                            try scanner.skipValue()  // systemTraceEvents, otherData, stackFrames, samples, ...
                        }
                        next = try scanner.peekValue("',' or '}' after a member")
                        if next == 0x2C {
                            scanner.position += 1
                            next = try scanner.peekValue("a member name")
                            continue
                        }
                        guard next == 0x7D else { throw scanner.unexpected(expecting: "',' or '}' after a member") }
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
            if scanner.current == 0x5D {
                scanner.position += 1
                return
            }
            while true {
                do throws(TraceReadError) {
                    try readEvent()
                } catch {
                    guard error.isEndOfInput else { throw error }
                    let cut = eventIndex - 1
                    markTruncated(
                        eventIndex: cut,
                        "the input ends inside event \(cut); the \(cut) event\(cut == 1 ? "" : "s") before it \(cut == 1 ? "was" : "were") read")
                    return
                }
                releaseReadInput()
                scanner.skipWhitespace()
                guard !scanner.isAtEnd else { return endOfArray(isTopLevel: isTopLevel) }
                let next = scanner.current
                if next == 0x2C {
                    scanner.position += 1
                    scanner.skipWhitespace()
                    guard !scanner.isAtEnd else { return endOfArray(isTopLevel: isTopLevel) }
                    if scanner.current == 0x5D {  // a trailing comma before `]`: accepted, as viewers do
                        scanner.position += 1
                        return
                    }
                    continue
                }
                guard next == 0x5D else { throw scanner.unexpected(expecting: "',' or ']' after an event") }
                scanner.position += 1
                return
            }
        }

        private mutating func endOfArray(isTopLevel: Bool) {
            if !isTopLevel { markTruncated(eventIndex: nil, "the input ends before the \"traceEvents\" array is closed") }
            isTruncated = true
        }

        mutating func markTruncated(eventIndex: Int?, _ message: String) {
            if !isTruncated || log.count(of: .truncated) == 0 { log.add(.truncated, eventIndex, message) }
            isTruncated = true
        }

        /// Reads the object form's `metadata`: framescope's fills ``Trace/metadata``; others are
        /// validated and ignored.
        private mutating func readTopLevelMetadata() throws(TraceReadError) {
            scanner.skipWhitespace()
            let start = scanner.position
            try scanner.skipValue()
            guard let value = subdocument(from: start, to: scanner.position),
                value["producer"]?.stringValue == "framescope"
            else { return }
            adoptFramescopeMetadata(value)
        }

        /// Parses an already validated stretch of the input as a small document.
        func subdocument(from start: Int, to end: Int) -> JSONValue? {
            var sub = JSONScanner(UnsafeBufferPointer(start: scanner.base + start, count: end - start))
            return try? JSONValue.parseValue(&sub, maxDepth: 64)
        }

        // MARK: - Memory

        /// Hands pages already read back to the system, so a mapped file does not stay resident.
        @inline(__always)
        private mutating func releaseReadInput() {
            if !hasReservedCapacity, eventIndex == 4096 { reserveCapacity() }
            guard releasesInput, scanner.position &- releasedUpTo >= 1 << 20 else { return }
            let pageMask = Int(getpagesize()) - 1
            let end = scanner.position & ~pageMask
            guard end > releasedUpTo else { return }
            _ = madvise(UnsafeMutableRawPointer(mutating: scanner.base + releasedUpTo), end - releasedUpTo, MADV_DONTNEED)
            releasedUpTo = end
        }

        /// Reserves room for the events the rest of the input probably holds, judged from the
        /// density so far, so the event array grows once instead of doubling (and copying) again
        /// and again. Untouched capacity costs address space, not memory.
        private mutating func reserveCapacity() {
            hasReservedCapacity = true
            let bytesPerEvent = max(8, scanner.position / max(eventIndex, 1))
            let estimate = min(scanner.count / bytesPerEvent + scanner.count / bytesPerEvent / 8 + 1024, scanner.count / 8)
            guard estimate > events.capacity else { return }
            events.reserveCapacity(estimate)
            inputIndexes.reserveCapacity(estimate)
        }

        // MARK: - One event

        /// Reads one element of the event array and commits it to the trace once it is complete.
        private mutating func readEvent() throws(TraceReadError) {
            let index = eventIndex
            eventIndex += 1
            guard scanner.current == 0x7B else {
                try scanner.skipValue()
                log.add(.invalidEvent, index, "the event is not an object")
                return
            }
            scanner.position += 1
            event = RawEvent()
            if !arguments.isEmpty { arguments.removeAll(keepingCapacity: true) }
            var next = try scanner.peekValue("a member name or '}'")
            if next != 0x7D {
                while true {
                    guard next == 0x22 else { throw scanner.unexpected(expecting: "a member name in quotes") }
                    let key = try scanner.scanString()
                    try scanner.expect(0x3A, "':' after a member name")
                    try readMember(key)
                    next = try scanner.peekValue("',' or '}' after an event member")
                    if next == 0x2C {
                        scanner.position += 1
                        next = try scanner.peekValue("a member name")
                        continue
                    }
                    guard next == 0x7D else { throw scanner.unexpected(expecting: "',' or '}' after an event member") }
                    break
                }
            }
            scanner.position += 1
            commit(index)
        }

        /// The members of an event that the reader looks at.
        enum Field {
            case phase, name, category, processID, threadID, timestamp, duration, id, id2, scope
            case instantScope, bindingPoint, bindID, flowIn, flowOut, arguments, other
        }

        /// Classifies a member name by its bytes, without making a string.
        @inline(__always)
        static func field(_ p: UnsafePointer<UInt8>, _ length: Int) -> Field {
            switch length {
            case 1:
                return p[0] == 0x73 ? .instantScope : .other  // s
            case 2:
                switch (p[0], p[1]) {
                case (0x70, 0x68): return .phase  // ph
                case (0x74, 0x73): return .timestamp  // ts
                case (0x69, 0x64): return .id  // id
                case (0x62, 0x70): return .bindingPoint  // bp
                default: return .other
                }
            case 3:
                switch (p[0], p[1], p[2]) {
                case (0x70, 0x69, 0x64): return .processID  // pid
                case (0x74, 0x69, 0x64): return .threadID  // tid
                case (0x63, 0x61, 0x74): return .category  // cat
                case (0x64, 0x75, 0x72): return .duration  // dur
                case (0x69, 0x64, 0x32): return .id2  // id2
                default: return .other
                }
            case 4:
                let word = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
                if word == 0x656D_616E { return .name }  // "name", little-endian
                if word == 0x7367_7261 { return .arguments }  // "args"
                return .other
            case 5:
                return matches(p, "scope") ? .scope : .other
            case 7:
                if matches(p, "bind_id") { return .bindID }
                if matches(p, "flow_in") { return .flowIn }
                return .other
            case 8:
                return matches(p, "flow_out") ? .flowOut : .other
            default:
                return .other
            }
        }

        @inline(__always)
        private static func matches(_ p: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
            let bytes = literal.utf8Start
            for offset in 0..<literal.utf8CodeUnitCount where p[offset] != bytes[offset] { return false }
            return true
        }

        /// Reads the value of one event member into `event`.
        private mutating func readMember(_ key: JSONStringToken) throws(TraceReadError) {
            let field: Field
            if key.hasEscapes {
                scratchBytes.removeAll(keepingCapacity: true)
                scanner.decode(key, into: &scratchBytes)
                scratchBytes.append(0)  // never empty, so the buffer has an address
                field = scratchBytes.withUnsafeBufferPointer { Parser.field($0.baseAddress!, $0.count - 1) }
            } else {
                field = Parser.field(scanner.base + key.start, key.length)
            }
            let byte = try scanner.peekValue("a value")
            switch field {
            case .phase:
                if let token = try stringOrSkip(byte) {
                    readPhase(token)
                } else {
                    event.phase = RawEvent.invalidPhase
                }
            case .name:
                event.name = try stringOrSkip(byte)
            case .category:
                event.category = try stringOrSkip(byte)
            case .processID:
                event.processID = try threadPart(byte)
            case .threadID:
                event.threadID = try threadPart(byte)
            case .timestamp:
                event.timestamp = try time(byte)
            case .duration:
                event.duration = try time(byte)
            case .id:
                event.id = try idValue(byte)
            case .id2:
                try readID2(byte)
            case .scope:
                if let token = try stringOrSkip(byte) { event.scope = hashOfString(token) }
            case .instantScope:
                if let token = try stringOrSkip(byte), token.length > 0 {
                    switch scanner.base[token.start] {
                    case 0x70: event.instantScope = .process
                    case 0x67: event.instantScope = .global
                    default: event.instantScope = .thread
                    }
                }
            case .bindingPoint:
                if let token = try stringOrSkip(byte), token.length > 0 {
                    switch scanner.base[token.start] {
                    case 0x65: event.bindingPoint = .enclosing
                    case 0x6E: event.bindingPoint = .next
                    default: break
                    }
                }
            case .bindID:
                event.bindID = try idValue(byte)
            case .flowIn:
                event.flowIn = try boolOrSkip(byte)
            case .flowOut:
                event.flowOut = try boolOrSkip(byte)
            case .arguments:
                if byte == 0x7B {
                    try readArguments()
                } else {
                    if byte != 0x6E { event.nestedArguments += 1 }  // anything but null is not an argument list
                    try scanner.skipValue()
                }
            case .other:
                try scanner.skipValue()
            }
        }

        private mutating func readPhase(_ token: JSONStringToken) {
            if token.length == 1, !token.hasEscapes {
                event.phase = scanner.base[token.start]
                return
            }
            if token.hasEscapes {
                scratchBytes.removeAll(keepingCapacity: true)
                scanner.decode(token, into: &scratchBytes)
                if scratchBytes.count == 1, scratchBytes[0] != RawEvent.otherPhase, scratchBytes[0] != 0 {
                    event.phase = scratchBytes[0]
                    return
                }
            }
            event.phase = token.length == 0 ? RawEvent.invalidPhase : RawEvent.otherPhase
            event.phaseToken = token
        }

        /// A string value, or `nil` after skipping a value of another type.
        @inline(__always)
        private mutating func stringOrSkip(_ byte: UInt8) throws(TraceReadError) -> JSONStringToken? {
            if byte == 0x22 { return try scanner.scanString() }
            try scanner.skipValue()
            return nil
        }

        private mutating func boolOrSkip(_ byte: UInt8) throws(TraceReadError) -> Bool {
            if byte == 0x74 || byte == 0x66 || byte == 0x6E { return try scanner.scanLiteral() ?? false }
            try scanner.skipValue()
            return false
        }

        /// A `pid` or `tid`: an integer (a fraction is truncated), a string, or null.
        private mutating func threadPart(_ byte: UInt8) throws(TraceReadError) -> RawEvent.ThreadPart {
            switch byte {
            case 0x2D, 0x30...0x39:
                let token = try scanner.scanNumber()
                guard let value = token.scaledInteger(shift: 0, rounding: .towardZero) else { return .invalid }
                return .number(value)
            case 0x22:
                return .number(threadID(named: try scanner.scanString()))
            case 0x6E, 0x74, 0x66:
                return try scanner.scanLiteral() == nil ? .missing : .invalid
            default:
                try scanner.skipValue()
                return .invalid
            }
        }

        /// The numeric id for a string `pid` or `tid`: its value if it is a decimal integer,
        /// otherwise a synthetic id, the same for every occurrence of the string.
        private mutating func threadID(named token: JSONStringToken) -> Int64 {
            withBytes(of: token) { parser, bytes in
                if let value = Parser.decimalInteger(bytes) { return value }
                let probe = parser.syntheticIDs.probe(bytes)
                let index: UInt32
                if let existing = probe.value {
                    index = existing
                } else {
                    index = UInt32(truncatingIfNeeded: parser.syntheticNames.count)
                    parser.syntheticNames.append(String(decoding: bytes, as: UTF8.self))
                    parser.syntheticIDs.insert(bytes, at: probe, value: index)
                }
                return Parser.syntheticBase + Int64(index)
            }
        }

        /// Synthetic thread and process ids start here.
        static let syntheticBase: Int64 = 1 << 48

        /// Calls `body` with a string's bytes: the input's own when it has no escapes, a decoded
        /// copy when it has.
        private mutating func withBytes<Result>(
            of token: JSONStringToken, _ body: (inout Parser, UnsafeBufferPointer<UInt8>) -> Result
        ) -> Result {
            guard token.hasEscapes else { return body(&self, scanner.rawBytes(token)) }
            var bytes: [UInt8] = []
            scanner.decode(token, into: &bytes)
            return bytes.withUnsafeBufferPointer { body(&self, $0) }
        }

        /// A timestamp or duration in nanoseconds, from microseconds given as a number or a
        /// numeric string.
        private mutating func time(_ byte: UInt8) throws(TraceReadError) -> RawEvent.Time {
            switch byte {
            case 0x2D, 0x30...0x39:
                let token = try scanner.scanNumber()
                guard let value = token.scaledInteger(shift: 3) else { return .invalid }
                return Self.bounded(value)
            case 0x22:
                let token = try scanner.scanString()
                guard !token.hasEscapes, let number = Parser.number(in: scanner.rawBytes(token)),
                    let value = number.scaledInteger(shift: 3)
                else { return .invalid }
                return Self.bounded(value)
            case 0x6E, 0x74, 0x66:
                return try scanner.scanLiteral() == nil ? .missing : .invalid
            default:
                try scanner.skipValue()
                return .invalid
            }
        }

        @inline(__always)
        private static func bounded(_ nanoseconds: Int64) -> RawEvent.Time {
            nanoseconds.magnitude <= UInt64(TraceEvent.timeLimitNanoseconds) ? .value(nanoseconds) : .invalid
        }

        /// The number that a byte string consists of exactly, if it does.
        static func number(in bytes: UnsafeBufferPointer<UInt8>) -> JSONNumberToken? {
            guard let first = bytes.first, first == 0x2D || first &- 0x30 < 10 else { return nil }
            var sub = JSONScanner(bytes)
            guard let token = try? sub.scanNumber(), sub.isAtEnd else { return nil }
            return token
        }

        /// A decimal integer (optionally negative) that fits in `Int64`, if the bytes are one.
        static func decimalInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
            guard let token = number(in: bytes), token.isInteger else { return nil }
            return token.exactInteger
        }

        /// An async or flow id: a number as is; a string `0x…` or decimal parsed; any other string
        /// (or a number with a fraction) hashed to a stable 64-bit value with the top bit set.
        private mutating func idValue(_ byte: UInt8) throws(TraceReadError) -> UInt64? {
            switch byte {
            case 0x2D, 0x30...0x39:
                let token = try scanner.scanNumber()
                let text = UnsafeBufferPointer(start: scanner.base + token.start, count: token.end - token.start)
                return Parser.integerID(text) ?? Parser.hashID(text)
            case 0x22:
                return withBytes(of: try scanner.scanString()) { _, bytes in
                    Parser.integerID(bytes) ?? Parser.hexID(bytes) ?? Parser.hashID(bytes)
                }
            default:
                try scanner.skipValue()
                return nil
            }
        }

        /// `id2`: `{"local": id}` (scoped to the process) or `{"global": id}`.
        private mutating func readID2(_ byte: UInt8) throws(TraceReadError) {
            guard byte == 0x7B else {
                try scanner.skipValue()
                return
            }
            scanner.position += 1
            var next = try scanner.peekValue("a member name or '}'")
            if next != 0x7D {
                while true {
                    guard next == 0x22 else { throw scanner.unexpected(expecting: "a member name in quotes") }
                    let key = scanner.string(try scanner.scanString())
                    try scanner.expect(0x3A, "':' after a member name")
                    let valueByte = try scanner.peekValue("a value")
                    if key == "local" || key == "global" {
                        if let id = try idValue(valueByte) {
                            event.id2 = id
                            event.id2IsLocal = key == "local"
                        }
                    } else {
                        try scanner.skipValue()
                    }
                    next = try scanner.peekValue("',' or '}' after an object member")
                    if next == 0x2C {
                        scanner.position += 1
                        next = try scanner.peekValue("a member name")
                        continue
                    }
                    guard next == 0x7D else { throw scanner.unexpected(expecting: "',' or '}' after an object member") }
                    break
                }
            }
            scanner.position += 1
        }

        static func integerID(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
            var index = 0
            let negative = bytes.first == 0x2D
            if negative { index = 1 }
            guard index < bytes.count else { return nil }
            var value: UInt64 = 0
            while index < bytes.count {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return nil }
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            guard negative else { return value }
            guard value <= UInt64(Int64.max) + 1 else { return nil }
            return UInt64(bitPattern: value == UInt64(Int64.max) + 1 ? Int64.min : -Int64(value))
        }

        static func hexID(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
            guard bytes.count > 2, bytes.count <= 18, bytes[0] == 0x30, bytes[1] | 0x20 == 0x78 else { return nil }
            var value: UInt64 = 0
            for index in 2..<bytes.count {
                guard let digit = JSONScanner.hexValue(bytes[index]) else { return nil }
                value = value << 4 | UInt64(digit)
            }
            return value
        }

        static func hashID(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            JSONStringInterner.hash(bytes) | 1 << 63
        }

        private mutating func hashOfString(_ token: JSONStringToken) -> UInt64 {
            withBytes(of: token) { _, bytes in JSONStringInterner.hash(bytes) }
        }

        /// Reads `args`: scalar members into `arguments`, nested values skipped and counted.
        private mutating func readArguments() throws(TraceReadError) {
            event.argumentsStart = scanner.position
            if !arguments.isEmpty { arguments.removeAll(keepingCapacity: true) }  // a repeated "args": the last wins
            scanner.position += 1
            var next = try scanner.peekValue("an argument name or '}'")
            if next != 0x7D {
                while true {
                    guard next == 0x22 else { throw scanner.unexpected(expecting: "an argument name in quotes") }
                    let key = try scanner.scanString()
                    try scanner.expect(0x3A, "':' after an argument name")
                    let byte = try scanner.peekValue("an argument value")
                    switch byte {
                    case 0x22:
                        arguments.append(ScratchArgument(key: key, kind: .string, string: try scanner.scanString()))
                    case 0x2D, 0x30...0x39:
                        arguments.append(ScratchArgument(key: key, kind: .number, number: try scanner.scanNumber()))
                    case 0x74, 0x66, 0x6E:
                        let literal = try scanner.scanLiteral()
                        arguments.append(ScratchArgument(key: key, kind: literal == nil ? .null : .bool, bool: literal ?? false))
                    case 0x7B:
                        try readNestedArguments(prefix: key)
                    case 0x5B:
                        try scanner.skipValue()
                        event.nestedArguments += 1
                    default:
                        throw scanner.unexpected(expecting: "a value")
                    }
                    next = try scanner.peekValue("',' or '}' after an argument")
                    if next == 0x2C {
                        scanner.position += 1
                        next = try scanner.peekValue("an argument name")
                        continue
                    }
                    guard next == 0x7D else { throw scanner.unexpected(expecting: "',' or '}' after an argument") }
                    break
                }
            }
            scanner.position += 1
            event.argumentsEnd = scanner.position
        }

        /// Reads an object nested in `args` one level deep: its scalar members become arguments
        /// keyed `outer.inner` (Chrome's `chrome_frame_reporter.state`, `data.url`); values nested
        /// deeper are skipped and counted.
        private mutating func readNestedArguments(prefix: JSONStringToken) throws(TraceReadError) {
            scanner.position += 1
            var next = try scanner.peekValue("an argument name or '}'")
            if next != 0x7D {
                while true {
                    guard next == 0x22 else { throw scanner.unexpected(expecting: "an argument name in quotes") }
                    let key = try scanner.scanString()
                    try scanner.expect(0x3A, "':' after an argument name")
                    let byte = try scanner.peekValue("an argument value")
                    switch byte {
                    case 0x22:
                        arguments.append(ScratchArgument(key: key, prefix: prefix, kind: .string, string: try scanner.scanString()))
                    case 0x2D, 0x30...0x39:
                        arguments.append(ScratchArgument(key: key, prefix: prefix, kind: .number, number: try scanner.scanNumber()))
                    case 0x74, 0x66, 0x6E:
                        let literal = try scanner.scanLiteral()
                        arguments.append(ScratchArgument(key: key, prefix: prefix, kind: literal == nil ? .null : .bool, bool: literal ?? false))
                    case 0x7B, 0x5B:
                        try scanner.skipValue()
                        event.nestedArguments += 1
                    default:
                        throw scanner.unexpected(expecting: "a value")
                    }
                    next = try scanner.peekValue("',' or '}' after an argument")
                    if next == 0x2C {
                        scanner.position += 1
                        next = try scanner.peekValue("an argument name")
                        continue
                    }
                    guard next == 0x7D else { throw scanner.unexpected(expecting: "',' or '}' after an argument") }
                    break
                }
            }
            scanner.position += 1
        }
    }

    /// What one event object said, before it becomes trace values.
    struct RawEvent {
        /// A `ph` that is present but not a string.
        static let invalidPhase: UInt8 = 0x01
        /// A `ph` of more than one character; its text is in `phaseToken`.
        static let otherPhase: UInt8 = 0xFF

        enum ThreadPart: Equatable {
            case missing, invalid
            case number(Int64)
        }

        enum Time: Equatable {
            case missing, invalid
            case value(Int64)
        }

        /// The `ph` byte; 0 when absent.
        var phase: UInt8 = 0
        var phaseToken = JSONStringToken(start: 0, end: 0, hasEscapes: false)
        var name: JSONStringToken?
        var category: JSONStringToken?
        var processID = ThreadPart.missing
        var threadID = ThreadPart.missing
        var timestamp = Time.missing
        var duration = Time.missing
        var id: UInt64?
        var id2: UInt64?
        var id2IsLocal = false
        var scope: UInt64?
        var instantScope = InstantScope.thread
        var bindingPoint = BindingPoint.unspecified
        var bindID: UInt64?
        var flowIn = false
        var flowOut = false
        /// The byte range of the `args` object, for the rare event that needs it whole.
        var argumentsStart = 0
        var argumentsEnd = 0
        var nestedArguments = 0
    }

    /// One scalar member of an event's `args`, located but not yet converted.
    struct ScratchArgument {
        enum Kind: UInt8 {
            case string, number, bool, null
        }

        var key: JSONStringToken
        /// The key of the object this member was nested in, if it was.
        var prefix: JSONStringToken? = nil
        var kind: Kind
        var string = JSONStringToken(start: 0, end: 0, hasEscapes: false)
        var number = JSONNumberToken(start: 0)
        var bool = false
    }

    /// Recent `args` texts and the argument lists made from them, so an event whose `args` repeat a
    /// recent one's byte for byte shares its list. Direct-mapped and fixed in size (4,096 entries of
    /// at most 128 bytes), so it costs at most half a megabyte whatever the input.
    struct ArgumentCache {
        static let maximumLength = 128
        private static let slotCount = 4096

        // Allocated on first use, so reading a small trace does not pay for them.
        private var hashes: [UInt64] = []
        private var indexes: [UInt32] = []
        private var lengths: [Int] = []
        private var texts: [UInt8] = []

        /// The list index remembered for exactly this text, if any.
        @inline(__always)
        func index(for text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32? {
            guard !hashes.isEmpty else { return nil }
            let slot = Int(truncatingIfNeeded: hash >> 52)
            guard hashes[slot] == hash, lengths[slot] == text.count else { return nil }
            guard let bytes = text.baseAddress, !text.isEmpty else { return indexes[slot] }
            let offset = slot * ArgumentCache.maximumLength
            let same = texts.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes, text.count) == 0 }
            return same ? indexes[slot] : nil
        }

        /// Remembers the list made from `text`, replacing whatever shared its slot.
        mutating func remember(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64, index: UInt32) {
            if hashes.isEmpty {
                hashes = Array(repeating: 0, count: ArgumentCache.slotCount)
                indexes = Array(repeating: 0, count: ArgumentCache.slotCount)
                lengths = Array(repeating: -1, count: ArgumentCache.slotCount)
                texts = Array(repeating: 0, count: ArgumentCache.slotCount * ArgumentCache.maximumLength)
            }
            let slot = Int(truncatingIfNeeded: hash >> 52)
            hashes[slot] = hash
            indexes[slot] = index
            lengths[slot] = text.count
            let offset = slot * ArgumentCache.maximumLength
            guard let bytes = text.baseAddress, !text.isEmpty else { return }
            texts.withUnsafeMutableBufferPointer { _ = memcpy($0.baseAddress! + offset, bytes, text.count) }
        }
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
        var beginsAndEnds: [BeginOrEnd] = []
        /// `B` events left open after pairing: their position in `events` and their input index.
        var open: [(position: Int, inputIndex: Int)] = []
    }

    /// One `B` or `E` event, as the pairing needs it.
    struct BeginOrEnd {
        var timestamp: Int64
        var inputIndex: Int
        /// The name; `nil` for an `E` without one.
        var name: Symbol?
        var isEnd: Bool
        /// For a `B`, its position in `events`; for an `E`, its arguments' index in
        /// `pendingEndArguments`, or -1 for none.
        var payload: Int
    }
}
