/// How a PNG stores each pixel's samples.
package enum PNGColorType: UInt8, Hashable, Sendable, CaseIterable {
    /// One gray sample.
    case gray = 0
    /// Red, green and blue samples.
    case rgb = 2
    /// One index into the PLTE chunk.
    case palette = 3
    /// Gray and alpha samples.
    case grayAlpha = 4
    /// Red, green, blue and alpha samples.
    case rgba = 6

    /// The number of samples per pixel.
    package var channels: Int {
        switch self {
        case .gray, .palette: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// The bit depths the PNG specification allows for this colour type.
    var allowedBitDepths: Set<Int> {
        switch self {
        case .gray: [1, 2, 4, 8, 16]
        case .palette: [1, 2, 4, 8]
        case .rgb, .grayAlpha, .rgba: [8, 16]
        }
    }
}

/// The image description in a PNG's IHDR chunk.
///
/// Read it with `PNGDecoder.header(of:)` to learn an image's size without decoding it.
package struct PNGHeader: Hashable, Sendable {
    /// The width in pixels, at least 1.
    package var width: Int
    /// The height in pixels, at least 1.
    package var height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16 (framescope decodes 8).
    package var bitDepth: Int
    /// How the samples are arranged.
    package var colorType: PNGColorType
    /// Whether the image data is Adam7-interlaced (framescope decodes only non-interlaced data).
    package var isInterlaced: Bool

    /// Creates a header.
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - bitDepth: Bits per sample.
    ///   - colorType: How the samples are arranged.
    ///   - isInterlaced: Whether the data is Adam7-interlaced.
    package init(width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, isInterlaced: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.isInterlaced = isInterlaced
    }

    /// Bytes per complete pixel, at least 1: the distance the Sub, Average and Paeth filters look back.
    var filterStride: Int { max(1, colorType.channels * bitDepth / 8) }

    /// Bytes in one scanline, without its filter-type byte.
    var rowBytes: Int { (width * colorType.channels * bitDepth + 7) / 8 }
}
