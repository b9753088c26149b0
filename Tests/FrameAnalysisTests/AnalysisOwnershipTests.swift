import FrameAnalysis
import FrameTrace
import Testing

@Suite("The analysis lets go of a trace handed over to it and leaves a caller's copy alone")
struct AnalysisOwnershipTests {
    @Test(
        "A trace handed over with consume gives the same report as one the caller keeps, which keeps its events and arguments"
    )
    func handedOverTrace() throws {
        let sketch = TraceSketch.withInputs()
        let kept = sketch.trace
        let report = FrameAnalyzer.analyze(kept)
        // The analysis drops events and argument lists from its own copy only.
        #expect(kept.events == sketch.trace.events)
        #expect(kept.argumentLists == sketch.trace.argumentLists)
        #expect(kept.events.count > 0 && kept.argumentLists.count > 1)
        let handed = sketch.trace
        let fromHanded = FrameAnalyzer.analyze(consume handed)
        // Input figures are measured before the events go: the report still has them.
        let input = try #require(fromHanded.input)
        #expect(input.inputs > 0)
        #expect(fromHanded.jsonValue(source: "t").description == report.jsonValue(source: "t").description)
        #expect(fromHanded.text(source: "t") == report.text(source: "t"))
    }
}
