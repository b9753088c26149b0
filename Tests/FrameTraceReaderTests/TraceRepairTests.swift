import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

@Suite("Repairing a stream killed mid-write: only the torn event is dropped")
struct TraceRepairTests {
    @Test(
        "stream-killed-mid-write.json reads with a truncated diagnostic, and repairs to a complete trace of its complete events"
    )
    func killedMidWrite() throws {
        let bytes = try Fixture.bytes("stream-killed-mid-write.json")
        let read = try Fixture.read("stream-killed-mid-write.json")
        #expect(read.diagnostics.map(\.kind) == [.truncated])
        #expect(read.events.filter { $0.phase == .complete }.count == 3)

        let repair = try TraceRepair.repair(bytes)
        #expect(!repair.wasComplete)
        #expect(repair.keptEventCount == 5)
        let tornEvent = #"{"ph":"X","cat":"layout","name":"lay"#
        #expect(repair.droppedByteCount == tornEvent.utf8.count + 2)  // ",\n" before it
        #expect(repair.bytes.suffix(3) == Array("\n]\n".utf8))
        #expect(throws: Never.self) { try JSONValue.parse(repair.bytes) }
        let repaired = try TraceReader.read(bytes: repair.bytes)
        #expect(repaired.diagnostics.isEmpty)
        #expect(repaired.events.count == read.events.count)
        // Everything before the cut is kept byte for byte.
        #expect(
            Array(repair.bytes.prefix(repair.droppedFromOffset ?? 0))
                == Array(bytes.prefix(repair.droppedFromOffset ?? 0)))
    }

    @Test(
        "Every cut of a complete stream reads, and repairs to valid JSON holding exactly the events complete before the cut"
    )
    func everyCut() throws {
        let whole = Array(
            """
            [
            {"ph":"M","name":"framescope","pid":0,"tid":0,"args":{"producer":"framescope"}},
            {"ph":"X","cat":"a","name":"one","pid":1,"tid":1,"ts":0,"dur":5},
            {"ph":"X","cat":"a","name":"two \\"q\\"","pid":1,"tid":1,"ts":1.5,"dur":2,"args":{"k":[1,{"x":null}]}},
            {"ph":"i","name":"three","pid":1,"tid":1,"ts":7,"s":"t"}
            ]

            """.utf8)
        // The end of each event in the text, to know how many are complete at a cut.
        var ends: [Int] = []
        var depth = 0
        var inString = false
        var escaped = false
        for (index, byte) in whole.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            if byte == 0x22 { inString = true }
            if byte == 0x7B || byte == 0x5B { depth += 1 }
            if byte == 0x7D || byte == 0x5D {
                depth -= 1
                if depth == 1, byte == 0x7D { ends.append(index + 1) }
            }
        }
        #expect(ends.count == 4)
        for cut in 1...whole.count {
            let prefix = Array(whole.prefix(cut))
            let complete = ends.filter { $0 <= cut }.count
            #expect(throws: Never.self, "cut at \(cut)") { _ = try TraceReader.read(bytes: prefix) }
            let repair = try TraceRepair.repair(prefix)
            #expect(repair.keptEventCount == complete, "cut at \(cut)")
            let value = try JSONValue.parse(repair.bytes)
            #expect(value.arrayValue?.count == complete, "cut at \(cut)")
            if repair.wasComplete { #expect(repair.bytes == prefix) }
        }
    }

    @Test("A trailing comma before the bracket is dropped, since JSON does not allow it")
    func trailingComma() throws {
        let repair = try TraceRepair.repair(Array(#"[{"ph":"i","name":"a","ts":1},]"#.utf8))
        #expect(!repair.wasComplete)
        #expect(repair.keptEventCount == 1)
        #expect(String(decoding: repair.bytes, as: UTF8.self) == "[{\"ph\":\"i\",\"name\":\"a\",\"ts\":1}\n]\n")
    }

    @Test("The object form and errors before the cut are not repaired: the error says where")
    func notRepairable() {
        #expect(throws: TraceReadError.self) { try TraceRepair.repair(Array(#"{"traceEvents":[{"ph":"i"#.utf8)) }
        let error = try? #require(throws: TraceReadError.self) {
            try TraceRepair.repair(Array(#"[{"ph":"i"} {"ph":"i"}]"#.utf8))
        }
        #expect(error?.line == 1)
    }
}
