import FrameAnalysis
import FrameSupport
import FrameTrace
import Testing

@Suite("Hodges–Lehmann shift")
struct StatisticsHodgesLehmannTests {
    /// Lists every pairwise difference and takes the median.
    private func oracle(base: [Double], head: [Double]) -> Double {
        let differences = head.flatMap { h in base.map { h - $0 } }.sorted()
        let middle = differences.count / 2
        return differences.count % 2 == 1 ? differences[middle] : (differences[middle - 1] + differences[middle]) / 2
    }

    @Test("The estimate equals the median of all listed pairwise differences on 300 seeded pairs", arguments: 0..<3)
    func matchesOracle(batch: UInt64) throws {
        for seed in batch * 100..<(batch + 1) * 100 {
            var generator = SeededGenerator(seed: seed)
            // Integer-valued data has many tied differences; sizes reach 60 × 60 so the selection
            // loop runs many rounds before the remaining differences are few enough to sort.
            let ties = Bool.random(using: &generator)
            func value() -> Double {
                ties ? Double(Int.random(in: 0...9, using: &generator)) : Double.random(in: -50...50, using: &generator)
            }
            let base = (0..<Int.random(in: 1...60, using: &generator)).map { _ in value() }
            let head = (0..<Int.random(in: 1...60, using: &generator)).map { _ in value() }
            let estimate = try #require(hodgesLehmannShift(base: base, head: head))
            #expect(estimate == oracle(base: base, head: head), "seed \(seed)")
        }
    }

    @Test("A constant shift is recovered exactly")
    func recoversConstantShift() {
        var costs = FrameCostGenerator(seed: 8)
        let base = costs.sample(200).map { $0.rounded() }
        #expect(hodgesLehmannShift(base: base, head: base.map { $0 + 500_000 }) == 500_000)
    }

    @Test("A 20% cost increase shows as a positive shift of about a fifth of the typical cost")
    func estimatesProportionalShift() throws {
        let runs = FrameCostGenerator.runs(seed: 1, frames: 1_000, headScale: 1.2)
        let shift = try #require(hodgesLehmannShift(base: runs.base, head: runs.head))
        #expect((1_200_000...2_000_000).contains(shift))
    }

    @Test("Empty samples give no estimate")
    func emptySamples() {
        #expect(hodgesLehmannShift(base: [], head: [1]) == nil)
        #expect(hodgesLehmannShift(base: [1], head: []) == nil)
    }
}
