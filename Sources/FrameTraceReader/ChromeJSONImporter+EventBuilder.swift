import FrameJSON
import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChromeJSONImporter.Parser {
    /// Reads one element of the event array and commits it to the trace once it is complete.
    @inline(__always)
    mutating func readEvent() throws(TraceReadError) {
        let index = eventIndex
        eventIndex += 1
        if try tokenizer.readEvent() {
            commit(index)
        } else {
            trace.log.add(.invalidEvent, index, "the event is not an object")
        }
    }
}

/// Stage two of reading, one event: reads an event object's members from the scanner's tokens
/// into a ``ChromeJSONImporter/ChromeJSONImporter.RawEvent`` and its scalar arguments, classifying member names by
/// their bytes and never making a string for what it skips; the parser then commits it
/// (`+Events`).
extension ChromeJSONImporter.EventTokenizer {
    // MARK: - One event

    /// Reads one element of the event array into ``event`` and ``arguments``; `false` (after
    /// skipping it) when it is not an object.
    ///
    /// The common members and their common forms (a one-letter phase, a plain decimal) are read
    /// in its own switch: a call per member, even to a function marked `@inline(__always)` (which
    /// the release build still calls there), cost 4% of the whole read.
    mutating func readEvent() throws(TraceReadError) -> Bool {
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return false
        }
        scanner.position += 1
        event = ChromeJSONImporter.RawEvent()
        argumentCount = 0
        var next = try scanner.peekValue("a member name or '}'")
        if next != UInt8(ascii: "}") {
            repeat {
                guard next == UInt8(ascii: "\"") else { throw scanner.unexpected(expecting: "a member name in quotes") }
                let field = try readMemberName()
                let byte = try scanner.peekValue("a value")
                switch field {
                case .phase:
                    let token = try stringOrSkip(byte)
                    if let token, token.length == 1, !token.hasEscapes {
                        event.phase = scanner.base[token.start]
                    } else {
                        readPhase(token)
                    }
                case .name: event.name = try stringOrSkip(byte)
                case .category: event.category = try stringOrSkip(byte)
                case .processID:
                    if Self.startsNumber(byte), let value = scanner.scanPlainDecimal(fractionDigits: 0) {
                        event.processID = .number(value)
                    } else {
                        event.processID = try threadPart(byte)
                    }
                case .threadID:
                    if Self.startsNumber(byte), let value = scanner.scanPlainDecimal(fractionDigits: 0) {
                        event.threadID = .number(value)
                    } else {
                        event.threadID = try threadPart(byte)
                    }
                case .timestamp:
                    if Self.startsNumber(byte), let value = scanner.scanPlainDecimal(fractionDigits: 3) {
                        event.timestamp = bounded(value)
                    } else {
                        event.timestamp = try time(byte)
                    }
                case .duration:
                    if Self.startsNumber(byte), let value = scanner.scanPlainDecimal(fractionDigits: 3) {
                        event.duration = bounded(value)
                    } else {
                        event.duration = try time(byte)
                    }
                case .arguments where byte == UInt8(ascii: "{"): try readArguments()
                case .other:  // a plain number (tts, tdur, ...) is stepped over where it stands
                    if !Self.startsNumber(byte) || scanner.scanPlainDecimal(fractionDigits: 3) == nil {
                        try scanner.skipValue()
                    }
                default: try readOtherMember(field, startingWith: byte)
                }
            } while try nextMember(&next)
        }
        scanner.position += 1
        return true
    }

    /// Reads a member name and its colon; returns the member it names.
    @inline(__always)
    private mutating func readMemberName() throws(TraceReadError) -> Field {
        if let (quick, length) = quickMemberName() {
            scanner.position &+= length
            return quick
        }
        let key = try scanner.scanString()
        try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
        return field(of: key)
    }

    /// Steps past what follows a member's value: `true` when another member follows (`next` is
    /// the quote that begins its name), `false` at the closing `}` (not yet stepped over).
    @inline(__always)
    private mutating func nextMember(_ next: inout UInt8) throws(TraceReadError) -> Bool {
        if scanner.skipCommaBeforeName() {
            next = UInt8(ascii: "\"")
            return true
        }
        next = try scanner.peekValue("',' or '}' after an event member")
        if next == UInt8(ascii: ",") {
            scanner.position += 1
            next = try scanner.peekValue("a member name")
            return true
        }
        guard next == UInt8(ascii: "}") else {
            throw scanner.unexpected(expecting: "',' or '}' after an event member")
        }
        return false
    }

    /// Reads the value, which starts with `byte`, of a member ``readEvent()`` does not read
    /// itself: the ids, scopes and flow members, and an `args` that is not an object.
    private mutating func readOtherMember(_ field: Field, startingWith byte: UInt8) throws(TraceReadError) {
        switch field {
        case .id: event.id = try idValue(byte)
        case .id2: try readID2(byte)
        case .scope:
            if let token = try stringOrSkip(byte) { event.scope = hashOfString(token) }
        case .instantScope:
            guard let token = try stringOrSkip(byte), token.length > 0 else { return }
            switch scanner.base[token.start] {
            case UInt8(ascii: "p"): event.instantScope = .process
            case UInt8(ascii: "g"): event.instantScope = .global
            default: event.instantScope = .thread
            }
        case .bindingPoint:
            guard let token = try stringOrSkip(byte), token.length > 0 else { return }
            switch scanner.base[token.start] {
            case UInt8(ascii: "e"): event.bindingPoint = .enclosing
            case UInt8(ascii: "n"): event.bindingPoint = .next
            default: break
            }
        case .bindID: event.bindID = try idValue(byte)
        case .flowIn: event.flowIn = try boolOrSkip(byte)
        case .flowOut: event.flowOut = try boolOrSkip(byte)
        case .arguments:
            // anything but an object or null is not an argument list
            if byte != UInt8(ascii: "n") { event.nestedArguments += 1 }
            try scanner.skipValue()
        default:  // the members readEvent reads itself never come here
            try scanner.skipValue()
        }
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
            return p[0] == UInt8(ascii: "s") ? .instantScope : .other
        case 2:
            switch (p[0], p[1]) {
            case (UInt8(ascii: "p"), UInt8(ascii: "h")): return .phase
            case (UInt8(ascii: "t"), UInt8(ascii: "s")): return .timestamp
            case (UInt8(ascii: "i"), UInt8(ascii: "d")): return .id
            case (UInt8(ascii: "b"), UInt8(ascii: "p")): return .bindingPoint
            default: return .other
            }
        case 3:
            switch (p[0], p[1], p[2]) {
            case (UInt8(ascii: "p"), UInt8(ascii: "i"), UInt8(ascii: "d")): return .processID
            case (UInt8(ascii: "t"), UInt8(ascii: "i"), UInt8(ascii: "d")): return .threadID
            case (UInt8(ascii: "c"), UInt8(ascii: "a"), UInt8(ascii: "t")): return .category
            case (UInt8(ascii: "d"), UInt8(ascii: "u"), UInt8(ascii: "r")): return .duration
            case (UInt8(ascii: "i"), UInt8(ascii: "d"), UInt8(ascii: "2")): return .id2
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

    /// The field and length of a common member name written plainly with its colon right after
    /// it (`"ph":`, `"name":`, ...) at the scanner's position (a quote), read as one word; `nil`
    /// for anything else, which the general path (scan, expect `:`, classify) then reads. Both
    /// paths agree on every input this one accepts: no escapes, no whitespace before the colon.
    @inline(__always)
    private func quickMemberName() -> (Field, Int)? {
        guard scanner.position &+ 8 <= scanner.count else { return nil }
        let word = UnsafeRawPointer(scanner.base + scanner.position).loadUnaligned(as: UInt64.self)
        // Where the closing quote is says which names to compare with.
        if word & 0xFF00_0000 == 0x2200_0000 {
            switch word & 0xFF_FFFF_FFFF {  // "xx":
            case 0x3A22_6870_22: return (.phase, 5)  // "ph":
            case 0x3A22_7374_22: return (.timestamp, 5)  // "ts":
            case 0x3A22_6469_22: return (.id, 5)  // "id":
            default: return nil
            }
        }
        if word & 0xFF_0000_0000 == 0x22_0000_0000 {
            switch word & 0xFFFF_FFFF_FFFF {  // "xxx":
            case 0x3A22_6469_7022: return (.processID, 6)  // "pid":
            case 0x3A22_6469_7422: return (.threadID, 6)  // "tid":
            case 0x3A22_7461_6322: return (.category, 6)  // "cat":
            case 0x3A22_7275_6422: return (.duration, 6)  // "dur":
            default: return nil
            }
        }
        switch word & 0xFF_FFFF_FFFF_FFFF {  // "xxxx":
        case 0x3A22_656D_616E_22: return (.name, 7)  // "name":
        case 0x3A22_7367_7261_22: return (.arguments, 7)  // "args":
        default: return nil
        }
    }

    /// The field a scanned member name stands for, escapes decoded.
    @inline(__always)
    private mutating func field(of key: JSONStringToken) -> Field {
        guard key.hasEscapes else { return Self.field(scanner.base + key.start, key.length) }
        scratchBytes.removeAll(keepingCapacity: true)
        scanner.decode(key, into: &scratchBytes)
        scratchBytes.append(0)  // never empty, so the buffer has an address
        return scratchBytes.withUnsafeBufferPointer { Self.field($0.baseAddress!, $0.count - 1) }
    }

    /// Whether a value starting with `byte` is a number (`-` or a digit).
    @inline(__always)
    private static func startsNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10
    }

    private mutating func readPhase(_ token: JSONStringToken?) {
        guard let token else {
            event.phase = ChromeJSONImporter.RawEvent.invalidPhase  // not a string
            return
        }
        if token.length == 1, !token.hasEscapes {
            event.phase = scanner.base[token.start]
            return
        }
        if token.hasEscapes {
            scratchBytes.removeAll(keepingCapacity: true)
            scanner.decode(token, into: &scratchBytes)
            if scratchBytes.count == 1, scratchBytes[0] != ChromeJSONImporter.RawEvent.otherPhase, scratchBytes[0] != 0
            {
                event.phase = scratchBytes[0]
                return
            }
        }
        event.phase =
            token.length == 0 ? ChromeJSONImporter.RawEvent.invalidPhase : ChromeJSONImporter.RawEvent.otherPhase
        event.phaseToken = token
    }

    /// A string value, or `nil` after skipping a value of another type.
    @inline(__always)
    private mutating func stringOrSkip(_ byte: UInt8) throws(TraceReadError) -> JSONStringToken? {
        if byte == UInt8(ascii: "\"") { return try scanner.scanString() }
        try scanner.skipValue()
        return nil
    }

    private mutating func boolOrSkip(_ byte: UInt8) throws(TraceReadError) -> Bool {
        if byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n") {
            return try scanner.scanLiteral() ?? false
        }
        try scanner.skipValue()
        return false
    }

    /// A `pid` or `tid`: an integer (a fraction is truncated), a string, or null. (`readEvent`
    /// has already tried a plain decimal.)
    private mutating func threadPart(_ byte: UInt8) throws(TraceReadError) -> ChromeJSONImporter.RawEvent.ThreadPart {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanner.scanNumber()
            guard let value = token.scaledInteger(shift: 0, rounding: .towardZero) else { return .invalid }
            return .number(value)
        case UInt8(ascii: "\""):
            return .number(threadID(named: try scanner.scanString()))
        case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"):
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
            if let value = Self.decimalInteger(bytes) { return value }
            let probe = parser.syntheticIDs.probe(bytes)
            let index: UInt32
            if let existing = probe.value {
                index = existing
            } else {
                index = UInt32(truncatingIfNeeded: parser.syntheticNames.count)
                parser.syntheticNames.append(String(decoding: bytes, as: UTF8.self))
                parser.syntheticIDs.insert(bytes, at: probe, value: index)
            }
            return Self.syntheticBase + Int64(index)
        }
    }

    /// Synthetic thread and process ids start here.
    static let syntheticBase: Int64 = 1 << 48

    /// Calls `body` with a string's bytes: the input's own when it has no escapes, a decoded
    /// copy when it has.
    private mutating func withBytes<Result>(
        of token: JSONStringToken, _ body: (inout Self, UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard token.hasEscapes else { return body(&self, scanner.rawBytes(token)) }
        var bytes: [UInt8] = []
        scanner.decode(token, into: &bytes)
        return bytes.withUnsafeBufferPointer { body(&self, $0) }
    }

    /// A timestamp or duration in nanoseconds, from microseconds given as a number or a
    /// numeric string. (`readEvent` has already tried a plain decimal.)
    private mutating func time(_ byte: UInt8) throws(TraceReadError) -> ChromeJSONImporter.RawEvent.Time {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanner.scanNumber()
            guard let value = token.scaledInteger(shift: 3) else { return .invalid }
            return bounded(value)
        case UInt8(ascii: "\""):
            let token = try scanner.scanString()
            guard !token.hasEscapes, let number = Self.number(in: scanner.rawBytes(token)),
                let value = number.scaledInteger(shift: 3)
            else { return .invalid }
            return bounded(value)
        case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"):
            return try scanner.scanLiteral() == nil ? .missing : .invalid
        default:
            try scanner.skipValue()
            return .invalid
        }
    }

    /// A time within ``TraceEvent/timeLimitNanoseconds`` (read once per parser, not per call:
    /// another module's static costs an accessor call each time).
    @inline(__always)
    private func bounded(_ nanoseconds: Int64) -> ChromeJSONImporter.RawEvent.Time {
        nanoseconds.magnitude <= timeLimit ? .value(nanoseconds) : .invalid
    }

    /// The number that a byte string consists of exactly, if it does.
    static func number(in bytes: UnsafeBufferPointer<UInt8>) -> JSONNumberToken? {
        guard let first = bytes.first, first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else { return nil }
        var sub = TraceScanner(bytes)
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
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanner.scanNumber()
            let text = UnsafeBufferPointer(start: scanner.base + token.start, count: token.end - token.start)
            return Self.integerID(text) ?? Self.hashID(text)
        case UInt8(ascii: "\""):
            return withBytes(of: try scanner.scanString()) { _, bytes in
                Self.integerID(bytes) ?? Self.hexID(bytes) ?? Self.hashID(bytes)
            }
        default:
            try scanner.skipValue()
            return nil
        }
    }

    /// `id2`: `{"local": id}` (scoped to the process) or `{"global": id}`.
    private mutating func readID2(_ byte: UInt8) throws(TraceReadError) {
        guard byte == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return
        }
        scanner.position += 1
        var next = try scanner.peekValue("a member name or '}'")
        if next != UInt8(ascii: "}") {
            while true {
                guard next == UInt8(ascii: "\"") else { throw scanner.unexpected(expecting: "a member name in quotes") }
                let key = scanner.string(try scanner.scanString())
                try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
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
                if next == UInt8(ascii: ",") {
                    scanner.position += 1
                    next = try scanner.peekValue("a member name")
                    continue
                }
                guard next == UInt8(ascii: "}") else {
                    throw scanner.unexpected(expecting: "',' or '}' after an object member")
                }
                break
            }
        }
        scanner.position += 1
    }

    static func integerID(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < bytes.count else { return nil }
        var value: UInt64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
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
        guard bytes.count > 2, bytes.count <= 18, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x")
        else { return nil }
        var value: UInt64 = 0
        for index in 2..<bytes.count {
            guard let digit = TraceScanner.hexValue(bytes[index]) else { return nil }
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

    /// Adds a scalar argument of the event being read, reusing the scratch array's slots.
    @inline(__always)
    mutating func appendArgument(_ argument: ChromeJSONImporter.ScratchArgument) {
        if argumentCount < arguments.count {
            arguments[argumentCount] = argument
        } else {
            arguments.append(argument)
        }
        argumentCount &+= 1
    }

    /// Reads `args`: scalar members and nested values into `arguments` (nested values as their
    /// bounds, parsed only if kept); values nested too deep to keep are counted.
    private mutating func readArguments() throws(TraceReadError) {
        event.argumentsStart = scanner.position
        argumentCount = 0  // a repeated "args": the last wins
        try readArgumentMembers(prefix: nil)
        event.argumentsEnd = scanner.position
    }

    /// Skips a nested value (an array, or an object deeper than one level), noting its bounds
    /// so that a selection that keeps it can parse it whole; one nested deeper than
    /// ``TraceReader/keptNestingDepth`` is counted as skipped instead.
    private mutating func appendNestedValue(key: JSONStringToken, prefix: JSONStringToken?) throws(TraceReadError) {
        let start = scanner.position
        guard try scanner.skipValue() <= TraceReader.keptNestingDepth else {
            event.nestedArguments += 1
            return
        }
        appendArgument(
            ChromeJSONImporter.ScratchArgument(
                key: key, prefix: prefix, kind: .nested,
                string: JSONStringToken(start: start, end: scanner.position, hasEscapes: false)))
    }

    /// Reads an object nested in `args` one level deep: its scalar members become arguments
    /// keyed `outer.inner` (Chrome's `chrome_frame_reporter.state`, `data.url`); values nested
    /// deeper are nested values.
    private mutating func readNestedArguments(prefix: JSONStringToken) throws(TraceReadError) {
        try readArgumentMembers(prefix: prefix)
    }

    /// Reads an argument object from its `{` past its `}`: `args` itself (`prefix` nil), or an
    /// object nested in it one level deep (``readNestedArguments(prefix:)``). An array, or an
    /// object nested deeper, is one nested value (``appendNestedValue(key:prefix:)``).
    ///
    /// The one loop for both levels, inlined into each caller so that each is compiled for its
    /// level: called out of line with `prefix` unknown, the top level (most arguments) ran about
    /// 12% more instructions than the loop it replaced.
    @inline(__always)
    private mutating func readArgumentMembers(prefix: JSONStringToken?) throws(TraceReadError) {
        scanner.position += 1
        var next = try scanner.peekValue("an argument name or '}'")
        if next != UInt8(ascii: "}") {
            while true {
                guard next == UInt8(ascii: "\"") else {
                    throw scanner.unexpected(expecting: "an argument name in quotes")
                }
                let key = try scanner.scanString()
                try scanner.expect(UInt8(ascii: ":"), "':' after an argument name")
                let byte = try scanner.peekValue("an argument value")
                switch byte {
                case UInt8(ascii: "\""):
                    appendArgument(
                        ChromeJSONImporter.ScratchArgument(
                            key: key, prefix: prefix, kind: .string, string: try scanner.scanString()))
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    appendArgument(
                        ChromeJSONImporter.ScratchArgument(
                            key: key, prefix: prefix, kind: .number, number: try scanner.scanNumber()))
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let literal = try scanner.scanLiteral()
                    appendArgument(
                        ChromeJSONImporter.ScratchArgument(
                            key: key, prefix: prefix, kind: literal == nil ? .null : .bool, bool: literal ?? false))
                case UInt8(ascii: "{"):
                    if prefix == nil {
                        try readNestedArguments(prefix: key)
                    } else {
                        try appendNestedValue(key: key, prefix: prefix)
                    }
                case UInt8(ascii: "["):
                    try appendNestedValue(key: key, prefix: prefix)
                default:
                    throw scanner.unexpected(expecting: "a value")
                }
                if scanner.skipCommaBeforeName() {
                    next = UInt8(ascii: "\"")
                    continue
                }
                next = try scanner.peekValue("',' or '}' after an argument")
                if next == UInt8(ascii: ",") {
                    scanner.position += 1
                    next = try scanner.peekValue("an argument name")
                    continue
                }
                guard next == UInt8(ascii: "}") else {
                    throw scanner.unexpected(expecting: "',' or '}' after an argument")
                }
                break
            }
        }
        scanner.position += 1
    }
}
