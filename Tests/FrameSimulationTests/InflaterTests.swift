import Testing

@testable import FrameSimulation

@Suite("Inflater")
struct InflaterTests {
    @Test("IDAT streams inflate byte for byte to the output of Python's zlib", arguments: ImagingFixtures.rawNames)
    func matchesZlibOutput(name: String) throws {
        let stream = try PNGDecoder.compressedImageData(of: ImagingFixtures.png(name))
        let inflated = try Inflater().inflate(stream)
        #expect(inflated == (try ImagingFixtures.bytes(name + ".raw")))
    }

    @Test(
        "Every valid fixture's IDAT stream inflates to the size and CRC-32 zlib recorded",
        arguments: ImagingFixtures.validNames)
    func matchesRecordedInflation(name: String) throws {
        let expected = try ImagingFixtures.expected(name)
        let inflated = try Inflater().inflate(PNGDecoder.compressedImageData(of: ImagingFixtures.png(name)))
        #expect(inflated.count == expected.inflatedSize)
        #expect(ImagingFixtures.crc32(inflated) == expected.inflatedCRC32)
    }

    @Test("The fixtures exercise stored, fixed-Huffman and dynamic-Huffman blocks")
    func fixturesCoverEveryBlockType() throws {
        func firstBlockType(_ name: String) throws -> UInt8 {
            let stream = try PNGDecoder.compressedImageData(of: ImagingFixtures.png(name))
            return stream[2] >> 1 & 0b11
        }
        #expect(try firstBlockType("stored-blocks-32x32") == 0)
        #expect(try firstBlockType("fixed-huffman-48x48") == 1)
        #expect(try firstBlockType("photo-1200x900") == 2)
    }

    @Test("An empty final stored block inflates to nothing")
    func emptyStoredBlock() throws {
        #expect(try Inflater().inflateRaw([0x01, 0x00, 0x00, 0xFF, 0xFF]) == [])
    }

    @Test("A fixed-Huffman back-reference shorter than its length repeats the last bytes")
    func overlappingBackReference() throws {
        var bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        for byte in Array("ab".utf8) { bits.fixedLiteral(Int(byte)) }
        bits.fixedLengthCode(257 + 7)  // length 10
        bits.fixedDistanceCode(1)  // distance 2
        bits.fixedLiteral(256)
        #expect(try Inflater().inflateRaw(bits.bytes) == Array("abababababab".utf8))
    }

    @Test("A hand-built dynamic block with two one-bit codes inflates")
    func handBuiltDynamicBlock() throws {
        var bits = DeflateBits()
        var lengths = [Int](repeating: 0, count: 257)
        lengths[97] = 1
        lengths[256] = 1
        bits.dynamicBlockHeader(isFinal: true, literalLengths: lengths, distanceLengths: [1])
        // Canonical codes: 'a' (97) is 0, end of block (256) is 1.
        bits.write(0, count: 1)
        bits.write(0, count: 1)
        bits.write(0, count: 1)
        bits.write(1, count: 1)
        #expect(try Inflater().inflateRaw(bits.bytes) == Array("aaa".utf8))
    }

    /// A malformed stream and the error it must give.
    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var isZlib: Bool
        var code: InflateError.Code
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = {
        var cases: [Malformed] = []
        var bits = DeflateBits()
        bits.write(1, count: 1)
        bits.write(3, count: 2)
        cases.append(
            Malformed(name: "reserved block type 3", bytes: bits.bytes, isZlib: false, code: .invalidBlockType))

        cases.append(
            Malformed(
                name: "stored length without its complement", bytes: [0x01, 0x05, 0x00, 0x00, 0x00], isZlib: false,
                code: .storedLengthMismatch))
        cases.append(
            Malformed(
                name: "stored block longer than the input", bytes: [0x01, 0x05, 0x00, 0xFA, 0xFF, 0x41], isZlib: false,
                code: .truncated))

        bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(0x41)
        bits.fixedLengthCode(257)  // length 3
        bits.fixedDistanceCode(1)  // distance 2, but only 1 byte is out
        bits.fixedLiteral(256)
        cases.append(
            Malformed(
                name: "distance before the start of the output", bytes: bits.bytes, isZlib: false, code: .distanceTooFar
            ))

        bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(286)
        cases.append(
            Malformed(name: "reserved literal/length code 286", bytes: bits.bytes, isZlib: false, code: .invalidSymbol))

        bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        bits.fixedLiteral(0x41)
        bits.fixedLengthCode(257)
        bits.fixedDistanceCode(30)
        cases.append(
            Malformed(name: "reserved distance code 30", bytes: bits.bytes, isZlib: false, code: .invalidSymbol))

        bits = DeflateBits()
        bits.fixedBlockHeader(isFinal: true)
        for _ in 0..<40 { bits.fixedLiteral(0x41) }
        cases.append(
            Malformed(name: "fixed block without end-of-block code", bytes: bits.bytes, isZlib: false, code: .truncated)
        )

        bits = DeflateBits()
        var lengths = [Int](repeating: 8, count: 257)
        lengths[256] = 0
        bits.dynamicBlockHeader(isFinal: true, literalLengths: lengths, distanceLengths: [0])
        cases.append(
            Malformed(
                name: "dynamic block without end-of-block code", bytes: bits.bytes, isZlib: false,
                code: .invalidHuffmanTable))

        bits = DeflateBits()
        lengths = [Int](repeating: 0, count: 257)
        lengths[256] = 2
        bits.dynamicBlockHeader(isFinal: true, literalLengths: lengths, distanceLengths: [0])
        cases.append(
            Malformed(
                name: "incomplete literal/length code", bytes: bits.bytes, isZlib: false, code: .invalidHuffmanTable))

        bits = DeflateBits()
        bits.write(1, count: 1)
        bits.write(2, count: 2)
        bits.write(0, count: 5)
        bits.write(0, count: 5)
        bits.write(1, count: 4)  // five code-length code lengths: 16, 17, 18, 0, 8
        for _ in 0..<5 { bits.write(1, count: 3) }
        cases.append(
            Malformed(
                name: "oversubscribed code-length code", bytes: bits.bytes, isZlib: false, code: .invalidHuffmanTable))

        bits = DeflateBits()
        bits.write(1, count: 1)
        bits.write(2, count: 2)
        bits.write(0, count: 5)
        bits.write(0, count: 5)
        bits.write(0, count: 4)  // four code-length code lengths: 16, 17, 18, 0
        for length in [1, 0, 0, 1] { bits.write(length, count: 3) }
        bits.writeCode(1, length: 1)  // canonical codes: symbol 0 is 0, symbol 16 (repeat) is 1
        cases.append(
            Malformed(
                name: "repeat code before the first length", bytes: bits.bytes, isZlib: false,
                code: .invalidHuffmanTable))

        cases.append(
            Malformed(
                name: "zlib header with compression method 7", bytes: [0x77, 0x01, 0x03, 0x00], isZlib: true,
                code: .invalidZlibHeader))
        cases.append(
            Malformed(
                name: "zlib header whose check bits fail", bytes: [0x78, 0x00, 0x03, 0x00], isZlib: true,
                code: .invalidZlibHeader))
        cases.append(
            Malformed(
                name: "zlib header asking for a preset dictionary", bytes: [0x78, 0xBB, 0, 0, 0, 1, 0x03, 0x00],
                isZlib: true, code: .presetDictionary))
        cases.append(
            Malformed(
                name: "zlib stream with a wrong Adler-32", bytes: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x02],
                isZlib: true, code: .checksumMismatch))
        cases.append(
            Malformed(
                name: "zlib stream without its Adler-32", bytes: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00], isZlib: true,
                code: .truncated))
        cases.append(Malformed(name: "one-byte zlib stream", bytes: [0x78], isZlib: true, code: .truncated))
        return cases
    }()

    @Test("Malformed streams give an error that names the problem", arguments: malformed)
    func malformedStreams(stream: Malformed) {
        let inflater = Inflater()
        let error = #expect(throws: InflateError.self) {
            if stream.isZlib {
                _ = try inflater.inflate(stream.bytes)
            } else {
                _ = try inflater.inflateRaw(stream.bytes)
            }
        }
        #expect(error?.code == stream.code, "\(String(describing: error))")
    }

    @Test("A well-formed empty zlib stream inflates to nothing")
    func emptyZlibStream() throws {
        #expect(try Inflater().inflate([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) == [])
    }

    @Test("Output beyond maxOutputBytes stops with outputLimitExceeded")
    func outputLimit() throws {
        let stream = try PNGDecoder.compressedImageData(of: ImagingFixtures.png("avatar-rgba-96x96"))
        for limit in [0, 1000, 36_959] {
            let error = #expect(throws: InflateError.self) { try Inflater(maxOutputBytes: limit).inflate(stream) }
            #expect(error?.code == .outputLimitExceeded)
        }
        #expect(try Inflater(maxOutputBytes: 36_960).inflate(stream).count == 36_960)
    }

    @Test("Every truncation of a zlib stream gives an error, never a crash")
    func everyTruncationFails() throws {
        let stream = try PNGDecoder.compressedImageData(of: ImagingFixtures.png("rgb-color-key-32x32"))
        var failures = 0
        for length in 0..<stream.count {
            do {
                _ = try Inflater().inflate(Array(stream[..<length]))
            } catch {
                failures += 1
            }
        }
        #expect(failures == stream.count)
    }
}

/// Writes DEFLATE bits the way the format packs them, to build streams with chosen defects.
struct DeflateBits {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    /// Appends `value`'s low `count` bits, least significant first (how DEFLATE stores numbers).
    mutating func write(_ value: Int, count: Int) {
        for bit in 0..<count {
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << (bitCount % 8)
            bitCount += 1
        }
    }

    /// Appends a Huffman code, most significant bit first (how DEFLATE stores codes).
    mutating func writeCode(_ code: Int, length: Int) {
        for bit in (0..<length).reversed() { write(code >> bit & 1, count: 1) }
    }

    mutating func fixedBlockHeader(isFinal: Bool) {
        write(isFinal ? 1 : 0, count: 1)
        write(1, count: 2)
    }

    /// Appends a fixed-Huffman literal/length symbol (RFC 1951, 3.2.6).
    mutating func fixedLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(0x30 + symbol, length: 8)
        case 144...255: writeCode(0x190 + symbol - 144, length: 9)
        case 256...279: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    /// Appends a length symbol with no extra bits (257–264 are lengths 3–10).
    mutating func fixedLengthCode(_ symbol: Int) { fixedLiteral(symbol) }

    /// Appends a fixed distance code (5 bits) with no extra bits (codes 0–3 are distances 1–4).
    mutating func fixedDistanceCode(_ code: Int) { writeCode(code, length: 5) }

    /// Appends a dynamic block header whose code-length code has exactly two symbols, one bit
    /// each: the two distinct length values used (so every listed length must be one of two).
    mutating func dynamicBlockHeader(isFinal: Bool, literalLengths: [Int], distanceLengths: [Int]) {
        let all = literalLengths + distanceLengths
        let values = Array(Set(all)).sorted()
        precondition(values.count == 2, "this writer supports exactly two distinct lengths")
        write(isFinal ? 1 : 0, count: 1)
        write(2, count: 2)
        write(literalLengths.count - 257, count: 5)
        write(distanceLengths.count - 1, count: 5)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let listed = order.lastIndex { values.contains($0) }! + 1
        write(listed - 4, count: 4)
        for symbol in order.prefix(listed) { write(values.contains(symbol) ? 1 : 0, count: 3) }
        // Canonical codes: the smaller symbol gets 0, the larger 1.
        for length in all { writeCode(length == values[0] ? 0 : 1, length: 1) }
    }
}
