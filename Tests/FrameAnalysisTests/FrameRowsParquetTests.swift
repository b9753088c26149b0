import FrameTrace
import ParquetTestSupport
import Testing

@testable import FrameAnalysis

/// The Parquet renderer of a row table against its JSON Lines renderer: each JSON line is rebuilt
/// from the cells an independent decoder reads out of the Parquet file, and must come out byte
/// for byte the same, so every value, null and map entry (and every name) is the JSON's.
@Suite("Parquet rows hold the JSON Lines' values")
struct FrameRowsParquetTests {
    static let hostileLabel = "main\n::error::x \u{1B}[31m\u{202E} \"q\" caf\u{E9} cafe\u{301} ,;"

    /// A JSON Lines line rebuilt from one Parquet row, with the table's column types.
    static func jsonLine(_ cells: [ParquetTestFile.Cell], columns: [RowTable.Column]) -> String {
        func text(_ bytes: [UInt8]) -> String { JSONValue.string(String(decoding: bytes, as: UTF8.self)).description }
        let members = zip(cells, columns).map { cell, column -> String in
            let value: String
            switch (cell, column.type) {
            case (.null, _): value = "null"
            case (.bytes(let bytes), .text): value = text(bytes)
            case (.int64(let integer), .integer): value = String(integer)
            case (.int64(let nanoseconds), .milliseconds): value = FrameRows.exactMilliseconds(nanoseconds)
            case (.double(let double), .double): value = String(double)
            case (.map(let entries), .millisecondsByName):
                value =
                    "{"
                    + entries.map { text($0.key) + ":" + FrameRows.exactMilliseconds($0.value) }.joined(separator: ",")
                    + "}"
            default: value = "<\(cell) in a \(column.type) column>"
            }
            return JSONValue.string(column.name).description + ":" + value
        }
        return "{" + members.joined(separator: ",") + "}\n"
    }

    static func check(_ table: RowTable, name: String) throws {
        var lines: [String] = []
        table.writeJSONLines { lines.append($0) }
        let bytes = table.parquet(rowGroupRowLimit: 2)  // several row groups even for a short trace
        dropParquetCopy(bytes, name: name, jsonLines: lines.joined())
        let file = try ParquetTestFile(bytes)
        #expect(file.columns.map(\.name) == table.columns.map(\.name))
        #expect(file.keyValues["framescope.schema"] == table.schema)
        #expect(file.keyValues["framescope.schema.version"] == String(table.version))
        #expect(file.metadata[6]?.string == "framescope \(FramescopeVersion.current)")
        for (column, read) in zip(table.columns, file.columns) where column.type != .millisecondsByName {
            let element = try #require(read.leaves.first?.element)
            #expect(
                element[3]?.integer == (column.isNullable ? 1 : 0), "\(column.name): OPTIONAL exactly when nullable")
            let expectedType: Int64 =
                switch column.type {
                case .text: 6
                case .double: 5
                default: 2
                }
            #expect(element[1]?.integer == expectedType, "\(column.name): physical type")
            #expect(
                (element[6]?.integer == 5) == (column.type == .milliseconds),
                "\(column.name): DECIMAL exactly for milliseconds")
        }
        let rows = try file.rows()
        #expect(rows.count == lines.count)
        for (row, line) in zip(rows, lines) {
            #expect(Self.jsonLine(row, columns: table.columns) == line)
        }
    }

    @Test("Frames: the sketch's rows, labels (one hostile) and metadata")
    func frames() throws {
        let sketch = FrameRowsTests.sketch()
        let report = FrameAnalyzer.analyze(sketch.trace)
        let table = FrameRows.table(
            report, trace: "t\n.json", labels: [("branch", "main"), ("hostile", Self.hostileLabel)],
            metadata: sketch.trace.metadata)
        #expect(table.rowCount == 2)
        try Self.check(table, name: "rows-frames-sketch")
    }

    @Test("Summary: one row whose figures are the report's")
    func summary() throws {
        let sketch = FrameRowsTests.sketch()
        let report = FrameAnalyzer.analyze(sketch.trace)
        let table = SummaryRows.table(
            report, trace: "t.json", labels: [("hostile", Self.hostileLabel)], metadata: sketch.trace.metadata)
        try Self.check(table, name: "rows-summary-sketch")
        let rows = try ParquetTestFile(table.parquet()).rows()
        let names = table.columns.map(\.name)
        func cell(_ name: String) -> ParquetTestFile.Cell? { names.firstIndex(of: name).map { rows[0][$0] } }
        #expect(cell("frames") == .int64(Int64(report.summary.frameCount)))
        #expect(cell("late_frames") == .int64(Int64(report.summary.lateFrames)))
        #expect(cell("hitch_ms") == .int64(report.summary.hitchNanoseconds))
        #expect(cell("measured_ms") == .int64(report.summary.measuredNanoseconds))
        #expect(cell("main_thread_cost_p95_ms") == report.summary.mainThreadCost.map { .int64($0.p95) })
    }

    @Test(
        "Times at the reader's bound and totals saturated at Int64.max read back exactly",
        arguments: HostileTimestampTests.fixtures.dropLast())
    func extremes(_ name: String) throws {
        let trace = try analysisFixture(name)
        let report = FrameAnalyzer.analyze(trace, options: AnalysisOptions(frameRate: FrameRate(hertz: 1)))
        let stem = name.replacingOccurrences(of: ".json", with: "")
        try Self.check(
            FrameRows.table(report, trace: name, labels: [], metadata: trace.metadata), name: "rows-frames-\(stem)")
        try Self.check(
            SummaryRows.table(report, trace: name, labels: [], metadata: trace.metadata), name: "rows-summary-\(stem)")
    }
}
