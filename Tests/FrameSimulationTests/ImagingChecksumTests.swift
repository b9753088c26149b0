import Testing

@testable import FrameSimulation

@Suite("Imaging checksums and pixel arithmetic")
struct ImagingChecksumTests {
    @Test("CRC-32 gives the standard check value for \"123456789\"")
    func crc32CheckValue() {
        var crc = CRC32()
        crc.update(Array("123456789".utf8)[...])
        #expect(crc.value == 0xCBF4_3926)
    }

    @Test("CRC-32 fed in pieces equals CRC-32 fed at once")
    func crc32Incremental() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        var whole = CRC32()
        whole.update(bytes[...])
        var pieces = CRC32()
        pieces.update(bytes[..<10])
        pieces.update(bytes[10...])
        #expect(whole.value == pieces.value)
        #expect(whole.value == 0x414F_A339)
    }

    @Test("Adler-32 gives the known values for \"Wikipedia\" and for long input that needs the modulo")
    func adler32KnownValues() {
        func adler(_ bytes: [UInt8]) -> UInt32 {
            var checksum = Adler32()
            bytes.withUnsafeBufferPointer { checksum.update($0) }
            return checksum.value
        }
        #expect(adler(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(adler([]) == 1)
        // 100,000 bytes of 0xFF: a = 1 + 255·n mod 65521, b = Σ a_i mod 65521, worked out directly.
        let n: UInt64 = 100_000
        let a = (1 + 255 * n) % 65521
        let b = (n + 255 * n * (n + 1) / 2) % 65521
        #expect(adler([UInt8](repeating: 0xFF, count: Int(n))) == UInt32(b << 16 | a))
    }

    @Test("Premultiplying rounds value × alpha / 255 to nearest for every 8-bit pair")
    func multiplyByAlphaIsExact() {
        var mismatches = 0
        for value in 0...255 {
            for alpha in 0...255 where Int(multiplyByAlpha(UInt8(value), UInt8(alpha))) != (value * alpha + 127) / 255 {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test("Scaling a packed pixel rounds each channel exactly like premultiplying it alone")
    func packedScalingMatchesPerChannel() {
        var mismatches = 0
        for value in 0...255 {
            let channels = [UInt8(value), UInt8(255 - value), UInt8(value / 2), UInt8(value)]
            let packed = channels.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
            for factor in 0...255 {
                let scaled = scaledChannels(packed, by: UInt32(factor))
                for (index, channel) in channels.enumerated()
                where UInt8(truncatingIfNeeded: scaled >> (8 * index)) != multiplyByAlpha(channel, UInt8(factor)) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }
}
