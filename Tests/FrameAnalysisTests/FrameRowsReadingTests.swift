import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

@Suite("Reading frames rows back for compare --rows")
struct FrameRowsReadingTests {
    /// The shipped sample traces, beside the tests' package.
    static func shippedTrace(_ name: String) throws -> Trace {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Traces")
            .appendingPathComponent(name)
        return try TraceReader.read(contentsOf: path.standardized.path)
    }

    static func trace(_ name: String) throws -> Trace {
        name.hasPrefix("diffable-update") ? try shippedTrace(name) : try analysisFixture(name)
    }

    /// A report's frames-jsonl rows, as `framescope report --format frames-jsonl` writes them.
    static func rows(_ report: FrameReport, metadata: TraceMetadata = TraceMetadata(), trace: String = "t.json")
        -> [UInt8]
    {
        var text = ""
        FrameRows.write(report, trace: trace, labels: [("branch", "main")], metadata: metadata, format: .jsonLines) {
            text += $0
        }
        return Array(text.utf8)
    }

    /// One frame-spans row with the given main_ms, for the reader's edge cases.
    static func row(mainMilliseconds: String = "1.500000", extra: String = "") -> String {
        #"{"schema":"framescope.frames","version":1,"trace":"t.json","frame_source":"frame-spans","frame_interval_ms":16.666667,"index":0,"#
            + #""vsync_ns":0,"deadline_ns":16666667,"main_ms":\#(mainMilliseconds),"overrun_ms":-2.000000,"missed_vsyncs":0,"#
            + #""outcome":"measured","hitch_cause":"none","render_ms":null,"background_ms":null\#(extra),"main_by_category_ms":{"layout":1.500000}}"#
    }

    @Test(
        "Comparing the rows of two traces gives exactly the metrics of comparing their reports",
        arguments: [
            ("diffable-update--snapshot-diff.json", "diffable-update--reload.json"),
            ("chrome-smooth-animation.json", "chrome-stage-overrun.json"),
            ("chrome-stage-overrun.json", "chrome-legacy-frames.json"),
        ])
    func sameMetrics(base: String, head: String) throws {
        let baseTrace = try Self.trace(base)
        let headTrace = try Self.trace(head)
        let baseReport = FrameAnalyzer.analyze(baseTrace)
        let headReport = FrameAnalyzer.analyze(headTrace)
        let fromReports = Comparison(base: [baseReport], head: [headReport], baseSources: [base], headSources: [head])
        let baseRun = try FrameRows.readRun(Self.rows(baseReport, metadata: baseTrace.metadata))
        let headRun = try FrameRows.readRun(Self.rows(headReport, metadata: headTrace.metadata))
        let fromRows = Comparison(
            base: ComparedRuns(pooling: [baseRun]), head: ComparedRuns(pooling: [headRun]), baseSources: [base],
            headSources: [head])
        #expect(fromRows.metrics.count >= 4)
        #expect(fromRows.metrics == fromReports.metrics)
        #expect(
            fromRows.baseFrameCount == fromReports.baseFrameCount
                && fromRows.headFrameCount == fromReports.headFrameCount)
        #expect(
            fromRows.baseFrameSources == fromReports.baseFrameSources
                && fromRows.headFrameSources == fromReports.headFrameSources)
        #expect(fromRows.headChart == fromReports.headChart)
        #expect(fromReports.input == .traces)
        #expect(fromRows.input == .frameRows)
        // Summaries: only the frame counts, which rows give exactly.
        #expect(fromRows.summaries == Array(fromReports.summaries.prefix(1)))
        #expect(fromRows.summaries.map(\.id) == ["frames"])
    }

    @Test("Pooled runs: two rows files a side compare as their two reports a side do")
    func pooledRuns() throws {
        let snapshot = FrameAnalyzer.analyze(try Self.shippedTrace("diffable-update--snapshot-diff.json"))
        let reload = FrameAnalyzer.analyze(try Self.shippedTrace("diffable-update--reload.json"))
        let chrome = FrameAnalyzer.analyze(try analysisFixture("chrome-stage-overrun.json"))
        let fromReports = Comparison(
            base: [snapshot, chrome], head: [reload, chrome], baseSources: ["a", "b"], headSources: ["c", "d"])
        let fromRows = Comparison(
            base: ComparedRuns(pooling: [
                try FrameRows.readRun(Self.rows(snapshot)), try FrameRows.readRun(Self.rows(chrome)),
            ]),
            head: ComparedRuns(pooling: [
                try FrameRows.readRun(Self.rows(reload)), try FrameRows.readRun(Self.rows(chrome)),
            ]),
            baseSources: ["a", "b"], headSources: ["c", "d"])
        // A lane only the Chrome run has counts 0 in the other run's frames, on both paths.
        #expect(fromRows.metrics.contains { $0.id == "lane-ms.compositor" })
        #expect(fromRows.metrics == fromReports.metrics)
        #expect(fromRows.baseFrameSources == fromReports.baseFrameSources)
    }

    @Test("Milliseconds are read exactly into nanoseconds, to the limits of Int64")
    func exactMilliseconds() throws {
        let cases: [(text: String, nanoseconds: Int64)] = [
            ("1.500000", 1_500_000), ("1.5", 1_500_000), ("2", 2_000_000), ("-0.000001", -1), ("1e-6", 1),
            ("0.000000", 0),
            ("9223372036854.775807", Int64.max), ("-9223372036854.775808", Int64.min), ("0.123456000", 123_456),
            ("4503599627.370497", 4_503_599_627_370_497),  // 2^52 + 1 ns: a Double of the ms would round it
        ]
        for (text, nanoseconds) in cases {
            let run = try FrameRows.readRun(Array(Self.row(mainMilliseconds: text).utf8))
            #expect(run.frames.map(\.mainNanoseconds) == [nanoseconds], "\(text)")
        }
        let run = try FrameRows.readRun(Array(Self.row().utf8))
        #expect(run.frames.first?.budgetNanoseconds == 16_666_667)
        #expect(run.frames.first?.overrunNanoseconds == -2_000_000)
        #expect(run.frames.first?.mainByCategory == ["layout": 1_500_000])
        #expect(run.lanes.isEmpty, "null lane columns are no lane")
        #expect(run.chart?.intervalNanoseconds == 16_666_667)
    }

    @Test("Lanes: a lane belongs to the run when any row has a number for it; a null row counts 0")
    func lanes() throws {
        let text = Self.row(extra: #","gpu_ms":null"#) + "\n" + Self.row(extra: #","gpu_ms":0.250000"#) + "\n"
        let run = try FrameRows.readRun(Array(text.utf8))
        #expect(run.lanes == [.gpu])
        #expect(run.frames.map { $0.cost(in: .gpu) } == [0, 250_000])
    }

    @Test("Blank lines may end the file; an empty file is a run without frames")
    func blankLines() throws {
        #expect(try FrameRows.readRun(Array((Self.row() + "\n\n  \r\n\n").utf8)).frames.count == 1)
        #expect(try FrameRows.readRun(Array((Self.row() + "\r\n" + Self.row()).utf8)).frames.count == 2)
        #expect(try FrameRows.readRun([]).frames.isEmpty)
        #expect(try FrameRows.readRun(Array("\n\n".utf8)).frames.isEmpty)
    }

    static let good = row()

    /// A bad third line, what kind of error it is, and the column at fault (empty: the row).
    struct BadRow: Sendable, CustomTestStringConvertible {
        var row: String
        var code: FrameRowsError.Code
        var column: String
        var testDescription: String { "\(code): \(column)" }
    }

    /// The good row with `old` replaced by `new`.
    static func bad(_ old: String, _ new: String, _ code: FrameRowsError.Code, _ column: String = "") -> BadRow {
        BadRow(row: good.replacingOccurrences(of: old, with: new), code: code, column: column)
    }

    static let badRows: [BadRow] = [
        BadRow(row: "not json", code: .invalidJSON, column: ""),
        BadRow(row: "[1, 2]", code: .invalidJSON, column: ""),
        BadRow(row: good + " trailing", code: .invalidJSON, column: ""),
        BadRow(row: String(good.dropLast()), code: .invalidJSON, column: ""),
        bad("framescope.frames", "framescope.report", .wrongSchema),
        bad(#""version":1"#, #""version":2"#, .unsupportedVersion),
        bad(#""version":1"#, #""version":"1""#, .wrongType, "version"),
        bad(#""main_ms":1.500000,"#, "", .missingColumn),
        bad(#""render_ms":null,"#, "", .missingColumn),
        bad(#","main_by_category_ms":{"layout":1.500000}"#, "", .missingColumn),
        bad(#""main_ms":1.500000"#, #""main_ms":"1.500000""#, .wrongType, "main_ms"),
        bad(#""main_ms":1.500000"#, #""main_ms":null"#, .wrongType, "main_ms"),
        bad(#""render_ms":null"#, #""render_ms":true"#, .wrongType, "render_ms"),
        bad(#""vsync_ns":0"#, #""vsync_ns":0.5"#, .wrongType, "vsync_ns"),
        bad(#""trace":"t.json""#, #""trace":7"#, .wrongType, "trace"),
        bad(#"{"layout":1.500000}"#, "[1.5]", .wrongType, "main_by_category_ms"),
        bad(#"{"layout":1.500000}"#, #"{"layout":"1.5"}"#, .wrongType, "main_by_category_ms.layout"),
        bad(#""main_ms":1.500000"#, #""main_ms":1.5000001"#, .invalidValue, "main_ms"),
        bad(#""main_ms":1.500000"#, #""main_ms":9223372036854.775808"#, .invalidValue, "main_ms"),
        bad(#""overrun_ms":-2.000000"#, #""overrun_ms":-1e300"#, .invalidValue, "overrun_ms"),
        bad(#""deadline_ns":16666667"#, #""deadline_ns":9223372036854775808"#, .invalidValue, "deadline_ns"),
        bad(#""index":0"#, #""index":-1"#, .invalidValue, "index"),
        bad(#""frame_source":"frame-spans""#, #""frame_source":"guess""#, .invalidValue, "frame_source"),
        bad(#""frame_interval_ms":16.666667"#, #""frame_interval_ms":0"#, .invalidValue, "frame_interval_ms"),
    ]

    @Test("Each kind of bad row is one error naming its line, and its column where one is at fault", arguments: badRows)
    func badRow(_ bad: BadRow) throws {
        // The bad row is the third line, after two good ones.
        let text = Self.good + "\n" + Self.good + "\n" + bad.row + "\n"
        let error = try #require(throws: FrameRowsError.self) { try FrameRows.readRun(Array(text.utf8)) }
        #expect(error.code == bad.code, "\(error)")
        #expect(error.line == 3)
        #expect(error.column == bad.column, "\(error)")
        #expect(error.description.hasPrefix("line 3: "))
        #expect(bad.row != Self.good, "the replacement applied")
    }

    @Test("A blank line between rows is an error at the blank line")
    func blankLineBetweenRows() throws {
        let text = Self.good + "\n\n" + Self.good + "\n"
        let error = try #require(throws: FrameRowsError.self) { try FrameRows.readRun(Array(text.utf8)) }
        #expect(error.line == 2)
        #expect(error.description == "line 2: a blank line between rows (blank lines may only end the file)")
    }

    @Test("Deadline − vsync saturates instead of trapping on extreme values")
    func saturatingBudget() throws {
        let text = Self.good.replacingOccurrences(of: #""vsync_ns":0"#, with: #""vsync_ns":-9223372036854775808"#)
            .replacingOccurrences(of: #""deadline_ns":16666667"#, with: #""deadline_ns":9223372036854775807"#)
        let run = try FrameRows.readRun(Array(text.utf8))
        #expect(run.frames.first?.budgetNanoseconds == Int64.max)
    }
}
