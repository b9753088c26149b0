/// Parquet's DELTA_BINARY_PACKED encoding (Encodings.md, "Delta Encoding = 5") for INT64
/// values: what frame indexes, timestamps and nanosecond durations shrink to.
///
/// A header (`varint(block size) varint(miniblocks per block) varint(value count)
/// zigzag(first value)`), then per block of ``blockSize`` deltas: `zigzag(minimum delta)`, one
/// byte per miniblock giving its bit width, and each miniblock's deltas minus the minimum,
/// bit-packed from each byte's least significant bit as in the RLE / bit-packing hybrid. A
/// constant step costs 0 bits a value; a column of equal values costs its header and a few bytes
/// per 128 values.
///
/// Deltas and their distance from the block's minimum are taken modulo 2^64 (`&-`), as the
/// spec asks, so `Int64.min` after `Int64.max` never traps and reads back exactly (the reader
/// adds with the same wrap-around). The last block's unused miniblocks have width 0 and no
/// bytes; the last used miniblock is padded with zero deltas to its 32 values.
///
/// ```swift
/// let bytes = DeltaBinaryPackedEncoder.encode([7, 5, 3, 1, 2, 3, 4, 5])
/// // 0x80 0x01 (128) 0x04 (4 miniblocks) 0x08 (8 values) 0x0E (7), then one block:
/// // 0x03 (min delta -2), widths 2 0 0 0, then 32 deltas of 2 bits: 0 0 0 3 3 3 3 0 ...
/// ```
package enum DeltaBinaryPackedEncoder {
    /// Values per block: a multiple of 128, as the spec requires.
    package static let blockSize = 128
    /// Miniblocks per block, so a miniblock holds 32 values (a multiple of 32, as required).
    package static let miniblocksPerBlock = 4
    /// Values per miniblock.
    package static let miniblockSize = blockSize / miniblocksPerBlock

    /// Encodes `values`, all of them (a page's non-null values): the header alone when there
    /// are fewer than two.
    /// - Complexity: O(values).
    package static func encode(_ values: [Int64]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(values.count / 2 + 16)
        HybridEncoder.appendVarint(UInt64(blockSize), to: &output)
        HybridEncoder.appendVarint(UInt64(miniblocksPerBlock), to: &output)
        HybridEncoder.appendVarint(UInt64(values.count), to: &output)
        appendZigzag(values.first ?? 0, to: &output)
        var deltas = [UInt64](repeating: 0, count: blockSize)
        var start = 1
        while start < values.count {
            let count = min(blockSize, values.count - start)
            var minimum = Int64.max
            for position in 0..<count {
                let delta = values[start + position] &- values[start + position - 1]
                deltas[position] = UInt64(bitPattern: delta)
                minimum = min(minimum, delta)
            }
            appendZigzag(minimum, to: &output)
            // Each delta is >= the minimum as a signed value, so the wrapped difference is the
            // true distance, 0...UInt64.max.
            for position in 0..<count { deltas[position] = deltas[position] &- UInt64(bitPattern: minimum) }
            for position in count..<blockSize { deltas[position] = 0 }
            let used = (count + miniblockSize - 1) / miniblockSize
            var widths = [Int](repeating: 0, count: miniblocksPerBlock)
            for miniblock in 0..<used {
                let range = (miniblock * miniblockSize)..<((miniblock + 1) * miniblockSize)
                let bits = deltas[range].reduce(0 as UInt64) { $0 | $1 }
                widths[miniblock] = UInt64.bitWidth - bits.leadingZeroBitCount
            }
            output += widths.map { UInt8($0) }
            for miniblock in 0..<used {
                let range = (miniblock * miniblockSize)..<((miniblock + 1) * miniblockSize)
                pack(deltas[range], bitWidth: widths[miniblock], to: &output)
            }
            start += count
        }
        return output
    }

    /// Appends `values` at `bitWidth` bits each (0...64), least significant bit first; a
    /// miniblock's 32 values always end on a byte boundary.
    static func pack(_ values: ArraySlice<UInt64>, bitWidth: Int, to output: inout [UInt8]) {
        guard bitWidth > 0 else { return }
        var current: UInt64 = 0
        var filled = 0
        for value in values {
            var rest = value
            var remaining = bitWidth
            while remaining > 0 {
                let take = min(remaining, 8 - filled)
                current |= (rest & ((1 << UInt64(take)) - 1)) << UInt64(filled)
                rest >>= UInt64(take)
                filled += take
                remaining -= take
                if filled == 8 {
                    output.append(UInt8(truncatingIfNeeded: current))
                    current = 0
                    filled = 0
                }
            }
        }
        if filled > 0 { output.append(UInt8(truncatingIfNeeded: current)) }
    }

    static func appendZigzag(_ value: Int64, to output: inout [UInt8]) {
        HybridEncoder.appendVarint(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)), to: &output)
    }
}
