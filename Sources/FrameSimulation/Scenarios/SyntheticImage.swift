import Foundation
import FrameSupport
import FrameTrace

/// Seeded, procedurally drawn opaque images that stand in for downloaded avatars and photos.
///
/// Scenarios cannot read files at run time, so they draw these at setup, encode them with
/// `PNGEncoder`, and decode the bytes for real during frames. Each image has smooth regions
/// (gradients, discs, hills) and a little per-pixel grain, as photographs do, so the encoded files
/// exercise every part of the decoder: Huffman-coded literals and matches, and Paeth unfiltering.
enum SyntheticImage {
    /// A portrait on a coloured backdrop: a head and shoulders.
    static func avatar(side: Int, using generator: inout SeededGenerator) -> Bitmap {
        let backdrop = randomColour(using: &generator, in: 90...230)
        let skin = randomColour(using: &generator, in: 150...240)
        let shirt = randomColour(using: &generator, in: 20...200)
        var grain = Grain(seed: generator.next())
        let size = Double(side)
        return draw(width: side, height: side) { x, y in
            let (px, py) = (Double(x), Double(y))
            let headDistance = ((px - size / 2) * (px - size / 2) + (py - size * 0.4) * (py - size * 0.4)).squareRoot()
            let bodyX = (px - size / 2) / (size * 0.42)
            let bodyY = (py - size * 1.05) / (size * 0.45)
            let base: (Double, Double, Double)
            if headDistance < size * 0.2 {
                base = skin
            } else if bodyX * bodyX + bodyY * bodyY < 1 {
                base = shirt
            } else {
                let shade = 1 - 0.25 * py / size
                base = (backdrop.0 * shade, backdrop.1 * shade, backdrop.2 * shade)
            }
            return grain.apply(to: base, amplitude: 6)
        }
    }

    /// A landscape: a sky gradient, a sun, rolling hills with a gradient of their own.
    static func photo(width: Int, height: Int, using generator: inout SeededGenerator) -> Bitmap {
        let skyTop = randomColour(using: &generator, in: 40...140)
        let skyBottom = randomColour(using: &generator, in: 160...250)
        let ground = randomColour(using: &generator, in: 30...160)
        let sun = (
            x: Double.random(in: 0.1...0.9, using: &generator) * Double(width),
            y: Double.random(in: 0.1...0.4, using: &generator) * Double(height)
        )
        let sunRadius = Double(min(width, height)) * Double.random(in: 0.05...0.12, using: &generator)
        let horizon = Double.random(in: 0.45...0.7, using: &generator) * Double(height)
        let amplitude = Double.random(in: 0.03...0.12, using: &generator) * Double(height)
        let frequency = Double.random(in: 1...4, using: &generator) * 2 * Double.pi / Double(width)
        let phase = Double.random(in: 0...(2 * Double.pi), using: &generator)
        var grain = Grain(seed: generator.next())
        let (w, h) = (Double(width), Double(height))
        return draw(width: width, height: height) { x, y in
            let (px, py) = (Double(x), Double(y))
            let hill =
                horizon + amplitude * sin(px * frequency + phase) + amplitude * 0.4
                * sin(px * frequency * 2.7 + phase * 1.3)
            let base: (Double, Double, Double)
            if py > hill {
                let depth = 1 - 0.5 * (py - hill) / max(1, h - hill)
                base = (ground.0 * depth, ground.1 * depth, ground.2 * depth)
            } else if (px - sun.x) * (px - sun.x) + (py - sun.y) * (py - sun.y) < sunRadius * sunRadius {
                base = (250, 235, 180)
            } else {
                let t = py / max(1, hill)
                base = (
                    skyTop.0 + (skyBottom.0 - skyTop.0) * t, skyTop.1 + (skyBottom.1 - skyTop.1) * t,
                    skyTop.2 + (skyBottom.2 - skyTop.2) * t + 10 * px / w
                )
            }
            return grain.apply(to: base, amplitude: 4)
        }
    }

    /// Fills an opaque bitmap pixel by pixel, row by row.
    private static func draw(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = pixel(x, y)
                let index = (y * width + x) * 4
                bytes[index] = red
                bytes[index + 1] = green
                bytes[index + 2] = blue
            }
        }
        return Bitmap(width: width, height: height, pixels: bytes)
    }

    private static func randomColour(using generator: inout SeededGenerator, in range: ClosedRange<Double>) -> (
        Double, Double, Double
    ) {
        (
            Double.random(in: range, using: &generator), Double.random(in: range, using: &generator),
            Double.random(in: range, using: &generator)
        )
    }

    /// Cheap per-pixel noise (xorshift), so drawing a large image does not cost a full generator
    /// step per pixel.
    private struct Grain {
        var state: UInt64

        init(seed: UInt64) { state = seed | 1 }

        mutating func apply(to colour: (Double, Double, Double), amplitude: Int) -> (UInt8, UInt8, UInt8) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let span = UInt64(2 * amplitude + 1)
            let noise = Double(Int(state % span) - amplitude)
            func channel(_ value: Double) -> UInt8 { UInt8(max(0, min(255, (value + noise).rounded()))) }
            return (channel(colour.0), channel(colour.1), channel(colour.2))
        }
    }
}
