import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

@Suite("Per-category summaries count the frames a category skipped as zeros, without writing them out")
struct SparsePercentileTests {
    static let cases: [([Int64], Int)] = [
        ([], 5), ([7], 0), ([7], 1), ([7], 99), ([3, 1, 2], 2), ([-4, 9, -1, 0, 5], 3), ([5, 5, 5, 5], 396),
        ((1...37).map { Int64($0) * 1_000 }, 163),
    ]

    @Test("A summary of values plus k zeros equals the summary of the padded array", arguments: cases)
    func equalsPadded(values: [Int64], zeros: Int) {
        let sparse = PercentileSummary(values, zeroCount: zeros)
        let padded = PercentileSummary(values + Array(repeating: 0, count: zeros))
        #expect(sparse == padded)
    }

    @Test("No values and no zeros is no summary")
    func empty() {
        #expect(PercentileSummary([Int64](), zeroCount: 0) == nil)
    }

    @Test("A category that ran in 1 of 400 frames has p50 0, its one value as max, and all 400 frames counted")
    func sparseCategory() throws {
        var text = #"[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}}"#
        for index in 0..<400 {
            let start = index * 16_667
            text += #",{"ph":"X","cat":"frame","name":"frame","pid":1,"tid":1,"ts":\#(start),"dur":9000}"#
            let category = index == 123 ? "rare" : "c\(index % 50)"
            text +=
                #",{"ph":"X","cat":"\#(category)","name":"w","pid":1,"tid":1,"ts":\#(start + 100),"dur":\#(1000 + index)}"#
        }
        text += "]"
        let report = FrameAnalyzer.analyze(try TraceReader.read(bytes: Array(text.utf8)))
        #expect(report.summary.frameCount == 400)
        #expect(report.categories.count == 52)
        let rare = try #require(report.categories.first { $0.name == "rare" }?.perFrameMain)
        #expect(rare.count == 400)
        #expect(rare.p50 == 0 && rare.p99 == 0)
        #expect(rare.max == 1_123_000)
        #expect(rare.total == 1_123_000)
        let common = try #require(report.categories.first { $0.name == "c0" }?.perFrameMain)
        #expect(common.count == 400)
        #expect(common.max == 1_350_000)
    }
}
