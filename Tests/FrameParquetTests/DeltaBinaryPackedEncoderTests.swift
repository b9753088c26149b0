import ParquetTestSupport
import Testing

@testable import FrameParquet

@Suite("DELTA_BINARY_PACKED (Encodings.md), read back by an independent decoder")
struct DeltaBinaryPackedEncoderTests {
    /// Values from a seeded generator: `count` of them, the next one `step` plus noise below
    /// `1 << noiseBits` after the last.
    static func values(count: Int, step: Int64, noiseBits: Int, seed: UInt64) -> [Int64] {
        var state = seed
        var value: Int64 = 1_000_000
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            value = value &+ step &+ Int64(truncatingIfNeeded: (state >> 20) & ((1 << UInt64(noiseBits)) - 1))
            return value
        }
    }

    @Test("The documented example: a header, then one block of 2-bit deltas above a minimum of -2")
    func documentedExample() {
        let bytes = DeltaBinaryPackedEncoder.encode([7, 5, 3, 1, 2, 3, 4, 5])
        // Deltas -2 -2 -2 1 1 1 1 minus -2: 0 0 0 3 3 3 3, two bits each, low bits first, then
        // 25 zero deltas of padding to the miniblock's 32 values (8 bytes at width 2).
        #expect(
            bytes == [0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00]
                + [0b1100_0000, 0b0011_1111, 0, 0, 0, 0, 0, 0])
    }

    @Test("No value and one value are a header alone: block size, miniblocks, count, first value")
    func emptyAndOne() throws {
        #expect(DeltaBinaryPackedEncoder.encode([]) == [0x80, 0x01, 0x04, 0x00, 0x00])
        #expect(DeltaBinaryPackedEncoder.encode([-3]) == [0x80, 0x01, 0x04, 0x01, 0x05])
        #expect(try DeltaBinaryPackedDecoder.decode(DeltaBinaryPackedEncoder.encode([])) == [])
        #expect(try DeltaBinaryPackedDecoder.decode(DeltaBinaryPackedEncoder.encode([.min])) == [.min])
    }

    @Test("Equal values and a constant step cost 0 bits a delta: a minimum and four zero widths per block")
    func constantStep() throws {
        for values in [Array(repeating: Int64(16_666_667), count: 1_000), (0..<1_000).map { Int64($0) * 16_666_667 }] {
            let bytes = DeltaBinaryPackedEncoder.encode(values)
            // 999 deltas: 8 blocks of 128, each a 4-5 byte minimum and 4 width bytes.
            #expect(bytes.count < 8 * 9 + 16)
            #expect(try DeltaBinaryPackedDecoder.decode(bytes) == values)
        }
    }

    @Test(
        "Int64's extremes and wrapping deltas read back exactly: the arithmetic wraps, never traps",
        arguments: [
            [Int64.min, .max], [.max, .min], [.max, .min, .max, 0, .min, -1, 1, .max],
            [0, .max, .min, .min, .max, .max, -1, .min] + Array(repeating: 0, count: 150),
            (0..<300).map { $0 % 2 == 0 ? Int64.min : Int64.max },
        ])
    func extremes(values: [Int64]) throws {
        #expect(try DeltaBinaryPackedDecoder.decode(DeltaBinaryPackedEncoder.encode(values)) == values)
    }

    @Test(
        "Any length reads back: inside one miniblock, across miniblocks and across blocks, partial at the end",
        arguments: [2, 31, 32, 33, 64, 127, 128, 129, 130, 257, 1_000, 4_097])
    func lengths(count: Int) throws {
        for noiseBits in [1, 7, 20, 40, 63] {
            let values = Self.values(count: count, step: -3, noiseBits: noiseBits, seed: UInt64(count * 64 + noiseBits))
            let bytes = DeltaBinaryPackedEncoder.encode(values)
            #expect(try DeltaBinaryPackedDecoder.decode(bytes) == values, "\(count) values, noise \(noiseBits) bits")
        }
    }

    @Test("A miniblock's width is that of its largest delta above the block's minimum; unused ones are 0")
    func widths() {
        // 40 values: 39 deltas, the 33rd of which (in the second miniblock) is 1000 above the rest.
        var values: [Int64] = [0]
        for position in 1..<40 { values.append(values[position - 1] + (position == 33 ? 1_005 : 5)) }
        let bytes = DeltaBinaryPackedEncoder.encode(values)
        // Header 80 01 04 28 00, minimum zigzag(5) = 0x0A, widths 0 (all deltas 5) and 10 (1000).
        #expect(Array(bytes.prefix(10)) == [0x80, 0x01, 0x04, 0x28, 0x00, 0x0A, 0x00, 0x0A, 0x00, 0x00])
        #expect(bytes.count == 10 + 32 * 10 / 8)
    }

    @Test("Noisy 20-bit durations take about 20 bits, not PLAIN's 64")
    func size() {
        let values = Self.values(count: 65_536, step: 0, noiseBits: 20, seed: 7)
        let bytes = DeltaBinaryPackedEncoder.encode(values)
        // Deltas of two 20-bit values span 21 bits: 21 bits a value, plus 8 bytes a block.
        #expect(bytes.count <= 65_536 * 21 / 8 + 512 * 9 + 16)
    }
}
