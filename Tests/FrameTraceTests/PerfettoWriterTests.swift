import Foundation
import FrameTrace
import FrameTraceReader
import Testing

/// The Perfetto writer, checked through framescope's own reader (CI also decodes every file the
/// writer makes with Perfetto's Python schema: tools/check_perfetto.py).
@Suite("Writing Perfetto protobuf: everything a trace holds comes back, exactly")
struct PerfettoWriterTests {
    static let main = ThreadKey(processID: 7, threadID: 1)
    static let worker = ThreadKey(processID: 7, threadID: 2)
    static let other = ThreadKey(processID: 9, threadID: 3)

    /// A trace with every kind of event the writer maps.
    static func richTrace() -> Trace {
        var trace = Trace()
        trace.setThread(TraceThread(key: main, name: "main", sortIndex: 0))
        trace.setThread(TraceThread(key: worker, name: "worker-1", sortIndex: 1))
        trace.setThread(TraceThread(key: other, name: "other ∆ \u{202E}name"))
        trace.processes[7]?.name = "app"
        trace.processes[7]?.sortIndex = 2
        let nested: JSONValue = .object([
            ("a", .array([.int(1), .double(2.5), .string("x"), .null, .bool(false), .object([])])), ("b", .int(2)),
        ])
        trace.append(
            .complete, name: "frame", category: "frame", thread: main, timestamp: 1_000, duration: 16_666_667,
            arguments: [Argument("index", .int(0)), Argument("budget-ns", .int(16_666_667))])
        trace.append(
            .complete, name: "layout", category: "layout,ui", thread: main, timestamp: 1_000, duration: 3_000_001,
            arguments: [
                Argument("nested", nested), Argument("neg", .int(-5)), Argument("big", .int(.max)),
                Argument("pi", .double(3.14159)),
            ])
        trace.append(.complete, name: "apply", category: "layout", thread: main, timestamp: 4_000_000, duration: 0)
        trace.append(.complete, name: "tail", category: "layout", thread: main, timestamp: 16_667_667, duration: 1)
        // Partially overlapping on the worker: the second does not nest.
        trace.append(
            .complete, name: "decode", category: "imageDecode", thread: worker, timestamp: 500, duration: 2_000_000)
        trace.append(
            .complete, name: "overlap", category: "imageDecode", thread: worker, timestamp: 1_500_000,
            duration: 2_000_000)
        trace.append(
            .instant, name: "touch", category: "input", thread: main, timestamp: 2_000_000,
            arguments: [Argument("since-input-ns", .int(900))])
        trace.append(.instant, name: "process-wide", thread: main, timestamp: 2_500_000, scope: .process)
        trace.append(.counter, name: "queue", thread: worker, timestamp: 100, arguments: [Argument("value", .int(3))])
        trace.append(
            .counter, name: "queue", thread: worker, timestamp: 200, arguments: [Argument("value", .double(4.5))])
        trace.append(
            .counter, name: "mem", thread: worker, timestamp: 300,
            arguments: [Argument("heap", .int(10)), Argument("nan", .double(.nan))])
        // Async: two overlapping timeline slices, one with a child.
        trace.append(
            .asyncBegin, name: "Actual Timeline", category: "frame-timeline", thread: worker, timestamp: 1_000, id: 41,
            arguments: [Argument("hitch-cause", .string("none"))])
        trace.append(.asyncBegin, name: "on time", category: "frame-timeline", thread: worker, timestamp: 1_000, id: 41)
        trace.append(
            .asyncEnd, name: "on time", category: "frame-timeline", thread: worker, timestamp: 30_000_000, id: 41)
        trace.append(
            .asyncEnd, name: "Actual Timeline", category: "frame-timeline", thread: worker, timestamp: 30_000_000,
            id: 41)
        trace.append(
            .asyncBegin, name: "Actual Timeline", category: "frame-timeline", thread: worker, timestamp: 17_000_000,
            id: 42)
        trace.append(
            .asyncEnd, name: "Actual Timeline", category: "frame-timeline", thread: worker, timestamp: 47_000_000,
            id: 42)
        // A flow from the worker's decode to the main thread's apply, and one with nothing to bind to.
        trace.append(.flowStart, name: "result", category: "flow", thread: worker, timestamp: 1_000_000, id: 5)
        trace.append(
            .flowEnd, name: "result", category: "flow", thread: main, timestamp: 4_000_000, id: 5,
            bindingPoint: .enclosing)
        trace.append(.flowStart, name: "lonely", category: "flow", thread: other, timestamp: 50, id: 6)
        trace.append(
            .flowEnd, name: "lonely", category: "flow", thread: other, timestamp: 60, id: 6, bindingPoint: .enclosing)
        trace.metadata = TraceMetadata(
            producer: "framescope", producerVersion: "test", clock: .virtual, frameIntervalNanoseconds: 16_666_667,
            mainThread: main,
            droppedEvents: [worker: 3], extra: [Argument("seed", .int(1)), Argument("note", .string("##[error] x"))])
        return trace
    }

    /// Spans as comparable rows.
    static func spanRows(_ trace: Trace) -> [String] {
        trace.events.filter { $0.phase == .complete }.map {
            "\($0.thread) \(trace.name(of: $0)) [\(trace.category(of: $0))] \($0.timestamp)+\($0.duration) \(trace.arguments(of: $0))"
        }.sorted()
    }

    /// Async slices as rows: name, start and end, paired by id and name.
    static func asyncRows(_ trace: Trace) -> [String] {
        var open: [String: [TraceEvent]] = [:]
        var rows: [String] = []
        for event in trace.events where event.phase == .asyncBegin || event.phase == .asyncEnd {
            let key = "\(event.thread.processID) \(event.id) \(trace.name(of: event))"
            if event.phase == .asyncBegin {
                open[key, default: []].append(event)
            } else if let begin = open[key]?.popLast() {
                rows.append(
                    "\(event.thread.processID) \(trace.name(of: begin)) \(begin.timestamp)-\(event.timestamp) \(trace.arguments(of: begin))"
                )
            }
        }
        return rows.sorted()
    }

    /// The trace's bytes with times as they are (no rebasing), so rows compare with the original.
    static func encoded(_ trace: Trace) -> [UInt8] {
        var writer = PerfettoTraceWriter(baseTimestamp: 0)
        return writer.begin() + writer.append(trace) + writer.finish(metadata: trace.metadata)
    }

    /// The trace as JSON with times as they are.
    static func json(_ trace: Trace) -> [UInt8] {
        var writer = ChromeTraceWriter(form: .object, baseTimestamp: 0)
        return writer.begin() + writer.append(trace) + writer.finish(metadata: trace.metadata)
    }

    @Test(
        "A rich trace comes back: spans (the overlapping one on its thread), instants, counters, async slices, flows, names, metadata"
    )
    func roundTrip() throws {
        let trace = Self.richTrace()
        let bytes = Self.encoded(trace)
        #expect(bytes.first == 0x0A)
        let read = try TraceReader.read(bytes: bytes)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        // Arguments come back as the JSON reader gives them: an object's members as `outer.inner`.
        let json = try TraceReader.read(bytes: Self.json(trace))
        // The JSON writer makes the overlapping span an async pair; the Perfetto writer keeps it
        // on its thread's own track, so it comes back a span of its thread.
        #expect(Self.spanRows(read).filter { !$0.contains("overlap") } == Self.spanRows(json))
        #expect(Self.spanRows(read).count == Self.spanRows(trace).count)
        #expect(Self.asyncRows(read).filter { !$0.contains("overlap") } == Self.asyncRows(trace))
        for key in [Self.main, Self.worker, Self.other] { #expect(read.threads[key]?.name == trace.threads[key]?.name) }
        #expect(read.threads[Self.main]?.sortIndex == 0)
        #expect(read.processes[7]?.name == "app" && read.processes[7]?.sortIndex == 2)
        #expect(read.metadata == trace.metadata)
        // Instants keep their time and name; the process-wide one is on the process's track.
        let instants = read.events.filter { $0.phase == .instant }
        #expect(instants.map { read.name(of: $0) }.sorted() == ["lonely", "lonely", "process-wide", "touch"])
        #expect(
            instants.first { read.name(of: $0) == "touch" }.map { read.arguments(of: $0) } == [
                Argument("since-input-ns", .int(900))
            ])
        // Counters: one series per key, numbers only (NaN left out, as in JSON).
        let counters = read.events.filter { $0.phase == .counter }.map {
            "\(read.name(of: $0))@\($0.timestamp)=\(read.arguments(of: $0)["value"]!.doubleValue!)"
        }
        #expect(counters.sorted() == ["mem heap@300=10.0", "queue@100=3.0", "queue@200=4.5"])
        // The flow binds to the innermost span holding each end; its ends keep their threads.
        let start = try #require(read.events.first { $0.phase == .flowStart && $0.id == 5 })
        let end = try #require(read.events.first { $0.phase == .flowEnd && $0.id == 5 })
        #expect(start.thread == Self.worker && start.timestamp == 500)  // the decode span's start
        #expect(end.thread == Self.main && end.timestamp == 4_000_000)  // apply's start
        // The flow with no span to bind to is an instant that carries it.
        #expect(
            read.events.contains {
                $0.phase == .flowStart && $0.id == 6 && $0.thread == Self.other && $0.timestamp == 50
            })
        #expect(read.events.contains { $0.phase == .flowEnd && $0.id == 6 && $0.timestamp == 60 })
    }

    @Test(
        "Chrome JSON to Perfetto and back keeps every span, async slice and thread; the same trace always makes the same bytes"
    )
    func throughJSON() throws {
        let trace = Self.richTrace()
        let viaJSON = try TraceReader.read(bytes: trace.chromeJSON())
        let viaBoth = try TraceReader.read(bytes: try TraceReader.read(bytes: viaJSON.perfettoProtobuf()).chromeJSON())
        // The JSON writer makes the overlapping span an async pair; the Perfetto writer keeps it on
        // its thread, so it comes back a span: compare the rest.
        #expect(Self.spanRows(viaBoth) == Self.spanRows(viaJSON))
        #expect(Self.asyncRows(viaBoth).count == Self.asyncRows(viaJSON).count)
        #expect(viaBoth.metadata == viaJSON.metadata)
        #expect(trace.perfettoProtobuf() == trace.perfettoProtobuf())
    }

    @Test(
        "Streamed in chunks: each chunk appends whole packets, and every cut inside the last one reads what came before"
    )
    func streamedChunks() throws {
        let trace = Self.richTrace()
        var writer = PerfettoTraceWriter(baseTimestamp: 0)
        var bytes = writer.begin()
        var boundaries: [Int] = [bytes.count]
        // One chunk per thread, as a recorder drains its buffers.
        for thread in [Self.main, Self.worker, Self.other] {
            var chunk = Trace()
            chunk.threads = trace.threads.filter { $0.key == thread }
            chunk.processes = trace.processes
            for event in trace.events where event.thread == thread {
                chunk.append(
                    event.phase, name: trace.name(of: event), category: trace.category(of: event), thread: thread,
                    timestamp: event.timestamp,
                    duration: event.duration, id: event.id, bindingPoint: event.bindingPoint, scope: event.scope,
                    arguments: trace.arguments(of: event))
            }
            bytes += writer.append(chunk)
            boundaries.append(bytes.count)
        }
        bytes += writer.finish(metadata: trace.metadata)
        let whole = try TraceReader.read(bytes: bytes)
        #expect(whole.diagnostics.isEmpty, "\(whole.diagnostics)")
        #expect(Self.spanRows(whole) == Self.spanRows(try TraceReader.read(bytes: Self.encoded(trace))))
        // Names interned in one chunk are referred to by later chunks without being repeated.
        let second = Array(bytes[boundaries[1]..<boundaries[2]])
        #expect(!second.contains(subsequence: Array("layout,ui".utf8)))
        for boundary in boundaries {
            let read = try TraceReader.read(bytes: bytes.prefix(boundary))
            #expect(read.diagnostics.allSatisfy { $0.kind != .truncated })
        }
        for cut in (boundaries[1] + 1)..<boundaries[2] {
            // Cut anywhere: what is read is whole packets, torn or not; repair keeps exactly those.
            let read = try TraceReader.read(bytes: bytes.prefix(cut))
            let repair = try TraceRepair.repair(Array(bytes.prefix(cut)))
            #expect(repair.wasComplete == !read.diagnostics.contains { $0.kind == .truncated }, "cut at \(cut)")
            let repaired = try TraceReader.read(bytes: repair.bytes)
            #expect(repaired.diagnostics.allSatisfy { $0.kind != .truncated })
            #expect(repaired.events.count == read.events.count, "cut at \(cut)")
        }
    }

    @Test("Times are exact nanoseconds, rebased like the JSON writer's; times before the base clamp to 0")
    func exactTimes() throws {
        var trace = Trace()
        let thread = ThreadKey(processID: 1, threadID: 1)
        trace.append(.complete, name: "a", thread: thread, timestamp: 1_000_000_123, duration: 7)
        trace.append(.complete, name: "b", thread: thread, timestamp: 999_999_999, duration: 1)
        var writer = PerfettoTraceWriter(baseTimestamp: 1_000_000_000)
        let read = try TraceReader.read(
            bytes: writer.begin() + writer.append(trace) + writer.finish(metadata: TraceMetadata()))
        let spans = read.events.filter { $0.phase == .complete }.sorted { $0.timestamp < $1.timestamp }
        #expect(spans.map(\.timestamp) == [0, 123])
        #expect(spans.map(\.duration) == [1, 7])
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains {
            self[$0..<($0 + subsequence.count)].elementsEqual(subsequence)
        }
    }
}
