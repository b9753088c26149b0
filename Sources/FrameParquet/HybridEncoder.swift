/// Parquet's RLE / bit-packing hybrid (Encodings.md, "RLE = 3"): definition and repetition
/// levels and dictionary indices, at a fixed bit width.
///
/// A run of 8 or more equal values becomes an RLE run (`varint(count << 1)`, then the value in
/// `ceil(bitWidth / 8)` little-endian bytes); anything else goes into bit-packed runs
/// (`varint(groups << 1 | 1)`, then groups of 8 values packed from each byte's least significant
/// bit). Only the stream's last group is padded with zeros: the reader stops at the page's
/// value count.
package enum HybridEncoder {
    /// The bits needed for values up to `maximum`: 0 for 0, 1 for 1, 2 for 2...3, ...
    package static func bitWidth(forMaximum maximum: UInt32) -> Int {
        maximum == 0 ? 0 : 32 - maximum.leadingZeroBitCount
    }

    /// Encodes `values` (each below `1 << bitWidth`), without the 4-byte length prefix that
    /// data page v1 puts before levels.
    /// - Complexity: O(values).
    package static func encode(_ values: [UInt32], bitWidth: Int) -> [UInt8] {
        precondition((0...32).contains(bitWidth), "a hybrid bit width is 0...32")
        var output: [UInt8] = []
        output.reserveCapacity(values.count * max(bitWidth, 1) / 8 + 16)
        var index = 0
        while index < values.count {
            let run = runLength(values, from: index)
            if run >= 8 {
                appendVarint(UInt64(run) << 1, to: &output)
                var value = values[index]
                for _ in 0..<(bitWidth + 7) / 8 {
                    output.append(UInt8(truncatingIfNeeded: value))
                    value >>= 8
                }
                index += run
                continue
            }
            // Bit-packed groups of 8 until a long run starts at a group boundary.
            var end = index
            repeat {
                end = min(end + 8, values.count)
            } while end < values.count && runLength(values, from: end) < 8
            let groups = (end - index + 7) / 8
            appendVarint(UInt64(groups) << 1 | 1, to: &output)
            var accumulator: UInt64 = 0
            var bits = 0
            for position in index..<(index + groups * 8) {
                let value = position < end ? UInt64(values[position]) : 0
                accumulator |= value << bits
                bits += bitWidth
                while bits >= 8 {
                    output.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator >>= 8
                    bits -= 8
                }
            }
            index = end
        }
        return output
    }

    /// Encodes levels for a v1 data page: the 4-byte little-endian length, then the hybrid.
    package static func encodeWithLength(_ values: [UInt32], bitWidth: Int) -> [UInt8] {
        let encoded = encode(values, bitWidth: bitWidth)
        return littleEndian(UInt32(encoded.count)) + encoded
    }

    private static func runLength(_ values: [UInt32], from start: Int) -> Int {
        let value = values[start]
        var end = start + 1
        while end < values.count && values[end] == value { end += 1 }
        return end - start
    }

    static func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }
}

/// The little-endian bytes of a fixed-width integer.
func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}
