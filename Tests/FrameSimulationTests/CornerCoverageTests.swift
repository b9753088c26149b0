import Testing

@testable import FrameSimulation

@Suite("Rounded-rectangle coverage")
struct CornerCoverageTests {
    @Test("Radius 0 covers every pixel fully")
    func radiusZero() {
        let mask = RoundedRectMask(width: 7, height: 5, radius: 0)
        #expect(mask.coverage == [UInt8](repeating: 255, count: 35))
        #expect(mask.cornerSize == 0)
    }

    @Test("A 4 × 4 mask with radius 2 matches the hand-counted samples")
    func handCheckedMask() {
        // Corner pixel (0, 0): of its 16 samples at 1/8, 3/8, 5/8, 7/8, six lie within 2 of the
        // circle's centre (2, 2): three in the bottom sample row, two in the next, one in the
        // next. 6/16 of 255 is 95.6, so 96. Pixel (1, 0) misses only its sample (1.125, 0.125):
        // 15/16 → 239.
        let mask = RoundedRectMask(width: 4, height: 4, radius: 2)
        #expect(
            mask.coverage == [
                96, 239, 239, 96,
                239, 255, 255, 239,
                239, 255, 255, 239,
                96, 239, 239, 96,
            ])
    }

    @Test(
        "The mask is symmetric across both axes",
        arguments: [(120, 120, 12.0), (121, 77, 9.5), (40, 40, 20), (31, 17, 100), (5, 9, 0.7)])
    func symmetricAcrossBothAxes(size: (width: Int, height: Int, radius: Double)) {
        let mask = RoundedRectMask(width: size.width, height: size.height, radius: size.radius)
        for y in 0..<size.height {
            for x in 0..<size.width {
                #expect(mask[x, y] == mask[size.width - 1 - x, y])
                #expect(mask[x, y] == mask[x, size.height - 1 - y])
            }
        }
    }

    @Test("Coverage never falls along the diagonal from the corner inwards")
    func monotonicAlongDiagonal() {
        let mask = RoundedRectMask(width: 64, height: 64, radius: 20)
        let diagonal = (0..<32).map { mask[$0, $0] }
        #expect(diagonal == diagonal.sorted())
        #expect(diagonal.first == 0)
        #expect(diagonal.last == 255)
    }

    @Test("Outside the four corner squares every pixel is fully covered; the corner pixel is empty")
    func interiorIsFull() {
        let mask = RoundedRectMask(width: 120, height: 90, radius: 12.5)
        #expect(mask.cornerSize == 13)
        for y in 0..<90 {
            for x in 0..<120 where !((x < 13 || x >= 107) && (y < 13 || y >= 77)) {
                #expect(mask[x, y] == 255)
            }
        }
        #expect(mask[0, 0] == 0)
        #expect(mask[119, 89] == 0)
    }

    @Test("A square mask whose radius is half its side covers the area of a circle")
    func circleArea() {
        let mask = RoundedRectMask(width: 64, height: 64, radius: 40)
        #expect(mask.radius == 32)
        let area = Double(mask.coverage.reduce(0) { $0 + Int($1) }) / 255
        #expect(abs(area - Double.pi * 32 * 32) / (Double.pi * 32 * 32) < 0.005)
    }
}
