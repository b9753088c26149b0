import FrameAnalysis
import FrameTrace
import Testing

@Suite("Compare on little data: below the minimum frames a side, metrics are not judged")
struct CompareLittleDataTests {
    @Test("One frame a side, twice as slow: every metric is no-data and passes, with no p-value or interval")
    func oneFrameEachSide() {
        let comparison = compareCosts([4_000_000], [8_000_000])
        #expect(comparison.passed)
        #expect(!comparison.metrics.isEmpty)
        for metric in comparison.metrics {
            #expect(metric.verdict == .noData)
            #expect(!metric.fails)
            #expect(metric.reason == "too few frames to judge: 1 base, 1 head (at least 10 a side)")
            #expect(metric.pValue == nil)
            #expect(metric.shift == nil)
            #expect(metric.p95Interval == nil)
            #expect(metric.base?.p50 != nil && metric.head?.p50 != nil)
        }
        #expect(
            comparison.text().contains(
                "result: pass, no regression in 0 metrics, \(comparison.metrics.count) not judged (too few frames)"))
        #expect(!comparison.text().contains("interval"))
        #expect(!comparison.text().contains("REGRESSION"))
        #expect(comparison.annotations().allSatisfy { $0.level == .warning })
        #expect(comparison.annotations().count == comparison.metrics.count)
        #expect(!comparison.junit().xml().contains("<failure"))
    }

    @Test("Nine frames a side is below the minimum however large the change; ten is judged")
    func boundary() {
        let base = (0..<10).map { Double(4_000_000 + $0 * 10_000) }
        let head = base.map { $0 * 5 }
        let nine = compareCosts(Array(base.prefix(9)), Array(head.prefix(9)))
        #expect(nine.metrics.allSatisfy { $0.verdict == .noData })
        #expect(nine.passed)
        let ten = compareCosts(base, head)
        #expect(ten.metrics.first { $0.id == "main-thread-ms" }?.verdict == .regression)
        #expect(!ten.passed)
        #expect(MetricComparison.minimumFrames == 10)
    }

    @Test("One short side is enough to stop judging: 300 base frames, 3 head frames")
    func oneShortSide() {
        let base = (0..<300).map { Double(4_000_000 + ($0 * 7_919) % 1_000_000) }
        let comparison = compareCosts(base, [20_000_000, 21_000_000, 22_000_000])
        let main = comparison.metrics.first { $0.id == "main-thread-ms" }
        #expect(main?.verdict == .noData)
        #expect(main?.reason == "too few frames to judge: 300 base, 3 head (at least 10 a side)")
        #expect(comparison.passed)
    }

    @Test("A side with no frames at all still fails, as an error annotation")
    func emptySideStillFails() {
        let comparison = compareCosts([], (0..<20).map { Double(8_000_000 + $0) })
        #expect(!comparison.passed)
        #expect(comparison.metrics.allSatisfy { $0.verdict == .noData && $0.fails })
        #expect(comparison.annotations().allSatisfy { $0.level == .error })
    }
}
