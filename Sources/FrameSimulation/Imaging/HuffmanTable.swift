/// A canonical prefix code from a DEFLATE block, ready for table-driven decoding.
///
/// DEFLATE packs codes starting from their most significant bit while the bit reader hands out
/// the stream's least significant bit first, so the primary table is indexed by the next
/// `primaryBits` stream bits and every code is stored bit-reversed, repeated for each value the
/// bits after it can take. One lookup resolves every code no longer than `primaryBits`; longer
/// codes (rare by construction: a Huffman code is long because its symbol is rare) fall back to
/// walking the code lengths one bit at a time.
///
/// Each entry is already translated into what the decoder needs next (a literal byte, a length
/// or distance base with its extra-bit count, the end of the block), so the hot loop does one
/// lookup per symbol and no second table walk.
struct HuffmanTable: Sendable {
    /// What the symbols of a table mean; decides the entries it holds.
    enum Alphabet {
        /// Literal bytes 0–255, end of block 256, lengths 257–285.
        case literalLength
        /// Distances 0–29.
        case distance
        /// The code-length alphabet of a dynamic block header, 0–18.
        case codeLength

        /// The bits resolved by one lookup; tuned so building a table stays cheap next to the
        /// output a block typically produces.
        var primaryBits: Int {
            switch self {
            case .literalLength: 10
            case .distance: 8
            case .codeLength: 7
            }
        }

        /// The alphabet's name in error messages.
        var name: String {
            switch self {
            case .literalLength: "literal/length"
            case .distance: "distance"
            case .codeLength: "code-length"
            }
        }
    }

    /// Table entries: `Entry` values for codes up to `primaryBits` long, zero for prefixes of
    /// longer codes and for prefixes that no code starts with.
    let entries: [UInt32]
    /// The number of codes of each length, index 0 unused.
    private let lengthCounts: [Int]
    /// The symbols in canonical code order (by length, then by symbol).
    private let sortedSymbols: [UInt16]
    private let alphabet: Alphabet

    /// The longest code DEFLATE allows.
    static let maxCodeLength = 15

    /// Builds the table for the code that `lengths` describes (one length per symbol, 0 = unused).
    /// - Parameters:
    ///   - lengths: Code lengths, 0...15, indexed by symbol.
    ///   - alphabet: What the symbols mean.
    ///   - byteOffset: Where the lengths came from, for the error.
    /// - Throws: `InflateError.Code.invalidHuffmanTable` when the lengths oversubscribe the code
    ///   space, or leave part of it unused where zlib does not allow that either (everywhere except
    ///   a code with at most one symbol of length 1, and never for the code-length alphabet).
    init(lengths: ArraySlice<UInt8>, alphabet: Alphabet, byteOffset: Int) throws(InflateError) {
        var counts = [Int](repeating: 0, count: Self.maxCodeLength + 1)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...Self.maxCodeLength {
            left = left << 1 - counts[length]
            if left < 0 {
                throw InflateError(
                    .invalidHuffmanTable, "\(alphabet.name) code lengths oversubscribe the code space",
                    byteOffset: byteOffset)
            }
        }
        let usedSymbols = counts.reduce(0, +)
        let mayBeIncomplete = alphabet != .codeLength && (usedSymbols == 0 || (usedSymbols == 1 && counts[1] == 1))
        if left > 0 && !mayBeIncomplete {
            throw InflateError(
                .invalidHuffmanTable, "\(alphabet.name) code lengths leave part of the code space unused",
                byteOffset: byteOffset)
        }

        var offsets = [Int](repeating: 0, count: Self.maxCodeLength + 2)
        for length in 1...Self.maxCodeLength { offsets[length + 1] = offsets[length] + counts[length] }
        var sorted = [UInt16](repeating: 0, count: usedSymbols)
        for (symbol, length) in zip(0..., lengths) where length > 0 {
            sorted[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
        }

        let primaryBits = alphabet.primaryBits
        var entries = [UInt32](repeating: 0, count: 1 << primaryBits)
        var code = 0
        var index = 0
        for length in 1...min(primaryBits, Self.maxCodeLength) {
            for _ in 0..<counts[length] {
                let entry = Entry.make(symbol: Int(sorted[index]), alphabet: alphabet).withCodeLength(length)
                var slot = Self.reversed(code, bits: length)
                while slot < entries.count {
                    entries[slot] = entry.rawValue
                    slot += 1 << length
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
        self.entries = entries
        self.lengthCounts = counts
        self.sortedSymbols = sorted
        self.alphabet = alphabet
    }

    /// Decodes a code longer than the primary table resolves by walking the lengths bit by bit.
    /// - Parameter bits: The next stream bits, least significant first; at least 15 are valid.
    /// - Returns: The entry with its code length set, or nil when no code matches the bits.
    func decodeLongCode(_ bits: UInt64) -> Entry? {
        var bits = bits
        var code = 0
        var first = 0
        var index = 0
        for length in 1...Self.maxCodeLength {
            code |= Int(bits & 1)
            bits >>= 1
            let count = lengthCounts[length]
            if code - first < count {
                return Entry.make(symbol: Int(sortedSymbols[index + code - first]), alphabet: alphabet).withCodeLength(
                    length)
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        return nil
    }

    private static func reversed(_ code: Int, bits: Int) -> Int {
        var code = code
        var result = 0
        for _ in 0..<bits {
            result = result << 1 | code & 1
            code >>= 1
        }
        return result
    }

    /// The fixed literal/length code of block type 1 (RFC 1951, section 3.2.6).
    static let fixedLiteralLength = try! HuffmanTable(
        lengths: ArraySlice(
            [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
                + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8)),
        alphabet: .literalLength, byteOffset: 0
    )

    /// The fixed distance code of block type 1: 32 five-bit codes, of which 30 and 31 are invalid.
    static let fixedDistance = try! HuffmanTable(
        lengths: ArraySlice([UInt8](repeating: 5, count: 32)), alphabet: .distance, byteOffset: 0
    )
}

extension HuffmanTable {
    /// One decoded table entry, packed into 32 bits so a table stays small: bits 0–3 the code
    /// length (0: not resolved by the primary table), bits 4–7 the extra bits that follow the
    /// code, bits 8–10 one flag for the kind (none: a symbol the format reserves), bits 16–31 the
    /// value (a literal byte, a code-length symbol, or a length or distance base). The kinds are
    /// separate flags so the decoding loop tests the common one first with a single `and`.
    struct Entry {
        var rawValue: UInt32

        private static let literalFlag: UInt32 = 1 << 8
        private static let baseFlag: UInt32 = 1 << 9
        private static let endOfBlockFlag: UInt32 = 1 << 10

        init(rawValue: UInt32) { self.rawValue = rawValue }

        private init(flag: UInt32, value: Int, extraBits: Int = 0) {
            rawValue = UInt32(value) << 16 | flag | UInt32(extraBits) << 4
        }

        var codeLength: Int { Int(rawValue & 0xF) }
        var extraBits: Int { Int(rawValue >> 4 & 0xF) }
        var value: Int { Int(rawValue >> 16) }
        /// A literal byte, or a code-length symbol.
        var isLiteral: Bool { rawValue & Self.literalFlag != 0 }
        /// A length or distance: `value` plus `extraBits` more bits.
        var isBase: Bool { rawValue & Self.baseFlag != 0 }
        /// The end of the block.
        var isEndOfBlock: Bool { rawValue & Self.endOfBlockFlag != 0 }

        func withCodeLength(_ length: Int) -> Entry { Entry(rawValue: rawValue | UInt32(length)) }

        static func make(symbol: Int, alphabet: Alphabet) -> Entry {
            switch alphabet {
            case .codeLength:
                return Entry(flag: literalFlag, value: symbol)
            case .literalLength:
                switch symbol {
                case ..<256: return Entry(flag: literalFlag, value: symbol)
                case 256: return Entry(flag: endOfBlockFlag, value: 0)
                case 257...285:
                    return Entry(
                        flag: baseFlag, value: lengthBases[symbol - 257], extraBits: lengthExtraBits[symbol - 257])
                default: return Entry(flag: 0, value: symbol)
                }
            case .distance:
                guard symbol < 30 else { return Entry(flag: 0, value: symbol) }
                return Entry(flag: baseFlag, value: distanceBases[symbol], extraBits: distanceExtraBits[symbol])
            }
        }

        private static let lengthBases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ]
        private static let lengthExtraBits = [
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
        ]
        private static let distanceBases = [
            1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
            6145, 8193, 12289, 16385, 24577,
        ]
        private static let distanceExtraBits = [
            0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
        ]
    }
}
