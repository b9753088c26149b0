import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: phases, metadata, ids and arguments")
struct ChromeJSONImporterPhaseTests {
    @Test("Every modelled phase is read; other phases are skipped and counted per phase")
    func allPhases() throws {
        let trace = try Fixture.read("all-phases.json")
        #expect(
            trace.events.map(\.phase) == [
                .metadata, .complete, .complete, .instant, .instant, .instant, .counter,
                .asyncBegin, .asyncInstant, .asyncEnd, .flowStart, .flowStep, .flowEnd,
            ])
        let span = try #require(trace.event(named: "span"))
        #expect(span.timestamp == 20_000 && span.duration == 10_000)
        #expect(trace.event(named: "instant")?.scope == .process)
        #expect(trace.event(named: "legacy instant")?.scope == .global)
        #expect(trace.event(named: "thread instant")?.scope == .thread)
        #expect(trace.events(named: "async").map(\.id) == [0x2A, 0x2A])
        #expect(trace.event(named: "async step")?.id == 0x2A)
        #expect(trace.events(named: "flow").map(\.bindingPoint) == [.unspecified, .unspecified, .enclosing])
        #expect(trace.events(named: "flow").allSatisfy { $0.id == 7 })
        let skipped = trace.diagnostics(.skippedPhase)
        let byLetter = Dictionary(
            uniqueKeysWithValues: skipped.map { (phaseLetter(of: $0), ($0.count, $0.eventIndex)) })
        #expect(byLetter["P"]! == (1, 18))
        #expect(byLetter["O"]! == (1, 19))
        #expect(byLetter["N"]! == (1, 20))
        #expect(byLetter["D"]! == (1, 21))
        #expect(byLetter["S"]! == (2, 22))
        #expect(byLetter["T"]! == (1, 23))
        #expect(byLetter["F"]! == (1, 24))
        #expect(byLetter["R"]! == (1, 25))
        #expect(byLetter["XY"]! == (1, 27))
        #expect(trace.diagnostics.count == skipped.count)
    }

    @Test("Name and sort-index metadata fill the thread and process tables")
    func threadAndProcessMetadata() throws {
        let trace = try Fixture.read("all-phases.json")
        let main = ThreadKey(processID: 1, threadID: 1)
        #expect(trace.threads[main] == TraceThread(key: main, name: "main", sortIndex: 3))
        #expect(trace.processes[1] == TraceProcess(processID: 1, name: "App", sortIndex: -2))
        let labels = try #require(trace.event(named: "process_labels"))
        #expect(trace.arguments(of: labels) == [Argument("labels", "demo")])
    }

    @Test("Async ids: numbers and hex or decimal strings agree; scope and local ids keep pairs apart")
    func asyncIDs() throws {
        let trace = try Fixture.read("async-ids.json")
        func id(_ name: String) throws -> UInt64 { try #require(trace.event(named: name)).id }
        #expect(try id("plain hex") == 16)
        #expect(try id("plain decimal string") == 16)
        #expect(try id("plain number") == 16)
        #expect(try id("scope one") != id("scope two"))
        #expect(try id("scope one") != 16)
        #expect(try id("local in pid 1") != id("local in pid 2"))
        #expect(try id("global in pid 1") == id("global in pid 2"))
        #expect(try id("global in pid 1") == 16)
        #expect(try id("word id") == id("same word id"))
        #expect(try id("negative id") == UInt64.max)
        #expect(try id("big hex") == 0xAF7D_969B_95AF_5AA3)
    }

    @Test("Flow v2: bind_id with flow_in and flow_out becomes flow events bound to the slice")
    func flowV2() throws {
        let trace = try Fixture.read("flow-v2-bind-id.json")
        let summary = trace.events.map { "\($0.phase.letter) \(trace.name(of: $0)) \($0.thread)" }
        #expect(
            summary == [
                "X send 1:1", "s send 1:1",
                "X relay 2:2", "f relay 2:2", "s relay 2:2",
                "X receive 3:3", "f receive 3:3",
                "X bind id without direction 1:1",
            ])
        let flows = trace.events.filter { $0.phase == .flowStart || $0.phase == .flowEnd }
        #expect(flows.allSatisfy { $0.id == 0x402 && $0.bindingPoint == .enclosing && $0.duration == 0 })
        #expect(trace.events(named: "relay").allSatisfy { $0.timestamp == 20_000 })
        #expect(trace.diagnostics.isEmpty)
    }

    @Test(
        "framescope's metadata is read from its M event and from the object form",
        arguments: ["framescope-metadata-event.json", "framescope-metadata-object.json"])
    func framescopeMetadata(fixture: String) throws {
        let trace = try Fixture.read(fixture)
        let metadata = trace.metadata
        #expect(metadata.producer == "framescope")
        #expect(metadata.producerVersion == "0.1.0")
        #expect(metadata.clock == .manual)
        #expect(metadata.frameIntervalNanoseconds == 16_666_667)
        #expect(metadata.mainThread == ThreadKey(processID: 10, threadID: 1))
        #expect(
            metadata.droppedEvents == [
                ThreadKey(processID: 10, threadID: 1): 3, ThreadKey(processID: 10, threadID: 2): 4,
            ])
        #expect(
            metadata.extra == [
                Argument("scenario", "feed"), Argument("seed", 42), Argument("ratio", 0.5), Argument("fast", true),
                Argument("nothing", .null),
            ])
        #expect(trace.events.map(\.phase) == [.complete], "the framescope M event is not kept as an event")
        #expect(trace.total(.droppedEvents) == 7)
    }

    @Test("Another producer's top-level metadata is not taken for framescope's")
    func foreignMetadata() throws {
        let trace = try Fixture.read("foreign-metadata-object.json")
        #expect(trace.metadata.isEmpty)
        #expect(trace.events.count == 1)
    }

    @Test("String pids and tids: numeric strings are numbers, others get stable synthetic ids and names")
    func stringThreadIDs() throws {
        let trace = try Fixture.read("string-pid-tid.json")
        func thread(_ name: String) throws -> ThreadKey { try #require(trace.event(named: name)).thread }
        #expect(try thread("a") == thread("e"))
        #expect(try thread("a").processID == thread("b").processID)
        #expect(try thread("a") != thread("b"))
        #expect(try thread("a").processID >= 1 << 48)
        #expect(try trace.threadName(thread("a")) == "main")
        #expect(try trace.threadName(thread("b")) == "Compositor", "thread_name metadata wins over the string")
        #expect(try trace.processes[thread("a").processID]?.name == "renderer")
        #expect(try thread("c") == ThreadKey(processID: 7, threadID: 12))
        #expect(try thread("d") == ThreadKey(processID: 7, threadID: -1))
        #expect(try thread("f") == ThreadKey(processID: 3, threadID: 3), "a missing tid is the pid")
        #expect(try thread("g") == ThreadKey(processID: 3, threadID: 4), "a fractional tid is truncated")
        #expect(try thread("h") == ThreadKey(processID: 0, threadID: 0), "null is missing")
    }

    @Test("Escapes decode, surrogate pairs included; unpaired surrogates become U+FFFD")
    func unicodeEscapes() throws {
        let trace = try Fixture.read("unicode-escapes.json")
        let names = trace.events.map { trace.name(of: $0) }
        #expect(
            names == [
                "café 😀 \"quoted\" back\\slash / \u{08}\u{0C}\n\r\t",
                "lone \u{FFFD} high",
                "lone \u{FFFD} low",
                "high then letter \u{FFFD}x",
                "escaped key",
                "raw UTF-8 é中😀",
            ])
        #expect(trace.events[4].phase == .complete, "an escaped key and phase still count")
        #expect(trace.arguments(of: trace.events[5]) == [Argument("kéy", "vàlue"), Argument("nul", "a\u{0}b")])
    }

    @Test(
        "Scalar arguments are kept, an object's scalars as outer.inner, arrays and deeper values whole; a selection keeps only what it names"
    )
    func nestedArguments() throws {
        let trace = try Fixture.read("nested-args.json")
        let mixed = try #require(trace.event(named: "mixed"))
        let arguments = trace.arguments(of: mixed)
        #expect(
            arguments.filter { $0.value.arrayValue == nil && $0.value.objectValue == nil } == [
                Argument("int", 42), Argument("double", 2.5), Argument("string", "s"), Argument("true", true),
                Argument("false", false), Argument("null", .null), Argument("object.x", 1), Argument("after", 7),
            ])
        #expect(arguments.first { $0.key == "array" }?.value == .array([1, 2, 3]))
        // "deep" holds "a" many levels deep: one object argument, deep.a, with the rest inside.
        var depth = 0
        var value = arguments.first { $0.key == "deep.a" }?.value
        while let inner = value?["a"] {
            depth += 1
            value = inner
        }
        #expect(depth > 50 && value == 1)
        #expect(trace.total(.skippedArgument) == 0)

        let scalars = try TraceReader.read(
            contentsOf: Fixture.path("nested-args.json"), arguments: .only(["int", "object.x"]))
        #expect(
            scalars.arguments(of: try #require(scalars.event(named: "mixed"))) == [
                Argument("int", 42), Argument("object.x", 1),
            ])
        #expect(scalars.total(.skippedArgument) == 0, "values not selected are not skipped ones")
    }

    @Test("Counters keep only their numeric arguments, an object's numbers as outer.inner")
    func counterArguments() throws {
        let trace = try Fixture.read("counter-args.json")
        #expect(trace.events.count == 2)
        #expect(
            trace.arguments(of: trace.events[0]) == [
                Argument("resident", 120.5), Argument("images", 12), Argument("nested.x", 1),
            ])
        #expect(trace.arguments(of: trace.events[1]).isEmpty)
    }

    @Test("A begin/end pair becomes one complete event whose arguments merge, the end's winning")
    func beginEndMerge() throws {
        let trace = try Fixture.read("begin-end-args-merge.json")
        #expect(trace.events.count == 2)
        let load = try #require(trace.event(named: "load"))
        #expect(load.phase == .complete && load.duration == 10_000)
        #expect(trace.arguments(of: load) == [Argument("url", "a.png"), Argument("size", 2), Argument("status", "ok")])
        let onlyEnd = try #require(trace.event(named: "only end args"))
        #expect(trace.arguments(of: onlyEnd) == [Argument("result", 3)])
    }

    @Test("Events with identical args share one argument list; begin lists stay their own")
    func sharedArgumentLists() throws {
        var text = "["
        for index in 0..<50 {
            text +=
                #"{"ph":"X","name":"task","pid":1,"tid":1,"ts":\#(index * 10),"dur":5,"args":{"src_file":"a.cc","src_func":"Run"}},"#
            text +=
                #"{"ph":"B","name":"b","pid":1,"tid":2,"ts":\#(index * 10),"args":{"k":1}},{"ph":"E","pid":1,"tid":2,"ts":\#(index * 10 + 1),"args":{"n":\#(index)}},"#
        }
        text += "{}]"
        let trace = try TraceReader.read(bytes: Array(text.utf8))
        let tasks = trace.events(named: "task")
        #expect(Set(tasks.map(\.arguments)).count == 1)
        #expect(trace.arguments(of: tasks[0]) == [Argument("src_file", "a.cc"), Argument("src_func", "Run")])
        let spans = trace.events(named: "b")
        #expect(Set(spans.map(\.arguments)).count == 50)
        for (index, span) in spans.enumerated() {
            #expect(trace.arguments(of: span) == [Argument("k", 1), Argument("n", .int(Int64(index)))])
        }
    }

    /// The phase letter a skipped-phase diagnostic is about (`phase "S": ...`).
    private func phaseLetter(of diagnostic: TraceDiagnostic) -> String {
        let parts = diagnostic.message.split(separator: "\"")
        return parts.count > 1 ? String(parts[1]) : ""
    }

    @Test(
        "A nested value is kept whole up to keptNestingDepth levels; a deeper one is skipped and counted, whatever the selection"
    )
    func nestingLimit() throws {
        func trace(depth: Int) -> [UInt8] {
            let value = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            return Array(#"[{"ph":"X","name":"a","ts":1,"dur":1,"args":{"v":\#(value),"w":2}}]"#.utf8)
        }
        let limit = TraceReader.keptNestingDepth
        let kept = try TraceReader.read(bytes: trace(depth: limit))
        var value = kept.arguments(of: kept.events[0]).first { $0.key == "v" }?.value
        var depth = 0
        while let inner = value?[0] {
            depth += 1
            value = inner
        }
        #expect(depth == limit && value == 1 && kept.total(.skippedArgument) == 0)
        for selection in [TraceReader.ArgumentSelection.all, .only(["v", "w"]), .only(["w"])] {
            let deep = try TraceReader.read(bytes: trace(depth: limit + 1), arguments: selection)
            #expect(deep.arguments(of: deep.events[0]) == [Argument("w", 2)])
            #expect(deep.total(.skippedArgument) == 1)
        }
    }
}
