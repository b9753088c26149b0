import ParquetTestSupport
import Testing

@testable import FrameParquet

@Suite("Parquet files, read back by the tests' own decoder")
struct ParquetWriterTests {
    static let columns = [
        ParquetColumn("index", .int64), ParquetColumn("main_ms", .decimal(precision: 18, scale: 6)),
        ParquetColumn("outcome", .string), ParquetColumn("stage", .string, isOptional: true),
        ParquetColumn("rate", .double, isOptional: true),
        ParquetColumn("by_category", .decimalMap(precision: 18, scale: 6)),
    ]

    static func row(_ index: Int) -> [ParquetValue] {
        [
            .int64(Int64(index)), .int64(index == 3 ? .max : index == 4 ? .min : Int64(index) * 1_000_001 - 5_000_000),
            .string(index % 3 == 0 ? "late" : "measured"), index % 2 == 0 ? .null : .string("stage \(index) ∆"),
            index % 4 == 0 ? .null : .double(Double(index) / 8),
            .entries(index % 5 == 0 ? [] : [.init("layout", Int64(index)), .init("decode", -1)]),
        ]
    }

    static func write(rows: Int, rowGroupRowLimit: Int = 65_536) -> [UInt8] {
        var writer = ParquetWriter(
            columns: columns, metadata: [("framescope.schema", "test"), ("k", "v")], createdBy: "framescope test",
            rowGroupRowLimit: rowGroupRowLimit)
        for index in 0..<rows { writer.append(row(index)) }
        return writer.finish()
    }

    static func expected(_ value: ParquetValue) -> ParquetTestFile.Cell {
        switch value {
        case .null: .null
        case .int64(let value): .int64(value)
        case .double(let value): .double(value)
        case .string(let value): .bytes(Array(value.utf8))
        case .entries(let entries): .map(entries.map { .init(key: Array($0.key.utf8), value: $0.value) })
        }
    }

    @Test("A file starts and ends with PAR1, and the 4 bytes before the end hold the footer's length")
    func structure() throws {
        let bytes = Self.write(rows: 10)
        dropParquetCopy(bytes, name: "writer-structure")
        let file = try ParquetTestFile(bytes)
        #expect(Array(bytes.prefix(4)) == Array("PAR1".utf8))
        #expect(file.footerLength > 0 && file.footerLength < bytes.count - 12)
        #expect(file.rowCount == 10)
        #expect(file.metadata[6]?.string == "framescope test")
        #expect(file.keyValues == ["framescope.schema": "test", "k": "v"])
        #expect(file.columns.map(\.name) == ["index", "main_ms", "outcome", "stage", "rate", "by_category"])
        let map = try #require(file.columns.last)
        #expect(
            map.isMap
                && map.leaves.map(\.path) == [
                    ["by_category", "key_value", "key"], ["by_category", "key_value", "value"],
                ])
        #expect(map.leaves.map(\.maxDefinition) == [2, 2] && map.leaves.map(\.maxRepetition) == [1, 1])
        let decimal = try #require(file.columns[1].leaves.first?.element)
        #expect(decimal[6]?.integer == 5 && decimal[7]?.integer == 6 && decimal[8]?.integer == 18)
        #expect(decimal[10]?[5]?[1]?.integer == 6 && decimal[10]?[5]?[2]?.integer == 18)
    }

    @Test(
        "Every value reads back, across row groups, nulls, empty maps and Int64's extremes",
        arguments: [1, 3, 7, 65_536])
    func valuesRoundTrip(rowGroupRowLimit: Int) throws {
        let bytes = Self.write(rows: 23, rowGroupRowLimit: rowGroupRowLimit)
        let file = try ParquetTestFile(bytes)
        #expect(file.metadata[4]?.list?.count == (23 + rowGroupRowLimit - 1) / rowGroupRowLimit)
        let rows = try file.rows()
        #expect(rows == (0..<23).map { Self.row($0).map(Self.expected) })
    }

    @Test("A string column with few distinct values gets a dictionary; one of distinct values stays plain")
    func dictionaryChoice() throws {
        #expect(
            StringEncodingChoice(Array(repeating: ["measured", "late"], count: 50).flatMap { $0 }).dictionary?.entries
                == ["measured", "late"])
        #expect(StringEncodingChoice((0..<100).map { "frame \($0)" }).dictionary == nil)
        #expect(StringEncodingChoice([]).dictionary == nil)
        let file = try ParquetTestFile(Self.write(rows: 40))
        #expect(try file.leafData(2, file.columns[2].leaves[0]).encodings == [8])  // outcome: RLE_DICTIONARY
        #expect(try file.leafData(3, file.columns[3].leaves[0]).encodings == [0])  // stage: all distinct, PLAIN
    }

    @Test("Strings are told apart by their bytes: é and e + U+0301 are two dictionary entries")
    func bytewiseDistinct() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's equality would merge them
        let choice = StringEncodingChoice(Array(repeating: [composed, decomposed], count: 20).flatMap { $0 })
        #expect(choice.dictionary?.entries.map { Array($0.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)])
        var writer = ParquetWriter(columns: [ParquetColumn("name", .string)], metadata: [], createdBy: "t")
        for _ in 0..<20 {
            writer.append([.string(composed)])
            writer.append([.string(decomposed)])
        }
        let bytes = writer.finish()
        dropParquetCopy(bytes, name: "writer-normalization")
        let rows = try ParquetTestFile(bytes).rows()
        #expect(
            rows.map(\.[0])
                == Array(repeating: [.bytes(Array(composed.utf8)), .bytes(Array(decomposed.utf8))], count: 20).flatMap {
                    $0
                })
    }

    @Test("Statistics: signed order for INT64 and DOUBLE, unsigned bytes for strings, and the null count")
    func statistics() throws {
        var writer = ParquetWriter(
            columns: [
                ParquetColumn("n", .int64), ParquetColumn("s", .string, isOptional: true), ParquetColumn("d", .double),
            ], metadata: [], createdBy: "t")
        // Bytewise, e + U+0301 (65 CC 81) < f (66) < é (C3 A9); Swift's order puts both é forms after f.
        for (n, s, d) in [
            (Int64(3), "f", 0.0), (-5, "e\u{301}", -2.5), (Int64.max, nil, Double.nan), (0, "\u{E9}", 1.5),
        ] as [(Int64, String?, Double)] {
            writer.append([.int64(n), s.map(ParquetValue.string) ?? .null, .double(d)])
        }
        let file = try ParquetTestFile(writer.finish())
        func bounds(_ leaf: Int) -> (min: [UInt8]?, max: [UInt8]?, nulls: Int64?) {
            let statistics = file.chunks(leafIndex: leaf).first?[3]?[12]
            return (statistics?[6]?.binary, statistics?[5]?.binary, statistics?[3]?.integer)
        }
        func littleEndian(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        #expect(
            bounds(0).min == littleEndian(UInt64(bitPattern: -5))
                && bounds(0).max == littleEndian(UInt64(bitPattern: .max)))
        #expect(bounds(0).nulls == 0)
        #expect(
            bounds(1).min == Array("e\u{301}".utf8) && bounds(1).max == Array("\u{E9}".utf8) && bounds(1).nulls == 1)
        #expect(bounds(2).min == littleEndian((-2.5).bitPattern) && bounds(2).max == littleEndian((1.5).bitPattern))
        let orders = try #require(file.metadata[7]?.list)
        #expect(orders.count == 3 && orders.allSatisfy { $0[1] != nil })  // TypeDefinedOrder for each leaf
    }

    @Test("Integer and decimal columns are DELTA_BINARY_PACKED, the map's values too; doubles stay PLAIN")
    func deltaEncodedIntegers() throws {
        let file = try ParquetTestFile(Self.write(rows: 300, rowGroupRowLimit: 200))
        for leaf in [0, 1, 6] {
            let data = try file.leafData(leaf, file.columns.flatMap(\.leaves)[leaf])
            #expect(data.encodings == [5, 5], "leaf \(leaf)")
        }
        #expect(try file.leafData(4, file.columns[4].leaves[0]).encodings == [0, 0])
        let chunk = try #require(file.chunks(leafIndex: 0).first?[3])
        #expect(chunk[2]?.list?.compactMap(\.integer).sorted() == [3, 5])  // RLE levels, delta values
    }

    @Test("A column of one row, of all-null values, or of equal values reads back and stays small")
    func smallAndConstantColumns() throws {
        var writer = ParquetWriter(
            columns: [ParquetColumn("n", .int64), ParquetColumn("m", .int64, isOptional: true)], metadata: [],
            createdBy: "t")
        writer.append([.int64(.min), .null])
        let one = writer.finish()
        dropParquetCopy(one, name: "writer-one-row")
        #expect(try ParquetTestFile(one).rows() == [[.int64(.min), .null]])
        writer = ParquetWriter(
            columns: [ParquetColumn("n", .int64), ParquetColumn("m", .int64, isOptional: true)], metadata: [],
            createdBy: "t")
        for _ in 0..<10_000 { writer.append([.int64(16_666_667), .null]) }
        let constant = writer.finish()
        dropParquetCopy(constant, name: "writer-constant")
        let file = try ParquetTestFile(constant)
        #expect(try file.rows() == Array(repeating: [.int64(16_666_667), .null], count: 10_000))
        // 10,000 equal values: the delta header and 79 blocks of 5 bytes, not 80,000 bytes.
        #expect(constant.count < 1_500)
    }

    @Test("Each data page carries the chunk's statistics in its header: null count, min_value, max_value")
    func pageStatistics() throws {
        let bytes = Self.write(rows: 23)
        let file = try ParquetTestFile(bytes)
        for (leaf, chunk) in (0..<7).map({ ($0, file.chunks(leafIndex: $0).first?[3]) }) {
            let offset = try #require(chunk?[9]?.integer, "leaf \(leaf)")
            var reader = CompactReader(bytes: bytes, position: Int(offset))
            let header = try reader.readStruct()
            let page = try #require(header[5]?[5], "leaf \(leaf): no statistics in the page header")
            let footer = try #require(chunk?[12])
            #expect(page[3]?.integer == footer[3]?.integer && page[5]?.binary == footer[5]?.binary)
            #expect(page[6]?.binary == footer[6]?.binary && page[1] == nil && page[2] == nil)
        }
        let stage = try #require(file.chunks(leafIndex: 3).first?[3]?[12])
        #expect(stage[3]?.integer == 12 && stage[6]?.string == "stage 1 ∆" && stage[5]?.string == "stage 9 ∆")
    }

    @Test("Bytes taken a row group at a time, then the rest, are the same file as one finish()")
    func streamedOutput() throws {
        var writer = ParquetWriter(
            columns: Self.columns, metadata: [("framescope.schema", "test"), ("k", "v")], createdBy: "framescope test",
            rowGroupRowLimit: 4)
        var pieces: [[UInt8]] = []
        var largestHeld = 0
        for index in 0..<23 {
            writer.append(Self.row(index))
            let ready = writer.takeOutput()
            if !ready.isEmpty { pieces.append(ready) }
            largestHeld = max(largestHeld, ready.count)
        }
        pieces.append(writer.finish())
        // PAR1 (ready at once), five full row groups, then the last one and the footer.
        #expect(pieces.count == 7 && pieces[0] == Array("PAR1".utf8))
        let whole = Self.write(rows: 23, rowGroupRowLimit: 4)
        let streamed = Array(pieces.joined())
        let isSameFile = streamed == whole
        #expect(isSameFile)
        #expect(try ParquetTestFile(streamed).rows() == (0..<23).map { Self.row($0).map(Self.expected) })
        #expect(largestHeld < whole.count / 3)
    }

    @Test("A table with no rows is a valid file with no row group")
    func empty() throws {
        let bytes = ParquetWriter(columns: Self.columns, metadata: [], createdBy: "t").finish()
        dropParquetCopy(bytes, name: "writer-empty")
        let file = try ParquetTestFile(bytes)
        let rows = try file.rows()
        #expect(file.rowCount == 0 && file.metadata[4]?.list?.isEmpty == true && rows.isEmpty)
    }
}
