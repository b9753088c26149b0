import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: inconsistent traces load with diagnostics")
struct ChromeJSONImporterDiagnosticTests {
    @Test("An unclosed begin is closed at the trace's last timestamp and flagged")
    func unclosedBegin() throws {
        let trace = try Fixture.read("unclosed-begin.json")
        #expect(trace.indexes(.unclosedBegin) == [0])
        let outer = try #require(trace.event(named: "outer"))
        #expect(outer.phase == .complete)
        #expect(outer.endTimestamp == 100_000, "the last event ends at 100 µs on another thread")
        #expect(trace.event(named: "inner")?.duration == 10_000)
        #expect(
            trace.events.map { trace.name(of: $0) } == ["outer", "inner", "last"], "a span keeps its begin's position")
    }

    @Test("An end with nothing open is dropped and flagged")
    func unmatchedEnd() throws {
        let trace = try Fixture.read("unmatched-end.json")
        #expect(trace.indexes(.unmatchedEnd) == [0, 3, 5])
        #expect(trace.indexes(.unclosedBegin) == [4], "a begin on another thread does not match")
        #expect(trace.events.count == 2)
        #expect(trace.event(named: "a")?.duration == 10_000)
    }

    @Test(
        "An end closes the innermost begin even when its name differs, and is flagged; one naming no open begin is dropped"
    )
    func mismatchedEndName() throws {
        let trace = try Fixture.read("mismatched-end-name.json")
        #expect(trace.indexes(.mismatchedEndName) == [2])
        #expect(trace.indexes(.unmatchedEnd) == [3], "beta is closed already")
        #expect(trace.indexes(.unclosedBegin) == [0], "alpha is closed at the trace's end, 3 µs")
        #expect(trace.event(named: "beta")?.duration == 1_000)
        #expect(trace.event(named: "alpha")?.duration == 3_000)
        #expect(
            trace.diagnostics(.mismatchedEndName).first?.message
                == #"end "alpha" closes begin "beta" (the innermost open one)"#)
    }

    @Test(
        "Complete events that partially overlap on one thread are flagged",
        arguments: ["x-overlap.json", "x-overlap-unsorted.json"])
    func partialOverlap(fixture: String) throws {
        let trace = try Fixture.read(fixture)
        #expect(trace.indexes(.partialOverlap) == [1])
        #expect(trace.events.count == 3, "overlapping events are kept")
    }

    @Test("Nested, adjacent and equal-start complete events are not overlaps")
    func properNesting() throws {
        let trace = try Fixture.read("x-nested.json")
        #expect(trace.diagnostics.isEmpty)
    }

    @Test("A negative duration is flagged and read as zero")
    func negativeDuration() throws {
        let trace = try Fixture.read("negative-duration.json")
        #expect(trace.indexes(.negativeDuration) == [0])
        // In timestamp order the end at 15 µs comes before the begin at 20 µs: nothing is open.
        #expect(trace.indexes(.unmatchedEnd) == [2])
        #expect(trace.indexes(.unclosedBegin) == [1])
        #expect(trace.events.map(\.duration) == [0, 0])
    }

    @Test("Complete events in any order are legal: read in input order, with no diagnostic")
    func outOfOrder() throws {
        let trace = try Fixture.read("out-of-order.json")
        #expect(trace.diagnostics.isEmpty)
        #expect(trace.events.map { trace.name(of: $0) } == ["a", "b", "c", "d", "e"], "input order is kept")
    }

    @Test("Begin/end events going back in time on a thread become one summary with the count and first index")
    func outOfOrderBeginEnd() throws {
        let trace = try Fixture.read("out-of-order-begin-end.json")
        let diagnostics = trace.diagnostics(.outOfOrder)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.count == 2)
        #expect(diagnostics.first?.eventIndex == 2)
        #expect(diagnostics.first?.message.contains("2 begin/end events are earlier") == true)
    }

    @Test("Events the reader cannot use are dropped with their index")
    func invalidEvents() throws {
        let trace = try Fixture.read("invalid-events.json")
        #expect(trace.indexes(.invalidEvent) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10])
        #expect(trace.events.map { trace.name(of: $0) } == ["fine"])
    }

    @Test("Async and flow events that do not pair are flagged")
    func unpairedAsyncAndFlow() throws {
        let trace = try Fixture.read("unmatched-async-and-flow.json")
        #expect(trace.indexes(.unmatchedAsync) == [0, 1, 2])
        #expect(trace.indexes(.unmatchedFlow) == [3, 4, 5])
        #expect(trace.events.count == 6, "unpaired events are kept")
    }

    @Test("Begins and ends pair in timestamp order per thread: B A@0, B B@5, E A@10, E B@7 is A = [0, 10], B = [5, 7]")
    func pairsInTimestampOrder() throws {
        let trace = try TraceReader.read(
            bytes: Array(
                """
                [{"ph":"B","name":"A","pid":1,"tid":1,"ts":0},{"ph":"B","name":"B","pid":1,"tid":1,"ts":5},
                 {"ph":"E","name":"A","pid":1,"tid":1,"ts":10,"args":{"end":1}},{"ph":"E","name":"B","pid":1,"tid":1,"ts":7}]
                """.utf8))
        #expect(trace.event(named: "A").map { [$0.timestamp, $0.duration] } == [0, 10_000])
        #expect(trace.event(named: "B").map { [$0.timestamp, $0.duration] } == [5_000, 2_000])
        #expect(
            trace.event(named: "A").map { trace.arguments(of: $0) } == [Argument("end", 1)],
            "an end's arguments follow its pair")
        #expect(trace.diagnostics.filter { $0.kind != .outOfOrder }.isEmpty)
    }

    @Test("Ends that tie in time close the begins their names say, innermost first")
    func tiedEndsMatchNames() throws {
        let trace = try TraceReader.read(
            bytes: Array(
                """
                [{"ph":"B","name":"outer","pid":1,"tid":1,"ts":1},{"ph":"B","name":"inner","pid":1,"tid":1,"ts":1},
                 {"ph":"E","name":"outer","pid":1,"tid":1,"ts":2,"args":{"who":"outer"}},{"ph":"E","name":"inner","pid":1,"tid":1,"ts":2,"args":{"who":"inner"}},
                 {"ph":"B","name":"next","pid":1,"tid":1,"ts":2},{"ph":"E","name":"next","pid":1,"tid":1,"ts":3}]
                """.utf8))
        #expect(trace.diagnostics.isEmpty)
        for name in ["outer", "inner"] {
            let event = try #require(trace.event(named: name))
            #expect(trace.arguments(of: event) == [Argument("who", .string(name))])
            #expect(event.duration == 1_000)
        }
        #expect(trace.event(named: "next")?.duration == 1_000)
    }

    @Test("Diagnostics carry their event index in their description")
    func description() throws {
        let trace = try Fixture.read("unmatched-end.json")
        #expect(
            trace.diagnostics.first?.description
                == #"unmatched-end at event 0: end "orphan" on thread 1:1 has no open begin; it is dropped"#)
    }

    @Test("A flood of one kind lists 100 and summarises the rest, so the list stays bounded")
    func boundedDiagnostics() throws {
        var text = "["
        for index in 0..<1_000 { text += #"{"ph":"E","pid":1,"tid":1,"ts":\#(index)},"# }
        for index in 0..<300 { text += #"{"ph":"B","name":"open","pid":1,"tid":2,"ts":\#(index)},"# }
        for index in 0..<500 { text += #"{"ph":"X","name":"back","pid":1,"tid":3,"ts":\#(1_000 - index),"dur":1},"# }
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        #expect(trace.diagnostics(.unmatchedEnd).count == 101)
        #expect(trace.total(.unmatchedEnd) == 1_000)
        #expect(trace.diagnostics(.unmatchedEnd).last?.eventIndex == nil)
        #expect(trace.diagnostics(.unmatchedEnd).last?.count == 900)
        #expect(trace.total(.unclosedBegin) == 300)
        #expect(trace.diagnostics(.unclosedBegin).count == 101)
        #expect(trace.diagnostics(.outOfOrder).isEmpty, "complete events going back in time are legal")
        #expect(trace.count(.complete) == 800)
    }
}
