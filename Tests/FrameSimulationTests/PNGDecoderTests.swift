import Foundation
import Testing

@testable import FrameSimulation

@Suite("PNG decoder")
struct PNGDecoderTests {
    @Test("The valid fixture list matches expected.json")
    func fixtureListIsComplete() throws {
        #expect(Set(try ImagingFixtures.expectations().keys) == Set(ImagingFixtures.validNames))
    }

    @Test(
        "Valid fixtures decode to exactly the premultiplied pixels they were made from",
        arguments: ImagingFixtures.validNames)
    func decodesExactPixels(name: String) throws {
        let expected = try ImagingFixtures.expected(name)
        let bitmap = try PNGDecoder.decode(ImagingFixtures.png(name))
        #expect(bitmap.width == expected.width)
        #expect(bitmap.height == expected.height)
        #expect(ImagingFixtures.crc32(bitmap.pixels) == expected.rgbaCRC32)
    }

    @Test("The fixtures use all five filter types")
    func fixturesUseEveryFilter() throws {
        let used = try ImagingFixtures.expectations().values.reduce(into: Set<Int>()) { $0.formUnion($1.filters) }
        #expect(used == [0, 1, 2, 3, 4])
    }

    @Test("A single RGBA pixel decodes with its colour premultiplied by its alpha")
    func onePixel() throws {
        let bitmap = try PNGDecoder.decode(ImagingFixtures.png("one-pixel-1x1"))
        // Stored as (200, 100, 50, 128): 200 × 128 / 255 = 100.4, 100 × 128 / 255 = 50.2, 50 × 128 / 255 = 25.1.
        #expect(bitmap[0, 0] == Pixel(red: 100, green: 50, blue: 25, alpha: 128))
    }

    @Test("Palette transparency and RGB colour keys become alpha")
    func transparency() throws {
        let palette = try PNGDecoder.decode(ImagingFixtures.png("palette-300x300"))
        // The border rings use palette entries 216–223: white with alpha 0, 32, 64, ...
        #expect(palette[0, 0] == .clear)
        #expect(palette[1, 150] == Pixel(red: 32, green: 32, blue: 32, alpha: 32))
        #expect(palette[150, 150].alpha == 255)
        let keyed = try PNGDecoder.decode(ImagingFixtures.png("rgb-color-key-32x32"))
        #expect(keyed[16, 16] == .clear)
        #expect(keyed[2, 2].alpha == 255)
    }

    @Test("The header is read without decoding, also for images framescope does not decode")
    func readsHeader() throws {
        #expect(
            try PNGDecoder.header(of: ImagingFixtures.png("photo-1200x900"))
                == PNGHeader(width: 1200, height: 900, bitDepth: 8, colorType: .rgb, isInterlaced: false)
        )
        #expect(try PNGDecoder.header(of: ImagingFixtures.png("interlaced-adam7")).isInterlaced)
        #expect(try PNGDecoder.header(of: ImagingFixtures.png("sixteen-bit-rgb")).bitDepth == 16)
        #expect(try PNGDecoder.header(of: ImagingFixtures.png("huge-dimensions")).width == 100_000)
    }

    @Test("IDAT data split over many chunks is concatenated in order")
    func concatenatesImageData() throws {
        let file = try ImagingFixtures.png("split-idat-64x64")
        let stream = try PNGDecoder.compressedImageData(of: file)
        #expect(stream.count > 8 * 100)
        #expect(try Inflater().inflate(stream).count == 64 * (1 + 64 * 3))
    }

    /// An invalid fixture and the error it must give.
    struct Invalid: CustomTestStringConvertible, Sendable {
        var name: String
        var code: PNGError.Code
        var messageMentions: String
        var chunk: String?
        var testDescription: String { name }
    }

    static let invalid: [Invalid] = [
        Invalid(name: "not-a-png", code: .notPNG, messageMentions: "signature"),
        Invalid(name: "truncated-in-idat", code: .truncated, messageMentions: "ends inside a chunk", chunk: "IDAT"),
        Invalid(name: "truncated-zlib-stream", code: .invalidImageData, messageMentions: "input ends", chunk: "IDAT"),
        Invalid(name: "corrupt-crc", code: .checksumMismatch, messageMentions: "CRC-32", chunk: "IDAT"),
        Invalid(name: "adler-mismatch", code: .invalidImageData, messageMentions: "Adler-32", chunk: "IDAT"),
        Invalid(name: "huge-dimensions", code: .imageTooLarge, messageMentions: "100000×100000", chunk: "IHDR"),
        Invalid(name: "zero-width", code: .invalidHeader, messageMentions: "width is 0", chunk: "IHDR"),
        Invalid(name: "sixteen-bit-rgb", code: .unsupportedFeature, messageMentions: "16-bit samples", chunk: "IHDR"),
        Invalid(name: "one-bit-gray", code: .unsupportedFeature, messageMentions: "1-bit samples", chunk: "IHDR"),
        Invalid(
            name: "interlaced-adam7", code: .unsupportedFeature, messageMentions: "Adam7 interlacing", chunk: "IHDR"),
        Invalid(name: "bad-huffman-table", code: .invalidImageData, messageMentions: "oversubscribe", chunk: "IDAT"),
        Invalid(
            name: "bad-filter-type", code: .invalidFilter, messageMentions: "row 7 uses filter type 5", chunk: "IDAT"),
        Invalid(
            name: "too-little-image-data", code: .invalidImageData, messageMentions: "inflates to 1552 bytes",
            chunk: "IDAT"),
        Invalid(
            name: "palette-index-out-of-range", code: .invalidPalette, messageMentions: "palette index 200",
            chunk: "IDAT"),
        Invalid(
            name: "palette-without-plte", code: .invalidChunk, messageMentions: "needs a PLTE chunk", chunk: "IEND"),
        Invalid(name: "idat-before-ihdr", code: .invalidChunk, messageMentions: "not IHDR", chunk: "IDAT"),
    ]

    @Test("Invalid, hostile and unsupported files give an error that says what and where", arguments: invalid)
    func rejectsInvalidFiles(file: Invalid) throws {
        let bytes = try ImagingFixtures.png(file.name)
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes) }
        #expect(error?.code == file.code)
        #expect(error?.message.contains(file.messageMentions) == true, "\(String(describing: error))")
        #expect(error?.chunk == file.chunk)
        #expect((0...bytes.count).contains(error?.byteOffset ?? -1))
    }

    @Test("An image over maxPixels is rejected from its header before any decoding")
    func enforcesPixelLimit() throws {
        let error = #expect(throws: PNGError.self) {
            try PNGDecoder.decode(ImagingFixtures.png("photo-640x480"), maxPixels: 640 * 480 - 1)
        }
        #expect(error?.code == .imageTooLarge)
        #expect(try PNGDecoder.decode(ImagingFixtures.png("photo-640x480"), maxPixels: 640 * 480).width == 640)
    }

    @Test("Every truncation of a valid file gives an error, never a crash")
    func everyTruncationFails() throws {
        let bytes = try ImagingFixtures.png("rgb-color-key-32x32")
        var codes: Set<PNGError.Code> = []
        for length in 0..<bytes.count {
            do {
                _ = try PNGDecoder.decode(Array(bytes[..<length]))
                Issue.record("a \(length)-byte prefix decoded")
            } catch {
                codes.insert(error.code)
            }
        }
        #expect(codes == [.truncated])
    }

    @Test("Every single-bit flip in a small file is detected: the signature, lengths and CRCs cover every byte")
    func detectsEveryBitFlip() throws {
        let bytes = try ImagingFixtures.png("one-pixel-1x1")
        var decoded = 0
        for index in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                if (try? PNGDecoder.decode(flipped, maxPixels: 1 << 16)) != nil { decoded += 1 }
            }
        }
        #expect(decoded == 0)
    }
}
