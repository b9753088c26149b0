import Foundation

/// A small Parquet reader for tests, written from the specification independently of
/// FrameParquet's writer: the Thrift compact protocol generically (field id to value), PLAIN and
/// dictionary pages, the RLE / bit-packed hybrid, DELTA_BINARY_PACKED. Only what framescope
/// writes (uncompressed, data page v1), and it says so when a file holds anything else.
package struct ParquetTestFile {
    /// A failure to read, with what was expected.
    package struct ReadError: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// One decoded Thrift value.
    package indirect enum Thrift: Sendable {
        case integer(Int64)
        case boolean(Bool)
        case double(Double)
        case binary([UInt8])
        case list([Thrift])
        case structure([Int16: Thrift])

        package var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
        package var binary: [UInt8]? { if case .binary(let value) = self { value } else { nil } }
        package var string: String? { binary.map { String(decoding: $0, as: UTF8.self) } }
        package var list: [Thrift]? { if case .list(let value) = self { value } else { nil } }
        package subscript(_ field: Int16) -> Thrift? {
            if case .structure(let fields) = self { fields[field] } else { nil }
        }
    }

    /// A top-level cell as read back.
    package enum Cell: Equatable, Sendable, CustomStringConvertible {
        case null
        case int64(Int64)
        case double(Double)
        case bytes([UInt8])
        case map([Entry])

        package struct Entry: Equatable, Sendable {
            package var key: [UInt8]
            package var value: Int64
            package init(key: [UInt8], value: Int64) {
                self.key = key
                self.value = value
            }
        }

        package var description: String {
            switch self {
            case .null: "null"
            case .int64(let value): "\(value)"
            case .double(let value): "\(value)"
            case .bytes(let value): String(decoding: value, as: UTF8.self).debugDescription
            case .map(let entries):
                "{" + entries.map { "\(String(decoding: $0.key, as: UTF8.self)):\($0.value)" }.joined(separator: ",")
                    + "}"
            }
        }
    }

    /// One leaf column of the schema.
    package struct Leaf {
        package var path: [String]
        package var physicalType: Int64
        package var maxDefinition: Int
        package var maxRepetition: Int
        package var element: Thrift
    }

    /// The whole file.
    package let bytes: [UInt8]
    /// The decoded `FileMetaData`.
    package let metadata: Thrift
    /// The footer's length, as the 4 bytes before the closing magic say.
    package let footerLength: Int
    /// Top-level column names, in order, and the leaves under each.
    package private(set) var columns: [(name: String, leaves: [Leaf], isMap: Bool)] = []

    /// Reads the file's structure: both magics, the footer length, the footer, the schema.
    /// - Throws: ``ReadError`` for anything not a Parquet file framescope could have written.
    package init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 12, Array(bytes.prefix(4)) == Array("PAR1".utf8),
            Array(bytes.suffix(4)) == Array("PAR1".utf8)
        else {
            throw ReadError("no PAR1 magic at both ends")
        }
        let length = bytes[(bytes.count - 8)..<(bytes.count - 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= bytes.count - 12 else {
            throw ReadError("footer length \(length) does not fit the file")
        }
        footerLength = length
        var reader = CompactReader(bytes: bytes, position: bytes.count - 8 - length)
        metadata = try reader.readStruct()
        guard reader.position == bytes.count - 8 else {
            throw ReadError("footer ends at \(reader.position), not before its length")
        }
        guard let schema = metadata[2]?.list, let root = schema.first else { throw ReadError("no schema") }
        var index = 1
        for _ in 0..<(root[5]?.integer ?? 0) {
            let element = schema[index]
            let name = element[4]?.string ?? ""
            var leaves: [Leaf] = []
            try Self.collect(schema, &index, path: [], definition: 0, repetition: 0, into: &leaves)
            columns.append((name, leaves, element[6]?.integer == 1))
        }
    }

    private static func collect(
        _ schema: [Thrift], _ index: inout Int, path: [String], definition: Int, repetition: Int,
        into leaves: inout [Leaf]
    ) throws {
        guard index < schema.count else { throw ReadError("schema ends early") }
        let element = schema[index]
        index += 1
        let repetitionType = element[3]?.integer ?? 0
        let path = path + [element[4]?.string ?? ""]
        let definition = definition + (repetitionType == 0 ? 0 : 1)
        let repetition = repetition + (repetitionType == 2 ? 1 : 0)
        if let children = element[5]?.integer {
            for _ in 0..<children {
                try collect(schema, &index, path: path, definition: definition, repetition: repetition, into: &leaves)
            }
        } else {
            leaves.append(
                Leaf(
                    path: path, physicalType: element[1]?.integer ?? -1, maxDefinition: definition,
                    maxRepetition: repetition, element: element))
        }
    }

    /// The key-value metadata.
    package var keyValues: [String: String] {
        var result: [String: String] = [:]
        for pair in metadata[5]?.list ?? [] { result[pair[1]?.string ?? ""] = pair[2]?.string ?? "" }
        return result
    }

    /// `num_rows`.
    package var rowCount: Int { Int(metadata[3]?.integer ?? -1) }

    /// The row groups' `ColumnChunk`s for a leaf, in order.
    package func chunks(leafIndex: Int) -> [Thrift] {
        (metadata[4]?.list ?? []).compactMap { $0[1]?.list?[leafIndex] }
    }

    /// Every row, one cell per top-level column.
    package func rows() throws -> [[Cell]] {
        var leafIndex = 0
        var columnsOfCells: [[Cell]] = []
        for column in columns {
            if column.isMap {
                let keys = try leafData(leafIndex, column.leaves[0])
                let values = try leafData(leafIndex + 1, column.leaves[1])
                leafIndex += 2
                var cells: [Cell] = []
                var valueIndex = 0
                for position in keys.definitions.indices {
                    if keys.repetitions[position] == 0 {
                        cells.append(keys.definitions[position] == 0 ? .null : .map([]))
                    }
                    guard keys.definitions[position] == 2 else { continue }
                    guard case .bytes(let key) = keys.values[valueIndex],
                        case .int64(let value) = values.values[valueIndex]
                    else {
                        throw ReadError("map \(column.name): a key that is not a string or a value not an integer")
                    }
                    valueIndex += 1
                    if case .map(var entries) = cells[cells.count - 1] {
                        entries.append(Cell.Entry(key: key, value: value))
                        cells[cells.count - 1] = .map(entries)
                    }
                }
                columnsOfCells.append(cells)
            } else {
                let data = try leafData(leafIndex, column.leaves[0])
                leafIndex += 1
                var valueIndex = 0
                columnsOfCells.append(
                    data.definitions.map { definition in
                        guard definition == column.leaves[0].maxDefinition else { return .null }
                        defer { valueIndex += 1 }
                        return data.values[valueIndex]
                    })
            }
        }
        guard columnsOfCells.allSatisfy({ $0.count == rowCount }) else {
            throw ReadError("columns hold \(columnsOfCells.map(\.count)) rows, the footer says \(rowCount)")
        }
        return (0..<rowCount).map { row in columnsOfCells.map { $0[row] } }
    }

    /// One leaf's levels and non-null values over every row group.
    package func leafData(_ leafIndex: Int, _ leaf: Leaf) throws -> (
        definitions: [Int], repetitions: [Int], values: [Cell], encodings: [Int64]
    ) {
        var definitions: [Int] = []
        var repetitions: [Int] = []
        var values: [Cell] = []
        var encodings: [Int64] = []
        for chunk in chunks(leafIndex: leafIndex) {
            guard let meta = chunk[3], meta[4]?.integer == 0 else {
                throw ReadError("\(leaf.path): not an uncompressed chunk")
            }
            let total = Int(meta[5]?.integer ?? 0)
            var position = Int(meta[11]?.integer ?? meta[9]?.integer ?? 0)
            var dictionary: [Cell] = []
            var read = 0
            while read < total {
                var reader = CompactReader(bytes: bytes, position: position)
                let header = try reader.readStruct()
                let size = Int(header[3]?.integer ?? -1)
                guard size >= 0, reader.position + size <= bytes.count else {
                    throw ReadError("\(leaf.path): a page past the end")
                }
                var body = PageBody(bytes: Array(bytes[reader.position..<(reader.position + size)]))
                position = reader.position + size
                switch header[1]?.integer {
                case 2:
                    let count = Int(header[7]?[1]?.integer ?? 0)
                    dictionary = try (0..<count).map { _ in try body.plain(leaf.physicalType) }
                case 0:
                    guard let page = header[5] else { throw ReadError("\(leaf.path): data page without its header") }
                    let count = Int(page[1]?.integer ?? 0)
                    let encoding = page[2]?.integer ?? -1
                    encodings.append(encoding)
                    let pageRepetitions =
                        leaf.maxRepetition > 0
                        ? try body.levels(count: count, maximum: leaf.maxRepetition) : Array(repeating: 0, count: count)
                    let pageDefinitions =
                        leaf.maxDefinition > 0
                        ? try body.levels(count: count, maximum: leaf.maxDefinition) : Array(repeating: 0, count: count)
                    let present = pageDefinitions.filter { $0 == leaf.maxDefinition }.count
                    switch encoding {
                    case 0: values += try (0..<present).map { _ in try body.plain(leaf.physicalType) }
                    case 5:
                        guard leaf.physicalType == 2 else {
                            throw ReadError("\(leaf.path): DELTA_BINARY_PACKED not INT64")
                        }
                        let decoded = try DeltaBinaryPackedDecoder.decode(body.rest())
                        guard decoded.count == present else {
                            throw ReadError("\(leaf.path): \(decoded.count) delta-packed values for \(present)")
                        }
                        values += decoded.map(Cell.int64)
                    case 2, 8:
                        let width = Int(try body.byte())
                        for index in try HybridDecoder.decode(body.rest(), bitWidth: width, count: present) {
                            guard index < dictionary.count else {
                                throw ReadError("\(leaf.path): index \(index) past the dictionary")
                            }
                            values.append(dictionary[index])
                        }
                    default: throw ReadError("\(leaf.path): encoding \(encoding)")
                    }
                    definitions += pageDefinitions
                    repetitions += pageRepetitions
                    read += count
                default: throw ReadError("\(leaf.path): page type \(String(describing: header[1]?.integer))")
                }
            }
        }
        return (definitions, repetitions, values, encodings)
    }
}

/// The bytes of one page, read front to back.
struct PageBody {
    var bytes: [UInt8]
    var position = 0

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw ParquetTestFile.ReadError("page ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, position + count <= bytes.count else { throw ParquetTestFile.ReadError("page ends early") }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[position...])
    }

    mutating func plain(_ type: Int64) throws -> ParquetTestFile.Cell {
        switch type {
        case 2: return .int64(Int64(bitPattern: try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }))
        case 5: return .double(Double(bitPattern: try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }))
        case 6:
            let length = try take(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            return .bytes(try take(length))
        default: throw ParquetTestFile.ReadError("physical type \(type)")
        }
    }

    /// Levels as data page v1 writes them: a 4-byte length, then the hybrid.
    mutating func levels(count: Int, maximum: Int) throws -> [Int] {
        let length = try take(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        let width = maximum == 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount
        return try HybridDecoder.decode(try take(length), bitWidth: width, count: count)
    }
}

/// The RLE / bit-packing hybrid, read side.
package enum HybridDecoder {
    /// Decodes `count` values of `bitWidth` bits.
    package static func decode(_ bytes: [UInt8], bitWidth: Int, count: Int) throws -> [Int] {
        var reader = CompactReader(bytes: bytes, position: 0)
        var values: [Int] = []
        while values.count < count {
            let header = try reader.varint()
            if header & 1 == 1 {
                let total = Int(header >> 1) * 8
                var accumulator: UInt64 = 0
                var bits = 0
                for _ in 0..<total {
                    while bits < bitWidth {
                        accumulator |= UInt64(try reader.byte()) << bits
                        bits += 8
                    }
                    values.append(Int(accumulator & ((1 << UInt64(bitWidth)) - 1)))
                    accumulator >>= UInt64(bitWidth)
                    bits -= bitWidth
                }
            } else {
                var value = 0
                for shift in 0..<((bitWidth + 7) / 8) { value |= Int(try reader.byte()) << (8 * shift) }
                values += Array(repeating: value, count: Int(header >> 1))
            }
        }
        return Array(values.prefix(count))
    }
}

/// DELTA_BINARY_PACKED, read side, from Encodings.md: the header, then blocks of a zigzag
/// minimum delta, a bit width per miniblock and the miniblocks, until the header's count is read.
/// Sums wrap around (`&+`), as the spec asks.
package enum DeltaBinaryPackedDecoder {
    /// Decodes every value of `bytes`, and checks that nothing follows them.
    package static func decode(_ bytes: [UInt8]) throws -> [Int64] {
        var reader = CompactReader(bytes: bytes, position: 0)
        let blockSize = Int(try reader.varint())
        let miniblocks = Int(try reader.varint())
        let total = Int(try reader.varint())
        guard blockSize > 0, blockSize % 128 == 0, miniblocks > 0, (blockSize / miniblocks) % 32 == 0 else {
            throw ParquetTestFile.ReadError("delta header: block \(blockSize), miniblocks \(miniblocks)")
        }
        let perMiniblock = blockSize / miniblocks
        var previous = try reader.zigzag()
        var values: [Int64] = total > 0 ? [previous] : []
        while values.count < total {
            let minimum = try reader.zigzag()
            let widths = try (0..<miniblocks).map { _ in Int(try reader.byte()) }
            for width in widths where values.count < total {
                guard width <= 64 else { throw ParquetTestFile.ReadError("delta bit width \(width)") }
                var accumulator: UInt64 = 0  // bits not yet used, from the low end
                var available = 0
                for _ in 0..<perMiniblock {
                    var delta: UInt64 = 0
                    var have = 0
                    while have < width {
                        if available == 0 {
                            accumulator = UInt64(try reader.byte())
                            available = 8
                        }
                        let take = min(width - have, available)
                        delta |= (accumulator & ((1 << UInt64(take)) - 1)) << UInt64(have)
                        accumulator >>= UInt64(take)
                        available -= take
                        have += take
                    }
                    guard values.count < total else { continue }
                    previous = previous &+ minimum &+ Int64(bitPattern: delta)
                    values.append(previous)
                }
            }
        }
        guard reader.position == bytes.count else {
            throw ParquetTestFile.ReadError("delta values end at \(reader.position) of \(bytes.count)")
        }
        return values
    }
}

/// Thrift compact protocol, read side, generic.
package struct CompactReader {
    package var bytes: [UInt8]
    package var position: Int

    package init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    package mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw ParquetTestFile.ReadError("ends early at \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw ParquetTestFile.ReadError("varint too long at \(position)") }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    package mutating func zigzag() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    package mutating func readStruct() throws -> ParquetTestFile.Thrift {
        var fields: [Int16: ParquetTestFile.Thrift] = [:]
        var last: Int16 = 0
        while true {
            let header = try byte()
            if header == 0 { return .structure(fields) }
            let type = header & 0x0F
            let delta = header >> 4
            let id = delta == 0 ? Int16(truncatingIfNeeded: try zigzag()) : last + Int16(delta)
            last = id
            fields[id] = try value(type)
        }
    }

    package mutating func value(_ type: UInt8) throws -> ParquetTestFile.Thrift {
        switch type {
        case 1: return .boolean(true)
        case 2: return .boolean(false)
        case 3: return .integer(Int64(Int8(bitPattern: try byte())))
        case 4, 5, 6: return .integer(try zigzag())
        case 7:
            var bits: UInt64 = 0
            for shift in 0..<8 { bits |= UInt64(try byte()) << (8 * UInt64(shift)) }
            return .double(Double(bitPattern: bits))
        case 8:
            let length = Int(try varint())
            guard position + length <= bytes.count else { throw ParquetTestFile.ReadError("binary past the end") }
            defer { position += length }
            return .binary(Array(bytes[position..<(position + length)]))
        case 9:
            let header = try byte()
            let count = header >> 4 == 15 ? Int(try varint()) : Int(header >> 4)
            let element = header & 0x0F
            return .list(
                try (0..<count).map { _ in
                    if element == 1 || element == 2 { return .boolean(try byte() == 1) }
                    return try value(element)
                })
        case 12: return try readStruct()
        default: throw ParquetTestFile.ReadError("Thrift type \(type) at \(position)")
        }
    }
}

/// Copies a file a test wrote into `FRAMESCOPE_PARQUET_DIR` when that is set, so CI can read
/// every Parquet file the tests write with pyarrow and DuckDB (tools/check_parquet.py
/// --parquet-dir); with `jsonLines`, a `.jsonl` of the same stem that the file must equal.
package func dropParquetCopy(_ bytes: [UInt8], name: String, jsonLines: String? = nil) {
    guard let directory = ProcessInfo.processInfo.environment["FRAMESCOPE_PARQUET_DIR"], !directory.isEmpty else {
        return
    }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let base = (directory as NSString).appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: base + ".parquet", contents: Data(bytes))
    if let jsonLines { _ = FileManager.default.createFile(atPath: base + ".jsonl", contents: Data(jsonLines.utf8)) }
}
