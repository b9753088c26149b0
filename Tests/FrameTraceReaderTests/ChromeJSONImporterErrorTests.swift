import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: input that is not a trace fails with a position")
struct ChromeJSONImporterErrorTests {
    @Test(
        "Errors give the code, line and column of the problem",
        arguments: [
            ("not-json.json", TraceReadError.Code.notJSON, 1, 1),
            ("not-a-trace-number.json", .notATrace, 1, 1),
            ("not-a-trace-object.json", .notATrace, 1, 1),
            ("trace-events-not-array.json", .notATrace, 1, 17),
            ("missing-comma.json", .unexpectedToken, 3, 11),
            ("unterminated-string.json", .unterminatedString, 1, 21),
            ("truncated-object-before-events.json", .unterminatedString, 1, 27),
            ("invalid-escape.json", .invalidEscape, 2, 22),
            ("invalid-number-leading-zero.json", .invalidNumber, 1, 44),
            ("invalid-number-bare-minus.json", .invalidNumber, 1, 45),
            ("invalid-number-dot.json", .invalidNumber, 1, 46),
            ("control-character-in-string.json", .unexpectedToken, 1, 23),
            ("trailing-garbage.json", .unexpectedToken, 2, 1),
            ("trailing-comma-in-args.json", .unexpectedToken, 1, 60),
            ("bad-literal.json", .unexpectedToken, 1, 61),
        ] as [(String, TraceReadError.Code, Int, Int)])
    func positionedErrors(fixture: String, code: TraceReadError.Code, line: Int, column: Int) throws {
        let error = try #require(throws: TraceReadError.self) { try Fixture.read(fixture) }
        #expect(error.code == code)
        #expect(error.line == line)
        #expect(error.column == column)
        let fromBytes = try #require(throws: TraceReadError.self) {
            try TraceReader.read(bytes: Fixture.bytes(fixture))
        }
        #expect(fromBytes == error)
    }

    @Test("The description says where, then what")
    func description() throws {
        let error = try #require(throws: TraceReadError.self) { try Fixture.read("missing-comma.json") }
        #expect(error.byteOffset == 66)
        #expect(
            error.description == #"line 3, column 11 (byte 66): expected ',' or '}' after an event member, found '"'"#)
    }

    @Test(
        "Empty and blank input is not JSON; only empty input is called empty, and a lone line feed (a Perfetto packet's first byte) is too short for a packet",
        arguments: [
            ("", "the input is empty"),
            ("   \n\t  ", "the input is 7 bytes of white space: no JSON value"),
            ("\n", "the input is 1 byte, a line feed: no JSON value, and too short to hold one Perfetto packet"),
            ("\n\n ", "the input is 3 bytes of white space: no JSON value, nor a Perfetto trace"),
            ("\u{FEFF} ", "the input is 4 bytes with nothing after its byte-order mark but white space: no JSON value"),
        ])
    func emptyInput(text: String, message: String) throws {
        let error = try #require(throws: TraceReadError.self) { try TraceReader.read(bytes: Array(text.utf8)) }
        #expect(error.code == .notJSON)
        #expect(error.message == message)
    }

    @Test("Columns count Unicode scalars, not bytes")
    func columnsCountScalars() throws {
        let text = "[{\"name\":\"é€😀\" x}]"
        let error = try #require(throws: TraceReadError.self) { try TraceReader.read(bytes: Array(text.utf8)) }
        #expect(error.line == 1)
        #expect(error.column == 16)
        #expect(error.byteOffset == 21)
    }

    @Test("Top-level values that are not traces are rejected", arguments: ["\"trace\"", "true", "null", "-1", "[] []"])
    func notTraces(text: String) throws {
        #expect(throws: TraceReadError.self) { try TraceReader.read(bytes: Array(text.utf8)) }
    }
}
