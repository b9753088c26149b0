import Foundation
import FrameScope
import FrameTrace
import FramescopeTestSupport
import Testing

/// Exported recordings parse back with Foundation's JSON parser and say what was recorded.
@Suite("Recorder export parse-back")
struct RecorderExportTests {
    /// The sample frame, exported in the object form.
    static func exportSample() throws -> (bytes: [UInt8], parsed: ParsedTrace, recorder: Recorder) {
        let recorder = makeSampleRecording()
        let bytes = recorder.snapshot().chromeJSON()
        return (bytes, try parseTrace(bytes), recorder)
    }

    @Test("The object form parses and carries producer, version, clock, frame interval, main thread and drops")
    func metadataObject() throws {
        let (bytes, parsed, recorder) = try Self.exportSample()
        #expect(bytes.starts(with: Array("{\"".utf8)))
        let metadata = try #require(parsed.metadata)
        #expect(metadata["producer"] as? String == "framescope")
        #expect(metadata["version"] as? String == FramescopeVersion.current)
        #expect(metadata["clock"] as? String == "manual")
        #expect(metadata["frame-interval-ns"] as? Int == 16_666_667)
        let main = try #require(metadata["main-thread"] as? [String: Any])
        #expect(main["pid"] as? Int == Int(ProcessInfo.processInfo.processIdentifier))
        #expect(main["tid"] as? Int == Int(recorder.mainThreadKey.threadID))
        let dropped = try #require(metadata["dropped-events"] as? [String: Any])
        #expect(dropped["total"] as? Int == 0)
        #expect((dropped["threads"] as? [Any])?.isEmpty == true)
    }

    @Test("The main thread is named main and sorts first; the worker keeps the name it was given")
    func threadsAreNamedAndSorted() throws {
        let (_, parsed, recorder) = try Self.exportSample()
        let mainTID = Int(recorder.mainThreadKey.threadID)
        #expect(parsed.threadNames[mainTID] == "main")
        #expect(parsed.threadSortIndexes[mainTID] == 0)
        let workerTID = try #require(parsed.threadNames.first { $0.value == "decode-worker-1" }?.key)
        #expect(workerTID != mainTID)
        let workerSort = try #require(parsed.threadSortIndexes[workerTID])
        #expect(workerSort > 0)
        // Thread metadata comes before the first real event.
        let firstEvent = try #require(parsed.events.firstIndex { $0["ph"] as? String != "M" })
        let lastThreadMetadata = try #require(
            parsed.events.lastIndex {
                ($0["name"] as? String)?.hasPrefix("thread_") == true && $0["ph"] as? String == "M"
            })
        #expect(lastThreadMetadata < firstEvent)
        let process = try #require(
            parsed.events.first { $0["ph"] as? String == "M" && $0["name"] as? String == "process_name" })
        #expect(process.args["name"] as? String == "framescope")
    }

    @Test("Spans come back as complete events with their categories, times and arguments")
    func spansCarryCategoriesAndArguments() throws {
        let (bytes, parsed, recorder) = try Self.exportSample()
        let mainTID = Int(recorder.mainThreadKey.threadID)
        let expected: [(name: String, category: String)] = [
            ("frame 1", "frame"), ("handle input", "input"), ("layout feed", "layout"), ("measure text", "layout"),
            ("round avatar", "corner-rounding"), ("apply diff", "diff-apply"), ("apply image", "image-decode"),
            ("commit", "render"), ("fetch", "networking"), ("decode thumbnail", "image-decode"),
        ]
        for (name, category) in expected {
            let event = try parsed.event(named: name)
            #expect(event["ph"] as? String == "X", "\(name)")
            #expect(event["cat"] as? String == category, "\(name)")
        }
        #expect(
            Set(parsed.events.compactMap { $0["cat"] as? String }) == [
                "frame", "input", "layout", "corner-rounding", "diff-apply", "image-decode", "render", "networking",
            ])

        let frame = try parsed.event(named: "frame 1")
        #expect(frame["tid"] as? Int == mainTID)
        #expect(frame["ts"] as? Int == 0)
        #expect(frame.args["index"] as? Int == 1)
        #expect(frame.args["refresh-hz"] as? Int == 60)  // a whole double is written without a fraction
        #expect(frame.args["scenario"] as? String == "feed \"warm\"")
        #expect(frame.args["is-warm"] as? Bool == true)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"is-warm\":true"))  // a JSON boolean, not 1

        let avatar = try parsed.event(named: "round avatar")
        #expect(avatar.args["radius"] as? Double == 8.5)
        #expect(avatar.args["strategy"] as? String == "opaque prerender")
        #expect(text.contains("\"name\":\"round avatar\",\"cat\":\"corner-rounding\",\"pid\":"))
        #expect(text.contains("\"ts\":1800,\"dur\":250.001,"))

        // Children lie inside their parents on the main thread.
        let layout = try parsed.event(named: "layout feed")
        for child in ["measure text", "round avatar"] {
            let event = try parsed.event(named: child)
            let start = try #require(event.double("ts"))
            let end = start + (try #require(event.double("dur")))
            let parentStart = try #require(layout.double("ts"))
            let parentEnd = parentStart + (try #require(layout.double("dur")))
            #expect(start >= parentStart && end <= parentEnd, "\(child)")
        }
    }

    @Test("Instants and counters come back with their scope and values")
    func instantsAndCounters() throws {
        let (_, parsed, _) = try Self.exportSample()
        let touch = try parsed.event(named: "touch down")
        #expect(touch["ph"] as? String == "i")
        #expect(touch["s"] as? String == "t")
        #expect(touch["cat"] as? String == "input")
        #expect(touch.args["x"] as? Double == 12.5)
        #expect(touch.args["y"] as? Int == 300)
        let samples = parsed.events(named: "decode queue depth")
        #expect(samples.map { $0["ph"] as? String } == ["C", "C"])
        #expect(samples.compactMap { $0.args["value"] as? Double } == [3, 2.5])
    }

    @Test(
        "A flow from the worker to the main thread is an s/f pair with one id, and the f end binds to its enclosing slice"
    )
    func flowBindsWorkerToMain() throws {
        let (_, parsed, recorder) = try Self.exportSample()
        let flow = parsed.events(named: "decoded image")
        let start = try #require(flow.first { $0["ph"] as? String == "s" })
        let finish = try #require(flow.first { $0["ph"] as? String == "f" })
        #expect(flow.count == 2)
        #expect(start["id"] as? Int == finish["id"] as? Int)
        #expect(start["cat"] as? String == "image-decode" && finish["cat"] as? String == "image-decode")
        #expect(finish["bp"] as? String == "e")
        #expect(start["bp"] == nil)
        #expect(finish["tid"] as? Int == Int(recorder.mainThreadKey.threadID))
        let worker = try parsed.event(named: "decode thumbnail")
        #expect(start["tid"] as? Int == worker["tid"] as? Int)
        // Each end lies inside the slice it binds to.
        let apply = try parsed.event(named: "apply image")
        for (end, slice) in [(start, worker), (finish, apply)] {
            let ts = try #require(end.double("ts"))
            let sliceStart = try #require(slice.double("ts"))
            let sliceDuration = try #require(slice.double("dur"))
            #expect(ts >= sliceStart && ts <= sliceStart + sliceDuration)
        }
    }

    @Test("An interval begun on main and ended on a worker is a b/e pair with one id, category and name")
    func crossThreadIntervalIsAsyncPair() throws {
        let (_, parsed, recorder) = try Self.exportSample()
        let hero = parsed.events(named: "decode hero image")
        #expect(hero.map { $0["ph"] as? String } == ["b", "e"])
        #expect(!hero.contains { $0["ph"] as? String == "X" })
        let begin = hero[0]
        let end = hero[1]
        #expect(begin["id"] as? Int != nil)
        #expect(begin["id"] as? Int == end["id"] as? Int)
        #expect(begin["cat"] as? String == "image-decode" && end["cat"] as? String == "image-decode")
        #expect(begin["tid"] as? Int == Int(recorder.mainThreadKey.threadID))
        let worker = try #require(parsed.threadNames.first { $0.value == "decode-worker-1" }?.key)
        #expect(end["tid"] as? Int == worker)
        #expect(begin["ts"] as? Double == 2350.001)
        #expect(end["ts"] as? Double == 4410.001)
    }

    @Test(
        "The exported sample passes the independent validator",
        .enabled(if: TraceValidator.isAvailable, Comment(rawValue: TraceValidator.missingReason)))
    func sampleExportPassesValidator() throws {
        let (bytes, _, _) = try Self.exportSample()
        let directory = try TemporaryDirectory()
        let path = directory.path("sample.json")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try TraceValidator.run(
            path,
            arguments: [
                "--expect-threads", "main,decode-worker-1", "--expect-cats",
                "frame,layout,image-decode,corner-rounding,diff-apply,input,render,networking",
            ])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        "Counter samples that are NaN or infinite stay in the trace values but are left out of the export, which stays valid"
    )
    func nonFiniteCounterSamples() throws {
        let recorder = Recorder()
        runOnNewThread {
            recorder.recordCounter("hit ratio", value: .nan)
            recorder.recordCounter("hit ratio", value: -.infinity)
            recorder.recordCounter("hit ratio", value: 0.5)
        }
        let trace = recorder.snapshot()
        #expect(trace.events.filter { $0.phase == .counter }.count == 3)
        let bytes = trace.chromeJSON()
        let samples = try parseTrace(bytes).events(named: "hit ratio")
        #expect(samples.count == 1)
        #expect(samples.first?.args["value"] as? Double == 0.5)
        if TraceValidator.isAvailable {
            let directory = try TemporaryDirectory()
            let path = directory.path("counters.json")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try TraceValidator.run(path)
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test("writeChromeJSON(to:) writes the object form to a file")
    func writeChromeJSONWritesObjectForm() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        recorder.withSpan("layout", category: .layout) { clock.advance(by: .microseconds(5)) }
        let directory = try TemporaryDirectory()
        let path = directory.path("trace.json")
        try recorder.writeChromeJSON(to: path)
        let bytes = try readBytes(path)
        #expect(bytes.starts(with: Array("{\"".utf8)))
        let parsed = try parseTrace(bytes)
        #expect(try parsed.event(named: "layout")["dur"] as? Int == 5)
        #expect(parsed.metadata?["producer"] as? String == "framescope")
    }

    @Test("writeChromeJSON(to:) reports a path that cannot be created as a FileError")
    func writeChromeJSONFailsWithFileError() {
        let recorder = Recorder()
        #expect(throws: FileError.self) { try recorder.writeChromeJSON(to: "/nonexistent-directory/trace.json") }
    }

    @Test("An empty recording exports a valid document with metadata and no events")
    func emptyRecordingExportsValidDocument() throws {
        let recorder = Recorder()
        let bytes = recorder.snapshot().chromeJSON()
        #expect(bytes.starts(with: Array("{\"".utf8)))
        let parsed = try parseTrace(bytes)
        #expect(parsed.events.allSatisfy { $0["ph"] as? String == "M" })
        #expect(parsed.metadata?["producer"] as? String == "framescope")
        let array = try parseTrace(recorder.snapshot().chromeJSON(form: .array))
        #expect(array.events.allSatisfy { $0["ph"] as? String == "M" })
    }

    @Test("Timestamps of a monotonic recording are rebased near zero")
    func monotonicTimestampsAreRebased() throws {
        let recorder = Recorder()
        recorder.withSpan("a", category: .layout) {}
        recorder.withSpan("b", category: .layout) {}
        let parsed = try parseTrace(recorder.snapshot().chromeJSON())
        let stamps = parsed.events.filter { $0["ph"] as? String == "X" }.compactMap { $0.double("ts") }
        #expect(stamps.count == 2)
        #expect(stamps.min() == 0)
        #expect(parsed.metadata?["clock"] as? String == RecorderClock.fastest.name)
    }

    @Test("Spans of one thread that start and end together come out enclosing span first")
    func equalSpansNestOutsideIn() throws {
        let clock = ManualClock(start: 1_000)
        let recorder = Recorder(clock: .manual(clock))
        for frame in 0..<2 {
            recorder.withFrame(vsync: clock.nanoseconds, deadline: clock.nanoseconds + 16_666_667, index: frame) {
                recorder.withSpan("layout", category: .layout) {
                    recorder.withSpan("measure", category: .layout) { clock.advance(by: .milliseconds(4)) }
                }
            }
            recorder.withSpan("idle", category: .other) { clock.advance(by: .milliseconds(1)) }
        }
        let trace = recorder.snapshot()
        let names = trace.events.filter { $0.phase == .complete }.map { trace.name(of: $0) }
        #expect(names == ["frame", "layout", "measure", "idle", "frame", "layout", "measure", "idle"])
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A numeric field as a Double, whether JSONSerialization made it an Int or a Double.
    func double(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
}
