import FrameSupport
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

@Suite("report --format json is streamed in pieces, byte for byte the value tree's text")
struct ReportJSONStreamTests {
    /// The pieces `writeJSON` hands over, joined, and how many there were.
    static func streamed(_ report: FrameReport, source: String) -> (bytes: [UInt8], pieces: Int) {
        var bytes: [UInt8] = []
        var pieces = 0
        report.writeJSON(source: source) { piece in
            bytes += piece
            pieces += 1
        }
        return (bytes, pieces)
    }

    /// The value tree's text (``FrameReport/treeJSON(source:)``, the renderer the stream replaced)
    /// and a line feed.
    static func treeText(_ report: FrameReport, source: String) -> [UInt8] {
        Array((report.treeJSON(source: source).description + "\n").utf8)
    }

    @Test("Every trace in the repository and the third-party corpus: the stream writes the tree's bytes")
    func everyTrace() throws {
        let paths = Set(ParallelSweepTests.traceFiles + NonNegativeFigureTests.traces).sorted()
        var compared = 0
        var kinds = Set<String>()
        for path in paths {
            guard let trace = try? TraceReader.read(contentsOf: path) else { continue }
            for options in [AnalysisOptions(worstFrameCount: 1000), AnalysisOptions(frameRate: FrameRate(hertz: 120))] {
                let report = FrameAnalyzer.analyze(trace, options: options)
                let (bytes, pieces) = Self.streamed(report, source: path)
                #expect(bytes == Self.treeText(report, source: path), "\(path)")
                if bytes.count < 1 << 20 { #expect(pieces == 1, "a small report is one piece: \(path)") }
                kinds.insert(report.method.frameSourceDetail.identifier)
            }
            compared += 1
        }
        #expect(compared > 20)
        // The sources cover the frame boundaries' kinds, so every detail's members were written.
        #expect(kinds.count >= 4, "\(kinds.sorted())")
    }

    @Test("A report of 20,000 frames comes in pieces of about 1 MiB that join into the value's text")
    func largeReport() {
        var trace = Trace()
        let main = ThreadKey(processID: 1, threadID: 1)
        trace.setThread(TraceThread(key: main, name: "main", sortIndex: 0))
        var random = SeededGenerator(seed: 7)
        let categories = ["layout", "decode", "draw", "diff", "commit"]
        for frame in 0..<20_000 {
            let start = Int64(frame) * 16_666_667
            trace.append(
                .complete, name: "frame", category: "frame", thread: main, timestamp: start, duration: 15_000_000)
            var time = start + 100_000
            for category in categories.shuffled(using: &random).prefix(Int.random(in: 1...5, using: &random)) {
                let duration = Int64.random(in: 10_000...2_000_000, using: &random)
                trace.append(
                    .complete, name: category, category: category, thread: main, timestamp: time, duration: duration)
                time += duration + 1_000
            }
        }
        let report = FrameAnalyzer.analyze(trace)
        #expect(report.frames.count == 20_000)
        let (bytes, pieces) = Self.streamed(report, source: "large.json")
        #expect(bytes == Self.treeText(report, source: "large.json"))
        #expect(pieces >= bytes.count >> 20, "\(bytes.count) bytes in \(pieces) pieces")
        #expect(pieces > 1)
    }
}
