/// One RGBA8 pixel with premultiplied alpha: each colour channel is already multiplied by alpha,
/// so no channel exceeds `alpha`, and source-over blending is one multiply-add per channel.
///
/// ```swift
/// let halfRed = Pixel(red: 128, green: 0, blue: 0, alpha: 128)
/// let white = Pixel(red: 255, green: 255, blue: 255)
/// ```
package struct Pixel: Hashable, Sendable {
    /// Red, premultiplied by alpha.
    package let red: UInt8
    /// Green, premultiplied by alpha.
    package let green: UInt8
    /// Blue, premultiplied by alpha.
    package let blue: UInt8
    /// Opacity: 0 transparent, 255 opaque.
    package let alpha: UInt8

    /// Creates a pixel from premultiplied channels.
    /// - Parameters:
    ///   - red: Red, premultiplied; at most `alpha`.
    ///   - green: Green, premultiplied; at most `alpha`.
    ///   - blue: Blue, premultiplied; at most `alpha`.
    ///   - alpha: Opacity; opaque when omitted.
    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        precondition(red <= alpha && green <= alpha && blue <= alpha, "premultiplied channels cannot exceed alpha")
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent black.
    package static let clear = Pixel(red: 0, green: 0, blue: 0, alpha: 0)

    /// The four bytes in memory order read as one 32-bit value: red in the low byte.
    var packed: UInt32 {
        UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24
    }
}

// Packed pixels (`Pixel.packed`, `Bitmap.withUnsafePackedPixels`) read the bytes red, green,
// blue, alpha as one 32-bit value with red in the low byte, which needs a little-endian machine.
#if _endian(big)
    #error("framescope's imaging code packs pixels assuming a little-endian machine")
#endif

/// `value × alpha / 255`, rounded to nearest: the premultiply and blend step.
///
/// Exact for all 8-bit inputs (`(t + 128 + (t + 128) >> 8) >> 8` is the classic division-free
/// form of `round(t / 255)` for `t` up to 255 × 255).
@inline(__always)
func multiplyByAlpha(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    let product = UInt32(value) &* UInt32(alpha) &+ 128
    return UInt8(truncatingIfNeeded: (product &+ (product >> 8)) >> 8)
}

/// Scales all four 8-bit channels of a packed pixel (red in the low byte) by `factor / 255`,
/// each rounded exactly as `multiplyByAlpha` does, two channels per multiply: the channels sit
/// in 16-bit lanes, where `value × factor + 128` and its correction stay below 65,536.
@inline(__always)
func scaledChannels(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
    var redBlue = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
    redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var greenAlpha = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
    greenAlpha = (greenAlpha &+ ((greenAlpha >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return redBlue | greenAlpha
}
