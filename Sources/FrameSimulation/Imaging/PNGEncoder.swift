/// Encodes opaque bitmaps as PNG files: 8-bit RGB, every row Paeth-filtered, the zlib stream one
/// fixed-Huffman DEFLATE block with greedy LZ77 matching.
///
/// It exists so scenarios can hand `PNGDecoder` real files (bytes that must be inflated, unfiltered
/// and checksummed) without reading fixtures at run time: a scenario generates its images from a
/// seed and encodes them once, at setup, outside every measured frame. It favours simplicity
/// over compression ratio; the output is a valid PNG any decoder reads.
///
/// ```swift
/// let bytes = PNGEncoder.encodeOpaque(bitmap)
/// let decoded = try PNGDecoder.decode(bytes) // == bitmap
/// ```
enum PNGEncoder {
    /// Encodes `bitmap`, dropping its alpha channel.
    /// - Precondition: `bitmap` is opaque (alpha 255 everywhere), so nothing is lost.
    /// - Complexity: O(*n*) in the pixel count.
    static func encodeOpaque(_ bitmap: Bitmap) -> [UInt8] {
        precondition(bitmap.isOpaque, "PNGEncoder.encodeOpaque takes opaque bitmaps only")
        let scanlines = paethFilteredRGBScanlines(of: bitmap)
        var file = PNGDecoder.signature
        var header: [UInt8] = []
        appendBigEndian(UInt32(bitmap.width), to: &header)
        appendBigEndian(UInt32(bitmap.height), to: &header)
        header += [8, 2, 0, 0, 0]  // 8 bits per sample, RGB, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", zlibCompressed(scanlines), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// Rows of RGB samples, each prefixed with filter type 4 (Paeth) and filtered.
    private static func paethFilteredRGBScanlines(of bitmap: Bitmap) -> [UInt8] {
        let rowBytes = bitmap.width * 3
        var raw = [UInt8](repeating: 0, count: rowBytes * bitmap.height)
        for index in 0..<bitmap.width * bitmap.height {
            raw[index * 3] = bitmap.pixels[index * 4]
            raw[index * 3 + 1] = bitmap.pixels[index * 4 + 1]
            raw[index * 3 + 2] = bitmap.pixels[index * 4 + 2]
        }
        var filtered = [UInt8]()
        filtered.reserveCapacity((rowBytes + 1) * bitmap.height)
        for row in 0..<bitmap.height {
            filtered.append(4)
            for column in 0..<rowBytes {
                let index = row * rowBytes + column
                let left = column >= 3 ? Int(raw[index - 3]) : 0
                let up = row > 0 ? Int(raw[index - rowBytes]) : 0
                let upLeft = row > 0 && column >= 3 ? Int(raw[index - rowBytes - 3]) : 0
                let estimate = left + up - upLeft
                let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                let predictor = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
                filtered.append(raw[index] &- UInt8(predictor))
            }
        }
        return filtered
    }

    /// A zlib stream: header, one final fixed-Huffman block, Adler-32.
    private static func zlibCompressed(_ data: [UInt8]) -> [UInt8] {
        var writer = DeflateBitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE = 01, fixed Huffman codes
        let windowSize = 32_768
        let hashBits = 15
        var recent = [Int](repeating: -1, count: 1 << hashBits)
        var index = 0
        while index < data.count {
            var matchLength = 0
            var matchDistance = 0
            if index + 3 <= data.count {
                let hash =
                    (Int(data[index]) << 10 ^ Int(data[index + 1]) << 5 ^ Int(data[index + 2])) & (1 << hashBits - 1)
                let candidate = recent[hash]
                recent[hash] = index
                if candidate >= 0, index - candidate <= windowSize {
                    let limit = min(258, data.count - index)
                    var length = 0
                    while length < limit, data[candidate + length] == data[index + length] { length += 1 }
                    if length >= 3 { (matchLength, matchDistance) = (length, index - candidate) }
                }
            }
            if matchLength >= 3 {
                writer.writeLength(matchLength)
                writer.writeDistance(matchDistance)
                index += matchLength
            } else {
                writer.writeLiteral(Int(data[index]))
                index += 1
            }
        }
        writer.writeLiteral(256)  // end of block
        writer.flush()
        var adler = Adler32()
        data.withUnsafeBufferPointer { adler.update($0) }
        appendBigEndian(adler.value, to: &writer.bytes)
        return writer.bytes
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeAndData = Array(type.utf8) + data
        file += typeAndData
        var crc = CRC32()
        crc.update(typeAndData[...])
        appendBigEndian(crc.value, to: &file)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// DEFLATE's bit order: values least significant bit first, Huffman codes most significant first.
private struct DeflateBitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    private static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289,
        16385, 24577,
    ]
    private static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    mutating func write(_ value: Int, bits: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// Writes a Huffman code, most significant bit first.
    mutating func writeCode(_ code: Int, length: Int) {
        var reversed = 0
        for bit in 0..<length { reversed |= (code >> bit & 1) << (length - 1 - bit) }
        write(reversed, bits: length)
    }

    /// A literal/length symbol with the fixed code of RFC 1951, 3.2.6.
    mutating func writeLiteral(_ symbol: Int) {
        switch symbol {
        case 0..<144: writeCode(0x30 + symbol, length: 8)
        case 144..<256: writeCode(0x190 + symbol - 144, length: 9)
        case 256..<280: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    mutating func writeLength(_ length: Int) {
        let code = Self.lengthBases.lastIndex { $0 <= length }!
        writeLiteral(257 + code)
        write(length - Self.lengthBases[code], bits: Self.lengthExtraBits[code])
    }

    mutating func writeDistance(_ distance: Int) {
        let code = Self.distanceBases.lastIndex { $0 <= distance }!
        writeCode(code, length: 5)
        write(distance - Self.distanceBases[code], bits: Self.distanceExtraBits[code])
    }

    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
    }
}
