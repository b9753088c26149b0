/// Decodes PNG files into premultiplied RGBA8 bitmaps.
///
/// Decodes non-interlaced 8-bit images of every colour type: gray, gray + alpha, RGB, RGBA and
/// palette (with PLTE and tRNS transparency, and tRNS colour keys for gray and RGB). Every chunk's
/// CRC-32 and the zlib stream's Adler-32 are checked. Files that use what framescope does not
/// decode (16-bit or sub-byte samples, Adam7 interlacing) are rejected with an error that names
/// the feature; truncated, corrupt and hostile files give an error that says what is wrong and
/// where, never a crash. The pixel count is checked against `maxPixels` as soon as the header is
/// read, before anything is allocated for the image.
///
/// ```swift
/// let avatar = try PNGDecoder.decode(bytes, maxPixels: 1024 * 1024)
/// let shown = avatar.downsampled(toWidth: 120, height: 120)
/// ```
package enum PNGDecoder {
    /// The default pixel limit: 16,777,216 pixels (4096 × 4096, 64 MiB decoded).
    package static let defaultMaxPixels = 1 << 24

    /// Decodes a PNG file.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - maxPixels: The most pixels (width × height) the image may have.
    /// - Returns: The image as premultiplied RGBA8.
    /// - Throws: `PNGError` saying what is wrong and where.
    /// - Complexity: O(*n*) in the file size plus the decoded size.
    package static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels) throws(PNGError) -> Bitmap {
        let header = try header(of: bytes)
        try requireSupport(for: header)
        let pixelCount = header.width * header.height
        guard pixelCount <= maxPixels else {
            throw PNGError(
                .imageTooLarge,
                "the PNG declares \(header.width)×\(header.height) = \(pixelCount) pixels, more than the limit of \(maxPixels)",
                byteOffset: headerOffset, chunk: "IHDR"
            )
        }
        let decoded = WorkMeter.measure(.pngDecode) {
            let result = Result { () throws(PNGError) -> Bitmap in
                let file = try PNGFile(parsing: bytes)
                var scanlines = try inflateImageData(of: file)
                try unfilter(&scanlines, header: header, byteOffset: file.imageDataChunks[0].offset)
                let pixels = try rgbaPixels(fromScanlines: scanlines, of: file)
                return Bitmap(width: header.width, height: header.height, pixels: pixels)
            }
            return (result, units: pixelCount)
        }
        return try decoded.get()
    }

    /// Reads the IHDR chunk without decoding the image, for example to pick a display size.
    /// - Parameter bytes: The file, or at least its first 33 bytes.
    /// - Returns: The header, also when it describes an image framescope does not decode.
    /// - Throws: `PNGError` when the signature or the IHDR chunk is missing, corrupt or invalid.
    /// - Complexity: O(1).
    package static func header(of bytes: [UInt8]) throws(PNGError) -> PNGHeader {
        guard bytes.count >= signature.count, bytes.starts(with: signature) else {
            if signature.starts(with: bytes) {
                throw PNGError(.truncated, "the file ends inside the PNG signature", byteOffset: bytes.count)
            }
            throw PNGError(.notPNG, "the file does not start with the PNG signature", byteOffset: 0)
        }
        let chunk = try PNGChunk(in: bytes, at: signature.count)
        guard chunk.type == "IHDR" else {
            throw PNGError(
                .invalidChunk, "the first chunk is \(chunk.type), not IHDR", byteOffset: chunk.offset, chunk: chunk.type
            )
        }
        return try PNGHeader(parsing: chunk, in: bytes)
    }

    /// Returns the zlib stream of a PNG: the data of its IDAT chunks, concatenated.
    ///
    /// Checks the chunk structure and CRCs, not the stream itself; `Inflater.inflate(_:)` does that.
    /// - Parameter bytes: The whole file.
    /// - Returns: The compressed image data.
    /// - Throws: `PNGError` when the chunk structure is invalid.
    /// - Complexity: O(*n*) in the file size.
    package static func compressedImageData(of bytes: [UInt8]) throws(PNGError) -> [UInt8] {
        try PNGFile(parsing: bytes).imageData
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Where the IHDR chunk starts: right after the signature.
    private static var headerOffset: Int { signature.count }

    private static func requireSupport(for header: PNGHeader) throws(PNGError) {
        if header.bitDepth != 8 {
            throw PNGError(
                .unsupportedFeature,
                "the PNG uses \(header.bitDepth)-bit samples, which framescope does not decode (it decodes 8-bit samples)",
                byteOffset: headerOffset + 16, chunk: "IHDR"
            )
        }
        if header.isInterlaced {
            throw PNGError(
                .unsupportedFeature, "the PNG uses Adam7 interlacing, which framescope does not decode",
                byteOffset: headerOffset + 20, chunk: "IHDR"
            )
        }
    }

    /// Inflates the IDAT stream into exactly the bytes the header calls for: one filter-type
    /// byte plus `rowBytes` per row. A stream that would inflate to more stops at that limit.
    private static func inflateImageData(of file: PNGFile) throws(PNGError) -> [UInt8] {
        let header = file.header
        let expectedSize = header.height * (1 + header.rowBytes)
        let scanlines: [UInt8]
        do {
            scanlines = try Inflater(maxOutputBytes: expectedSize).inflate(file.imageData)
        } catch {
            let message =
                error.code == .outputLimitExceeded
                ? "the image data inflates to more than the \(expectedSize) bytes a \(header.width)×\(header.height) image needs"
                : "the image data is not a valid zlib stream: \(error.message)"
            throw PNGError(
                .invalidImageData, message, byteOffset: file.fileOffset(ofImageDataByte: error.byteOffset),
                chunk: "IDAT", inflateError: error)
        }
        guard scanlines.count == expectedSize else {
            throw PNGError(
                .invalidImageData,
                "the image data inflates to \(scanlines.count) bytes; a \(header.width)×\(header.height) image needs \(expectedSize)",
                byteOffset: file.imageDataChunks[0].offset, chunk: "IDAT"
            )
        }
        return scanlines
    }
}

/// One chunk's place in the file, with its length and CRC already checked.
struct PNGChunk {
    /// Where the chunk starts (its length field).
    var offset: Int
    /// The four-letter type.
    var type: String
    /// Where the data is in the file.
    var data: Range<Int>

    /// Whether a decoder must understand the chunk to show the image (uppercase first letter).
    var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? false }

    /// Reads the chunk at `offset` and checks its CRC.
    /// - Throws: `PNGError` when the file ends inside the chunk, the type is not four letters, or
    ///   the CRC does not match.
    init(in bytes: [UInt8], at offset: Int) throws(PNGError) {
        guard offset + 8 <= bytes.count else {
            throw PNGError(.truncated, "the file ends before the IEND chunk", byteOffset: bytes.count)
        }
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let typeBytes = bytes[offset + 4..<offset + 8]
        guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else {
            throw PNGError(
                .invalidChunk, "the chunk type bytes \(Array(typeBytes)) are not four ASCII letters",
                byteOffset: offset + 4)
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        guard length <= Int(Int32.max) else {
            throw PNGError(
                .invalidChunk, "the chunk declares \(length) bytes, more than PNG allows", byteOffset: offset,
                chunk: type)
        }
        let end = offset + 12 + length
        guard end <= bytes.count else {
            throw PNGError(
                .truncated,
                "the file ends inside a chunk that declares \(length) bytes of data; \(max(bytes.count - offset - 8, 0)) are there",
                byteOffset: bytes.count, chunk: type
            )
        }
        var crc = CRC32()
        crc.update(bytes[offset + 4..<end - 4])
        let stored = bytes[end - 4..<end].reduce(0) { $0 << 8 | UInt32($1) }
        guard crc.value == stored else {
            throw PNGError(
                .checksumMismatch,
                "the chunk's CRC-32 is 0x\(String(stored, radix: 16)) but its bytes give 0x\(String(crc.value, radix: 16))",
                byteOffset: end - 4, chunk: type
            )
        }
        self.offset = offset
        self.type = type
        data = offset + 8..<end - 4
    }

    /// The offset of the next chunk.
    var end: Int { data.upperBound + 4 }
}

extension PNGHeader {
    /// Parses and validates an IHDR chunk.
    init(parsing chunk: PNGChunk, in bytes: [UInt8]) throws(PNGError) {
        func invalid(_ message: String, at field: Int) -> PNGError {
            PNGError(.invalidHeader, message, byteOffset: chunk.data.lowerBound + field, chunk: "IHDR")
        }
        guard chunk.data.count == 13 else {
            throw PNGError(
                .invalidChunk, "IHDR holds \(chunk.data.count) bytes instead of 13", byteOffset: chunk.offset,
                chunk: "IHDR")
        }
        let data = bytes[chunk.data]
        let base = data.startIndex
        let width = data[base..<base + 4].reduce(0) { $0 << 8 | Int($1) }
        let height = data[base + 4..<base + 8].reduce(0) { $0 << 8 | Int($1) }
        guard (1...Int(Int32.max)).contains(width) else {
            throw invalid("the width is \(width); PNG allows 1 to 2^31 − 1", at: 0)
        }
        guard (1...Int(Int32.max)).contains(height) else {
            throw invalid("the height is \(height); PNG allows 1 to 2^31 − 1", at: 4)
        }
        guard let colorType = PNGColorType(rawValue: data[base + 9]) else {
            throw invalid("the colour type is \(data[base + 9]); PNG defines 0, 2, 3, 4 and 6", at: 9)
        }
        let bitDepth = Int(data[base + 8])
        guard colorType.allowedBitDepths.contains(bitDepth) else {
            throw invalid("bit depth \(bitDepth) is not allowed for colour type \(colorType.rawValue)", at: 8)
        }
        guard data[base + 10] == 0 else {
            throw invalid("the compression method is \(data[base + 10]); PNG defines only 0", at: 10)
        }
        guard data[base + 11] == 0 else {
            throw invalid("the filter method is \(data[base + 11]); PNG defines only 0", at: 11)
        }
        guard data[base + 12] <= 1 else {
            throw invalid("the interlace method is \(data[base + 12]); PNG defines 0 and 1", at: 12)
        }
        self.init(
            width: width, height: height, bitDepth: bitDepth, colorType: colorType, isInterlaced: data[base + 12] == 1)
    }
}

/// The chunks of a PNG that decoding needs, checked for order and consistency.
struct PNGFile {
    var header: PNGHeader
    /// PLTE entries, premultiplied by their tRNS alpha; empty when there is no PLTE chunk.
    var palette: [Pixel] = []
    /// A gray or RGB tRNS colour key: 1 or 3 samples, each 0...65535.
    var colorKey: [Int]?
    /// The IDAT data, concatenated.
    var imageData: [UInt8] = []
    /// Each IDAT chunk's offset and the range of the stream its data holds.
    var imageDataChunks: [(offset: Int, data: Range<Int>)] = []

    init(parsing bytes: [UInt8]) throws(PNGError) {
        header = try PNGDecoder.header(of: bytes)
        var chunk = try PNGChunk(in: bytes, at: PNGDecoder.signature.count)
        var transparency: PNGChunk?
        var imageDataEnded = false
        while true {
            chunk = try PNGChunk(in: bytes, at: chunk.end)
            func misplaced(_ message: String) -> PNGError {
                PNGError(.invalidChunk, message, byteOffset: chunk.offset, chunk: chunk.type)
            }
            if !imageDataChunks.isEmpty && chunk.type != "IDAT" { imageDataEnded = true }
            switch chunk.type {
            case "IHDR":
                throw misplaced("the file has a second IHDR chunk")
            case "PLTE":
                guard palette.isEmpty, imageDataChunks.isEmpty, transparency == nil else {
                    throw misplaced("PLTE must come once, before tRNS and IDAT")
                }
                guard header.colorType != .gray && header.colorType != .grayAlpha else {
                    throw misplaced("a gray image cannot have a PLTE chunk")
                }
                palette = try Self.palette(from: chunk, in: bytes, bitDepth: header.bitDepth)
            case "tRNS":
                guard transparency == nil, imageDataChunks.isEmpty else {
                    throw misplaced("tRNS must come once, before IDAT")
                }
                transparency = chunk
            case "IDAT":
                guard !imageDataEnded else { throw misplaced("the IDAT chunks are not consecutive") }
                imageDataChunks.append((chunk.offset, imageData.count..<imageData.count + chunk.data.count))
                imageData += bytes[chunk.data]
            case "IEND":
                guard !imageDataChunks.isEmpty else { throw misplaced("the file has no IDAT chunk") }
                if header.colorType == .palette && palette.isEmpty {
                    throw misplaced("a palette image needs a PLTE chunk")
                }
                if let transparency { try applyTransparency(transparency, in: bytes) }
                return
            default:
                if chunk.isCritical {
                    throw PNGError(
                        .unsupportedFeature, "the PNG has a critical chunk \(chunk.type) that framescope does not know",
                        byteOffset: chunk.offset, chunk: chunk.type
                    )
                }
            }
        }
    }

    private static func palette(from chunk: PNGChunk, in bytes: [UInt8], bitDepth: Int) throws(PNGError) -> [Pixel] {
        let count = chunk.data.count / 3
        guard chunk.data.count % 3 == 0, (1...min(256, 1 << bitDepth)).contains(count) else {
            throw PNGError(
                .invalidPalette,
                "PLTE holds \(chunk.data.count) bytes; it needs 3 per entry and 1 to \(min(256, 1 << bitDepth)) entries",
                byteOffset: chunk.offset, chunk: "PLTE"
            )
        }
        return stride(from: chunk.data.lowerBound, to: chunk.data.upperBound, by: 3).map {
            Pixel(red: bytes[$0], green: bytes[$0 + 1], blue: bytes[$0 + 2])
        }
    }

    /// Applies tRNS: alpha for palette entries, or a colour key for gray and RGB images.
    private mutating func applyTransparency(_ chunk: PNGChunk, in bytes: [UInt8]) throws(PNGError) {
        let data = bytes[chunk.data]
        switch header.colorType {
        case .palette:
            guard data.count <= palette.count else {
                throw PNGError(
                    .invalidPalette, "tRNS has \(data.count) alpha values for \(palette.count) palette entries",
                    byteOffset: chunk.offset, chunk: "tRNS"
                )
            }
            for (index, alpha) in zip(palette.indices, data) {
                let entry = palette[index]
                palette[index] = Pixel(
                    red: multiplyByAlpha(entry.red, alpha), green: multiplyByAlpha(entry.green, alpha),
                    blue: multiplyByAlpha(entry.blue, alpha), alpha: alpha
                )
            }
        case .gray, .rgb:
            let samples = header.colorType.channels
            guard data.count == samples * 2 else {
                throw PNGError(
                    .invalidChunk, "tRNS holds \(data.count) bytes; a colour key for this image needs \(samples * 2)",
                    byteOffset: chunk.offset, chunk: "tRNS"
                )
            }
            colorKey = stride(from: data.startIndex, to: data.endIndex, by: 2).map {
                Int(bytes[$0]) << 8 | Int(bytes[$0 + 1])
            }
        case .grayAlpha, .rgba:
            throw PNGError(
                .invalidChunk, "an image with an alpha channel cannot have a tRNS chunk", byteOffset: chunk.offset,
                chunk: "tRNS")
        }
    }

    /// Maps an offset in the concatenated IDAT stream back to the file.
    func fileOffset(ofImageDataByte streamOffset: Int) -> Int {
        guard let chunk = imageDataChunks.first(where: { $0.data.contains(streamOffset) }) ?? imageDataChunks.last
        else { return 0 }
        return chunk.offset + 8 + min(streamOffset - chunk.data.lowerBound, chunk.data.count)
    }
}
