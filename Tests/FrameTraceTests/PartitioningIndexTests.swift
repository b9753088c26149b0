import FrameSupport
@_spi(FramescopeInternals) import FrameTrace
import Testing

@Suite("The one binary search")
struct PartitioningIndexTests {
    @Test(
        "Equals a linear scan for every threshold over sorted arrays with repeats, empty included",
        arguments: UInt64(1)...30)
    func matchesLinearScan(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let values = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            Int.random(in: 0...12, using: &generator)
        }.sorted()
        for threshold in -1...13 {
            let expected = values.firstIndex { $0 > threshold } ?? values.endIndex
            #expect(values.partitioningIndex { $0 > threshold } == expected, "\(values), > \(threshold)")
            // On a slice, indices are the base array's.
            let slice = values.dropFirst(values.count / 3)
            #expect(
                slice.partitioningIndex { $0 > threshold } == (slice.firstIndex { $0 > threshold } ?? slice.endIndex))
        }
    }
}
