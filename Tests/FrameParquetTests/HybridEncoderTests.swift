import ParquetTestSupport
import Testing

@testable import FrameParquet

@Suite("RLE / bit-packing hybrid (Encodings.md)")
struct HybridEncoderTests {
    @Test("The spec's example: 0 to 7 at bit width 3 bit-packed as 10001000 11000110 11111010")
    func specExample() {
        #expect(
            HybridEncoder.encode([0, 1, 2, 3, 4, 5, 6, 7], bitWidth: 3) == [
                0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010,
            ])
    }

    @Test("Eight or more equal values are one RLE run: count << 1, then the value in whole bytes")
    func runs() {
        #expect(HybridEncoder.encode(Array(repeating: 1, count: 10), bitWidth: 1) == [0x14, 0x01])
        #expect(HybridEncoder.encode(Array(repeating: 300, count: 100), bitWidth: 9) == [0xC8, 0x01, 0x2C, 0x01])
        #expect(HybridEncoder.encode(Array(repeating: 0, count: 8), bitWidth: 0) == [0x10])
    }

    @Test("A short tail after a run is one bit-packed group, padded with zeros")
    func runThenTail() {
        // 1, 2, 3 at width 2, LSB first: 01 | 10 << 2 | 11 << 4 = 0x39, then zeros.
        #expect(
            HybridEncoder.encode(Array(repeating: 0, count: 8) + [1, 2, 3], bitWidth: 2) == [
                0x10, 0x00, 0x03, 0x39, 0x00,
            ])
    }

    @Test("Levels for a v1 data page carry their length in 4 little-endian bytes")
    func lengthPrefix() {
        #expect(
            HybridEncoder.encodeWithLength(Array(repeating: 1, count: 10), bitWidth: 1) == [
                0x02, 0x00, 0x00, 0x00, 0x14, 0x01,
            ])
    }

    @Test(
        "Bit widths: 0 for 0, then the bits of the maximum",
        arguments: [(UInt32(0), 0), (1, 1), (2, 2), (3, 2), (4, 3), (255, 8), (256, 9)])
    func bitWidths(maximum: UInt32, width: Int) {
        #expect(HybridEncoder.bitWidth(forMaximum: maximum) == width)
    }

    @Test("Any sequence reads back through an independent decoder", arguments: [1, 2, 3, 5, 8, 13, 17])
    func roundTrip(width: Int) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(width)
        var values: [UInt32] = []
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = UInt32(truncatingIfNeeded: state >> 33) & ((1 << UInt32(width)) - 1)
            // Runs of random length, so both run kinds and their boundaries occur.
            values += Array(repeating: value, count: Int(state >> 60) % 12 + 1)
        }
        let decoded = try HybridDecoder.decode(
            HybridEncoder.encode(values, bitWidth: width), bitWidth: width, count: values.count)
        #expect(decoded == values.map(Int.init))
    }
}
