/// Anti-aliased coverage of a rounded rectangle that fills a `width` × `height` pixel grid.
///
/// Each value is the fraction of its pixel inside the shape, 0 (outside) to 255 (inside),
/// measured with a 4 × 4 grid of samples per pixel (17 levels, the quality of a typical
/// rasterizer's anti-aliasing). A sample is inside when it lies within `radius` of the inner
/// rectangle inset by `radius` on every side, which is the rounded rectangle. Sample positions
/// are exact eighths of a pixel and distances are measured from the nearest edge, so the mask
/// is exactly symmetric across both axes.
///
/// Only the four `cornerSize` × `cornerSize` squares can hold partial values; everything else
/// is 255. That is what lets the corner-mask overlay strategy blend only those squares.
///
/// ```swift
/// let mask = RoundedRectMask(width: 120, height: 120, radius: 12)
/// mask[0, 0]   // 0: outside the corner
/// mask[60, 60] // 255
/// ```
package struct RoundedRectMask: Hashable, Sendable {
    /// The width in pixels.
    package let width: Int
    /// The height in pixels.
    package let height: Int
    /// The corner radius in pixels, clamped to half the shorter side.
    package let radius: Double
    /// The side of each corner square outside which every value is 255: `radius` rounded up.
    package let cornerSize: Int
    /// The coverage values, row by row: `width × height` bytes.
    package let coverage: [UInt8]

    /// Rasterizes the shape.
    /// - Parameters:
    ///   - width: The width in pixels, at least 1.
    ///   - height: The height in pixels, at least 1.
    ///   - radius: The corner radius in pixels, not negative; larger than half the shorter side
    ///     gives a capsule (or a circle for a square).
    /// - Complexity: O(width × height), plus 16 samples per pixel of the corner squares.
    package init(width: Int, height: Int, radius: Double) {
        precondition(width > 0 && height > 0, "a mask needs at least one pixel")
        precondition(radius >= 0, "the corner radius cannot be negative")
        let radius = min(radius, Double(min(width, height)) / 2)
        let cornerSize = Int(radius.rounded(.up))
        self.width = width
        self.height = height
        self.radius = radius
        self.cornerSize = cornerSize
        coverage = [UInt8](unsafeUninitializedCapacity: width * height) { values, count in
            values.update(repeating: 255)
            count = values.count
            for y in Self.cornerIndices(size: cornerSize, count: height) {
                for x in Self.cornerIndices(size: cornerSize, count: width) {
                    values[y * width + x] = Self.sampleCoverage(
                        x: x, y: y, width: width, height: height, radius: radius)
                }
            }
        }
    }

    /// The coverage of pixel (`x`, `y`), 0...255.
    package subscript(x: Int, y: Int) -> UInt8 {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) is outside the mask")
        return coverage[y * width + x]
    }

    /// The corner squares as disjoint rectangles (fewer than four when they would overlap).
    var cornerRegions: [PixelRegion] {
        let columns = Self.cornerRanges(size: cornerSize, count: width)
        let rows = Self.cornerRanges(size: cornerSize, count: height)
        return rows.flatMap { rows in columns.map { PixelRegion(columns: $0, rows: rows) } }
    }

    /// The leading and trailing corner ranges along one axis, without overlap.
    private static func cornerRanges(size: Int, count: Int) -> [Range<Int>] {
        let leading = 0..<min(size, count)
        let trailing = max(leading.upperBound, count - size)..<count
        return [leading, trailing].filter { !$0.isEmpty }
    }

    private static func cornerIndices(size: Int, count: Int) -> [Int] {
        cornerRanges(size: size, count: count).flatMap { Array($0) }
    }

    /// Counts the 4 × 4 samples of pixel (`x`, `y`) inside the shape. In eighths of a pixel the
    /// samples sit at 8x + 1, 3, 5, 7; each one's distance to the nearest edge decides how far it
    /// pokes into the corner's radius.
    ///
    /// Pixels far from the arc skip the sampling: the distance from the inset rectangle changes
    /// by at most the distance moved, and no sample is more than √18 ≈ 4.243 eighths from the
    /// pixel centre, so a centre more than 4.25 eighths inside or outside the arc decides all 16.
    private static func sampleCoverage(x: Int, y: Int, width: Int, height: Int, radius: Double) -> UInt8 {
        let radiusInEighths = radius * 8
        func overshoot(_ position: Int, extent: Int) -> Double {
            max(radiusInEighths - Double(min(position, extent * 8 - position)), 0)
        }
        let centerDistance =
            (overshoot(x * 8 + 4, extent: width) * overshoot(x * 8 + 4, extent: width)
            + overshoot(y * 8 + 4, extent: height) * overshoot(y * 8 + 4, extent: height)).squareRoot()
        if centerDistance <= radiusInEighths - 4.25 { return 255 }
        if centerDistance > radiusInEighths + 4.25 { return 0 }
        var inside = 0
        for row in 0..<4 {
            let dy = overshoot(y * 8 + 2 * row + 1, extent: height)
            for column in 0..<4 {
                let dx = overshoot(x * 8 + 2 * column + 1, extent: width)
                if dx * dx + dy * dy <= radiusInEighths * radiusInEighths { inside += 1 }
            }
        }
        return UInt8((inside * 255 + 8) / 16)
    }
}

/// A rectangle of pixels: the columns and rows it spans.
struct PixelRegion: Hashable {
    var columns: Range<Int>
    var rows: Range<Int>
    var pixelCount: Int { columns.count * rows.count }
}
