/// Thrift's compact protocol, write side only: what Parquet's footer (`FileMetaData`) and page
/// headers are serialized with.
///
/// Integers are ULEB128 varints, signed ones zigzag-mapped first; a field's header is one byte
/// `delta << 4 | type` when its id is 1...15 above the previous field's in the same struct
/// (else the type byte and the zigzag id); a Boolean field carries its value in the type; a
/// struct ends with a 0 byte; a list starts with `count << 4 | type` (count 0...14) or
/// `0xF0 | type` and the varint count.
///
/// ```swift
/// var writer = CompactProtocolWriter()
/// writer.field(1, i32: 1)            // 0x15 0x02
/// writer.field(4, string: "x")      // 0x38 0x01 0x78
/// writer.stop()
/// ```
package struct CompactProtocolWriter: Sendable {
    /// The compact protocol's type codes, as they appear in field and list headers.
    package enum FieldType: UInt8, Sendable {
        case booleanTrue = 1
        case booleanFalse = 2
        case byte = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case structure = 12
    }

    /// What has been written.
    package private(set) var bytes: [UInt8] = []
    private var lastFieldID: Int16 = 0
    private var enclosingFieldIDs: [Int16] = []

    /// Creates an empty writer, positioned at the start of a top-level struct.
    package init() {}

    /// Appends `value` as a ULEB128 varint.
    package mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends `value` zigzag-mapped (0, -1, 1, -2 ... to 0, 1, 2, 3 ...) as a varint.
    package mutating func writeZigzag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends a field header: the short form when the id is 1...15 above the previous one.
    package mutating func writeFieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = Int(id) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            writeZigzag(Int64(id))
        }
        lastFieldID = id
    }

    /// An `i32` field (enums are `i32`s too).
    package mutating func field(_ id: Int16, i32 value: Int32) {
        writeFieldHeader(id, .i32)
        writeZigzag(Int64(value))
    }

    /// An `i64` field.
    package mutating func field(_ id: Int16, i64 value: Int64) {
        writeFieldHeader(id, .i64)
        writeZigzag(value)
    }

    /// A Boolean field: the value is the header's type.
    package mutating func field(_ id: Int16, bool value: Bool) {
        writeFieldHeader(id, value ? .booleanTrue : .booleanFalse)
    }

    /// A `binary` field: varint length, then the bytes.
    package mutating func field(_ id: Int16, binary value: some Collection<UInt8>) {
        writeFieldHeader(id, .binary)
        writeBinary(value)
    }

    /// A `string` field: its UTF-8 as `binary`.
    package mutating func field(_ id: Int16, string value: String) {
        field(id, binary: value.utf8)
    }

    /// A struct field: the header, the body's fields, a stop byte.
    package mutating func field(_ id: Int16, structure body: (inout Self) -> Void) {
        writeFieldHeader(id, .structure)
        writeStruct(body)
    }

    /// A list field: the header, the list header, then whatever `body` writes (one element
    /// per `count`, with ``writeStruct(_:)``, ``writeBinary(_:)`` or ``writeZigzag(_:)``).
    package mutating func field(_ id: Int16, listOf type: FieldType, count: Int, body: (inout Self) -> Void) {
        writeFieldHeader(id, .list)
        writeListHeader(type, count: count)
        body(&self)
    }

    /// A list header: `count << 4 | type` below 15 elements, else `0xF0 | type` and the count.
    package mutating func writeListHeader(_ type: FieldType, count: Int) {
        precondition(count >= 0, "a list's count is never negative")
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            writeVarint(UInt64(count))
        }
    }

    /// A nested struct (a list element or a field's value): its own field ids, then a stop byte.
    package mutating func writeStruct(_ body: (inout Self) -> Void) {
        enclosingFieldIDs.append(lastFieldID)
        lastFieldID = 0
        body(&self)
        bytes.append(0)
        lastFieldID = enclosingFieldIDs.removeLast()
    }

    /// A `binary` value without a field header (a list element).
    package mutating func writeBinary(_ value: some Collection<UInt8>) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Ends the top-level struct.
    package mutating func stop() {
        bytes.append(0)
    }
}
