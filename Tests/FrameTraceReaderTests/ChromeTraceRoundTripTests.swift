import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: what the writer writes reads back")
struct ChromeTraceRoundTripTests {
    /// A trace with every phase the writer writes, thread and process tables, and metadata.
    static func sampleTrace() -> Trace {
        var trace = Trace()
        let main = ThreadKey(processID: 10, threadID: 1)
        let worker = ThreadKey(processID: 10, threadID: 2)
        trace.setThread(TraceThread(key: main, name: "main", sortIndex: 0))
        trace.setThread(TraceThread(key: worker, name: "decode \"worker\" ✓"))
        trace.processes[10]?.name = "Demo"
        trace.append(
            .complete, name: "frame", category: "frame", thread: main, timestamp: 0, duration: 16_666_667,
            arguments: [Argument("index", 1)])
        trace.append(
            .complete, name: "layout", category: "layout", thread: main, timestamp: 1_000, duration: 2_500_001,
            arguments: [
                Argument("rows", 12), Argument("ratio", 0.25), Argument("cell", "Feed\nCell"),
                Argument("cached", false), Argument("none", .null),
            ])
        trace.append(.instant, name: "vsync", thread: main, timestamp: 16_666_667, scope: .process)
        trace.append(
            .counter, name: "memory", thread: main, timestamp: 2_000, arguments: [Argument("resident-mb", 120.5)])
        trace.append(.asyncBegin, name: "fetch", category: "net", thread: main, timestamp: 3_000, id: 77)
        trace.append(.asyncEnd, name: "fetch", category: "net", thread: worker, timestamp: 9_000, id: 77)
        trace.append(.flowStart, name: "decode", category: "image", thread: main, timestamp: 4_000, id: 5)
        trace.append(
            .flowEnd, name: "decode", category: "image", thread: worker, timestamp: 5_000, id: 5,
            bindingPoint: .enclosing)
        trace.append(
            .complete, name: "decode", category: "image", thread: worker, timestamp: 5_000, duration: 1_234_567)
        trace.metadata = TraceMetadata(
            producer: "framescope", producerVersion: FramescopeVersion.current, clock: .manual,
            frameIntervalNanoseconds: 16_666_667, mainThread: main, droppedEvents: [worker: 2],
            extra: [Argument("scenario", "feed"), Argument("seed", 7)])
        return trace
    }

    @Test(
        "Both forms of a written trace read back to the same values",
        arguments: [ChromeTraceWriter.Form.object, .array])
    func roundTrip(form: ChromeTraceWriter.Form) throws {
        let original = Self.sampleTrace()
        let read = try TraceReader.read(bytes: original.chromeJSON(form: form))
        #expect(read.events.count == original.events.count)
        for (a, b) in zip(original.events, read.events) {
            #expect(a.phase == b.phase)
            #expect(original.name(of: a) == read.name(of: b))
            #expect(original.category(of: a) == read.category(of: b))
            #expect(a.thread == b.thread)
            #expect(a.timestamp == b.timestamp)
            #expect(a.duration == b.duration)
            #expect(a.id == b.id)
            #expect(a.bindingPoint == b.bindingPoint)
            #expect(original.arguments(of: a) == read.arguments(of: b))
        }
        #expect(read.event(named: "vsync")?.scope == .process)
        #expect(
            read.threads[ThreadKey(processID: 10, threadID: 1)]
                == original.threads[ThreadKey(processID: 10, threadID: 1)])
        #expect(read.threadName(ThreadKey(processID: 10, threadID: 2)) == "decode \"worker\" ✓")
        #expect(read.processes[10]?.name == "Demo")
        #expect(read.metadata == original.metadata)
        #expect(read.diagnostics.map(\.kind) == [.droppedEvents], "a counter earlier than the vsync before it is legal")
    }

    @Test("A stream cut off before its closing bracket still reads, metadata event included")
    func unclosedStream() throws {
        let trace = Self.sampleTrace()
        var writer = ChromeTraceWriter(form: .array, baseTimestamp: 0)
        var bytes = writer.begin()
        bytes += writer.append(trace)
        bytes += writer.finish(metadata: trace.metadata, closeArray: false)
        let read = try TraceReader.read(bytes: bytes)
        #expect(read.events.count == trace.events.count)
        #expect(read.metadata == trace.metadata)
        #expect(!read.diagnostics.contains { $0.kind == .truncated })
    }

    @Test("Reading, writing and reading again is stable for every fixture", arguments: Fixture.traces)
    func rereadFixtures(fixture: String) throws {
        let first = try Fixture.read(fixture)
        let second = try TraceReader.read(bytes: first.chromeJSON())
        #expect(
            second.events.count >= first.events.count, "the writer may split an overlapping span into an async pair")
        #expect(second.metadata == first.metadata)
        let third = try TraceReader.read(bytes: second.chromeJSON())
        #expect(third.events.count == second.events.count)
    }
}
