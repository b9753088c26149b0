import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

/// Inputs whose shape made the old parser copy a container on every append (quadratic time):
/// they must come back whole and correct. Speed itself is a benchmark (`framescope-bench robust`).
@Suite("JSONValue and the trace reader parse long and deep containers whole")
struct JSONLinearParsingTests {
    /// `[0,1,2,...]` with `count` elements: the shape of `quadratic-budget-array.json`.
    static func flatArray(_ count: Int) -> [UInt8] {
        var text: [UInt8] = [UInt8(ascii: "[")]
        text.reserveCapacity(count * 7)
        for index in 0..<count {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: String(index).utf8)
        }
        text.append(UInt8(ascii: "]"))
        return text
    }

    @Test("A flat array of 150,000 numbers parses with every element in place")
    func flatArrayOf150k() throws {
        let value = try JSONValue.parse(Self.flatArray(150_000))
        let elements = try #require(value.arrayValue)
        #expect(elements.count == 150_000)
        #expect(elements.first == .int(0))
        #expect(elements[75_000] == .int(75_000))
        #expect(elements.last == .int(149_999))
        #expect(elements.enumerated().allSatisfy { $0.element == .int(Int64($0.offset)) })
    }

    @Test("A budget-shaped object whose description is a 150,000-element array parses whole, with the key after it")
    func longArrayInsideAnObject() throws {
        var text = Array(#"{"description": "#.utf8)
        text += Self.flatArray(150_000)
        text += Array(#", "frame-interval-ms": 16.67}"#.utf8)
        let value = try JSONValue.parse(text)
        #expect(value["description"]?.arrayValue?.count == 150_000)
        #expect(value["frame-interval-ms"]?.doubleValue == 16.67)
    }

    @Test("A deep and wide object keeps every member, in order, at every level")
    func deepAndWide() throws {
        // 200 levels, each with 500 members before the nested one and 500 after.
        let depth = 200
        let width = 500
        var text = ""
        for level in 0..<depth {
            text += "{"
            for member in 0..<width { text += "\"a\(member)\":\(level)," }
            text += "\"next\":"
        }
        text += "[]"
        for level in (0..<depth).reversed() {
            for member in 0..<width { text += ",\"z\(member)\":\"\(level)\"" }
            text += "}"
        }
        var value = try JSONValue.parse(text)
        for level in 0..<depth {
            let members = try #require(value.objectValue)
            #expect(members.count == 2 * width + 1)
            #expect(members[0].0 == "a0" && members[0].1 == .int(Int64(level)))
            #expect(members[width - 1].0 == "a\(width - 1)")
            #expect(members[width].0 == "next")
            #expect(members[width + 1].0 == "z0" && members[width + 1].1 == .string(String(level)))
            #expect(members.last?.0 == "z\(width - 1)")
            value = members[width].1
        }
        #expect(value == .array([]))
    }

    @Test("Nested arrays of arrays and objects in arrays parse to the same structure they were written from")
    func mixedNesting() throws {
        let text = #"[[1,[2,[3,{"k":[4,5,{"m":[]}]}]]],{"a":{"b":{"c":[6]}}},[],{}]"#
        let value = try JSONValue.parse(text)
        #expect(value.description == text)
        #expect(value[0]?[1]?[1]?[1]?["k"]?[2]?["m"] == .array([]))
        #expect(value[1]?["a"]?["b"]?["c"]?[0] == .int(6))
    }

    @Test("A trace whose top-level metadata holds a 150,000-element array reads, keeping its events")
    func quadraticMetadataArray() throws {
        var text = Array(#"{"metadata": {"producer": "framescope", "huge": "#.utf8)
        text += Self.flatArray(150_000)
        text += Array(#"}, "traceEvents": [{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]}"#.utf8)
        let trace = try TraceReader.read(bytes: text)
        #expect(trace.events.count == 1)
        #expect(trace.events.first.map { trace.name(of: $0) } == "a")
    }
}
