extension Bitmap {
    /// The whole bitmap as a region.
    var bounds: PixelRegion { PixelRegion(columns: 0..<width, rows: 0..<height) }

    /// Copies `region` of `source`, placed with its top-left corner at (`x`, `y`), row by row
    /// without blending; the parts that fall outside `self` are skipped.
    /// - Returns: The number of pixels written.
    @discardableResult
    mutating func copy(_ region: PixelRegion, of source: Bitmap, atX x: Int, y: Int) -> Int {
        composite(region, of: source, atX: x, y: y) { source, target, count in
            target.update(from: source, count: count)
        }
    }

    /// Blends `region` of `source`, placed with its top-left corner at (`x`, `y`), onto `self`
    /// with source-over: `target = source + target × (1 − source alpha)`, every pixel.
    /// - Returns: The number of pixels blended.
    @discardableResult
    mutating func blend(_ region: PixelRegion, of source: Bitmap, atX x: Int, y: Int) -> Int {
        composite(region, of: source, atX: x, y: y) { source, target, count in
            for index in 0..<count {
                let pixel = source[index]
                target[index] = pixel &+ scaledChannels(target[index], by: 255 &- pixel >> 24)
            }
        }
    }

    /// Returns the bitmap with every pixel scaled by its coverage value (all four channels, since
    /// they are premultiplied); with a `RoundedRectMask`'s coverage, the image clipped to it.
    /// - Parameter coverage: One value per pixel, 0...255.
    /// - Complexity: O(*n*) in the pixel count.
    func masked(byCoverage coverage: [UInt8]) -> Bitmap {
        precondition(coverage.count == width * height, "the coverage must have one value per pixel")
        var result = self
        result.withUnsafeMutablePackedPixels { pixels in
            coverage.withUnsafeBufferPointer { coverage in
                for index in coverage.indices {
                    pixels[index] = scaledChannels(pixels[index], by: UInt32(coverage[index]))
                }
            }
        }
        return result
    }

    /// Runs `rowOperation` on each row of the visible part of `region` of `source` placed at
    /// (`x`, `y`), with pointers to the source and target pixels and the pixel count.
    private mutating func composite(
        _ region: PixelRegion, of source: Bitmap, atX x: Int, y: Int,
        rowOperation: (UnsafePointer<UInt32>, UnsafeMutablePointer<UInt32>, Int) -> Void
    ) -> Int {
        let columns = region.columns.clamped(to: -x..<width - x)
        let rows = region.rows.clamped(to: -y..<height - y)
        guard !columns.isEmpty, !rows.isEmpty else { return 0 }
        let targetWidth = width
        source.withUnsafePackedPixels { sourcePixels in
            withUnsafeMutablePackedPixels { targetPixels in
                for row in rows {
                    let sourceStart = sourcePixels.baseAddress! + row * source.width + columns.lowerBound
                    let targetStart = targetPixels.baseAddress! + (row + y) * targetWidth + columns.lowerBound + x
                    rowOperation(sourceStart, targetStart, columns.count)
                }
            }
        }
        return columns.count * rows.count
    }
}
