import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: both forms and cut-off files")
struct ChromeJSONImporterFormTests {
    @Test(
        "The array form and the object form read the same events", arguments: ["array-form.json", "object-form.json"])
    func bothForms(fixture: String) throws {
        let trace = try Fixture.read(fixture)
        #expect(trace.events.map { trace.name(of: $0) } == ["layout", "draw"])
        #expect(trace.events.map(\.timestamp) == [100_000, 160_000])
        #expect(trace.events.map(\.duration) == [50_000, 20_000])
        #expect(trace.events.map { trace.category(of: $0) } == ["layout", "draw"])
        #expect(trace.diagnostics.isEmpty)
        #expect(trace.metadata.isEmpty, "a foreign producer's metadata is not framescope's")
    }

    @Test(
        "A truncated array loads every complete event; only a cut event is diagnosed",
        arguments: [
            ("truncated-no-bracket.json", 2, nil),
            ("truncated-trailing-comma.json", 2, nil),
            ("truncated-whitespace.json", 2, nil),
            ("truncated-mid-event.json", 2, 2),
            ("truncated-mid-string.json", 1, 1),
            ("truncated-mid-number.json", 2, 2),
            ("truncated-mid-args.json", 1, 1),
        ] as [(String, Int, Int?)])
    func truncatedArray(fixture: String, events: Int, cutEvent: Int?) throws {
        let trace = try Fixture.read(fixture)
        #expect(trace.events.count == events)
        #expect(trace.events.allSatisfy { $0.phase == .complete && $0.duration == 1_000 })
        if let cutEvent {
            #expect(trace.indexes(.truncated) == [cutEvent])
            #expect(trace.diagnostics.count == 1)
        } else {
            #expect(trace.diagnostics.isEmpty, "the format allows an array without its closing bracket")
        }
    }

    @Test(
        "A truncated object form loads its events with a truncated diagnostic",
        arguments: ["truncated-object-form.json", "truncated-object-after-events.json"])
    func truncatedObject(fixture: String) throws {
        let trace = try Fixture.read(fixture)
        #expect(trace.events.count == 2)
        #expect(trace.indexes(.truncated) == [nil])
    }

    @Test("An object form cut off before its events began is an error")
    func truncatedBeforeEvents() throws {
        let error = try #require(throws: TraceReadError.self) {
            try Fixture.read("truncated-object-before-events.json")
        }
        #expect(error.code == .unterminatedString)
    }

    @Test(
        "Empty traces in either form load with no events and no diagnostics",
        arguments: ["empty-array.json", "empty-object-form.json"])
    func emptyTraces(fixture: String) throws {
        let trace = try Fixture.read(fixture)
        #expect(trace.events.isEmpty)
        #expect(trace.diagnostics.isEmpty)
    }

    @Test("A lone opening bracket is an empty trace; a lone brace is an error")
    func loneBrackets() throws {
        #expect(try TraceReader.read(bytes: Array("[".utf8)).events.isEmpty)
        #expect(try TraceReader.read(bytes: Array("  [ \n".utf8)).events.isEmpty)
        #expect(throws: TraceReadError.self) { try TraceReader.read(bytes: Array("{".utf8)) }
    }

    @Test("A byte-order mark before the trace is ignored")
    func byteOrderMark() throws {
        let trace = try Fixture.read("byte-order-mark.json")
        #expect(trace.events.count == 1)
    }

    @Test("Reading bytes in memory gives the same trace as reading the file", arguments: Fixture.traces)
    func bytesMatchFile(fixture: String) throws {
        let fromFile = try Fixture.read(fixture)
        let bytes = try Fixture.bytes(fixture)
        let fromBytes = try TraceReader.read(bytes: bytes)
        let fromLazy = try TraceReader.read(bytes: bytes.lazy.map { $0 })  // not contiguous
        for other in [fromBytes, fromLazy] {
            #expect(other.events == fromFile.events)
            #expect(other.symbols.strings == fromFile.symbols.strings)
            #expect(other.argumentLists == fromFile.argumentLists)
            #expect(other.diagnostics == fromFile.diagnostics)
            #expect(other.threads == fromFile.threads)
            #expect(other.metadata == fromFile.metadata)
        }
    }

    @Test("A pipe is read to its end through a file descriptor")
    func pipeDescriptor() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let bytes = try Fixture.bytes("array-form.json")
        let written = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
        close(descriptors[1])
        defer { close(descriptors[0]) }
        let trace = try TraceReader.read(fileDescriptor: descriptors[0])
        #expect(trace.events.count == 2)
    }

    @Test("A regular file is read through its descriptor")
    func fileDescriptor() throws {
        let descriptor = open(Fixture.path("object-form.json"), O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let trace = try TraceReader.read(fileDescriptor: descriptor)
        #expect(trace.events.count == 2)
    }

    @Test("A missing file is an I/O error naming the path")
    func missingFile() throws {
        let error = try #require(throws: TraceReadError.self) {
            try TraceReader.read(contentsOf: "/nonexistent/trace.json")
        }
        #expect(error.code == .ioError)
        #expect(error.message.hasPrefix("/nonexistent/trace.json: "))
        #expect(error.line == 0)
        #expect(error.description == error.message)
    }

    @Test("Keys the reader does not use are skipped at the top level and in events")
    func unknownKeysSkipped() throws {
        let trace = try Fixture.read("object-form.json")
        #expect(trace.events.count == 2)
        let nested = try Fixture.read("nested-args.json")
        let unknown = try #require(nested.event(named: "unknown keys"))
        #expect(nested.arguments(of: unknown).isEmpty)
        #expect(unknown.timestamp == 2_000 && unknown.duration == 1_000)
    }
}
