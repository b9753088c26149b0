import FrameTrace
import Testing

@testable import FrameAnalysis

extension TraceSketch {
    mutating func input(
        _ name: String, at time: Double, category: String = "input", on thread: ThreadKey? = nil,
        arguments: [Argument] = []
    ) {
        trace.append(
            .instant, name: name, category: category, thread: thread ?? main, timestamp: ms(time), arguments: arguments)
    }

    /// Four frames at P = 10 ms, the third late: [0, 4), [10, 16), [20, 35), [40, 44) ms, and ten
    /// input events worked out on paper:
    ///
    /// | ts    | what                                    | reflected by | latency  |
    /// | ---:  | :---                                    | :---         | ---:     |
    /// | 2     | since-input-ns 3 ms                     | [0, 4)       | 5        |
    /// | 3     | `ignored: false`                        | [0, 4)       | 1        |
    /// | 5     | between frames                          | [10, 16)     | 11       |
    /// | 12    | `ignored: true`                         | -            | -        |
    /// | 18    | `X` span on the worker                  | [20, 35)     | 17       |
    /// | 25    | `ignored: 1`                            | -            | -        |
    /// | 30    | since-input-ns 12.5 ms (a double)       | [20, 35)     | 17.5     |
    /// | 41    | category `input,touch`                  | [40, 44)     | 3        |
    /// | 44    | at the last frame's end                 | -            | unreflected |
    /// | 50    | after the last frame                    | -            | unreflected |
    ///
    /// plus an instant in category `inputs`, which is not an input.
    static func withInputs() -> TraceSketch {
        var sketch = TraceSketch(metadataMain: true, interval: ms(10))
        for (start, end) in [(0.0, 4.0), (10, 16), (20, 35), (40, 44)] {
            sketch.span("frame", "frame", from: start, to: end)
            sketch.span("handle pan", "layout", from: start + 0.5, to: end - 0.5)
        }
        sketch.input("pan", at: 2, arguments: [Argument("since-input-ns", .int(ms(3)))])
        sketch.input("pan", at: 3, arguments: [Argument("ignored", .bool(false))])
        sketch.input("pan", at: 5)
        sketch.input("pan", at: 12, arguments: [Argument("ignored", .bool(true))])
        sketch.span("tap", "input", from: 18, to: 19, on: sketch.worker)
        sketch.input("pan", at: 25, arguments: [Argument("ignored", .int(1))])
        sketch.input("pan", at: 30, arguments: [Argument("since-input-ns", .double(12_500_000))])
        sketch.input("touch", at: 41, category: "input,touch")
        sketch.input("pan", at: 44)
        sketch.input("pan", at: 50)
        sketch.input("not an input", at: 2, category: "inputs")
        return sketch
    }
}

@Suite("Input latency")
struct InputLatencyTests {
    @Test("Latency runs from input time to the end of the frame that reflects it; ignored and late inputs have none")
    func latencyOnHandBuiltTrace() throws {
        let report = FrameAnalyzer.analyze(TraceSketch.withInputs().trace)
        #expect(report.frames.map(\.commitEnd) == [ms(4), ms(16), ms(35), ms(44)])
        let input = try #require(report.input)
        #expect(input.inputs == 10)
        #expect(input.ignored == 2)
        #expect(input.unreflected == 2)
        let latency = try #require(input.latency)
        #expect(latency.count == 6)
        #expect(latency.p50 == ms(5))
        #expect(latency.p90 == ms(17.5))
        #expect(latency.p95 == ms(17.5))
        #expect(latency.p99 == ms(17.5))
        #expect(latency.max == ms(17.5))
        #expect(latency.total == ms(1 + 3 + 5 + 11 + 17 + 17.5))
    }

    @Test("since-input-ns moves the input time back; a negative one is ignored")
    func sinceInputArgument() throws {
        var sketch = TraceSketch(interval: ms(10))
        sketch.span("frame", "frame", from: 0, to: 8)
        sketch.input("pan", at: 1, arguments: [Argument("since-input-ns", .int(ms(6)))])
        sketch.input("pan", at: 2, arguments: [Argument("since-input-ns", .int(-ms(6)))])
        let latency = try #require(FrameAnalyzer.analyze(sketch.trace).input?.latency)
        #expect(latency.max == ms(13))
        #expect(latency.p50 == ms(6))
    }

    @Test("Inputs between frames wait for the next frame to start")
    func inputsBetweenFrames() throws {
        var sketch = TraceSketch(interval: ms(10))
        sketch.span("frame", "frame", from: 0, to: 5)
        sketch.span("frame", "frame", from: 30, to: 33)
        sketch.input("pan", at: 5)
        sketch.input("pan", at: 12)
        sketch.input("pan", at: 29.5)
        let input = try #require(FrameAnalyzer.analyze(sketch.trace).input)
        #expect(input.unreflected == 0)
        #expect(input.latency.map { [$0.p50, $0.max, $0.total] } == [ms(21), ms(28), ms(28 + 21 + 3.5)])
    }

    @Test("Inputs after the last frame, or in a trace without frames, are unreflected")
    func unreflectedInputs() throws {
        var sketch = TraceSketch()
        sketch.input("pan", at: 1)
        sketch.input("pan", at: 2, arguments: [Argument("ignored", .bool(true))])
        let input = try #require(FrameAnalyzer.analyze(sketch.trace).input)
        #expect(input == FrameReport.InputFigures(inputs: 2, ignored: 1, unreflected: 1, latency: nil))
        let text = FrameAnalyzer.analyze(sketch.trace).text(source: "x")
        #expect(text.contains("Input (latency"))
    }

    @Test("A trace without input events has no input section in any rendering")
    func noInputs() throws {
        var sketch = TraceSketch()
        sketch.span("frame", "frame", from: 0, to: 5)
        sketch.input("not an input", at: 1, category: "inputs")
        let report = FrameAnalyzer.analyze(sketch.trace)
        #expect(report.input == nil)
        #expect(!report.text(source: "x").contains("Input"))
        #expect(!report.markdown(source: "x").contains("Input"))
        #expect(!report.jsonValue(source: "x").description.contains("\"input\""))
        let table = RunComparisonTable.make(title: "t", runs: [("s", "a", report)])
        #expect(table.columns.suffix(2).map(\.name) == ["input\np95 ms", "ignored\ninputs"])
        #expect(table.rows[0].suffix(2) == ["-", "-"])
    }

    @Test("The JSON report gains an input object after the summary")
    func jsonInputObject() throws {
        let json = FrameAnalyzer.analyze(TraceSketch.withInputs().trace).jsonValue(source: "x").description
        #expect(
            json.contains(
                "\"input\":{\"inputs\":10,\"ignored\":2,\"unreflected\":2,\"latency-ns\":{\"p50\":5000000,\"p90\":17500000,\"p95\":17500000,\"p99\":17500000,\"max\":17500000,"
            ))
        let summary = try #require(json.range(of: "\"summary\":"))
        let input = try #require(json.range(of: "\"input\":"))
        let categories = try #require(json.range(of: "\"categories\":"))
        #expect(summary.lowerBound < input.lowerBound && input.lowerBound < categories.lowerBound)
    }

    @Test("The side-by-side table shows input p95 and ignored inputs")
    func runComparisonColumns() throws {
        let report = FrameAnalyzer.analyze(TraceSketch.withInputs().trace)
        let table = RunComparisonTable.make(title: "t", runs: [("s", "a", report)])
        #expect(table.rows[0].suffix(2) == ["17.50", "2"])
    }

    @Test("A report with inputs matches its golden files byte for byte")
    func goldenWithInputs() throws {
        let report = FrameAnalyzer.analyze(TraceSketch.withInputs().trace)
        try expectGolden(report.text(source: "inputs.json"), named: "report-input.txt")
        try expectGolden(report.markdown(source: "inputs.json"), named: "report-input.md")
    }
}
