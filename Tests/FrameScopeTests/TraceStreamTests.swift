import Foundation
import FrameScope
import FrameTrace
import FrameTraceReader
import FramescopeTestSupport
import Testing

/// Streaming a recording to a file in the array form, finished or cut short.
@Suite("Trace stream")
struct TraceStreamTests {
    /// Records `count` spans named `name` on the calling thread, 10 µs apart.
    static func record(_ recorder: Recorder, clock: ManualClock, name: StaticString, count: Int) {
        for index in 0..<count {
            recorder.withSpan(name, category: .layout, arguments: ["index": .int(Int64(index))]) {
                clock.advance(by: .microseconds(10))
            }
        }
    }

    @Test("A finished stream is a valid array-form document holding every event and a closing metadata event")
    func finishedStreamIsValid() throws {
        let clock = ManualClock(start: 5_000_000)
        let recorder = Recorder(clock: .manual(clock))
        recorder.frameRate = .standard
        let directory = try TemporaryDirectory()
        let path = directory.path("stream.json")
        let stream = try TraceStream(recorder: recorder, path: path)
        clock.advance(by: .microseconds(1))
        Self.record(recorder, clock: clock, name: "first chunk", count: 3)
        #expect(try stream.flush() == 3)
        Self.record(recorder, clock: clock, name: "second chunk", count: 2)
        #expect(try stream.flush() == 2)
        Self.record(recorder, clock: clock, name: "left for finish", count: 1)
        try stream.finish()
        try stream.finish()  // a second finish does nothing

        let bytes = try readBytes(path)
        #expect(bytes.first == UInt8(ascii: "["))
        let parsed = try parseTrace(bytes)
        #expect(parsed.events(named: "first chunk").count == 3)
        #expect(parsed.events(named: "second chunk").count == 2)
        #expect(parsed.events(named: "left for finish").count == 1)
        // Times are relative to the recorder's start.
        let first = try #require(parsed.events(named: "first chunk").first)
        #expect(first["ts"] as? Int == 1)
        #expect(first["dur"] as? Int == 10)
        // Threads are described once, before their first event.
        #expect(parsed.events.filter { $0["name"] as? String == "thread_name" }.count == 1)
        #expect(parsed.events.filter { $0["name"] as? String == "process_name" }.count == 1)
        let metadata = try #require(parsed.events.last)
        #expect(metadata["ph"] as? String == "M")
        #expect(metadata["name"] as? String == "framescope")
        #expect(metadata.args["producer"] as? String == "framescope")
        #expect(metadata.args["clock"] as? String == "manual")
        #expect(metadata.args["frame-interval-ns"] as? Int == 16_666_667)
        #expect(metadata.args["dropped-events"] != nil)
        #expect(metadata.args["main-thread"] != nil)
    }

    @Test("Between flushes the file on disk is complete JSON, starting [{\" with a framescope metadata event")
    func unfinishedStreamIsCompleteJSON() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        let directory = try TemporaryDirectory()
        let path = directory.path("killed.json")
        let stream = try TraceStream(recorder: recorder, path: path)

        // Before anything is flushed the file is already a complete trace of one metadata event.
        let empty = try parseTrace(readBytes(path))
        #expect(empty.events.count == 1)
        #expect(empty.events.first?["name"] as? String == "framescope")
        #expect(Array(try readBytes(path).prefix(4)) == Array("[\n{\"".utf8))

        Self.record(recorder, clock: clock, name: "flushed", count: 4)
        try stream.flush()
        #expect(try readBytes(path).count == stream.byteCount)
        runOnNewThread {
            recorder.nameCurrentThread("late worker")
            Self.record(recorder, clock: clock, name: "flushed later", count: 2)
        }
        try stream.flush()
        Self.record(recorder, clock: clock, name: "never flushed", count: 2)

        // The process "dies" here: no finish(). What is on disk is complete JSON, as it is.
        let bytes = try readBytes(path)
        #expect(bytes.suffix(3) == Array("\n]\n".utf8))
        let parsed = try parseTrace(bytes)
        #expect(parsed.events(named: "flushed").count == 4)
        #expect(parsed.events(named: "flushed later").count == 2)
        #expect(parsed.events(named: "never flushed").isEmpty)
        #expect(parsed.threadNames.values.contains("late worker"))
        let read = try TraceReader.read(bytes: bytes)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")

        // And a stream finished after all still closes properly.
        try stream.finish()
        let finished = try parseTrace(readBytes(path))
        #expect(finished.events(named: "never flushed").count == 2)
        #expect(finished.events.last?["name"] as? String == "framescope")
    }

    @Test("A span that straddles a flush is written after events that began later, and reads back with no diagnostic")
    func straddlingSpanReadsClean() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        let directory = try TemporaryDirectory()
        let path = directory.path("straddle.json")
        let stream = try TraceStream(recorder: recorder, path: path)
        try recorder.withSpan("outer", category: .layout) {
            Self.record(recorder, clock: clock, name: "inner", count: 3)
            try stream.flush()  // "outer" is still open: it is written with the next flush
            clock.advance(by: .microseconds(5))
        }
        Self.record(recorder, clock: clock, name: "after", count: 1)
        try stream.flush()
        let trace = try TraceReader.read(contentsOf: path)
        #expect(trace.diagnostics.isEmpty, "\(trace.diagnostics)")
        let names = trace.events.filter { $0.phase == .complete }.map { trace.name(of: $0) }
        #expect(names == ["inner", "inner", "inner", "outer", "after"])
        try stream.finish()
        #expect(try TraceReader.read(contentsOf: path).diagnostics.isEmpty)
    }

    @Test(
        "A stream between flushes passes the independent validator as it is",
        .enabled(if: TraceValidator.isAvailable, Comment(rawValue: TraceValidator.missingReason)))
    func unfinishedStreamPassesValidator() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        let directory = try TemporaryDirectory()
        let path = directory.path("killed.json")
        let stream = try TraceStream(recorder: recorder, path: path)
        let empty = try TraceValidator.run(path)
        #expect(empty.status == 0, "\(empty.output)")
        Self.record(recorder, clock: clock, name: "flushed", count: 3)
        try stream.flush()
        let result = try TraceValidator.run(path)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("truncated"))
        try stream.finish()
        let finished = try TraceValidator.run(path)
        #expect(finished.status == 0, "\(finished.output)")
    }

    @Test("A stream drains the recorder: what it flushed is gone from the recorder")
    func streamDrainsRecorder() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        let directory = try TemporaryDirectory()
        let stream = try TraceStream(recorder: recorder, path: directory.path("s.json"))
        Self.record(recorder, clock: clock, name: "span", count: 5)
        #expect(try stream.flush() == 5)
        #expect(recorder.snapshot().events.isEmpty)
        #expect(try stream.flush() == 0)
        try stream.finish()
    }

    @Test("Creating a stream in a missing directory throws a FileError naming the path")
    func streamFailsForMissingDirectory() {
        let recorder = Recorder()
        #expect {
            _ = try TraceStream(recorder: recorder, path: "/nonexistent-directory/stream.json")
        } throws: { error in
            (error as? FileError)?.path == "/nonexistent-directory/stream.json"
        }
    }
}
