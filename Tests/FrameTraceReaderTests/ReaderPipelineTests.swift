import Foundation
import FrameTrace
import Testing

@testable import FrameTraceReader

/// The worker-thread reading of a large event array (`+Pipeline`) against the sequential loop:
/// same trace, same diagnostics, same error, on everything the tests and the corpus hold and on
/// inputs made to end, fail or turn odd at every kind of place, including across batches.
@Suite("Reading with the tokenizer on a worker thread")
struct ReaderPipelineTests {
    /// Reads `bytes` both ways and records every difference.
    static func expectSameBothWays(_ bytes: [UInt8], _ label: String, arguments: TraceReader.ArgumentSelection = .all) {
        let (sequential, pipelined) = bytes.withUnsafeBufferPointer { buffer in
            (
                TraceReader.parse(buffer, releasesInput: false, arguments: arguments, pipelining: .never),
                TraceReader.parse(buffer, releasesInput: false, arguments: arguments, pipelining: .always)
            )
        }
        switch (sequential, pipelined) {
        case (.success(let expected), .success(let trace)):
            // Compared as booleans, so that a failure names what differs instead of printing it all.
            let same = [
                ("events", trace.events == expected.events),
                ("symbols", trace.symbols.strings == expected.symbols.strings),
                ("argument lists", trace.argumentLists == expected.argumentLists),
                ("threads", trace.threads == expected.threads),
                ("processes", trace.processes == expected.processes), ("metadata", trace.metadata == expected.metadata),
                ("diagnostics", trace.diagnostics == expected.diagnostics),
            ]
            for (part, isSame) in same { #expect(isSame, "\(label): \(part) differ") }
        case (.failure(let expected), .failure(let error)):
            #expect(String(describing: error) == String(describing: expected), "\(label): error")
        default:
            Issue.record("\(label): one way read it and the other did not: \(sequential) vs \(pipelined)")
        }
    }

    /// Every JSON file under `folder` and its subfolders, sorted.
    static func jsonFiles(under folder: URL) -> [String] {
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Every JSON file under Tests/ and Traces/.
    static let repositoryCorpus =
        jsonFiles(under: root.appendingPathComponent("Tests")) + jsonFiles(under: root.appendingPathComponent("Traces"))
    /// `shared/traces/third-party` beside the repository.
    static let thirdPartyFolder = root.deletingLastPathComponent().appendingPathComponent("shared/traces/third-party")

    /// Reads the files both ways, with every argument and with a selection.
    static func expectCorpusReadsTheSame(_ paths: [String]) throws {
        for path in paths {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            Self.expectSameBothWays(bytes, path)
            Self.expectSameBothWays(
                bytes, path + " (analysis keys)", arguments: .only(["frame", "budget-ns", "layerTreeId"]))
        }
    }

    @Test("Every trace in the tests and the repository reads the same both ways")
    func corpusReadsTheSame() throws {
        #expect(
            Self.repositoryCorpus.count >= 70, "the repository's traces are found: \(Self.repositoryCorpus.count) files"
        )
        try Self.expectCorpusReadsTheSame(Self.repositoryCorpus)
    }

    @Test(
        "Every third-party trace reads the same both ways",
        .enabled(
            if: FileManager.default.fileExists(atPath: thirdPartyFolder.path),
            "shared/traces/third-party is not beside this clone; third-party checks skipped"))
    func thirdPartyReadsTheSame() throws {
        let paths = Self.jsonFiles(under: Self.thirdPartyFolder)
        #expect(paths.count >= 40, "the third-party traces are found: \(paths.count) files")
        try Self.expectCorpusReadsTheSame(paths)
    }

    /// A trace of `count` events over several batches: complete, begin/end, instants, counters,
    /// flows and async events, string thread ids (the tid before the pid in some), elements that
    /// are not objects, escaped names and nested arguments.
    static func largeTrace(_ count: Int) -> String {
        var lines: [String] = []
        for index in 0..<count {
            let ts = 1000 + index * 3
            switch index % 11 {
            case 0:
                lines.append(
                    #"{"ph":"X","name":"layout","cat":"ui","pid":1,"tid":1,"ts":\#(ts),"dur":2,"args":{"row":\#(index),"frame":\#(index / 11)}}"#
                )
            case 1:
                lines.append(
                    #"{"ph":"B","name":"frame","cat":"frame","pid":1,"tid":1,"ts":\#(ts),"args":{"frame":\#(index)}}"#)
            case 2: lines.append(#"{"ph":"E","pid":1,"tid":1,"ts":\#(ts + 1),"args":{"url":"u\#(index)"}}"#)
            case 3:
                lines.append(
                    #"{"tid":"worker-\#(index % 7)","pid":"app","ph":"X","name":"decode \u0041","ts":\#(ts),"dur":1.5}"#
                )
            case 4:
                lines.append(
                    #"{"ph":"C","name":"memory","pid":1,"tid":1,"ts":\#(ts),"args":{"mb":\#(index % 100),"label":"x"}}"#
                )
            case 5: lines.append(#"{"ph":"s","name":"req","cat":"img","id":\#(index),"pid":1,"tid":1,"ts":\#(ts)}"#)
            case 6:
                lines.append(
                    #"{"ph":"f","name":"req","cat":"img","bp":"e","id":\#(index - 1),"pid":"app","tid":"worker-1","ts":\#(ts)}"#
                )
            case 7:
                lines.append(index % 77 == 7 ? "42" : #"{"ph":"i","name":"tap","s":"g","pid":1,"tid":2,"ts":\#(ts)}"#)
            case 8:
                lines.append(
                    #"{"ph":"b","name":"load","cat":"net","id":"0x\#(String(index, radix: 16))","pid":1,"tid":3,"ts":\#(ts)}"#
                )
            case 9:
                lines.append(
                    #"{"ph":"e","name":"load","cat":"net","id":"0x\#(String(index - 1, radix: 16))","pid":1,"tid":3,"ts":\#(ts + 2),"args":{"data":{"status":"ok","deep":{"x":1}}}}"#
                )
            default:
                lines.append(#"{"ph":"X","name":"paint","cat":"ui","pid":1,"tid":1,"ts":\#(ts - 5),"dur":1,"tts":3}"#)
            }
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    @Test("A trace over many batches reads the same both ways, whole and in its object form")
    func manyBatches() {
        let count = ChromeJSONImporter.EventPipeline.batchSize * ChromeJSONImporter.EventPipeline.batchCount * 2 + 17
        let array = Self.largeTrace(count)
        Self.expectSameBothWays(Array(array.utf8), "array form")
        Self.expectSameBothWays(
            Array(#"{"otherData":{},"traceEvents":\#(array),"metadata":{"producer":"x"}}"#.utf8), "object form")
        Self.expectSameBothWays(
            Array(
                #"{"traceEvents":\#(array),"traceEvents":[{"ph":"X","name":"again","pid":"p","tid":"q","ts":1,"dur":1}]}"#
                    .utf8), "two arrays")
        let read = try? TraceReader.read(bytes: Array(array.utf8))
        #expect((read?.events.count ?? 0) > count / 2)
        #expect(read?.diagnostics.contains { $0.kind == .invalidEvent } == true)
    }

    @Test(
        "Cut off, broken or ended oddly at batch edges or in other odd ways, a trace reads or fails the same both ways")
    func oddEndings() {
        // Around each batch edge, where the worker hands over: this runs under ThreadSanitizer in
        // CI. ``ReaderBatchEdgeGridTests`` tries more places and offsets.
        let batch = ChromeJSONImporter.EventPipeline.batchSize
        Self.expectEditsReadTheSameBothWays(elements: [batch - 1, batch, 2 * batch], offsets: [0, 1])
        let text = Self.largeTrace(batch * 2 + 5)
        Self.expectSameBothWays(Array((String(text.dropLast(3)) + ",\n").utf8), "trailing comma without ]")
        Self.expectSameBothWays(Array((String(text.dropLast(3)) + ",]").utf8), "trailing comma before ]")
        Self.expectSameBothWays(Array((String(text.dropLast(3)) + " ] x").utf8), "garbage after ]")
        Self.expectSameBothWays(
            Array(#"[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1} {"ph":"X"}]"#.utf8), "missing comma")
        Self.expectSameBothWays(Array("[7, \"x\", null, [1], {}]".utf8), "elements that are not events")
        Self.expectSameBothWays(
            Array(#"[{"ph":"X","name":"a","args":{"k":"\#(String(repeating: "[", count: 20_000))"#.utf8),
            "deep nesting inside a string")
        Self.expectSameBothWays(
            Array(("[{\"ph\":\"X\",\"args\":" + String(repeating: "[", count: 20_000)).utf8), "nesting too deep")
    }
}

extension ReaderPipelineTests {
    /// Reads a trace of a little over two batches cut, with a stray `}` and with a stray `:`, in
    /// its array and object forms, at `offsets` bytes from the start of each element numbered in
    /// `elements` (the last one for an index past the end): the same both ways.
    static func expectEditsReadTheSameBothWays(elements: [Int], offsets: [Int]) {
        let batch = ChromeJSONImporter.EventPipeline.batchSize
        let bytes = Array(largeTrace(batch * 2 + 5).utf8)
        // The byte offsets of element starts: each element is on a line of its own.
        var starts: [Int] = []
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") && offset + 1 < bytes.count {
            starts.append(offset + 1)
        }
        for start in elements.map({ starts[min($0, starts.count - 1)] }) {
            for delta in offsets {
                let cut = min(max(1, start + delta), bytes.count)
                expectSameBothWays(Array(bytes[..<cut]), "cut at \(cut)")
                expectSameBothWays(Array(#"{"traceEvents":"#.utf8) + Array(bytes[..<cut]), "object form cut at \(cut)")
                var broken = bytes
                broken[min(cut, broken.count - 1)] = UInt8(ascii: "}")
                expectSameBothWays(broken, "stray brace at \(cut)")
                var unquoted = bytes
                unquoted[min(cut, unquoted.count - 1)] = UInt8(ascii: ":")
                expectSameBothWays(unquoted, "stray colon at \(cut)")
            }
        }
    }
}
