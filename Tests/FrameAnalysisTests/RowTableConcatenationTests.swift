import Testing

@testable import FrameAnalysis

/// Several traces' tables as one (`report TRACE... --format frames-parquet`): every column of
/// every table, null where a table has none, text where tables disagree on a type.
@Suite("Row tables concatenated")
struct RowTableConcatenationTests {
    /// A table of `rows` rows of `cells`.
    static func table(_ columns: [RowTable.Column], _ rows: [[RowTable.Cell]]) -> RowTable {
        RowTable(schema: "framescope.frames", version: 1, description: "d", columns: columns, rowCount: rows.count) {
            rows[$0]
        }
    }

    static func lines(_ table: RowTable) -> [String] {
        var lines: [String] = []
        table.writeJSONLines { lines.append($0) }
        return lines
    }

    static var first: RowTable {
        table(
            [
                RowTable.Column("trace", .text), RowTable.Column("meta_seed", .integer),
                RowTable.Column("main_ms", .milliseconds),
                RowTable.Column("by_category", .millisecondsByName, csvKeys: [("category:a", "a")]),
            ],
            [
                [.text("a.json"), .integer(7), .milliseconds(1_500_000), .millisecondsByName([.init("a", 1)])],
                [.text("a.json"), .integer(7), .milliseconds(2), .millisecondsByName([])],
            ])
    }
    static var empty: RowTable { table([RowTable.Column("trace", .text), RowTable.Column("lonely", .double)], []) }
    static var second: RowTable {
        table(
            [
                RowTable.Column("trace", .text), RowTable.Column("meta_seed", .text),
                RowTable.Column("by_category", .millisecondsByName, csvKeys: [("category:b", "b")]),
                RowTable.Column("hitch_stage", .text, isNullable: true),
            ],
            [[.text("b.json"), .text("x"), .millisecondsByName([.init("b", 3)]), .null]])
    }

    @Test("Columns in order of first appearance; a table's missing column is null in its rows")
    func columnsAndRows() throws {
        let joined = try #require(RowTable.concatenating([Self.first, Self.empty, Self.second]))
        #expect(
            joined.columns.map(\.name) == ["trace", "meta_seed", "main_ms", "by_category", "lonely", "hitch_stage"])
        // The empty table has neither meta_seed nor by_category: nullable, though it has no row.
        #expect(joined.columns.map(\.isNullable) == [false, true, true, true, true, true])
        #expect(joined.columns[1].type == .text)  // an integer in one table, text in the other
        #expect(joined.columns[3].csvKeys.map(\.key) == ["a", "b"])
        #expect(
            Self.lines(joined) == [
                #"{"trace":"a.json","meta_seed":"7","main_ms":1.500000,"by_category":{"a":0.000001},"lonely":null,"hitch_stage":null}"#
                    + "\n",
                #"{"trace":"a.json","meta_seed":"7","main_ms":0.000002,"by_category":{},"lonely":null,"hitch_stage":null}"#
                    + "\n",
                #"{"trace":"b.json","meta_seed":"x","main_ms":null,"by_category":{"b":0.000003},"lonely":null,"hitch_stage":null}"#
                    + "\n",
            ])
        var csv = ""
        joined.writeCSV { csv += $0 }
        #expect(csv.hasPrefix("trace,meta_seed,main_ms,category:a,category:b,lonely,hitch_stage\n"))
    }

    @Test("The Parquet of a concatenation holds its JSON Lines' values; one table is itself; none is nil")
    func parquetAndEdges() throws {
        let joined = try #require(RowTable.concatenating([Self.first, Self.second]))
        try FrameRowsParquetTests.check(joined, name: "rows-concatenated")
        let alone = try #require(RowTable.concatenating([Self.first]))
        #expect(Self.lines(alone) == Self.lines(Self.first))
        #expect(alone.columns.map(\.name) == Self.first.columns.map(\.name))
        #expect(RowTable.concatenating([]) == nil)
    }
}
