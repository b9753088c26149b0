import FrameTrace
import FrameTraceReader
import Testing

/// The reader takes a short path for plain decimals in `ts`, `dur`, `pid` and `tid`; the same
/// number with `e0` appended takes the general one. Both must give the same trace.
@Suite("Chrome trace reader: the plain-number path agrees with the general one")
struct ChromeJSONImporterNumberFastPathTests {
    static let numbers = [
        "0", "-0", "1", "-1", "7", "10", "0.5", "-0.5", "0.001", "0.0005", "0.000", "1.0", "1.00", "1.000", "1.0004",
        "1.0005", "1.2345", "1000022.330", "16666.667", "-5.25", "123456789012345", "999999999999999",
        "123456789012345.678", "1234567890123456", "12345678901234567", "1152921504606846", "1152921504606846.976",
        "1152921504606847", "-1152921504606846.976", "-1152921504606847", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "99999999999999999999", "0.1234567890123456789", "4242", "-4242", "281474976710656",
    ]

    static func trace(_ number: String, suffix: String) throws -> Trace {
        let n = number + suffix
        let text = """
            [{"ph":"X","name":"a","pid":\(n),"tid":\(n),"ts":\(n),"dur":\(n)},
            {"ph":"i","name":"b","pid":1,"tid":1,"ts":\(n)},
            {"ph":"B","name":"c","pid":\(n),"ts":\(n)},{"ph":"E","pid":\(n),"ts":\(n)}]
            """
        return try TraceReader.read(bytes: Array(text.utf8))
    }

    @Test("ts, dur, pid and tid read the same either way", arguments: numbers)
    func samePlainAndGeneral(number: String) throws {
        let plain = try Self.trace(number, suffix: "")
        let general = try Self.trace(number, suffix: "e0")
        #expect(plain.events == general.events)
        #expect(plain.diagnostics == general.diagnostics)
    }
}

/// The scanner finds the first quote, backslash or control byte of a string eight bytes at a time;
/// wherever in a word it falls, it is the one found.
@Suite("Chrome trace reader: special bytes anywhere in a string's words")
struct ChromeJSONImporterStringWordTests {
    static func read(name: String) throws -> Trace {
        try TraceReader.read(bytes: Array(#"[{"ph":"i","name":"\#(name)","pid":1,"tid":1,"ts":1}]"#.utf8))
    }

    @Test("An escape or a closing quote at every offset", arguments: 0..<20)
    func specialAtEveryOffset(offset: Int) throws {
        let before = String(repeating: "a", count: offset)
        let plain = try Self.read(name: before)
        #expect(plain.events.map { plain.name(of: $0) } == [before])
        let escaped = try Self.read(name: before + #"\n\"x\u00e9"# + before)
        #expect(escaped.events.map { escaped.name(of: $0) } == [before + "\n\"x\u{e9}" + before])
    }

    @Test("A raw control byte at every offset is an error at that byte", arguments: 0..<20)
    func controlAtEveryOffset(offset: Int) {
        let prefix = #"[{"ph":"i","name":""#
        let text =
            prefix + String(repeating: "b", count: offset) + "\u{01}" + String(repeating: "c", count: 9)
            + #"","ts":1}]"#
        #expect {
            _ = try TraceReader.read(bytes: Array(text.utf8))
        } throws: { error in
            guard let error = error as? TraceReadError else { return false }
            return error.code == .unexpectedToken && error.byteOffset == prefix.utf8.count + offset
        }
    }
}

@Suite("Chrome trace reader: extreme thread ids")
struct ChromeJSONImporterExtremeThreadTests {
    @Test("pid and tid -2^63 (the reader's initial 'last thread') are an ordinary thread")
    func minimumThread() throws {
        let m = "-9223372036854775808"
        let text =
            #"[{"ph":"B","name":"a","pid":\#(m),"tid":\#(m),"ts":1},{"ph":"X","name":"b","pid":\#(m),"tid":\#(m),"ts":1,"dur":1},{"ph":"E","pid":\#(m),"tid":\#(m),"ts":2}]"#
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        let thread = ThreadKey(processID: .min, threadID: .min)
        #expect(trace.events.map { trace.name(of: $0) } == ["a", "b"])
        #expect(trace.events.allSatisfy { $0.thread == thread })
        #expect(trace.events.first?.duration == 1_000)
    }
}

/// A string id that is neither decimal nor hexadecimal becomes a 64-bit hash of its bytes with the
/// top bit set; the hash must not change with how the reader computes it (ids are output).
@Suite("Chrome trace reader: string ids hash stably")
struct ChromeJSONImporterStringIDHashTests {
    /// The reader's byte-string hash, written out byte by byte.
    static func referenceHash(_ bytes: [UInt8]) -> UInt64 {
        let multiplier: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            var word: UInt64 = 0
            for k in 0..<8 { word |= UInt64(bytes[index + k]) << UInt64(8 * k) }
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
            index += 8
        }
        if index < bytes.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count {
                tail |= UInt64(bytes[index]) << shift
                shift += 8
                index += 1
            }
            hash = (hash ^ tail) &* multiplier
        }
        hash ^= hash >> 32
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        return hash
    }

    @Test("Every length from 1 to 24 bytes", arguments: 1...24)
    func hashOfLength(length: Int) throws {
        let id = String("zyxwvutsrqponmlkjihgfedcbaZYXWVU".prefix(length))
        let text = #"[{"ph":"n","name":"a","cat":"c","id":"\#(id)","pid":1,"tid":1,"ts":1}]"#
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        #expect(trace.events.map(\.id) == [Self.referenceHash(Array(id.utf8)) | 1 << 63])
    }
}

/// Argument keys and values of up to 15 bytes come from a table of recent ones keyed by their
/// bytes; strings that differ in any byte or in length stay apart.
@Suite("Chrome trace reader: short argument strings")
struct ChromeJSONImporterShortStringTests {
    @Test("Prefixes, one-byte differences, non-ASCII and ill-formed UTF-8 read back exactly")
    func shortStrings() throws {
        var values: [[UInt8]] = []
        for length in 0...16 {
            let base = Array("abcdefghijklmnop".utf8.prefix(length))
            values.append(base)
            if length > 0 { values.append(base.dropLast() + [UInt8(ascii: "Z")]) }
        }
        values.append(Array("é".utf8))
        values.append(Array("aé€".utf8))
        values.append([0x61, 0xFF, 0x62])  // ill-formed: read as "a\u{FFFD}b"
        var text: [UInt8] = Array("[".utf8)
        for round in 0..<2 {
            for (index, value) in values.enumerated() {
                if round > 0 || index > 0 { text += Array(",".utf8) }
                text +=
                    Array(#"{"ph":"i","name":"e","pid":1,"tid":1,"ts":1,"args":{"#.utf8) + [0x22] + value
                    + Array(#"":""#.utf8) + value + Array(#"","n":\#(index)}}"#.utf8)
            }
        }
        text += Array("]".utf8)
        let trace = try TraceReader.read(bytes: text)
        #expect(trace.events.count == 2 * values.count)
        for (position, event) in trace.events.enumerated() {
            let value = String(decoding: values[position % values.count], as: UTF8.self)
            let arguments = trace.argumentDictionary(of: event)
            #expect(arguments[value] == .string(value), "event \(position)")
            #expect(arguments.count == 2)
        }
    }
}

/// Names and categories of up to 16 bytes come from a table of recent ones keyed by their raw
/// bytes before the interner; names that differ in any byte or in length stay apart.
@Suite("Chrome trace reader: short names")
struct ChromeJSONImporterShortNameTests {
    @Test("Prefixes, one-byte differences, escapes, non-ASCII and ill-formed UTF-8 name the right events")
    func shortNames() throws {
        var names: [[UInt8]] = []
        for length in 1...18 {
            let base = Array("ABCDEFGHIJKLMNOPQR".utf8.prefix(length))
            names.append(base)
            names.append(base.dropLast() + [UInt8(ascii: "z")])
        }
        names.append(Array(#"a\"b"#.utf8))  // raw bytes with an escape: the name a"b
        names.append(Array(#"a\u0041"#.utf8))  // aA, spelled differently from a plain "aA"
        names.append(Array("aA".utf8))
        names.append(Array("é€".utf8))
        names.append([0x61, 0xFF, 0x62])
        var text: [UInt8] = Array("[".utf8)
        for round in 0..<3 {
            for (index, name) in names.enumerated() {
                if round > 0 || index > 0 { text += Array(",".utf8) }
                text +=
                    Array(#"{"ph":"X","name":""#.utf8) + name + Array(#"","cat":"c"#.utf8) + name
                    + Array(#"","pid":1,"tid":\#(round),"ts":\#(index),"dur":0.5}"#.utf8)
            }
        }
        text += Array("]".utf8)
        let trace = try TraceReader.read(bytes: text)
        func decoded(_ raw: [UInt8]) -> String {
            let text = String(decoding: raw, as: UTF8.self)
            return text.replacing(#"\""#, with: "\"").replacing(#"\u0041"#, with: "A")
        }
        #expect(trace.events.count == 3 * names.count)
        for event in trace.events {
            let index = Int(event.timestamp / 1_000)
            #expect(trace.name(of: event) == decoded(names[index]), "event at \(index)")
            #expect(trace.symbols[event.category] == "c" + decoded(names[index]), "category at \(index)")
        }
    }
}
