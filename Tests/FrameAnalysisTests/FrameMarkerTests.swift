import FrameTrace
import Testing

@testable import FrameAnalysis

/// Frames named by other platforms' markers: Android's Choreographer, the RenderThread's
/// DrawFrame, Tracy-style frame instants, and any name given with `--frame-marker`.
@Suite("Frame markers")
struct FrameMarkerTests {
    @Test(
        "Android's Choreographer#doFrame spans (with their vsync-id suffix) are the frames; one 30 ms frame is late by 13.33 ms"
    )
    func choreographer() {
        var sketch = TraceSketch()
        for index in 0..<10 {
            let start = Double(index) * 16.667 * 2
            sketch.span("Choreographer#doFrame \(1000 + index)", "gfx", from: start, to: start + (index == 4 ? 30 : 5))
            sketch.span("traversal", "view", from: start + 1, to: start + (index == 4 ? 29 : 4))
        }
        let report = FrameAnalyzer.analyze(sketch.trace)
        #expect(report.method.frameSource == .frameMarkers)
        #expect(
            report.method.frameSourceDetail
                == .markerSpans(
                    name: "Choreographer#doFrame", thread: sketch.main, threadName: "main", isMain: true))
        #expect(report.summary.frameCount == 10)
        #expect(report.summary.lateFrames == 1)
        #expect(report.frames[4].overrun == ms(30) - report.method.frameRate.intervalNanoseconds)
    }

    @Test("--frame-marker NAME instants: each frame runs to the next mark, so a doubled gap is one late frame")
    func namedInstants() {
        var sketch = TraceSketch()
        var time = 0.0
        for index in 0..<8 {
            sketch.trace.append(.instant, name: "Frame", category: "tracy", thread: sketch.main, timestamp: ms(time))
            time += index == 3 ? 33.334 : 16.667
        }
        sketch.span("work", "app", from: 1, to: 3)
        let estimated = FrameAnalyzer.analyze(sketch.trace)
        #expect(estimated.method.frameSource == .estimated, "an unknown name marks nothing without --frame-marker")
        let report = FrameAnalyzer.analyze(sketch.trace, options: AnalysisOptions(frameMarkers: ["Frame"]))
        #expect(report.method.frameSource == .frameMarkers)
        #expect(report.summary.frameCount == 7)
        #expect(report.summary.lateFrames == 1)
        #expect(report.summary.missedVsyncs == 1)
    }
}
