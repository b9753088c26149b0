import Testing

@testable import FrameSimulation

@Suite("Corner rounding strategies")
struct CornerRoundingTests {
    static let white = Pixel(red: 255, green: 255, blue: 255)
    static let slate = Pixel(red: 40, green: 44, blue: 52)

    /// The decoded 1200 × 900 photo at a display size: opaque content.
    static func photo(width: Int, height: Int) throws -> Bitmap {
        try ImagingFixtures.photo().downsampled(toWidth: width, height: height)
    }

    /// Draws `image` with `strategy` into a framebuffer filled with `background`, once.
    private func render(
        _ image: Bitmap, radius: Double, strategy: CornerRoundingStrategy, background: Pixel,
        at origin: (x: Int, y: Int) = (10, 20)
    ) -> (Bitmap, CompositingWork) {
        var framebuffer = Bitmap(width: image.width + 30, height: image.height + 40, filledWith: background)
        let rounded = RoundedImage(image: image, cornerRadius: radius, strategy: strategy, background: background)
        let work = rounded.draw(into: &framebuffer, atX: origin.x, y: origin.y)
        return (framebuffer, work)
    }

    private func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(
        "All four strategies put the same pixels on a solid background (within 1 per channel)",
        arguments: [(120, 120, 60.0), (120, 120, 16), (600, 400, 24), (37, 23, 5.5)], [white, slate])
    func strategiesAgree(shape: (width: Int, height: Int, radius: Double), background: Pixel) throws {
        let image = try Self.photo(width: shape.width, height: shape.height)
        let (reference, _) = render(image, radius: shape.radius, strategy: .offscreenClip, background: background)
        for strategy in CornerRoundingStrategy.allCases.dropFirst() {
            let (framebuffer, _) = render(image, radius: shape.radius, strategy: strategy, background: background)
            #expect(largestDifference(reference, framebuffer) <= 1, "\(strategy)")
        }
        #expect(reference[10, 20] == background)
        #expect(reference[10 + shape.width / 2, 20 + shape.height / 2] == image[shape.width / 2, shape.height / 2])
    }

    @Test("The strategies agree for an image with its own transparency too")
    func strategiesAgreeWithAlpha() throws {
        let avatar = try PNGDecoder.decode(ImagingFixtures.png("avatar-rgba-96x96"))
        let (reference, _) = render(avatar, radius: 20, strategy: .offscreenClip, background: Self.slate)
        for strategy in CornerRoundingStrategy.allCases.dropFirst() {
            let (framebuffer, _) = render(avatar, radius: 20, strategy: strategy, background: Self.slate)
            #expect(largestDifference(reference, framebuffer) <= 1, "\(strategy)")
        }
    }

    @Test("Each strategy does its own kind of per-frame work", arguments: CornerRoundingStrategy.allCases)
    func perFrameWork(strategy: CornerRoundingStrategy) throws {
        let image = try Self.photo(width: 120, height: 100)
        let (_, work) = render(image, radius: 16, strategy: strategy, background: Self.white)
        let all = 120 * 100
        let corners = 4 * 16 * 16
        let expected =
            switch strategy {
            case .offscreenClip: CompositingWork(blendedPixels: all, offscreenPixels: all, offscreenPasses: 1)
            case .prerenderedOpaque: CompositingWork(copiedPixels: all)
            case .prerenderedTransparent: CompositingWork(blendedPixels: all)
            case .cornerMaskOverlay: CompositingWork(copiedPixels: all, blendedPixels: corners)
            }
        #expect(work == expected)
    }

    @Test("The corner-mask overlay changes only pixels inside the four corner squares")
    func overlayTouchesOnlyCorners() throws {
        let image = try Self.photo(width: 120, height: 100)
        var framebuffer = Bitmap(width: 120, height: 100, filledWith: Self.white)
        RoundedImage(image: image, cornerRadius: 15.2, strategy: .cornerMaskOverlay, background: Self.white)
            .draw(into: &framebuffer, atX: 0, y: 0)
        var changedOutside = 0
        var changedInside = 0
        for y in 0..<100 {
            for x in 0..<120 where framebuffer[x, y] != image[x, y] {
                if (x < 16 || x >= 104) && (y < 16 || y >= 84) { changedInside += 1 } else { changedOutside += 1 }
            }
        }
        #expect(changedOutside == 0)
        #expect(changedInside > 0)
    }

    @Test("A pre-rendered opaque image has the background baked into its corners")
    func opaqueBakesBackground() throws {
        let image = try Self.photo(width: 64, height: 64)
        var framebuffer = Bitmap(width: 64, height: 64, filledWith: .clear)
        let work = RoundedImage(image: image, cornerRadius: 32, strategy: .prerenderedOpaque, background: Self.slate)
            .draw(into: &framebuffer, atX: 0, y: 0)
        #expect(framebuffer[0, 0] == Self.slate)
        #expect(framebuffer.isOpaque)
        #expect(work.blendedPixels == 0)
    }

    @Test("Drawing partly outside the framebuffer clips to it", arguments: CornerRoundingStrategy.allCases)
    func clipsToFramebuffer(strategy: CornerRoundingStrategy) throws {
        let image = try Self.photo(width: 60, height: 40)
        let rounded = RoundedImage(image: image, cornerRadius: 8, strategy: strategy, background: Self.white)
        var full = Bitmap(width: 100, height: 100, filledWith: Self.white)
        rounded.draw(into: &full, atX: 20, y: 30)
        var clipped = Bitmap(width: 50, height: 50, filledWith: Self.white)
        let work = rounded.draw(into: &clipped, atX: -10, y: 20)
        // The clipped framebuffer shows image columns 10..<60 and rows 0..<30.
        for y in 0..<30 {
            for x in 0..<50 {
                #expect(clipped[x, y + 20] == full[x + 30, y + 30])
            }
        }
        #expect(work.copiedPixels + work.blendedPixels <= 50 * 30 + 4 * 8 * 8)
        var offscreen = Bitmap(width: 10, height: 10, filledWith: Self.white)
        #expect(
            rounded.draw(into: &offscreen, atX: 500, y: -500)
                == CompositingWork(
                    offscreenPixels: strategy == .offscreenClip ? 2400 : 0,
                    offscreenPasses: strategy == .offscreenClip ? 1 : 0))
    }
}
