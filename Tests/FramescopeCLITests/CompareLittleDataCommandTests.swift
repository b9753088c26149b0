import Foundation
import Testing

@Suite("framescope compare with one frame a side")
struct CompareLittleDataCommandTests {
    /// One framescope frame with a layout span: `compare-one-frame-base.json` and, twice as slow,
    /// `compare-one-frame-head.json`.
    static func oneFrameTrace(frameMicroseconds: Int, layoutMicroseconds: Int) -> String {
        """
        [{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},
        {"ph":"X","cat":"frame","name":"frame","pid":1,"tid":1,"ts":0,"dur":\(frameMicroseconds)},
        {"ph":"X","cat":"layout","name":"l","pid":1,"tid":1,"ts":10,"dur":\(layoutMicroseconds)}]
        """
    }

    @Test("Every metric is NO DATA with the frame counts, none is a regression, and the run passes")
    func oneFrameEachSide() throws {
        let base = try ShippedTraces.write(
            Self.oneFrameTrace(frameMicroseconds: 4000, layoutMicroseconds: 3000), name: "compare-one-frame-base.json")
        let head = try ShippedTraces.write(
            Self.oneFrameTrace(frameMicroseconds: 8000, layoutMicroseconds: 7000), name: "compare-one-frame-head.json")
        let result = try CLI.run(["compare", base, head])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(!result.standardOutput.contains("REGRESSION"))
        #expect(!result.standardOutput.contains("interval"))
        #expect(
            result.standardOutput.contains(
                "main-thread-ms: NO DATA: too few frames to judge: 1 base, 1 head (at least 10 a side)"))
        #expect(
            result.standardOutput.contains("result: pass, no regression in 0 metrics, 4 not judged (too few frames)"))
        let json = try CLI.run(["compare", base, head, "--format", "json"])
        #expect(json.standardOutput.contains(#""verdict":"no-data""#))
        #expect(!json.standardOutput.contains(#""verdict":"regression""#))
    }
}
