import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: hostile input never crashes, hangs or blows up")
struct ReaderRobustnessTests {
    @Test("Nesting beyond the limit inside an event is an error, not a stack overflow")
    func deepNestingInArguments() throws {
        let depth = 200_000
        let text =
            #"[{"ph":"X","name":"a","ts":1,"args":{"deep":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}}]"
        let error = try #require(throws: TraceReadError.self) { try TraceReader.read(bytes: Array(text.utf8)) }
        #expect(error.code == .tooDeep)
    }

    @Test("Deep but legal nesting in skipped values is read")
    func deepLegalNesting() throws {
        let depth = 5_000
        let nested = String(repeating: #"{"a":["#, count: depth) + "1" + String(repeating: "]}", count: depth)
        let text =
            #"{"otherData":"# + nested + #","traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1,"args":{"n":"# + nested
            + "}}]}"
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        #expect(trace.events.count == 1)
        // Too deep to keep whole: skipped and counted, even when every argument is kept.
        #expect(trace.total(.skippedArgument) == 1)
        #expect(trace.arguments(of: trace.events[0]).isEmpty)
    }

    @Test(
        "Every prefix of an array-form trace loads",
        arguments: ["all-phases.json", "unicode-escapes.json", "nested-args.json"])
    func everyPrefixOfArray(fixture: String) throws {
        let bytes = try Fixture.bytes(fixture)
        let full = try TraceReader.read(bytes: bytes)
        var previous = 0
        for length in 1...bytes.count {
            let trace = try TraceReader.read(bytes: bytes[..<length])
            #expect(trace.events.count >= previous || trace.events.count <= full.events.count)
            previous = trace.events.count
            #expect(trace.diagnostics(.truncated).count <= 1)
        }
        #expect(previous == full.events.count)
    }

    @Test(
        "Every prefix of an object-form trace loads or fails only for ending early",
        arguments: ["object-form.json", "framescope-metadata-object.json"])
    func everyPrefixOfObject(fixture: String) throws {
        let bytes = try Fixture.bytes(fixture)
        for length in 0..<bytes.count {
            do {
                _ = try TraceReader.read(bytes: bytes[..<length])
            } catch {
                #expect(
                    [.unexpectedEnd, .unterminatedString, .notJSON].contains(error.code),
                    "prefix of \(length) bytes: \(error)")
            }
        }
    }

    @Test(
        "Changing any byte of a trace never crashes the reader",
        arguments: ["all-phases.json", "flow-v2-bind-id.json", "framescope-metadata-event.json"])
    func singleByteMutations(fixture: String) throws {
        let original = try Fixture.bytes(fixture)
        let replacements: [UInt8] = [0x00, 0x22, 0x2C, 0x5C, 0x7B, 0x5D, 0x30, 0xFF]
        var loaded = 0
        var failed = 0
        for position in original.indices {
            for replacement in replacements where original[position] != replacement {
                var bytes = original
                bytes[position] = replacement
                do {
                    let trace = try TraceReader.read(bytes: bytes)
                    #expect(trace.diagnostics.count < 400)
                    loaded += 1
                } catch {
                    #expect(error.line >= 1 && error.column >= 1)
                    #expect(error.byteOffset <= bytes.count)
                    failed += 1
                }
            }
        }
        #expect(loaded > 0 && failed > 0)
    }

    @Test("Long names, long numbers and many distinct names are handled")
    func largeTokens() throws {
        let longName = String(repeating: "n", count: 1 << 20)
        let longNumber = "1" + String(repeating: "0", count: 10_000)
        var text =
            #"[{"ph":"X","name":"\#(longName)","ts":1,"dur":1,"args":{"big":\#(longNumber),"digits":0.\#(String(repeating: "9", count: 10_000))}},"#
        for index in 0..<5_000 { text += #"{"ph":"i","name":"n\#(index)","ts":\#(longNumber)e-10000},"# }
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        #expect(trace.name(of: trace.events[0]) == longName)
        #expect(trace.argumentDictionary(of: trace.events[0])["big"] == .double(.infinity))
        #expect(trace.argumentDictionary(of: trace.events[0])["digits"] == .double(1))
        #expect(trace.events.count == 5_001)
        #expect(trace.events.dropFirst().allSatisfy { $0.timestamp == 1_000 })
        #expect(trace.symbols.count == 5_002)
    }

    @Test("Many distinct unknown phases are summarised in a bounded number of diagnostics")
    func manyUnknownPhases() throws {
        var text = "["
        for index in 0..<1_000 { text += #"{"ph":"Q\#(index)","ts":1},"# }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") {
            text += #"{"ph":"\#(Character(Unicode.Scalar(byte)))","ts":1},"#
        }
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        #expect(trace.total(.skippedPhase) == 1_010)
        #expect(trace.diagnostics(.skippedPhase).count == 33 + 10)
        #expect(trace.diagnostics(.skippedPhase).contains { $0.message.hasPrefix(#"phase "(other)": 968 events"#) })
    }
}
