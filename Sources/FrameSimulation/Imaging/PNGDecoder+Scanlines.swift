extension PNGDecoder {
    /// Reverses the per-row filters in place (PNG specification, section 9).
    ///
    /// Each scanline is a filter-type byte and `rowBytes` filtered bytes; the filters predict a
    /// byte from its left neighbour `a` (one pixel back), the byte above `b` and the byte above
    /// and left `c`, with zeros before the first pixel and above the first row.
    /// - Throws: `invalidFilter` for a filter type other than 0–4.
    /// - Complexity: O(*n*) in the decoded size.
    static func unfilter(_ scanlines: inout [UInt8], header: PNGHeader, byteOffset: Int) throws(PNGError) {
        let rowBytes = header.rowBytes
        let stride = rowBytes + 1
        let back = header.filterStride
        let zeroRow = [UInt8](repeating: 0, count: rowBytes)
        try zeroRow.withUnsafeBufferPointer { (zeros) throws(PNGError) in
            try scanlines.withUnsafeMutableBufferPointer { (buffer) throws(PNGError) in
                let base = buffer.baseAddress!
                for row in 0..<header.height {
                    let line = base + row * stride + 1
                    let above = row == 0 ? zeros.baseAddress! : UnsafePointer(line - stride)
                    switch line[-1] {
                    case 0:
                        break
                    case 1:
                        for index in back..<rowBytes { line[index] &+= line[index - back] }
                    case 2:
                        for index in 0..<rowBytes { line[index] &+= above[index] }
                    case 3:
                        for index in 0..<min(back, rowBytes) { line[index] &+= above[index] >> 1 }
                        for index in back..<max(back, rowBytes) {
                            line[index] &+= UInt8(
                                truncatingIfNeeded: (Int(line[index - back]) + Int(above[index])) >> 1)
                        }
                    case 4:
                        for index in 0..<min(back, rowBytes) { line[index] &+= above[index] }
                        for index in back..<max(back, rowBytes) {
                            line[index] &+= paethPredictor(line[index - back], above[index], above[index - back])
                        }
                    case let type:
                        throw PNGError(
                            .invalidFilter, "row \(row) uses filter type \(type); PNG defines 0 to 4",
                            byteOffset: byteOffset, chunk: "IDAT"
                        )
                    }
                }
            }
        }
    }

    /// The Paeth predictor: whichever of left, above and upper-left is closest to left + above − upper-left.
    @inline(__always)
    static func paethPredictor(_ left: UInt8, _ above: UInt8, _ upperLeft: UInt8) -> UInt8 {
        let a = Int(left)
        let b = Int(above)
        let c = Int(upperLeft)
        // `magnitude` rather than `abs`, which checks for overflow that cannot happen here.
        let distanceToLeft = (b - c).magnitude
        let distanceToAbove = (a - c).magnitude
        let distanceToUpperLeft = (a + b - 2 * c).magnitude
        if distanceToLeft <= distanceToAbove && distanceToLeft <= distanceToUpperLeft { return left }
        return distanceToAbove <= distanceToUpperLeft ? above : upperLeft
    }

    /// Converts unfiltered 8-bit scanlines to premultiplied RGBA8.
    /// - Throws: `invalidPalette` when a pixel uses an index past the end of the palette.
    /// - Complexity: O(*n*) in the pixel count.
    static func rgbaPixels(fromScanlines scanlines: [UInt8], of file: PNGFile) throws(PNGError) -> [UInt8] {
        let header = file.header
        let width = header.width
        let stride = header.rowBytes + 1
        // A colour-key sample above 255 cannot match an 8-bit sample; -1 stands for no key.
        let key = (file.colorKey ?? []).map { $0 <= 255 ? $0 : -1 } + [-1, -1, -1]
        let (keyGrayOrRed, keyGreen, keyBlue) = (key[0], key[1], key[2])
        var badIndex: (row: Int, index: Int)?
        let pixels = [UInt8](unsafeUninitializedCapacity: width * header.height * 4) { output, count in
            scanlines.withUnsafeBufferPointer { input in
                file.palette.withUnsafeBufferPointer { palette in
                    for row in 0..<header.height {
                        if let index = convertRow(
                            input.baseAddress! + row * stride + 1, to: output.baseAddress! + row * width * 4,
                            width: width, colorType: header.colorType, key: (keyGrayOrRed, keyGreen, keyBlue),
                            palette: palette)
                        {
                            badIndex = (row, index)
                            return
                        }
                    }
                }
            }
            count = badIndex == nil ? output.count : 0
        }
        if let badIndex {
            throw PNGError(
                .invalidPalette,
                "row \(badIndex.row) uses palette index \(badIndex.index); the palette has \(file.palette.count) entries",
                byteOffset: file.imageDataChunks[0].offset, chunk: "IDAT"
            )
        }
        return pixels
    }

    /// One row's unfiltered samples at `source` as premultiplied RGBA8 at `target`; returns the
    /// first palette index past the palette's end, where the row stops, if there is one.
    @inline(__always)
    private static func convertRow(
        _ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, width: Int, colorType: PNGColorType,
        key: (grayOrRed: Int, green: Int, blue: Int), palette: UnsafeBufferPointer<Pixel>
    ) -> Int? {
        switch colorType {
        case .gray:
            for x in 0..<width {
                let gray = source[x]
                let alpha: UInt8 = Int(gray) == key.grayOrRed ? 0 : 255
                store(target + 4 * x, gray & alpha, gray & alpha, gray & alpha, alpha)
            }
        case .grayAlpha:
            for x in 0..<width {
                let alpha = source[2 * x + 1]
                let gray = multiplyByAlpha(source[2 * x], alpha)
                store(target + 4 * x, gray, gray, gray, alpha)
            }
        case .rgb:
            for x in 0..<width {
                let (red, green, blue) = (source[3 * x], source[3 * x + 1], source[3 * x + 2])
                let isKey = Int(red) == key.grayOrRed && Int(green) == key.green && Int(blue) == key.blue
                let alpha: UInt8 = isKey ? 0 : 255
                store(target + 4 * x, red & alpha, green & alpha, blue & alpha, alpha)
            }
        case .rgba:
            for x in 0..<width {
                let alpha = source[4 * x + 3]
                store(
                    target + 4 * x, multiplyByAlpha(source[4 * x], alpha), multiplyByAlpha(source[4 * x + 1], alpha),
                    multiplyByAlpha(source[4 * x + 2], alpha), alpha)
            }
        case .palette:
            for x in 0..<width {
                let index = Int(source[x])
                guard index < palette.count else { return index }
                let entry = palette[index]
                store(target + 4 * x, entry.red, entry.green, entry.blue, entry.alpha)
            }
        }
        return nil
    }

    @inline(__always)
    private static func store(
        _ target: UnsafeMutablePointer<UInt8>, _ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8
    ) {
        target[0] = red
        target[1] = green
        target[2] = blue
        target[3] = alpha
    }
}
