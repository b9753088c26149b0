import Testing

@testable import FrameParquet

@Suite("Thrift compact protocol, against bytes worked out from the spec")
struct CompactProtocolWriterTests {
    static func bytes(_ body: (inout CompactProtocolWriter) -> Void) -> [UInt8] {
        var writer = CompactProtocolWriter()
        body(&writer)
        return writer.bytes
    }

    @Test(
        "Varints are ULEB128: seven bits a byte, low first, the high bit saying more follow",
        arguments: [
            (UInt64(0), [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
            (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        ] as [(UInt64, [UInt8])])
    func varints(value: UInt64, expected: [UInt8]) {
        #expect(Self.bytes { $0.writeVarint(value) } == expected)
    }

    @Test(
        "Zigzag maps 0, -1, 1, -2 to 0, 1, 2, 3 and the extremes to the largest codes",
        arguments: [
            (Int64(0), [0x00]), (-1, [0x01]), (1, [0x02]), (-2, [0x03]), (-64, [0x7F]), (64, [0x80, 0x01]),
            (Int64.max, [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
            (Int64.min, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        ] as [(Int64, [UInt8])])
    func zigzag(value: Int64, expected: [UInt8]) {
        #expect(Self.bytes { $0.writeZigzag(value) } == expected)
    }

    @Test("A field id 1-15 above the last is one byte (delta << 4 | type); further is the type and the zigzag id")
    func fieldDeltas() {
        let bytes = Self.bytes { writer in
            writer.field(1, i32: 1)  // delta 1, i32 (5), zigzag 2
            writer.field(4, string: "x")  // delta 3, binary (8), length 1, 'x'
            writer.field(20, i64: -1)  // delta 16: long form: type 6, zigzag(20) = 40, zigzag(-1) = 1
            writer.field(21, bool: true)  // delta 1, true (1)
            writer.field(22, bool: false)  // delta 1, false (2)
            writer.field(3, i32: 0)  // going back: long form, zigzag(3) = 6
            writer.stop()
        }
        #expect(bytes == [0x15, 0x02, 0x38, 0x01, 0x78, 0x06, 0x28, 0x01, 0x11, 0x12, 0x05, 0x06, 0x00, 0x00])
    }

    @Test("A nested struct counts its field ids from 0 and the outer struct resumes from its own last id")
    func nestedStructs() {
        let bytes = Self.bytes { writer in
            writer.field(1, structure: { inner in inner.field(5, i32: 0) })
            writer.field(2, i32: 0)
            writer.stop()
        }
        // Inner field 5 is delta 5 from 0 (0x55); outer field 2 is delta 1 from the outer field 1
        // (0x15), not the long form it would need after the inner field 5.
        #expect(bytes == [0x1C, 0x55, 0x00, 0x00, 0x15, 0x00, 0x00])
    }

    @Test("A list of under 15 holds its count in the header's high nibble; 15 or more is 0xF_ and a varint count")
    func lists() {
        let short = Self.bytes { writer in
            writer.field(1, listOf: .i32, count: 3) { list in
                for value in [1, -1, 2] as [Int64] { list.writeZigzag(value) }
            }
        }
        #expect(short == [0x19, 0x35, 0x02, 0x01, 0x04])
        let long = Self.bytes { writer in
            writer.field(2, listOf: .binary, count: 15) { list in
                for _ in 0..<15 { list.writeBinary([0x61]) }
            }
        }
        #expect(long == [0x29, 0xF8, 0x0F] + Array(repeating: [0x01, 0x61], count: 15).flatMap { $0 })
        let structs = Self.bytes { writer in
            writer.field(1, listOf: .structure, count: 2) { list in
                list.writeStruct { $0.field(1, i32: 1) }
                list.writeStruct { _ in }
            }
        }
        #expect(structs == [0x19, 0x2C, 0x15, 0x02, 0x00, 0x00])
    }
}
