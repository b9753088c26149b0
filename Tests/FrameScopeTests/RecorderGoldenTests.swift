import Foundation
import FrameScope
import FrameTrace
import Testing

/// Byte-for-byte comparison of a manual-clock recording's export with a committed file.
///
/// To regenerate the golden after an intended change to the recorder or the writer, run
///
///     FRAMESCOPE_UPDATE_GOLDEN=1 swift test --filter RecorderGoldenTests
///
/// which rewrites `Tests/FrameScopeTests/Golden/sample-frame.json` in the source tree; review the
/// diff before committing it.
@Suite("Recorder golden export")
struct RecorderGoldenTests {
    static let goldenName = "sample-frame.json"

    /// The golden in the source tree (written when updating).
    static var sourceGolden: URL {
        repositoryRoot().appendingPathComponent("Tests/FrameScopeTests/Golden").appendingPathComponent(goldenName)
    }

    @Test("A manual-clock recording exports the same bytes as the committed golden file")
    func sampleFrameMatchesGolden() throws {
        // The real pid and the threads' serials vary from run to run; nothing else does.
        let bytes = makeSampleRecording().snapshot().withStableThreadIDs().chromeJSON()

        if ProcessInfo.processInfo.environment["FRAMESCOPE_UPDATE_GOLDEN"] == "1" {
            try Data(bytes).write(to: Self.sourceGolden)
            return
        }
        let url = try #require(
            Bundle.module.url(
                forResource: (Self.goldenName as NSString).deletingPathExtension, withExtension: "json",
                subdirectory: "Golden"),
            "missing golden; run with FRAMESCOPE_UPDATE_GOLDEN=1 to create it")
        let golden = [UInt8](try Data(contentsOf: url))
        if bytes != golden {
            let actual = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let expected = String(decoding: golden, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            let line =
                zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(actual.count, expected.count)
            Issue.record(
                """
                export differs from \(Self.goldenName) at line \(line + 1):
                  expected: \(line < expected.count ? expected[line] : "<end of file>")
                  actual:   \(line < actual.count ? actual[line] : "<end of file>")
                """)
        }
    }

    @Test("Recording the same manual-clock frame twice gives identical exports")
    func manualClockRecordingIsDeterministic() {
        func record() -> [UInt8] { makeSampleRecording().snapshot().withStableThreadIDs().chromeJSON() }
        #expect(record() == record())
    }
}
