/// Writes a table as one Apache Parquet file, with nothing but the format specification
/// (apache/parquet-format: parquet.thrift, Encodings.md).
///
/// Rows are appended one at a time and buffered column by column; every ``rowGroupRowLimit``
/// rows (or once the buffered values pass ``rowGroupByteLimit`` bytes) they become a row group:
/// per leaf column one column chunk of an optional dictionary page and one data page (v1). The
/// caller takes each finished row group's bytes with ``takeOutput()`` and writes them out, so
/// the writer holds one row group at a time; ``finish()`` adds the footer.
///
/// Encodings: INT64 columns (integers, decimals' unscaled values, a map's values) are
/// DELTA_BINARY_PACKED, PLAIN only where that comes out smaller (a chunk of one value); string
/// columns whose distinct values make a dictionary smaller than the plain values are
/// RLE_DICTIONARY in the data page with a PLAIN dictionary page, as the spec asks of new
/// files, the others PLAIN; doubles PLAIN. Definition and repetition levels use the RLE /
/// bit-packing hybrid. Every data page header and column chunk carries statistics (null count;
/// min_value and max_value in the type's order: signed for INT64 and DOUBLE, unsigned bytewise
/// for strings) and the footer says so (TypeDefinedOrder).
///
/// No compression codec (UNCOMPRESSED): with delta-packed integers and dictionaries the rows
/// are about a tenth of their JSON Lines, and an engine recompresses what it loads
/// (`COPY ... (COMPRESSION zstd)`); a codec of our own would be code to fuzz for little.
///
/// ```swift
/// var writer = ParquetWriter(columns: [ParquetColumn("index", .int64)], metadata: [("k", "v")], createdBy: "framescope 0.1.0")
/// writer.append([.int64(1)])
/// let bytes = writer.finish()
/// ```
package struct ParquetWriter {
    /// Rows per row group.
    package let rowGroupRowLimit: Int
    /// Buffered bytes (about: the plain size of the values) after which a row group is written
    /// early, so a page never nears Parquet's 2 GiB page limit and memory stays bounded.
    package let rowGroupByteLimit: Int
    private let columns: [ParquetColumn]
    private let metadata: [(key: String, value: String)]
    private let createdBy: String
    private var leaves: [Leaf] = []
    /// The file's bytes not yet handed over by ``takeOutput()``.
    private var output: [UInt8] = Array("PAR1".utf8)
    /// The bytes handed over so far: where `output` starts in the file.
    private var writtenCount = 0
    private var rowGroups: [RowGroupRecord] = []
    private var bufferedRows = 0
    private var bufferedBytes = 0
    private var totalRows: Int64 = 0

    /// Creates a writer for rows of `columns`.
    /// - Parameters:
    ///   - columns: The top-level columns, in order.
    ///   - metadata: The footer's key-value metadata, in order.
    ///   - createdBy: The footer's `created_by`, e.g. `framescope 0.1.0`.
    ///   - rowGroupRowLimit: Rows per row group (65,536 by default).
    ///   - rowGroupByteLimit: Buffered bytes that end a row group early (64 MiB by default).
    package init(
        columns: [ParquetColumn], metadata: [(key: String, value: String)], createdBy: String,
        rowGroupRowLimit: Int = 65_536, rowGroupByteLimit: Int = 64 << 20
    ) {
        precondition(rowGroupRowLimit > 0 && rowGroupByteLimit > 0, "row group limits are positive")
        self.columns = columns
        self.metadata = metadata
        self.createdBy = createdBy
        self.rowGroupRowLimit = rowGroupRowLimit
        self.rowGroupByteLimit = rowGroupByteLimit
        for column in columns {
            switch column.kind {
            case .int64, .decimal:
                leaves.append(Leaf(path: [column.name], type: .int64, maxDefinition: column.isOptional ? 1 : 0))
            case .double:
                leaves.append(Leaf(path: [column.name], type: .double, maxDefinition: column.isOptional ? 1 : 0))
            case .string:
                leaves.append(Leaf(path: [column.name], type: .byteArray, maxDefinition: column.isOptional ? 1 : 0))
            case .decimalMap:
                leaves.append(
                    Leaf(path: [column.name, "key_value", "key"], type: .byteArray, maxDefinition: 2, maxRepetition: 1))
                leaves.append(
                    Leaf(path: [column.name, "key_value", "value"], type: .int64, maxDefinition: 2, maxRepetition: 1))
            }
        }
    }

    /// Appends one row: one value per column, in the columns' order.
    ///
    /// A value of the wrong kind, or `null` in a required column, is a programming error.
    /// - Complexity: O(the row's values); a full row group is written out (O(its values)).
    package mutating func append(_ row: [ParquetValue]) {
        precondition(row.count == columns.count, "a row has one value per column")
        var leafIndex = 0
        for (column, value) in zip(columns, row) {
            if case .decimalMap = column.kind {
                var values = leaves[leafIndex + 1]
                // keeps `values` uniquely referenced
                leaves[leafIndex + 1] = Leaf(path: [], type: .int64, maxDefinition: 0)
                bufferedBytes += leaves[leafIndex].appendMap(value, values: &values)
                leaves[leafIndex + 1] = values
                leafIndex += 2
            } else {
                precondition(value != .null || column.isOptional, "column '\(column.name)' is required")
                bufferedBytes += leaves[leafIndex].append(value)
                leafIndex += 1
            }
        }
        bufferedRows += 1
        if bufferedRows >= rowGroupRowLimit || bufferedBytes >= rowGroupByteLimit { flushRowGroup() }
    }

    /// Hands over the bytes of the row groups written so far (and the leading `PAR1`), so the
    /// caller can write them out and the writer holds no more than the row group being filled.
    ///
    /// ```swift
    /// writer.append(row)
    /// let ready = writer.takeOutput()
    /// if !ready.isEmpty { try file.write(ready) }
    /// ```
    /// - Returns: The next bytes of the file, in order; empty when nothing is ready.
    package mutating func takeOutput() -> [UInt8] {
        defer {
            writtenCount += output.count
            output = []
        }
        return output
    }

    /// Writes any buffered rows and the footer, and returns the rest of the file.
    /// - Returns: The file's bytes that ``takeOutput()`` has not handed over: the whole file
    ///   (`PAR1`, the column chunks, the footer, its length, `PAR1`) when it was never called.
    package consuming func finish() -> [UInt8] {
        if bufferedRows > 0 { flushRowGroup() }
        let footer = footerBytes()
        output += footer
        output += littleEndian(UInt32(footer.count))
        output += Array("PAR1".utf8)
        return output
    }

    // MARK: Row groups and pages

    private mutating func flushRowGroup() {
        let start = writtenCount + output.count
        var chunks: [ChunkRecord] = []
        for index in leaves.indices {
            chunks.append(writeChunk(leaves[index]))
            leaves[index].removeAll()
        }
        let size = Int64(writtenCount + output.count - start)
        rowGroups.append(
            RowGroupRecord(chunks: chunks, rows: Int64(bufferedRows), byteSize: size, fileOffset: Int64(start)))
        totalRows += Int64(bufferedRows)
        bufferedRows = 0
        bufferedBytes = 0
    }

    private mutating func writeChunk(_ leaf: Leaf) -> ChunkRecord {
        let start = output.count
        let levels = Self.encodeLevels(leaf)
        var dictionaryOffset: Int64?
        let (values, encoding) = encodeValues(leaf, dictionaryOffset: &dictionaryOffset)
        let dataOffset = Int64(writtenCount + output.count)
        let body = levels + values
        let statistics = leaf.statistics
        output += Self.pageHeader(type: .data, size: body.count) { writer in
            writer.field(
                5,
                structure: { header in
                    header.field(1, i32: Int32(leaf.levelCount))
                    header.field(2, i32: encoding.rawValue)
                    header.field(3, i32: Encoding.rle.rawValue)
                    header.field(4, i32: Encoding.rle.rawValue)
                    header.field(5, structure: { Self.writeStatistics(statistics, to: &$0) })
                })
        }
        output += body
        // Every encoding in the chunk: the levels' RLE, the dictionary page's PLAIN, the values'.
        var encodings: [Encoding] = [.rle]
        if dictionaryOffset != nil { encodings.append(.plain) }
        if !encodings.contains(encoding) { encodings.append(encoding) }
        return ChunkRecord(
            leaf: leaf.path, type: leaf.type, encodings: encodings, valueCount: Int64(leaf.levelCount),
            size: Int64(output.count - start),
            dataPageOffset: dataOffset, dictionaryPageOffset: dictionaryOffset, statistics: statistics)
    }

    /// A leaf's repetition and definition levels, RLE with their lengths (none for a leaf that has
    /// neither).
    private static func encodeLevels(_ leaf: Leaf) -> [UInt8] {
        var levels: [UInt8] = []
        if leaf.maxRepetition > 0 {
            levels += HybridEncoder.encodeWithLength(
                leaf.repetitions, bitWidth: HybridEncoder.bitWidth(forMaximum: UInt32(leaf.maxRepetition)))
        }
        if leaf.maxDefinition > 0 {
            levels += HybridEncoder.encodeWithLength(
                leaf.definitions, bitWidth: HybridEncoder.bitWidth(forMaximum: UInt32(leaf.maxDefinition)))
        }
        return levels
    }

    /// A leaf's values as its data page holds them, and their encoding. Strings that a dictionary
    /// makes smaller write it first, as the chunk's dictionary page (`dictionaryOffset` set to it).
    private mutating func encodeValues(_ leaf: Leaf, dictionaryOffset: inout Int64?) -> ([UInt8], Encoding) {
        var values: [UInt8] = []
        switch leaf.type {
        case .int64:
            // DELTA_BINARY_PACKED unless it would come out larger than the 8 bytes a value of
            // PLAIN (a handful of values far apart).
            values = DeltaBinaryPackedEncoder.encode(leaf.integers)
            guard values.count >= leaf.integers.count * 8 else { return (values, .deltaBinaryPacked) }
            values = []
            values.reserveCapacity(leaf.integers.count * 8)
            for value in leaf.integers { values += littleEndian(value) }
        case .double:
            values.reserveCapacity(leaf.doubles.count * 8)
            for value in leaf.doubles { values += littleEndian(value.bitPattern) }
        case .byteArray:
            let choice = StringEncodingChoice(leaf.strings)
            guard let dictionary = choice.dictionary else {
                values.reserveCapacity(choice.plainSize)
                for string in leaf.strings { Self.appendPlain(string, to: &values) }
                return (values, .plain)
            }
            dictionaryOffset = Int64(writtenCount + output.count)
            var page: [UInt8] = []
            for entry in dictionary.entries { Self.appendPlain(entry, to: &page) }
            output += Self.pageHeader(type: .dictionary, size: page.count) { writer in
                writer.field(
                    7,
                    structure: { header in
                        header.field(1, i32: Int32(dictionary.entries.count))
                        header.field(2, i32: Encoding.plain.rawValue)
                    })
            }
            output += page
            let width = max(1, HybridEncoder.bitWidth(forMaximum: UInt32(dictionary.entries.count - 1)))
            return ([UInt8(width)] + HybridEncoder.encode(dictionary.indices, bitWidth: width), .rleDictionary)
        }
        return (values, .plain)
    }

    /// A `Statistics` struct: the null count, and min_value / max_value (fields 6 and 5, in the
    /// type's order; never the deprecated min / max, whose string order was signed).
    private static func writeStatistics(_ statistics: ChunkStatistics, to writer: inout CompactProtocolWriter) {
        writer.field(3, i64: statistics.nullCount)
        if let bounds = statistics.bounds {
            writer.field(5, binary: bounds.max)
            writer.field(6, binary: bounds.min)
        }
    }

    private static func appendPlain(_ string: String, to bytes: inout [UInt8]) {
        bytes += littleEndian(UInt32(string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }

    private static func pageHeader(type: PageType, size: Int, body: (inout CompactProtocolWriter) -> Void) -> [UInt8] {
        precondition(size <= Int(Int32.max), "a Parquet page is below 2 GiB (the row group byte limit keeps it there)")
        var writer = CompactProtocolWriter()
        writer.field(1, i32: type.rawValue)
        writer.field(2, i32: Int32(size))
        writer.field(3, i32: Int32(size))
        body(&writer)
        writer.stop()
        return writer.bytes
    }

    // MARK: Footer

    private func footerBytes() -> [UInt8] {
        var writer = CompactProtocolWriter()
        writer.field(1, i32: 1)
        let elementCount =
            1
            + columns.reduce(0) { count, column in
                if case .decimalMap = column.kind { return count + 4 }
                return count + 1
            }
        writer.field(2, listOf: .structure, count: elementCount) { list in
            list.writeStruct { root in
                root.field(4, string: "schema")
                root.field(5, i32: Int32(columns.count))
            }
            for column in columns { Self.writeSchemaElements(column, to: &list) }
        }
        writer.field(3, i64: totalRows)
        writer.field(4, listOf: .structure, count: rowGroups.count) { list in
            for group in rowGroups { Self.writeRowGroup(group, to: &list) }
        }
        if !metadata.isEmpty {
            writer.field(5, listOf: .structure, count: metadata.count) { list in
                for pair in metadata {
                    list.writeStruct { entry in
                        entry.field(1, string: pair.key)
                        entry.field(2, string: pair.value)
                    }
                }
            }
        }
        writer.field(6, string: createdBy)
        // TypeDefinedOrder for every leaf: readers may trust min_value / max_value.
        writer.field(7, listOf: .structure, count: leaves.count) { list in
            for _ in leaves { list.writeStruct { order in order.field(1, structure: { _ in }) } }
        }
        writer.stop()
        return writer.bytes
    }

    private static func writeSchemaElements(_ column: ParquetColumn, to list: inout CompactProtocolWriter) {
        switch column.kind {
        case .int64:
            list.writeStruct { element in
                element.field(1, i32: PhysicalType.int64.rawValue)
                element.field(3, i32: column.isOptional ? 1 : 0)
                element.field(4, string: column.name)
            }
        case .double:
            list.writeStruct { element in
                element.field(1, i32: PhysicalType.double.rawValue)
                element.field(3, i32: column.isOptional ? 1 : 0)
                element.field(4, string: column.name)
            }
        case .string:
            list.writeStruct { element in
                writeStringElement(name: column.name, repetition: column.isOptional ? 1 : 0, to: &element)
            }
        case .decimal(let precision, let scale):
            list.writeStruct { element in
                writeDecimalElement(
                    name: column.name, repetition: column.isOptional ? 1 : 0, precision: precision, scale: scale,
                    to: &element)
            }
        case .decimalMap(let precision, let scale):
            list.writeStruct { group in
                group.field(3, i32: 1)  // OPTIONAL
                group.field(4, string: column.name)
                group.field(5, i32: 1)
                group.field(6, i32: 1)  // converted type MAP
                group.field(10, structure: { logical in logical.field(2, structure: { _ in }) })  // MapType
            }
            list.writeStruct { group in
                group.field(3, i32: 2)  // REPEATED
                group.field(4, string: "key_value")
                group.field(5, i32: 2)
            }
            list.writeStruct { element in writeStringElement(name: "key", repetition: 0, to: &element) }
            list.writeStruct { element in
                writeDecimalElement(name: "value", repetition: 0, precision: precision, scale: scale, to: &element)
            }
        }
    }

    private static func writeStringElement(name: String, repetition: Int32, to element: inout CompactProtocolWriter) {
        element.field(1, i32: PhysicalType.byteArray.rawValue)
        element.field(3, i32: repetition)
        element.field(4, string: name)
        element.field(6, i32: 0)  // converted type UTF8
        element.field(10, structure: { logical in logical.field(1, structure: { _ in }) })  // StringType
    }

    private static func writeDecimalElement(
        name: String, repetition: Int32, precision: Int, scale: Int, to element: inout CompactProtocolWriter
    ) {
        element.field(1, i32: PhysicalType.int64.rawValue)
        element.field(3, i32: repetition)
        element.field(4, string: name)
        element.field(6, i32: 5)  // converted type DECIMAL
        element.field(7, i32: Int32(scale))
        element.field(8, i32: Int32(precision))
        element.field(
            10,
            structure: { logical in
                logical.field(
                    5,
                    structure: { decimal in
                        decimal.field(1, i32: Int32(scale))
                        decimal.field(2, i32: Int32(precision))
                    })
            })
    }

    private static func writeRowGroup(_ group: RowGroupRecord, to list: inout CompactProtocolWriter) {
        list.writeStruct { rowGroup in
            rowGroup.field(1, listOf: .structure, count: group.chunks.count) { chunks in
                for chunk in group.chunks {
                    chunks.writeStruct { columnChunk in
                        columnChunk.field(2, i64: chunk.dictionaryPageOffset ?? chunk.dataPageOffset)
                        columnChunk.field(3, structure: { meta in writeColumnMetadata(chunk, to: &meta) })
                    }
                }
            }
            rowGroup.field(2, i64: group.byteSize)
            rowGroup.field(3, i64: group.rows)
            rowGroup.field(5, i64: group.fileOffset)
            rowGroup.field(6, i64: group.byteSize)
        }
    }

    private static func writeColumnMetadata(_ chunk: ChunkRecord, to meta: inout CompactProtocolWriter) {
        meta.field(1, i32: chunk.type.rawValue)
        meta.field(2, listOf: .i32, count: chunk.encodings.count) { list in
            for encoding in chunk.encodings { list.writeZigzag(Int64(encoding.rawValue)) }
        }
        meta.field(3, listOf: .binary, count: chunk.leaf.count) { list in
            for part in chunk.leaf { list.writeBinary(part.utf8) }
        }
        meta.field(4, i32: 0)  // UNCOMPRESSED
        meta.field(5, i64: chunk.valueCount)
        meta.field(6, i64: chunk.size)
        meta.field(7, i64: chunk.size)
        meta.field(9, i64: chunk.dataPageOffset)
        if let offset = chunk.dictionaryPageOffset { meta.field(11, i64: offset) }
        meta.field(12, structure: { writeStatistics(chunk.statistics, to: &$0) })
    }
}

// MARK: - Column buffers

/// Parquet's physical types that framescope writes.
enum PhysicalType: Int32 {
    case int64 = 2
    case double = 5
    case byteArray = 6
}

enum Encoding: Int32 {
    case plain = 0
    case rle = 3
    case deltaBinaryPacked = 5
    case rleDictionary = 8
}

enum PageType: Int32 {
    case data = 0
    case dictionary = 2
}

struct ChunkStatistics {
    var nullCount: Int64
    /// Plain-encoded bounds (no length prefix for strings); `nil` when the chunk has no value
    /// that orders (all null, all NaN) or a string bound would bloat the footer.
    var bounds: (min: [UInt8], max: [UInt8])?
}

struct ChunkRecord {
    var leaf: [String]
    var type: PhysicalType
    var encodings: [Encoding]
    var valueCount: Int64
    var size: Int64
    var dataPageOffset: Int64
    var dictionaryPageOffset: Int64?
    var statistics: ChunkStatistics
}

struct RowGroupRecord {
    var chunks: [ChunkRecord]
    var rows: Int64
    var byteSize: Int64
    var fileOffset: Int64
}

/// One leaf column's buffered levels and values for the row group being filled.
struct Leaf {
    /// String bounds longer than this are left out of the statistics (they would be copied
    /// into the footer for every row group).
    static let longestStringBound = 1024

    let path: [String]
    let type: PhysicalType
    let maxDefinition: Int
    var maxRepetition = 0
    var definitions: [UInt32] = []
    var repetitions: [UInt32] = []
    var integers: [Int64] = []
    var doubles: [Double] = []
    var strings: [String] = []
    var levelCount = 0

    init(path: [String], type: PhysicalType, maxDefinition: Int, maxRepetition: Int = 0) {
        self.path = path
        self.type = type
        self.maxDefinition = maxDefinition
        self.maxRepetition = maxRepetition
    }

    mutating func removeAll() {
        definitions.removeAll(keepingCapacity: true)
        repetitions.removeAll(keepingCapacity: true)
        integers.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
        levelCount = 0
    }

    /// Appends a scalar cell; returns its plain size in bytes.
    mutating func append(_ value: ParquetValue) -> Int {
        levelCount += 1
        if case .null = value {
            definitions.append(0)
            return 1
        }
        if maxDefinition > 0 { definitions.append(UInt32(maxDefinition)) }
        switch (type, value) {
        case (.int64, .int64(let integer)):
            integers.append(integer)
            return 8
        case (.double, .double(let double)):
            doubles.append(double)
            return 8
        case (.byteArray, .string(let string)):
            strings.append(string)
            return 4 + string.utf8.count
        default:
            preconditionFailure("column '\(path.joined(separator: "."))' cannot hold \(value)")
        }
    }

    /// Appends a map cell to this (key) leaf and `values` (value leaf); returns its plain size.
    mutating func appendMap(_ value: ParquetValue, values: inout Leaf) -> Int {
        switch value {
        case .null:
            appendLevels(definition: 0, repetition: 0, values: &values)
            return 2
        case .entries(let entries) where entries.isEmpty:
            appendLevels(definition: 1, repetition: 0, values: &values)
            return 2
        case .entries(let entries):
            var size = 0
            for (position, entry) in entries.enumerated() {
                appendLevels(definition: 2, repetition: position == 0 ? 0 : 1, values: &values)
                strings.append(entry.key)
                values.integers.append(entry.value)
                size += 14 + entry.key.utf8.count
            }
            return size
        default:
            preconditionFailure("map column '\(path[0])' cannot hold \(value)")
        }
    }

    private mutating func appendLevels(definition: UInt32, repetition: UInt32, values: inout Leaf) {
        definitions.append(definition)
        repetitions.append(repetition)
        values.definitions.append(definition)
        values.repetitions.append(repetition)
        levelCount += 1
        values.levelCount += 1
    }

    var statistics: ChunkStatistics {
        let nullCount = maxDefinition == 0 ? 0 : Int64(definitions.lazy.filter { $0 < UInt32(maxDefinition) }.count)
        switch type {
        case .int64:
            guard let low = integers.min(), let high = integers.max() else {
                return ChunkStatistics(nullCount: nullCount)
            }
            return ChunkStatistics(nullCount: nullCount, bounds: (littleEndian(low), littleEndian(high)))
        case .double:
            let ordered = doubles.filter { !$0.isNaN }
            guard var low = ordered.min(), var high = ordered.max() else {
                return ChunkStatistics(nullCount: nullCount)
            }
            // The spec's rule for zeros: a minimum of ±0 is written -0, a maximum +0.
            if low == 0 { low = -0.0 }
            if high == 0 { high = 0.0 }
            return ChunkStatistics(
                nullCount: nullCount, bounds: (littleEndian(low.bitPattern), littleEndian(high.bitPattern)))
        case .byteArray:
            guard var low = strings.first, var high = strings.first else {
                return ChunkStatistics(nullCount: nullCount)
            }
            for string in strings.dropFirst() {
                if string.utf8.lexicographicallyPrecedes(low.utf8) { low = string }
                if high.utf8.lexicographicallyPrecedes(string.utf8) { high = string }
            }
            guard low.utf8.count <= Self.longestStringBound, high.utf8.count <= Self.longestStringBound else {
                return ChunkStatistics(nullCount: nullCount)
            }
            return ChunkStatistics(nullCount: nullCount, bounds: (Array(low.utf8), Array(high.utf8)))
        }
    }
}

extension ChunkStatistics {
    init(nullCount: Int64) {
        self.nullCount = nullCount
        bounds = nil
    }
}

/// Whether a string chunk is written with a dictionary: when the dictionary page and the
/// indices together come out smaller than the plain values.
package struct StringEncodingChoice {
    /// The dictionary, when it pays: distinct values in first-seen order and each value's index.
    package var dictionary: (entries: [String], indices: [UInt32])?
    /// The plain encoding's size in bytes.
    package var plainSize: Int

    /// Decides for `strings` (the chunk's non-null values). Values are told apart by their
    /// UTF-8 bytes, never by Swift's canonical equivalence, so `é` and `e\u{301}` stay two
    /// values.
    package init(_ strings: [String]) {
        var indexOfValue: [ByteKey: UInt32] = [:]
        var entries: [String] = []
        var indices: [UInt32] = []
        indices.reserveCapacity(strings.count)
        var plain = 0
        var dictionaryBytes = 0
        for string in strings {
            let size = 4 + string.utf8.count
            plain += size
            let key = ByteKey(string)
            if let index = indexOfValue[key] {
                indices.append(index)
            } else {
                let index = UInt32(entries.count)
                indexOfValue[key] = index
                entries.append(string)
                indices.append(index)
                dictionaryBytes += size
            }
        }
        plainSize = plain
        let width = max(1, HybridEncoder.bitWidth(forMaximum: UInt32(max(entries.count, 1) - 1)))
        // The indices, bit-packed at worst (runs only make them smaller), and a page header.
        let dictionarySize = dictionaryBytes + (strings.count * width + 7) / 8 + 1 + 32
        dictionary = !entries.isEmpty && dictionarySize < plain ? (entries, indices) : nil
    }
}

/// A string hashed and compared by its UTF-8 bytes.
struct ByteKey: Hashable {
    let string: String
    init(_ string: String) { self.string = string }
    static func == (left: ByteKey, right: ByteKey) -> Bool { left.string.utf8.elementsEqual(right.string.utf8) }
    func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
