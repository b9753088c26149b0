import FrameTrace
import Testing

@testable import FrameTraceReader

@Suite("Reading only some argument keys")
struct ArgumentSelectionTests {
    static let trace = #"""
        {"traceEvents": [
        {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"main"}},
        {"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":3}},
        {"ph":"X","name":"a","cat":"c","pid":1,"tid":2,"ts":1,"dur":5,"args":{"row":1,"frame":7,"url":"u","frame-budget":2}},
        {"ph":"X","name":"b","cat":"c","pid":1,"tid":2,"ts":2,"dur":1,"args":{"row":1,"url":"u"}},
        {"ph":"X","name":"c","cat":"c","pid":1,"tid":2,"ts":3,"dur":1,"args":{"data":{"url":"v","frame":9},"fr\u0061me":8,"deep":{"a":{"b":1}},"list":[1]}},
        {"ph":"B","name":"d","cat":"c","pid":1,"tid":2,"ts":10,"args":{"frame":1,"row":2}},
        {"ph":"E","pid":1,"tid":2,"ts":12,"args":{"frame":2,"url":"x"}},
        {"ph":"B","name":"e","cat":"c","pid":1,"tid":2,"ts":13,"args":{"row":2}},
        {"ph":"E","pid":1,"tid":2,"ts":14,"args":{"frame":3}},
        {"ph":"C","name":"memory","pid":1,"tid":2,"ts":15,"args":{"frame":4,"row":5,"label":"l"}},
        {"ph":"i","name":"tap","pid":1,"tid":2,"ts":16,"s":"t","args":{"row":1,"url":"u"}}
        ]}
        """#

    static let kept: Set<String> = ["frame", "data.frame", "frame-budget"]

    @Test("Only the selected keys are kept, nested members by their joined key and escaped keys decoded")
    func keepsSelectedKeys() throws {
        let trace = try TraceReader.read(bytes: Array(Self.trace.utf8), arguments: .only(Self.kept))
        #expect(trace.keptArgumentKeys == Self.kept)
        func arguments(_ name: String) -> [Argument] {
            trace.events.first { trace.name(of: $0) == name }.map { trace.arguments(of: $0) } ?? []
        }
        #expect(arguments("a") == [Argument("frame", .int(7)), Argument("frame-budget", .int(2))])
        #expect(arguments("b").isEmpty)
        #expect(arguments("c") == [Argument("data.frame", .int(9)), Argument("frame", .int(8))])
        // A begin keeps its kept keys, and its end's kept keys win over them or are added.
        #expect(arguments("d") == [Argument("frame", .int(2))])
        #expect(arguments("e") == [Argument("frame", .int(3))])
        #expect(arguments("memory") == [Argument("frame", .int(4))])
        #expect(arguments("tap").isEmpty)
        // No list is stored for an event that keeps nothing.
        #expect(trace.events.first { trace.name(of: $0) == "b" }?.arguments == 0)
    }

    @Test("A nested value is kept whole when the selection names its key; both ways of reading agree")
    func keepsNamedNestedValues() throws {
        let selection = TraceReader.ArgumentSelection.only(["list", "deep.a", "frame"])
        let trace = try TraceReader.read(bytes: Array(Self.trace.utf8), arguments: selection)
        let c = try #require(trace.events.first { trace.name(of: $0) == "c" })
        #expect(
            trace.arguments(of: c) == [
                Argument("frame", .int(8)), Argument("deep.a", .object([("b", .int(1))])),
                Argument("list", .array([.int(1)])),
            ])
        // Every argument keeps them too; a selection that names neither does not keep them (nor
        // count them: they are not too deep to keep).
        let all = try TraceReader.read(bytes: Array(Self.trace.utf8))
        #expect(all.total(.skippedArgument) == 0)
        let whole = all.arguments(of: try #require(all.events.first { all.name(of: $0) == "c" }))
        #expect(whole.filter { $0.value.arrayValue != nil || $0.value.objectValue != nil }.count == 2)
        #expect(trace.total(.skippedArgument) == 0)
        #expect(
            try TraceReader.read(bytes: Array(Self.trace.utf8), arguments: .only(["frame"])).total(.skippedArgument)
                == 0)
        let one = try TraceReader.read(bytes: Array(Self.trace.utf8), arguments: .only(["list"]))
        #expect(
            one.arguments(of: try #require(one.events.first { one.name(of: $0) == "c" })) == [
                Argument("list", .array([.int(1)]))
            ])
        ReaderPipelineTests.expectSameBothWays(Array(Self.trace.utf8), "nested selection", arguments: selection)
    }

    @Test("A selection changes nothing but the argument lists: events, threads and diagnostics are the same")
    func sameOtherwise() throws {
        let all = try TraceReader.read(bytes: Array(Self.trace.utf8))
        let some = try TraceReader.read(bytes: Array(Self.trace.utf8), arguments: .only(Self.kept))
        #expect(all.keptArgumentKeys == nil)
        #expect(all.events.count == some.events.count)
        for (whole, selected) in zip(all.events, some.events) {
            var same = whole
            same.arguments = selected.arguments
            #expect(same == selected)
            #expect(all.arguments(of: whole).filter { Self.kept.contains($0.key) } == some.arguments(of: selected))
        }
        #expect(all.threads == some.threads)
        #expect(some.threadName(ThreadKey(processID: 1, threadID: 2)) == "main")
        #expect(all.diagnostics == some.diagnostics)
        #expect(all.symbols.count == some.symbols.count)
    }

    @Test("Keys compare as Swift strings: bytes decide for ASCII, canonical equivalence for the rest")
    func matcher() {
        let matcher = ArgumentKeyMatcher(["frame", "layerTreeId", "Kb", ""])
        for key in ["frame", "layerTreeId", "Kb", "", "\u{212A}b"] { #expect(matcher.matches(key), "\(key)") }
        for key in [
            "frames", "Frame", "fram", "layerTreeID", "url", "row", "K", "b", "é", String(repeating: "f", count: 70),
        ] {
            #expect(!matcher.matches(key), "\(key)")
        }
        let accented = ArgumentKeyMatcher(["caf\u{E9}"])
        #expect(accented.matches("cafe\u{301}"))
        #expect(!accented.matches("cafe"))
        let long = String(repeating: "k", count: 80)
        let longMatcher = ArgumentKeyMatcher([long])
        #expect(longMatcher.matches(long))
        #expect(!longMatcher.matches(String(repeating: "k", count: 79)))
    }
}
