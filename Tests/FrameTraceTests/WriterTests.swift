import Foundation
import FrameTrace
import Testing

/// The Chrome trace writer on hand-built traces: forms, timestamps, escaping, counters and the
/// rewriting of spans that cannot nest.
@Suite("Chrome trace writer")
struct WriterTests {
    static let main = ThreadKey(processID: 7, threadID: 1)
    static let worker = ThreadKey(processID: 7, threadID: 2)

    /// Parses either form with Foundation and returns the event objects and the document.
    static func parse(_ bytes: [UInt8]) throws -> (events: [[String: Any]], document: [String: Any]?) {
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        if let events = object as? [[String: Any]] { return (events, nil) }
        let document = try #require(object as? [String: Any])
        return (try #require(document["traceEvents"] as? [[String: Any]]), document)
    }

    static func nonMetadata(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["ph"] as? String != "M" }
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Forms

    @Test("An empty trace is a valid document in both forms; the object form starts with {\" and the array form with [")
    func emptyTrace() throws {
        let object = Trace().chromeJSON()
        #expect(object.starts(with: Array("{\"".utf8)))
        let parsedObject = try Self.parse(object)
        #expect(parsedObject.events.isEmpty)
        #expect((parsedObject.document?["metadata"] as? [String: Any])?["producer"] as? String == "unknown")

        let array = Trace().chromeJSON(form: .array)
        #expect(array.first == UInt8(ascii: "["))
        #expect(try Self.parse(array).events.isEmpty)
    }

    @Test("The object form carries the metadata, and extra facts in both metadata and otherData")
    func objectFormMetadata() throws {
        var trace = Trace()
        trace.append(.complete, name: "layout", category: "layout", thread: Self.main, timestamp: 0, duration: 1_000)
        trace.metadata = TraceMetadata(
            producer: "framescope", producerVersion: "9.9", clock: .manual, frameIntervalNanoseconds: 8_333_333,
            mainThread: Self.main, droppedEvents: [Self.worker: 3, Self.main: 2],
            extra: [Argument("scenario", .string("feed"))])
        let bytes = trace.chromeJSON()
        let document = try #require(try Self.parse(bytes).document)
        let metadata = try #require(document["metadata"] as? [String: Any])
        #expect(metadata["producer"] as? String == "framescope")
        #expect(metadata["version"] as? String == "9.9")
        #expect(metadata["clock"] as? String == "manual")
        #expect(metadata["frame-interval-ns"] as? Int == 8_333_333)
        #expect((metadata["main-thread"] as? [String: Any])?["tid"] as? Int == 1)
        let dropped = try #require(metadata["dropped-events"] as? [String: Any])
        #expect(dropped["total"] as? Int == 5)
        // Sorted by thread, so the output does not depend on dictionary order.
        #expect(
            Self.text(bytes).contains(
                "\"threads\":[{\"pid\":7,\"tid\":1,\"count\":2},{\"pid\":7,\"tid\":2,\"count\":3}]"))
        #expect((metadata["extra"] as? [String: Any])?["scenario"] as? String == "feed")
        #expect((document["otherData"] as? [String: Any])?["scenario"] as? String == "feed")
        #expect(document["displayTimeUnit"] as? String == "ms")
    }

    @Test("The array form left open is valid once a ] is appended; finished, it ends with a framescope metadata event")
    func arrayFormOpenAndClosed() throws {
        var trace = Trace()
        trace.append(.complete, name: "a", category: "layout", thread: Self.main, timestamp: 0, duration: 10)
        var writer = ChromeTraceWriter(form: .array, baseTimestamp: 0)
        var bytes = writer.begin()
        bytes += writer.append(trace)
        #expect(bytes.first == UInt8(ascii: "["))
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(bytes)) }
        #expect(try Self.nonMetadata(Self.parse(bytes + Array("]".utf8)).events).count == 1)

        var open = writer
        let unclosed = bytes + open.finish(metadata: TraceMetadata(producer: "framescope"), closeArray: false)
        let reopened = try Self.parse(unclosed + Array("]".utf8)).events
        #expect(reopened.last?["name"] as? String == "framescope")

        bytes += writer.finish(metadata: TraceMetadata(producer: "framescope", mainThread: Self.main))
        let events = try Self.parse(bytes).events
        let last = try #require(events.last)
        #expect(last["ph"] as? String == "M")
        #expect(last["name"] as? String == "framescope")
        #expect(last["pid"] as? Int == 7)
        #expect((last["args"] as? [String: Any])?["producer"] as? String == "framescope")
    }

    @Test("Thread and process metadata are written once, before the thread's first event, across chunks")
    func descriptionsWrittenOnce() throws {
        var first = Trace()
        first.processes[7] = TraceProcess(processID: 7, name: "app", sortIndex: 3)
        first.setThread(TraceThread(key: Self.main, name: "main", sortIndex: 0))
        first.append(.instant, name: "one", thread: Self.main, timestamp: 0)
        var second = first
        second.events = []
        second.setThread(TraceThread(key: Self.worker, name: "worker", sortIndex: 5))
        second.append(.instant, name: "two", thread: Self.worker, timestamp: 1)

        var writer = ChromeTraceWriter(form: .array, baseTimestamp: 0)
        var bytes = writer.begin()
        bytes += writer.append(first)
        bytes += writer.append(second)
        bytes += writer.finish(metadata: TraceMetadata())
        let events = try Self.parse(bytes).events
        let names = events.compactMap { $0["ph"] as? String == "M" ? $0["name"] as? String : nil }
        #expect(names.filter { $0 == "process_name" }.count == 1)
        #expect(names.filter { $0 == "process_sort_index" }.count == 1)
        #expect(names.filter { $0 == "thread_name" }.count == 2)
        #expect(names.filter { $0 == "thread_sort_index" }.count == 2)
        let workerName = try #require(
            events.firstIndex { $0["name"] as? String == "thread_name" && $0["tid"] as? Int == 2 })
        let workerEvent = try #require(events.firstIndex { $0["name"] as? String == "two" })
        #expect(workerName < workerEvent)
        let sort = try #require(events.first { $0["name"] as? String == "thread_sort_index" && $0["tid"] as? Int == 1 })
        #expect((sort["args"] as? [String: Any])?["sort_index"] as? Int == 0)
    }

    // MARK: - Timestamps

    @Test(
        "Nanoseconds are written as microseconds with at most three decimals, exactly",
        arguments: [
            (Int64(0), "0"), (1, "0.001"), (10, "0.01"), (100, "0.1"), (999, "0.999"), (1_000, "1"), (1_500, "1.5"),
            (1_000_010, "1000.01"), (16_666_667, "16666.667"), (8_333_333, "8333.333"),
            (9_007_199_254_740_993, "9007199254740.993"), (Int64.max, "9223372036854775.807"),
        ])
    func timestampsAreExact(nanoseconds: Int64, text: String) throws {
        var trace = Trace()
        trace.append(.complete, name: "base", thread: Self.main, timestamp: 0, duration: 0)
        trace.append(.complete, name: "span", thread: Self.worker, timestamp: 0, duration: nanoseconds)
        trace.append(.instant, name: "point", thread: Self.worker, timestamp: nanoseconds)
        let bytes = trace.chromeJSON()
        let written = Self.text(bytes)
        #expect(written.contains("\"name\":\"span\",\"pid\":7,\"tid\":2,\"ts\":0,\"dur\":\(text)}"))
        #expect(written.contains("\"name\":\"point\",\"pid\":7,\"tid\":2,\"ts\":\(text),"))
        let span = try #require(try Self.parse(bytes).events.first { $0["name"] as? String == "span" })
        let parsed = try #require((span["dur"] as? NSNumber)?.doubleValue)
        #expect(abs(parsed - Double(nanoseconds) / 1000) <= abs(Double(nanoseconds) / 1000) * 1e-15)
    }

    @Test("A whole document is rebased so its earliest event is at ts 0")
    func documentIsRebased() throws {
        var trace = Trace()
        trace.append(.complete, name: "later", thread: Self.main, timestamp: 5_000_002_500, duration: 1_000)
        trace.append(.instant, name: "earliest", thread: Self.worker, timestamp: 5_000_000_000)
        let text = Self.text(trace.chromeJSON())
        #expect(text.contains("\"name\":\"earliest\",\"pid\":7,\"tid\":2,\"ts\":0,"))
        #expect(text.contains("\"name\":\"later\",\"pid\":7,\"tid\":1,\"ts\":2.5,\"dur\":1}"))
    }

    @Test("Events before the writer's base and negative durations are clamped to 0")
    func clampsBeforeBase() throws {
        var trace = Trace()
        trace.append(.instant, name: "early", thread: Self.main, timestamp: 500)
        trace.append(.complete, name: "backwards", thread: Self.main, timestamp: 2_000, duration: -50)
        var writer = ChromeTraceWriter(form: .array, baseTimestamp: 1_000)
        let text = Self.text(writer.begin() + writer.append(trace) + writer.finish(metadata: TraceMetadata()))
        #expect(text.contains("\"name\":\"early\",\"pid\":7,\"tid\":1,\"ts\":0,"))
        #expect(text.contains("\"name\":\"backwards\",\"pid\":7,\"tid\":1,\"ts\":1,\"dur\":0}"))
    }

    // MARK: - Spans that cannot nest

    @Test(
        "Partially overlapping complete events on one thread: the later one becomes a b/e pair with its name, category and arguments"
    )
    func partialOverlapBecomesAsyncPair() throws {
        var trace = Trace()
        trace.append(.complete, name: "first", category: "layout", thread: Self.main, timestamp: 0, duration: 10_000)
        trace.append(
            .complete, name: "straddles", category: "image-decode", thread: Self.main, timestamp: 5_000,
            duration: 10_000,
            arguments: [Argument("bytes", .int(12))])
        trace.append(
            .complete, name: "inside first", category: "layout", thread: Self.main, timestamp: 1_000, duration: 2_000)
        // The same intervals on another thread do not interact with this one.
        trace.append(
            .complete, name: "other thread", category: "layout", thread: Self.worker, timestamp: 5_000, duration: 10_000
        )
        let events = Self.nonMetadata(try Self.parse(trace.chromeJSON()).events)

        let straddles = events.filter { $0["name"] as? String == "straddles" }
        #expect(straddles.map { $0["ph"] as? String } == ["b", "e"])
        #expect(straddles.allSatisfy { $0["cat"] as? String == "image-decode" && $0["tid"] as? Int == 1 })
        #expect(straddles[0]["id"] as? Int != nil && straddles[0]["id"] as? Int == straddles[1]["id"] as? Int)
        #expect(straddles[0]["ts"] as? Int == 5)
        #expect(straddles[1]["ts"] as? Int == 15)
        #expect((straddles[0]["args"] as? [String: Any])?["bytes"] as? Int == 12)
        #expect(straddles[1]["args"] == nil)
        for name in ["first", "inside first", "other thread"] {
            #expect(events.filter { $0["name"] as? String == name }.map { $0["ph"] as? String } == ["X"], "\(name)")
        }
    }

    @Test("Properly nested, adjacent and identical complete events stay complete events")
    func nestedSpansStayComplete() throws {
        var trace = Trace()
        trace.append(.complete, name: "frame", thread: Self.main, timestamp: 0, duration: 100)
        trace.append(.complete, name: "layout", thread: Self.main, timestamp: 10, duration: 40)
        // same interval as its parent
        trace.append(.complete, name: "text", thread: Self.main, timestamp: 10, duration: 40)
        trace.append(.complete, name: "glyphs", thread: Self.main, timestamp: 20, duration: 30)  // ends with its parent
        // starts where layout ends
        trace.append(.complete, name: "draw", thread: Self.main, timestamp: 50, duration: 50)
        trace.append(.complete, name: "instant-like", thread: Self.main, timestamp: 100, duration: 0)
        let events = Self.nonMetadata(try Self.parse(trace.chromeJSON()).events)
        #expect(events.count == 6)
        #expect(events.allSatisfy { $0["ph"] as? String == "X" })
    }

    @Test("Async ids made for overlapping spans stay unique across chunks")
    func overlapIDsUniqueAcrossChunks() throws {
        var chunk = Trace()
        chunk.append(.complete, name: "a", thread: Self.main, timestamp: 0, duration: 10)
        chunk.append(.complete, name: "b", thread: Self.main, timestamp: 5, duration: 10)
        var writer = ChromeTraceWriter(form: .array, baseTimestamp: 0)
        var bytes = writer.begin()
        bytes += writer.append(chunk)
        bytes += writer.append(chunk)
        bytes += writer.finish(metadata: TraceMetadata())
        let begins = try Self.parse(bytes).events.filter { $0["ph"] as? String == "b" }.compactMap { $0["id"] as? Int }
        #expect(begins.count == 2)
        #expect(Set(begins).count == 2)
    }

    /// Spans on one thread as (start, duration), and the indexes that cannot nest.
    struct OverlapCase: Sendable, CustomTestStringConvertible {
        var spans: [(start: Int64, duration: Int64)]
        var rewritten: Set<Int>
        var testDescription: String {
            "\(spans.map { "[\($0.start), \($0.start + $0.duration))" }) → \(rewritten.sorted())"
        }
    }

    static let overlapCases: [OverlapCase] = [
        OverlapCase(spans: [(0, 10), (5, 10)], rewritten: [1]),
        OverlapCase(spans: [(5, 10), (0, 10)], rewritten: [0]),
        OverlapCase(spans: [(0, 10), (2, 3), (4, 4)], rewritten: [2]),
        OverlapCase(spans: [(0, 10), (10, 5)], rewritten: []),
        OverlapCase(spans: [(0, 10), (0, 10)], rewritten: []),
        OverlapCase(spans: [(0, 10), (0, 5), (5, 5)], rewritten: []),
        OverlapCase(spans: [(0, 10), (5, 10), (12, 1)], rewritten: [1]),
    ]

    @Test("Partial-overlap detection rewrites exactly the spans that cannot nest", arguments: overlapCases)
    func overlapDetection(overlap: OverlapCase) throws {
        let spans = overlap.spans
        let expected = overlap.rewritten
        var trace = Trace()
        for (index, span) in spans.enumerated() {
            trace.append(
                .complete, name: "s\(index)", thread: Self.main, timestamp: span.start, duration: span.duration)
        }
        let events = Self.nonMetadata(try Self.parse(trace.chromeJSON()).events)
        var rewritten: Set<Int> = []
        for index in spans.indices {
            let phases = events.filter { $0["name"] as? String == "s\(index)" }.compactMap { $0["ph"] as? String }
            if phases == ["b", "e"] { rewritten.insert(index) } else { #expect(phases == ["X"]) }
        }
        #expect(rewritten == expected)
    }

    // MARK: - Values and strings

    @Test("Counter samples that are NaN or infinite are left out, and a counter with none left is not written")
    func nonFiniteCounters() throws {
        var trace = Trace()
        trace.append(
            .counter, name: "depth", thread: Self.main, timestamp: 0, arguments: [Argument("value", .double(.nan))])
        trace.append(
            .counter, name: "depth", thread: Self.main, timestamp: 1, arguments: [Argument("value", .double(.infinity))]
        )
        trace.append(
            .counter, name: "depth", thread: Self.main, timestamp: 2, arguments: [Argument("value", .double(2.5))])
        trace.append(
            .counter, name: "mixed", thread: Self.main, timestamp: 3,
            arguments: [
                Argument("good", .int(4)), Argument("bad", .double(-.infinity)), Argument("label", .string("x")),
            ])
        trace.append(
            .instant, name: "note", thread: Self.main, timestamp: 4, arguments: [Argument("ratio", .double(.nan))])
        let bytes = trace.chromeJSON()
        let events = Self.nonMetadata(try Self.parse(bytes).events)
        let depth = events.filter { $0["name"] as? String == "depth" }
        #expect(depth.count == 1)
        #expect((depth.first?["args"] as? [String: Any])?["value"] as? Double == 2.5)
        let mixed = try #require(events.first { $0["name"] as? String == "mixed" })
        let mixedArgs = try #require(mixed["args"] as? [String: Any])
        #expect(mixedArgs.count == 1)
        #expect(mixedArgs["good"] as? Int == 4)
        // Elsewhere a non-finite value is JSON null.
        let note = try #require(events.first { $0["name"] as? String == "note" })
        #expect((note["args"] as? [String: Any])?["ratio"] is NSNull)
        #expect(!Self.text(bytes).contains("nan") && !Self.text(bytes).contains("inf"))
    }

    @Test(
        "Argument values come back with their types and values",
        arguments: [
            JSONValue.int(-42), .int(Int64.max), .double(0.1), .double(-2.5), .double(1e-7), .double(6.02e23),
            .double(3),
            .string(""), .bool(true), .bool(false), .null, .array([.int(1), .string("two"), .array([])]),
            .object([("k", .bool(true)), ("nested", .object([("n", .null)]))]),
        ])
    func argumentValuesRoundTrip(value: JSONValue) throws {
        var trace = Trace()
        trace.append(.instant, name: "v", thread: Self.main, timestamp: 0, arguments: [Argument("v", value)])
        let event = try #require(Self.nonMetadata(try Self.parse(trace.chromeJSON()).events).first)
        let parsed = (event["args"] as? [String: Any])?["v"]
        switch value {
        case .int(let int): #expect((parsed as? NSNumber)?.int64Value == int)
        case .double(let double): #expect((parsed as? NSNumber)?.doubleValue == double)
        case .string(let string): #expect(parsed as? String == string)
        case .bool(let bool):
            #expect(parsed as? Bool == bool)
            #expect(Self.text(trace.chromeJSON()).contains("\"v\":\(bool)"))
        case .null: #expect(parsed is NSNull)
        case .array, .object:
            // Written as they are, nested: the same text JSONValue's description gives.
            let written = try #require(parsed)
            let text = String(
                decoding: try JSONSerialization.data(withJSONObject: written, options: [.sortedKeys]), as: UTF8.self)
            let expected = try JSONSerialization.jsonObject(
                with: Data(value.description.utf8), options: [.fragmentsAllowed])
            #expect(
                text
                    == String(
                        decoding: try JSONSerialization.data(withJSONObject: expected, options: [.sortedKeys]),
                        as: UTF8.self))
        }
    }

    @Test("Every string is escaped: quotes, backslashes, control characters; emoji and U+FFFD pass through")
    func stringsAreEscaped() throws {
        let awkward = "q\" b\\ n\n t\t r\r f\u{0C} bs\u{08} c\u{01} nul\u{0} del\u{7F} 😀 \u{2028}"
        let invalid = String(decoding: [0x61, 0xFF, 0x62], as: UTF8.self)
        var trace = Trace()
        trace.processes[7] = TraceProcess(processID: 7, name: awkward)
        trace.setThread(TraceThread(key: Self.main, name: awkward))
        trace.append(
            .instant, name: awkward, category: invalid, thread: Self.main, timestamp: 0,
            arguments: [Argument(awkward, .string(invalid))])
        trace.metadata = TraceMetadata(producer: awkward, extra: [Argument(awkward, .string(awkward))])
        let bytes = trace.chromeJSON()
        #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A })
        #expect(Self.text(bytes).contains("c\\u0001 nul\\u0000"))
        let (events, document) = try Self.parse(bytes)
        let event = try #require(Self.nonMetadata(events).first)
        #expect(event["name"] as? String == awkward)
        #expect(event["cat"] as? String == "a\u{FFFD}b")
        #expect((event["args"] as? [String: Any])?[awkward] as? String == "a\u{FFFD}b")
        let threadName = try #require(events.first { $0["name"] as? String == "thread_name" })
        #expect((threadName["args"] as? [String: Any])?["name"] as? String == awkward)
        let processName = try #require(events.first { $0["name"] as? String == "process_name" })
        #expect((processName["args"] as? [String: Any])?["name"] as? String == awkward)
        let metadata = try #require(document?["metadata"] as? [String: Any])
        #expect(metadata["producer"] as? String == awkward)
        #expect((metadata["extra"] as? [String: Any])?[awkward] as? String == awkward)
    }

    @Test("Each phase is written with its letter and the fields it needs")
    func phasesAndFields() throws {
        var trace = Trace()
        trace.append(.begin, name: "B", thread: Self.main, timestamp: 0)
        trace.append(.end, name: "B", thread: Self.main, timestamp: 1_000)
        trace.append(.instant, name: "thread", thread: Self.main, timestamp: 0, scope: .thread)
        trace.append(.instant, name: "process", thread: Self.main, timestamp: 0, scope: .process)
        trace.append(.instant, name: "global", thread: Self.main, timestamp: 0, scope: .global)
        trace.append(.flowStart, name: "flow", category: "c", thread: Self.worker, timestamp: 0, id: 9)
        trace.append(
            .flowStep, name: "flow", category: "c", thread: Self.worker, timestamp: 0, id: 9, bindingPoint: .next)
        trace.append(
            .flowEnd, name: "flow", category: "c", thread: Self.main, timestamp: 0, id: 9, bindingPoint: .enclosing)
        trace.append(.asyncBegin, name: "a", category: "c", thread: Self.main, timestamp: 0, id: 3)
        trace.append(.asyncInstant, name: "a", category: "c", thread: Self.main, timestamp: 0, id: 3)
        trace.append(.asyncEnd, name: "a", category: "c", thread: Self.worker, timestamp: 0, id: 3)
        trace.append(.counter, name: "empty counter", thread: Self.main, timestamp: 0)
        let events = Self.nonMetadata(try Self.parse(trace.chromeJSON()).events)
        #expect(events.map { $0["ph"] as? String } == ["B", "E", "i", "i", "i", "s", "t", "f", "b", "n", "e", "C"])
        #expect(events[2...4].map { $0["s"] as? String } == ["t", "p", "g"])
        #expect(events[5...7].map { $0["bp"] as? String } == [nil, "n", "e"])
        #expect(events[5...10].allSatisfy { $0["id"] as? Int != nil })
        #expect(events[0]["dur"] == nil && events[0]["cat"] == nil)
        #expect((events[11]["args"] as? [String: Any])?["value"] as? Int == 0)
    }
}
