/// A decoded image: RGBA8 pixels with premultiplied alpha, row by row from the top left.
///
/// This is what the PNG decoder produces, what downsampling and corner rounding work on, and
/// what stands in for the framebuffer that strategies composite into. It is a value: copies
/// share storage until one of them is written.
///
/// ```swift
/// var framebuffer = Bitmap(width: 390, height: 844, filledWith: Pixel(red: 255, green: 255, blue: 255))
/// framebuffer[10, 20] = .clear
/// ```
package struct Bitmap: Hashable, Sendable {
    /// The width in pixels.
    package let width: Int
    /// The height in pixels.
    package let height: Int
    /// The pixels: 4 bytes each (red, green, blue, alpha; premultiplied), `4 × width` bytes per
    /// row, rows from top to bottom.
    package private(set) var pixels: [UInt8]

    /// Creates a bitmap from premultiplied RGBA8 bytes.
    /// - Parameters:
    ///   - width: The width in pixels, at least 1.
    ///   - height: The height in pixels, at least 1.
    ///   - pixels: Exactly `4 × width × height` bytes.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0, "a bitmap needs at least one pixel")
        precondition(
            pixels.count == width * height * 4, "a \(width)×\(height) bitmap needs \(width * height * 4) bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates a bitmap with every pixel set to `fill`.
    /// - Parameters:
    ///   - width: The width in pixels, at least 1.
    ///   - height: The height in pixels, at least 1.
    ///   - fill: The colour of every pixel.
    package init(width: Int, height: Int, filledWith fill: Pixel) {
        precondition(width > 0 && height > 0, "a bitmap needs at least one pixel")
        self.width = width
        self.height = height
        pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            UnsafeMutableRawBufferPointer(buffer).withMemoryRebound(to: UInt32.self) {
                $0.initialize(repeating: fill.packed)
            }
            count = buffer.count
        }
    }

    /// Bytes per row: `4 × width`.
    package var bytesPerRow: Int { width * 4 }

    /// The pixel at column `x`, row `y`.
    /// - Parameters:
    ///   - x: The column, `0..<width`.
    ///   - y: The row, `0..<height`.
    package subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(
                (0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) is outside the bitmap")
            let index = (y * width + x) * 4
            return Pixel(
                red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2], alpha: pixels[index + 3])
        }
        set {
            precondition(
                (0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) is outside the bitmap")
            let index = (y * width + x) * 4
            pixels[index] = newValue.red
            pixels[index + 1] = newValue.green
            pixels[index + 2] = newValue.blue
            pixels[index + 3] = newValue.alpha
        }
    }

    /// Whether every pixel has alpha 255, so the image can be copied instead of blended.
    /// - Complexity: O(*n*) in the pixel count.
    package var isOpaque: Bool {
        withUnsafePackedPixels { packed in packed.allSatisfy { $0 >= 0xFF00_0000 } }
    }

    /// Calls `body` with the pixels as packed 32-bit values (red in the low byte).
    func withUnsafePackedPixels<Result>(_ body: (UnsafeBufferPointer<UInt32>) -> Result) -> Result {
        pixels.withUnsafeBytes { bytes in bytes.withMemoryRebound(to: UInt32.self) { body($0) } }
    }

    /// Calls `body` with the pixels as packed 32-bit values to write (red in the low byte).
    mutating func withUnsafeMutablePackedPixels<Result>(_ body: (UnsafeMutableBufferPointer<UInt32>) -> Result)
        -> Result
    {
        pixels.withUnsafeMutableBytes { bytes in bytes.withMemoryRebound(to: UInt32.self) { body($0) } }
    }
}
