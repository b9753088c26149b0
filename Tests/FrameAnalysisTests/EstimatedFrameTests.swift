import FrameSupport
import FrameTrace
import Testing

@testable import FrameAnalysis

/// Traces without frame events: the estimate may only count what the main thread provably cost.
@Suite("Estimated frames")
struct EstimatedFrameTests {
    @Test("1 µs tasks one second apart make no slow or late frame")
    func sparseTinyTasks() {
        var sketch = TraceSketch()
        for second in 0..<51 {
            sketch.span("tick", "timer", from: Double(second) * 1000, to: Double(second) * 1000 + 0.001)
        }
        let report = FrameAnalyzer.analyze(sketch.trace)
        #expect(report.method.frameSource == .estimated)
        #expect(report.summary.frameCount == 51)
        #expect(report.summary.slowFrames == 0)
        #expect(report.summary.lateFrames == 0)
        #expect(report.summary.hitchBand == .good)
    }

    @Test(
        "No estimated frame whose main-thread work fits in P is slow or late, whatever the task pattern",
        arguments: 0..<40)
    func fitsNeverLate(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var sketch = TraceSketch()
        var time = 0.0
        for _ in 0..<200 {
            time += Double.random(in: 0...30, using: &generator)
            let length = Double.random(in: 0.001...40, using: &generator)
            sketch.span("task", "work", from: time, to: time + length)
            // Nested and touching children never make a stretch longer than its outer span.
            if length > 2 { sketch.span("child", "layout", from: time + 0.5, to: time + length / 2) }
            time += length
        }
        let report = FrameAnalyzer.analyze(sketch.trace)
        let interval = report.method.frameRate.intervalNanoseconds
        for frame in report.frames where frame.mainThreadNanoseconds <= interval {
            #expect(
                frame.overrun <= 0, "frame \(frame.index) costs \(frame.mainThreadNanoseconds) ns and must not be late")
            #expect(frame.duration <= interval, "frame \(frame.index) must not be slow")
        }
        for frame in report.frames where frame.overrun > 0 {
            #expect(frame.overrun == frame.mainThreadNanoseconds - interval, "late by exactly what the work ran past P")
        }
    }

    @Test("One long span gives a budget share of at most 100% of the measured time")
    func budgetShareBounded() throws {
        var sketch = TraceSketch()
        sketch.span("long", "layout", from: 0, to: 3_577)
        let report = FrameAnalyzer.analyze(sketch.trace)
        let layout = try #require(report.categories.first { $0.name == "layout" })
        #expect(layout.budgetShare == 1)
        for category in report.categories { #expect((0...1).contains(category.budgetShare ?? 0)) }
    }

    @Test("Categories' budget shares add up to at most 100% with nested spans and work outside the frames")
    func budgetSharesAddUp() {
        var sketch = TraceSketch()
        sketch.span("frame", "frame", from: 0, to: 10)
        sketch.span("layout", "layout", from: 1, to: 9)
        sketch.span("decode", "image-decode", from: 2, to: 5)
        sketch.span("late work", "other", from: 50, to: 80)
        let report = FrameAnalyzer.analyze(sketch.trace)
        let total = report.categories.compactMap(\.budgetShare).reduce(0, +)
        #expect(total <= 1.0000001)
        #expect(report.summary.mainOutsideFramesNanoseconds == ms(30))
    }

    @Test("Times at the ends of the representable range never trap the analysis or the renderers")
    func extremeTimes() {
        let cases: [(Int64, Int64)] = [
            (Int64.max - 10, 5), (Int64.max / 2, Int64.max / 2), (Int64.min + 1, 10),
            (Int64.min / 2, Int64.max / 2 + 7),
            (9_223_372_036_854_775_000, 9_223_372_036_854_775),
        ]
        for (timestamp, duration) in cases {
            var trace = Trace()
            let main = ThreadKey(processID: 1, threadID: 1)
            trace.setThread(TraceThread(key: main, name: "main"))
            trace.append(
                .complete, name: "a", category: "layout", thread: main, timestamp: timestamp, duration: duration)
            trace.append(
                .complete, name: "b", category: "input", thread: main, timestamp: 0, duration: duration,
                arguments: [Argument(FrameContract.Key.sinceInput, .int(Int64.max))])
            trace.append(
                .complete, name: "frame", category: "frame", thread: main, timestamp: Int64.min + 5, duration: duration,
                arguments: [
                    Argument(FrameContract.Key.sinceVsync, .int(Int64.max)),
                    Argument(FrameContract.Key.budget, .int(Int64.max)),
                ])
            for fps in [nil, 1.0, 1000.0] as [Double?] {
                let report = FrameAnalyzer.analyze(
                    trace, options: AnalysisOptions(frameRate: fps.map(FrameRate.init(hertz:))))
                _ = report.text(source: "t")
                _ = report.markdown(source: "t")
                _ = report.jsonValue(source: "t").description
                for category in report.categories { #expect((0...1).contains(category.budgetShare ?? 0)) }
            }
        }
    }
}
