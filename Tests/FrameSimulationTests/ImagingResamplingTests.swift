import Testing

@testable import FrameSimulation

@Suite("Bitmap downsampling")
struct ImagingResamplingTests {
    /// A bitmap from opaque gray levels, row by row.
    private func grayBitmap(width: Int, _ levels: [UInt8]) -> Bitmap {
        Bitmap(width: width, height: levels.count / width, pixels: levels.flatMap { [$0, $0, $0, 255] })
    }

    private func grayLevels(_ bitmap: Bitmap) -> [UInt8] {
        stride(from: 0, to: bitmap.pixels.count, by: 4).map { bitmap.pixels[$0] }
    }

    @Test("Halving with the box filter averages each 2 × 2 block")
    func boxHalving() {
        let source = grayBitmap(
            width: 4,
            [
                0, 10, 100, 100,
                20, 30, 100, 200,
            ])
        let result = source.downsampled(toWidth: 2, height: 1, filter: .box)
        #expect(grayLevels(result) == [15, 125])
    }

    @Test("At a 3 : 2 ratio the box filter weights the shared pixel by the part each side covers")
    func boxFractionalCoverage() {
        // Destination pixel 0 covers source 0 fully and half of source 1 (weights 2/3, 1/3).
        let result = grayBitmap(width: 3, [0, 90, 180]).downsampled(toWidth: 2, height: 1, filter: .box)
        #expect(grayLevels(result) == [30, 150])
    }

    @Test("Bilinear interpolates the two source pixels around each destination centre")
    func bilinearHalving() {
        // Destination centres fall at source 0.5 and 2.5, halfway between neighbours.
        let result = grayBitmap(width: 4, [0, 100, 200, 255]).downsampled(toWidth: 2, height: 1, filter: .bilinear)
        #expect(grayLevels(result) == [50, 228])
    }

    @Test(
        "A solid colour stays exactly that colour at any ratio", arguments: ResamplingFilter.allCases,
        [(7, 5), (3, 2), (1, 1), (13, 9)])
    func solidColourIsPreserved(filter: ResamplingFilter, size: (width: Int, height: Int)) {
        let colour = Pixel(red: 40, green: 90, blue: 120, alpha: 200)
        let result = Bitmap(width: 23, height: 17, filledWith: colour).downsampled(
            toWidth: size.width, height: size.height, filter: filter)
        #expect(result == Bitmap(width: size.width, height: size.height, filledWith: colour))
    }

    @Test("Transparent pixels do not darken their neighbours, because the pixels are premultiplied")
    func premultipliedAveraging() {
        let source = Bitmap(width: 2, height: 1, pixels: [200, 0, 0, 200, 0, 0, 0, 0])
        let result = source.downsampled(toWidth: 1, height: 1)
        // Half the area is red at alpha 200, half is clear: red 100 at alpha 100, fully red once un-premultiplied.
        #expect(result[0, 0] == Pixel(red: 100, green: 0, blue: 0, alpha: 100))
    }

    @Test("Downsampling a decoded photo keeps its mean colour", arguments: ResamplingFilter.allCases)
    func photoMeanIsPreserved(filter: ResamplingFilter) throws {
        let photo = try ImagingFixtures.photo()
        let small = photo.downsampled(toWidth: 375, height: 281, filter: filter)
        func mean(_ bitmap: Bitmap, channel: Int) -> Double {
            Double(stride(from: channel, to: bitmap.pixels.count, by: 4).reduce(0) { $0 + Int(bitmap.pixels[$1]) })
                / Double(bitmap.width * bitmap.height)
        }
        for channel in 0..<4 {
            #expect(abs(mean(small, channel: channel) - mean(photo, channel: channel)) < (filter == .box ? 0.6 : 2))
        }
    }

    @Test("Downsampling to the same size returns the image unchanged")
    func sameSize() {
        let source = grayBitmap(width: 2, [1, 2, 3, 4])
        #expect(source.downsampled(toWidth: 2, height: 2) == source)
    }
}
