import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// Missed vsyncs have one definition, and every output agrees with it.
@Suite("Missed vsyncs, computed once")
struct MissedVsyncTests {
    @Test("A frame misses its overrun in whole intervals, rounded up; none when on time")
    func definition() {
        let p: Int64 = 16_666_667
        let cases: [(Int64, Int64)] = [
            (-5, 0), (0, 0), (1, 1), (p - 1, 1), (p, 1), (p + 1, 2), (3 * p, 3), (3 * p + 1, 4),
        ]
        for (overrun, missed) in cases {
            #expect(FrameReport.Frame.missedVsyncs(lateness: overrun, interval: p) == missed, "\(overrun)")
        }
        #expect(FrameReport.Frame.missedVsyncs(lateness: 10, interval: 0) == 0, "no interval, no division")
    }

    @Test("The summary, the worst-frames table and the frames rows give the same missed vsyncs")
    func outputsAgree() throws {
        let report = FrameChartTests.report(frames: 40)
        let interval = report.method.frameRate.intervalNanoseconds
        let perFrame = report.frames.map { $0.missedVsyncs(interval: interval) }
        #expect(report.summary.missedVsyncs == perFrame.reduce(0, +) && report.summary.missedVsyncs > 0)
        var rows: [String] = []
        FrameRows.write(report, trace: "t", labels: [], metadata: TraceMetadata(), format: .jsonLines) {
            rows.append($0)
        }
        let fromRows = try rows.map { row -> Int64 in
            let value = try JSONValue.parse(row)
            return try #require(value["missed_vsyncs"]?.integerValue)
        }
        #expect(fromRows == perFrame)
    }
}
