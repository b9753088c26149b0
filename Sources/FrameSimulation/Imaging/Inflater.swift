/// Decompresses DEFLATE data (RFC 1951), bare or inside a zlib stream (RFC 1950) as PNG stores it.
///
/// Stored, fixed-Huffman and dynamic-Huffman blocks are all decoded, with table-driven prefix
/// decoding fast enough that inflating is a realistic share of an image decode. The output is
/// capped by `maxOutputBytes`, so a small hostile stream cannot make the decoder allocate
/// without bound; the buffer grows by doubling as output arrives instead of trusting any
/// declared size.
///
/// ```swift
/// let pixels = try Inflater(maxOutputBytes: 4 << 20).inflate(idat)
/// ```
package struct Inflater: Sendable {
    /// The default output limit: 256 MiB.
    package static let defaultMaxOutputBytes = 256 << 20

    /// The most bytes a stream may inflate to before decoding stops with
    /// `InflateError.Code.outputLimitExceeded`.
    package var maxOutputBytes: Int

    /// Creates an inflater.
    /// - Parameter maxOutputBytes: The most bytes a stream may inflate to; not negative.
    package init(maxOutputBytes: Int = Inflater.defaultMaxOutputBytes) {
        precondition(maxOutputBytes >= 0, "maxOutputBytes must not be negative")
        self.maxOutputBytes = maxOutputBytes
    }

    /// Inflates a zlib stream: the two-byte header, DEFLATE blocks, then the Adler-32 of the output.
    ///
    /// Bytes after the checksum are ignored, as zlib does.
    /// - Parameter zlibStream: The stream, for example a PNG's IDAT chunks concatenated.
    /// - Returns: The decompressed bytes.
    /// - Throws: `InflateError` saying what is wrong and at which input byte.
    /// - Complexity: O(*n*) in the output size, plus one table build per dynamic block.
    package func inflate(_ zlibStream: [UInt8]) throws(InflateError) -> [UInt8] {
        try zlibStream.withUnsafeBufferPointer { (input) throws(InflateError) -> [UInt8] in
            guard input.count >= 2 else {
                throw InflateError(
                    .truncated, "the zlib header needs 2 bytes, the input has \(input.count)", byteOffset: 0)
            }
            let header = UInt16(input[0]) << 8 | UInt16(input[1])
            guard input[0] & 0x0F == 8, input[0] >> 4 <= 7, header % 31 == 0 else {
                throw InflateError(
                    .invalidZlibHeader, "the zlib header 0x\(String(header, radix: 16)) is not a DEFLATE header",
                    byteOffset: 0)
            }
            guard input[1] & 0x20 == 0 else {
                throw InflateError(.presetDictionary, "the zlib stream needs a preset dictionary", byteOffset: 1)
            }
            var stream = InflateStream(input: input, position: 2, maxOutputBytes: maxOutputBytes)
            try stream.inflateBlocks()
            let checksumOffset = try stream.finish()
            guard checksumOffset + 4 <= input.count else {
                throw InflateError(
                    .truncated, "the input ends before the zlib stream's Adler-32 checksum", byteOffset: input.count)
            }
            let expected = input[checksumOffset..<checksumOffset + 4].reduce(0) { $0 << 8 | UInt32($1) }
            var adler = Adler32()
            adler.update(stream.output.bytes)
            guard adler.value == expected else {
                throw InflateError(
                    .checksumMismatch, "the Adler-32 of the output does not match the stream's checksum",
                    byteOffset: checksumOffset)
            }
            return Array(stream.output.bytes)
        }
    }

    /// Inflates raw DEFLATE data with no zlib header or checksum.
    /// - Parameter deflateStream: The DEFLATE blocks; bytes after the final block are ignored.
    /// - Returns: The decompressed bytes.
    /// - Throws: `InflateError` saying what is wrong and at which input byte.
    /// - Complexity: O(*n*) in the output size, plus one table build per dynamic block.
    package func inflateRaw(_ deflateStream: [UInt8]) throws(InflateError) -> [UInt8] {
        try deflateStream.withUnsafeBufferPointer { (input) throws(InflateError) -> [UInt8] in
            var stream = InflateStream(input: input, position: 0, maxOutputBytes: maxOutputBytes)
            try stream.inflateBlocks()
            _ = try stream.finish()
            return Array(stream.output.bytes)
        }
    }
}

/// The state of one inflate call: a bit reader over the input and the growing output.
private struct InflateStream: ~Copyable {
    var reader: BitReader
    var output: OutputBuffer

    init(input: UnsafeBufferPointer<UInt8>, position: Int, maxOutputBytes: Int) {
        reader = BitReader(input: input, position: position)
        // Four times the input covers typical image data without regrowing; doubling handles the rest.
        let guess = max(input.count - position, 0) * 4 + 1024
        output = OutputBuffer(initialCapacity: min(guess, maxOutputBytes), limit: maxOutputBytes)
    }

    // MARK: Blocks

    mutating func inflateBlocks() throws(InflateError) {
        var isFinal = false
        while !isFinal {
            try reader.refill()
            isFinal = reader.take(1) == 1
            switch reader.take(2) {
            case 0: try copyStoredBlock()
            case 1: try decodeHuffmanBlock(literalLength: .fixedLiteralLength, distance: .fixedDistance)
            case 2:
                let (literalLength, distance) = try readDynamicTables()
                try decodeHuffmanBlock(literalLength: literalLength, distance: distance)
            default:
                throw InflateError(
                    .invalidBlockType, "a DEFLATE block header has the reserved block type 3",
                    byteOffset: reader.bytePosition)
            }
        }
    }

    /// Skips to the next byte boundary after the final block.
    /// - Returns: The offset of the first input byte after the DEFLATE data.
    mutating func finish() throws(InflateError) -> Int {
        try reader.byteAlignedPosition()
    }

    private mutating func copyStoredBlock() throws(InflateError) {
        let input = reader.input
        let start = try reader.byteAlignedPosition()
        guard start + 4 <= input.count else {
            throw InflateError(.truncated, "the input ends inside a stored block's header", byteOffset: input.count)
        }
        let length = Int(input[start]) | Int(input[start + 1]) << 8
        let complement = Int(input[start + 2]) | Int(input[start + 3]) << 8
        guard length == complement ^ 0xFFFF else {
            throw InflateError(
                .storedLengthMismatch, "a stored block's length \(length) does not match its complement",
                byteOffset: start)
        }
        let dataStart = start + 4
        guard dataStart + length <= input.count else {
            throw InflateError(
                .truncated, "the input ends inside a stored block of \(length) bytes", byteOffset: input.count)
        }
        try reserveOutput(length, at: reader)
        output.append(UnsafeBufferPointer(rebasing: input[dataStart..<dataStart + length]))
        reader.skip(to: dataStart + length)
    }

    private mutating func readDynamicTables() throws(InflateError) -> (HuffmanTable, HuffmanTable) {
        let headerOffset = reader.bytePosition
        let literalLengthCount = reader.take(5) + 257
        let distanceCount = reader.take(5) + 1
        let codeLengthCount = reader.take(4) + 4
        guard literalLengthCount <= 286, distanceCount <= 30 else {
            throw InflateError(
                .invalidHuffmanTable,
                "a dynamic block declares \(literalLengthCount) literal/length and \(distanceCount) distance codes (at most 286 and 30)",
                byteOffset: headerOffset
            )
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in Self.codeLengthOrder.prefix(codeLengthCount) {
            try reader.refill()
            codeLengthLengths[index] = UInt8(reader.take(3))
        }
        let codeLengthTable = try HuffmanTable(
            lengths: codeLengthLengths[...], alphabet: .codeLength, byteOffset: headerOffset)
        let lengths = try readCodeLengths(count: literalLengthCount + distanceCount, with: codeLengthTable)
        guard lengths[256] != 0 else {
            throw InflateError(
                .invalidHuffmanTable, "a dynamic block has no end-of-block code", byteOffset: reader.bytePosition)
        }
        return (
            try HuffmanTable(
                lengths: lengths[..<literalLengthCount], alphabet: .literalLength, byteOffset: reader.bytePosition),
            try HuffmanTable(
                lengths: lengths[literalLengthCount...], alphabet: .distance, byteOffset: reader.bytePosition)
        )
    }

    /// The literal/length and distance codes' lengths, `total` of them, coded with the
    /// code-length code (16 repeats the previous length, 17 and 18 repeat zero).
    private mutating func readCodeLengths(count total: Int, with codeLengthTable: HuffmanTable) throws(InflateError)
        -> [UInt8]
    {
        var lengths = [UInt8](repeating: 0, count: total)
        var index = 0
        while index < total {
            try reader.refill()
            let symbol = try codeLengthTable.entries.withUnsafeBufferPointer { (entries) throws(InflateError) in
                try reader.decode(entries, codeLengthTable).value
            }
            let (value, repeatCount): (UInt8, Int)
            switch symbol {
            case 0...15:
                (value, repeatCount) = (UInt8(symbol), 1)
            case 16:
                guard index > 0 else {
                    throw InflateError(
                        .invalidHuffmanTable, "a dynamic block repeats a code length before the first one",
                        byteOffset: reader.bytePosition)
                }
                (value, repeatCount) = (lengths[index - 1], 3 + reader.take(2))
            case 17:
                (value, repeatCount) = (0, 3 + reader.take(3))
            default:
                (value, repeatCount) = (0, 11 + reader.take(7))
            }
            guard index + repeatCount <= total else {
                throw InflateError(
                    .invalidHuffmanTable, "a dynamic block's code lengths run past the \(total) codes it declared",
                    byteOffset: reader.bytePosition
                )
            }
            for offset in index..<index + repeatCount { lengths[offset] = value }
            index += repeatCount
        }
        return lengths
    }

    /// The order in which a dynamic block header lists the code-length code's lengths.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Decodes literals and back-references until the end-of-block symbol.
    ///
    /// The reader is copied into a local for the loop (and written back on every exit) so the
    /// bit buffer lives in registers instead of being stored and reloaded for every symbol.
    private mutating func decodeHuffmanBlock(literalLength: HuffmanTable, distance: HuffmanTable) throws(InflateError) {
        var reader = self.reader
        defer { self.reader = reader }
        try literalLength.entries.withUnsafeBufferPointer { (literalLengthEntries) throws(InflateError) in
            try distance.entries.withUnsafeBufferPointer { (distanceEntries) throws(InflateError) in
                while true {
                    // One refill covers the longest step: a 15-bit length code with 5 extra bits
                    // and a 15-bit distance code with 13 extra bits, 48 bits in all.
                    try reader.refill()
                    let entry = try reader.decode(literalLengthEntries, literalLength)
                    if entry.isLiteral {
                        try reserveOutput(1, at: reader)
                        output.append(UInt8(truncatingIfNeeded: entry.value))
                    } else if entry.isBase {
                        let length = entry.value + reader.take(entry.extraBits)
                        let distanceEntry = try reader.decode(distanceEntries, distance)
                        guard distanceEntry.isBase else {
                            throw InflateError(
                                .invalidSymbol,
                                "a back-reference uses the reserved distance code \(distanceEntry.value)",
                                byteOffset: reader.bytePosition
                            )
                        }
                        let offset = distanceEntry.value + reader.take(distanceEntry.extraBits)
                        guard offset <= output.count else {
                            throw InflateError(
                                .distanceTooFar,
                                "distance \(offset) reaches before the start of the output (\(output.count) bytes so far)",
                                byteOffset: reader.bytePosition
                            )
                        }
                        try reserveOutput(length, at: reader)
                        output.appendCopy(distance: offset, length: length)
                    } else if entry.isEndOfBlock {
                        return
                    } else {
                        throw InflateError(
                            .invalidSymbol, "the data uses the reserved literal/length code \(entry.value)",
                            byteOffset: reader.bytePosition
                        )
                    }
                }
            }
        }
    }

    /// Makes room for `count` more output bytes.
    /// - Parameter reader: The reader in use, for the error's byte offset.
    @inline(__always)
    private mutating func reserveOutput(_ count: Int, at reader: BitReader) throws(InflateError) {
        guard output.reserve(count) else {
            throw InflateError(
                .outputLimitExceeded, "the output would exceed the limit of \(output.limit) bytes",
                byteOffset: reader.bytePosition
            )
        }
    }
}

/// Inflated bytes in one manually managed buffer, which is also the window back-references
/// copy from; it grows by doubling up to `limit`.
private struct OutputBuffer: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    let limit: Int

    init(initialCapacity: Int, limit: Int) {
        capacity = max(initialCapacity, 1)
        start = .allocate(capacity: capacity)
        self.limit = limit
    }

    deinit { start.deallocate() }

    /// The bytes written so far; valid until the next write.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// Makes room for `additional` more bytes.
    /// - Returns: false when that would exceed `limit`.
    @inline(__always)
    mutating func reserve(_ additional: Int) -> Bool {
        count + additional <= capacity || grow(toHold: count + additional)
    }

    private mutating func grow(toHold needed: Int) -> Bool {
        guard needed <= limit else { return false }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        newCapacity = min(newCapacity, limit)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: start, count: count)
        start.deallocate()
        start = grown
        capacity = newCapacity
        return true
    }

    /// Appends one byte; the caller has reserved room.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    /// Appends `bytes`; the caller has reserved room.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        (start + count).initialize(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Appends `length` bytes copied from `distance` bytes back; the caller has checked the
    /// distance and reserved room.
    ///
    /// Most matches are short, so a library call per match would dominate: when the source is
    /// at least 8 bytes back and the buffer has 8 spare bytes past the match, the copy moves 8
    /// bytes at a time, possibly writing a few bytes past the match that later output
    /// overwrites. Each chunk reads only bytes already written, because the distance is at least
    /// the chunk size. Closer sources repeat the last `distance` bytes; those are periodic, so
    /// after copying `n` bytes (a multiple of the period) the next `distance + n` can be copied
    /// in one non-overlapping move from the same source, doubling the chunk each time.
    @inline(__always)
    mutating func appendCopy(distance: Int, length: Int) {
        let source = start + count - distance
        let destination = start + count
        if distance >= 8 && count + length + 8 <= capacity {
            var offset = 0
            repeat {
                UnsafeMutableRawPointer(destination + offset).storeBytes(
                    of: UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self), as: UInt64.self
                )
                offset += 8
            } while offset < length
        } else if distance >= length {
            destination.initialize(from: source, count: length)
        } else {
            var copied = 0
            while copied < length {
                let chunk = min(distance + copied, length - copied)
                (destination + copied).initialize(from: source, count: chunk)
                copied += chunk
            }
        }
        count += length
    }
}
