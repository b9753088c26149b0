import Foundation
import FrameTrace
import FrameTraceReader
import Testing

/// A regular file is mapped and the pages already read are handed back to the system as the scan
/// moves on (every MiB); errors are located afterwards by rescanning from the start. These inputs
/// are several MiB, so that pages are released before the end.
@Suite("A mapped file reads as its bytes do, errors deep in it included")
struct MappedInputTests {
    /// An array-form trace of `count` events, one per line, about 150 bytes each.
    static func largeTrace(events count: Int, brokenAt broken: Int? = nil) -> String {
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0..<count {
            let comma = index == broken ? "" : ","  // a missing comma between two members
            lines.append(
                #"{"ph":"X","name":"layout \#(index % 7)","cat":"layout","pid":1,"tid":\#(index % 3)\#(comma)"ts":\#(index * 10).5,"dur":4.25,"args":{"row":\#(index),"url":"https://example.com/\#(index % 50)"}}"#
            )
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-mapped-\(UUID().uuidString).json"
        ).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A multi-MiB file gives the same trace mapped as read into memory")
    func mappedMatchesBuffered() throws {
        let text = Self.largeTrace(events: 40_000)
        #expect(text.utf8.count > 5 << 20)
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapped = try TraceReader.read(contentsOf: path)
        let buffered = try TraceReader.read(bytes: try InputFile.bytes(contentsOf: path))
        #expect(mapped.events.count == 40_000)
        #expect(mapped.events == buffered.events)
        #expect(mapped.symbols.strings == buffered.symbols.strings)
        #expect(mapped.argumentLists == buffered.argumentLists)
        #expect(mapped.diagnostics == buffered.diagnostics)
        #expect(mapped.threads == buffered.threads)
        // Strings are copied out of the mapping, so they outlive it.
        #expect(mapped.arguments(of: mapped.events[39_999])["url"] == .string("https://example.com/49"))
    }

    @Test("An error near the end of a multi-MiB file has the line, column and byte offset of the bytes")
    func deepErrorLocated() throws {
        let broken = 39_000
        let text = Self.largeTrace(events: 40_000, brokenAt: broken)
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapped = try #require(throws: TraceReadError.self) { try TraceReader.read(contentsOf: path) }
        let buffered = try #require(throws: TraceReadError.self) { try TraceReader.read(bytes: Array(text.utf8)) }
        #expect(mapped == buffered)
        // The event on line broken + 2 lacks the comma before "ts": the error is at its quote.
        let lineStart = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(broken + 1).reduce(0)
        { $0 + $1.count + 1 }
        let column =
            #"{"ph":"X","name":"layout \#(broken % 7)","cat":"layout","pid":1,"tid":\#(broken % 3)"#.utf8.count + 1
        #expect(mapped.line == broken + 2)
        #expect(mapped.column == column)
        #expect(mapped.byteOffset == lineStart + column - 1)
        #expect(mapped.byteOffset > 5 << 20)
    }

    @Test(
        "An empty file and a file of only whitespace are not JSON, whether read from the file or as bytes",
        arguments: ["", " \n\t\r\n  "])
    func emptyFiles(text: String) throws {
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try #require(throws: TraceReadError.self) { try TraceReader.read(contentsOf: path) }
        let fromBytes = try #require(throws: TraceReadError.self) { try TraceReader.read(bytes: Array(text.utf8)) }
        #expect(fromFile.code == .notJSON)
        #expect(
            fromFile.message
                == (text.isEmpty
                    ? "the input is empty" : "the input is \(text.utf8.count) bytes of white space: no JSON value"))
        #expect(fromFile == fromBytes)
    }

    @Test("A multi-MiB file over the cap is refused before it is mapped; a directory is an I/O error")
    func capAndDirectory() throws {
        let text = Self.largeTrace(events: 40_000)
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = text.utf8.count
        let error = try #require(throws: TraceReadError.self) {
            try TraceReader.read(contentsOf: path, maximumSize: size - 1)
        }
        #expect(error.code == .tooLarge)
        #expect(error.description == "\(path): larger than the input size limit of \(size - 1) bytes")
        #expect(try TraceReader.read(contentsOf: path, maximumSize: size).events.count == 40_000)
        let directory = try #require(throws: TraceReadError.self) {
            try TraceReader.read(contentsOf: FileManager.default.temporaryDirectory.path)
        }
        #expect(directory.code == .ioError)
        #expect(directory.description.hasSuffix(": is a directory"))
    }
}
