import FrameJSON
import FrameTrace
import Testing

@Suite("JSONValue: a small document parser for budgets and metadata")
struct JSONValueTests {
    @Test("Every kind of value parses, objects keep their member order and duplicates")
    func kinds() throws {
        let value = try JSONValue.parse(#"{"z": null, "a": [true, false, 1, -2.5, "x"], "m": {}, "a": []}"#)
        let members = try #require(value.objectValue)
        #expect(members.map(\.0) == ["z", "a", "m", "a"])
        #expect(value["z"] == .null)
        #expect(value["z"]?.isNull == true)
        #expect(value["a"] == .array([.bool(true), .bool(false), .int(1), .double(-2.5), .string("x")]))
        #expect(value["a"]?[2]?.integerValue == 1)
        #expect(value["a"]?[3]?.doubleValue == -2.5)
        #expect(value["a"]?[4]?.stringValue == "x")
        #expect(value["a"]?[0]?.boolValue == true)
        #expect(value["a"]?[9] == nil)
        #expect(value["m"] == .object([]))
        #expect(value["missing"] == nil)
    }

    @Test(
        "Integer literals that fit stay exact; other numbers are correctly rounded doubles",
        arguments: [
            ("0", JSONValue.int(0)),
            ("-0", .int(0)),
            ("9223372036854775807", .int(.max)),
            ("-9223372036854775808", .int(.min)),
            ("9223372036854775808", .double(9_223_372_036_854_775_808)),
            ("1.0", .double(1)),
            ("0.1", .double(0.1)),
            ("1e2", .double(100)),
            ("2.2250738585072014e-308", .double(2.2250738585072014e-308)),
            ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
            ("1e309", .double(.infinity)),
            ("-1e309", .double(-.infinity)),
            ("123456789012345678901234567890", .double(1.2345678901234568e29)),
            ("0.30000000000000004", .double(0.30000000000000004)),
            ("4.9e-324", .double(.leastNonzeroMagnitude)),
            ("1e-400", .double(0)),
        ] as [(String, JSONValue)])
    func numbers(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test("Strings decode every escape, surrogate pairs included")
    func strings() throws {
        let value = try JSONValue.parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", "\ud800"]"#)
        #expect(value == .array([.string("a\"b\\c/d\u{8}\u{C}\n\r\t"), .string("é😀"), .string("\u{FFFD}")]))
    }

    @Test(
        "Syntax errors give the line and column",
        arguments: [
            ("{\n  \"p95-ms\": 12\n  \"p99-ms\": 20\n}", JSONParseError.Code.unexpectedToken, 3, 3),
            ("{\"a\": }", .unexpectedToken, 1, 7),
            ("[1, 2", .unexpectedEnd, 1, 6),
            ("{\"a\" 1}", .unexpectedToken, 1, 6),
            ("{1: 2}", .unexpectedToken, 1, 2),
            ("[01]", .invalidNumber, 1, 2),
            ("[\"\\x\"]", .invalidEscape, 1, 3),
            ("[\"abc", .unterminatedString, 1, 2),
            ("[1] 2", .unexpectedToken, 1, 5),
            ("", .notJSON, 1, 1),
            ("nul", .unexpectedEnd, 1, 4),
            ("[nulx]", .unexpectedToken, 1, 5),
        ] as [(String, JSONParseError.Code, Int, Int)])
    func errors(text: String, code: JSONParseError.Code, line: Int, column: Int) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error.code == code)
        #expect(error.line == line)
        #expect(error.column == column)
    }

    @Test("An error says what and where, as the trace readers say it")
    func errorDescription() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse("[1,\n 2") }
        #expect(error.code == .unexpectedEnd)
        #expect(error.byteOffset == 6)
        #expect(
            error.description
                == "line 2, column 3 (byte 6): the input ends where ',' or ']' after an array element was expected")
    }

    @Test("Nesting is capped with a clear error instead of overflowing the stack")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        #expect(error.code == .tooDeep)
        #expect(error.column == 513)
        let hostile = String(repeating: "{\"a\":", count: 200_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(hostile, maxDepth: 100) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: "[", count: 200_000)) }
    }

    @Test("The description is compact JSON that parses back to the same value")
    func descriptionRoundTrip() throws {
        let text = #"{"name":"budget \"a\"","frames":[1,2.5,-3,true,null,{"nested":[[]]}],"empty":{}}"#
        let value = try JSONValue.parse(text)
        #expect(value.description == text)
        #expect(try JSONValue.parse(value.description) == value)
        #expect(JSONValue.double(.nan).description == "null")
    }

    @Test("Bytes and text parse alike, a byte-order mark included")
    func bytesAndText() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)
        #expect(try JSONValue.parse(bytes) == .object([("a", .int(1))]))
        #expect(try JSONValue.parse(bytes.lazy.map { $0 }) == JSONValue.parse(#"{"a":1}"#))
    }

    @Test("Equality and hashing are structural")
    func equality() throws {
        let a = try JSONValue.parse(#"{"x":[1,2],"y":"z"}"#)
        let b = try JSONValue.parse(#"{ "x" : [ 1 , 2 ] , "y" : "z" }"#)
        let c = try JSONValue.parse(#"{"y":"z","x":[1,2]}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c, "member order matters")
        #expect(JSONValue.int(1) != .double(1))
        #expect(JSONValue.double(2).integerValue == 2)
        #expect(JSONValue.double(2.5).integerValue == nil)
    }
}
