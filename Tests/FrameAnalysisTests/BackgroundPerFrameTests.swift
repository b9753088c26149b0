import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Background work per frame")
struct BackgroundPerFrameTests {
    /// Three 10 ms frames at P = 10 ms, two busy workers all along, and one worker busy for a
    /// second after the last frame: the work after the frames must not be spread over them.
    static func sketch() -> TraceSketch {
        var sketch = TraceSketch(interval: ms(10))
        let second = ThreadKey(processID: 1, threadID: 3)
        sketch.trace.setThread(TraceThread(key: second, name: "worker-2", sortIndex: 2))
        for frame in 0..<3 {
            let start = Double(frame) * 10
            sketch.span("frame", "frame", from: start, to: start + 4)
        }
        sketch.span("prefetch", "layout", from: 0, to: 30, on: sketch.worker)
        sketch.span("decode", "image-decode", from: 0, to: 30, on: second)
        sketch.span("late decode", "image-decode", from: 30, to: 1030, on: second)
        sketch.span("early decode", "image-decode", from: -5, to: 0, on: sketch.worker)
        return sketch
    }

    @Test("Background time per frame interval counts only the frame windows and never exceeds workers × P")
    func boundedByWorkers() throws {
        let report = FrameAnalyzer.analyze(Self.sketch().trace)
        let p = report.method.frameRate.intervalNanoseconds
        #expect(report.frames.count == 3)
        #expect(report.summary.measuredNanoseconds == ms(30))
        #expect(report.summary.backgroundInFramesNanoseconds == ms(60), "two workers × 30 ms of frame windows")
        #expect(
            report.summary.backgroundOutsideFramesNanoseconds == ms(1005),
            "1 s after the last frame and 5 ms before the first")
        let perInterval = try #require(report.summary.backgroundPerInterval(p))
        #expect(perInterval == ms(20))
        #expect(perInterval <= 2 * p)
        #expect(report.frames.map { $0.backgroundByCategory.values.reduce(0, +) } == [ms(20), ms(20), ms(20)])
    }

    @Test("The demo table shows background per interval and the work outside the frames in its own column")
    func demoColumns() throws {
        let report = FrameAnalyzer.analyze(Self.sketch().trace)
        let table = RunComparisonTable.make(title: "t", runs: [("s", "a", report)], wide: true)
        let names = table.columns.map(\.name)
        let background = try #require(names.firstIndex(of: "background\nms/interval"))
        let outside = try #require(names.firstIndex(of: "background outside\nframes ms"))
        #expect(table.rows[0][background] == "20.00")
        #expect(table.rows[0][outside] == "1005.00")
    }

    @Test("The text report states background per interval and background outside frames")
    func textRows() throws {
        let text = FrameAnalyzer.analyze(Self.sketch().trace).text(source: "x")
        #expect(text.contains("background per frame interval"))
        #expect(text.contains("background outside frames"))
        #expect(text.contains("1005.00 ms"))
    }
}
