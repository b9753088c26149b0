/// Reads DEFLATE's bit stream: numbers least significant bit first, through a 64-bit buffer.
///
/// Near the end of the input the reader pads with zero bytes so a table lookup may peek past the
/// last byte; `paddingBits` counts them, and consuming any of them means the stream was
/// truncated. Every refill near the end checks that, so a truncated stream stops within one
/// symbol instead of decoding zeros until the output limit.
struct BitReader {
    let input: UnsafeBufferPointer<UInt8>
    /// The next input byte to load into the buffer.
    private var position: Int
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private var paddingBits = 0

    init(input: UnsafeBufferPointer<UInt8>, position: Int) {
        self.input = input
        self.position = position
    }

    /// The input byte the reader has reached, for error messages.
    var bytePosition: Int { position - max(bitCount - paddingBits, 0) / 8 }

    /// Fills the buffer to at least 56 bits: eight bytes in one unaligned load while the input
    /// lasts, then byte by byte and zero padding.
    /// - Throws: `truncated` when bits past the end of the input have already been consumed.
    @inline(__always)
    mutating func refill() throws(InflateError) {
        if position + 8 <= input.count {
            let word = UInt64(
                littleEndian: UnsafeRawPointer(input.baseAddress! + position).loadUnaligned(as: UInt64.self))
            bitBuffer |= word &<< UInt64(bitCount)
            position += (63 - bitCount) >> 3
            bitCount |= 56
        } else {
            try refillNearEnd()
        }
    }

    private mutating func refillNearEnd() throws(InflateError) {
        guard paddingBits <= bitCount else {
            throw InflateError(.truncated, "the input ends inside a DEFLATE block", byteOffset: input.count)
        }
        while bitCount <= 56 {
            if position < input.count {
                bitBuffer |= UInt64(input[position]) &<< UInt64(bitCount)
                position += 1
            } else {
                paddingBits += 8
            }
            bitCount += 8
        }
    }

    /// Removes and returns the next `count` bits (at most 32; the caller has refilled).
    @inline(__always)
    mutating func take(_ count: Int) -> Int {
        let bits = Int(truncatingIfNeeded: bitBuffer & (1 &<< UInt64(count) &- 1))
        consume(count)
        return bits
    }

    @inline(__always)
    private mutating func consume(_ count: Int) {
        bitBuffer &>>= UInt64(count)
        bitCount -= count
    }

    /// Decodes one symbol (the caller has refilled) and consumes its code.
    /// - Parameters:
    ///   - entries: `table.entries`, already borrowed as a buffer for the block's loop.
    ///   - table: The table, for codes longer than its primary lookup resolves.
    @inline(__always)
    mutating func decode(_ entries: UnsafeBufferPointer<UInt32>, _ table: HuffmanTable) throws(InflateError)
        -> HuffmanTable.Entry
    {
        var entry = HuffmanTable.Entry(rawValue: entries[Int(truncatingIfNeeded: bitBuffer) & (entries.count - 1)])
        if entry.codeLength == 0 {
            guard let long = table.decodeLongCode(bitBuffer) else {
                throw InflateError(
                    .invalidSymbol, "the bits at this point match no code of the block's Huffman table",
                    byteOffset: bytePosition)
            }
            entry = long
        }
        consume(entry.codeLength)
        return entry
    }

    /// Skips to the next byte boundary and hands the unread bytes back to the input, so the
    /// caller can continue byte by byte.
    /// - Returns: The offset of the next unread input byte.
    /// - Throws: `truncated` when the stream consumed bits past the end of the input.
    mutating func byteAlignedPosition() throws(InflateError) -> Int {
        consume(bitCount % 8)
        guard paddingBits <= bitCount else {
            throw InflateError(.truncated, "the input ends inside a DEFLATE block", byteOffset: input.count)
        }
        position -= (bitCount - paddingBits) / 8
        bitBuffer = 0
        bitCount = 0
        paddingBits = 0
        return position
    }

    /// Continues reading at byte `offset`; the buffer must be empty (after `byteAlignedPosition`).
    mutating func skip(to offset: Int) {
        precondition(bitCount == 0, "skip(to:) needs a byte-aligned, empty buffer")
        position = offset
    }
}
