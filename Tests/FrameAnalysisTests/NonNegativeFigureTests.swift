import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// No duration or count in a report is negative, whatever the trace: every fixture the tests
/// read and every trace of the third-party corpus, analysed and written as the JSON report.
/// The fields defined as signed are the exceptions, listed in ``signedKeys``, and points in time
/// (``timeKeys``), which are not durations.
@Suite("Reports never hold a negative duration or count, except the fields defined as signed")
struct NonNegativeFigureTests {
    /// The JSON report's keys whose values may be negative by definition, and why:
    /// - `overrun-ns`, `overrun` (Android's `android_frames_overrun`), `overrun_ms`: a frame's
    ///   end minus its deadline, negative as headroom;
    /// - `present_delay`: SurfaceFlinger's present minus the expected present, negative when early;
    /// - `app_vsync_delay` and `cpu_time` (trace processor's, which adds that delay): the app
    ///   began before its expected start;
    /// - `shift-ns` and `difference-interval-ns`: a comparison's signed change (compare reports only).
    static let signedKeys: Set<String> = [
        "overrun-ns", "overrun", "overrun_ms", "present_delay", "app_vsync_delay", "cpu_time", "shift-ns",
        "difference-interval-ns",
    ]

    /// Keys of points in time on the trace's clock, not durations or counts: a trace may put its
    /// events before time 0 (a hostile fixture at -2^60 ns, a frame's vsync before the first event).
    static let timeKeys: Set<String> = [
        "vsync-ns", "deadline-ns", "work-start-ns", "commit-end-ns", "start-ns", "end-ns", "presentation-ns",
        "presented-ns", "applied-at-ns", "expected_ts", "expected_end", "actual_ts", "actual_end",
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every trace fixture in the package and the corpus beside it (`../shared/traces/third-party`).
    static var traces: [String] {
        let folders = [
            "Tests/FrameTraceReaderTests/Fixtures/perfetto", "Tests/FrameAnalysisTests/Fixtures", "Traces",
            "../shared/traces/third-party",
        ]
        var paths: [String] = []
        for folder in folders {
            let url = packageRoot.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted()
            where name.hasSuffix(".pftrace") || name.hasSuffix(".perfetto-trace")
                || (name.hasSuffix(".json") && !name.hasSuffix(".expected.json")) || name.hasSuffix(".xml")
            {
                paths.append(url.appendingPathComponent(name).path)
            }
        }
        return paths
    }

    /// The negative numbers of `value` outside the signed keys, as `path = number`.
    static func negatives(_ value: JSONValue, path: String = "", signed: Bool = false) -> [String] {
        switch value {
        case .int(let number): return !signed && number < 0 ? ["\(path) = \(number)"] : []
        case .double(let number): return !signed && number < 0 ? ["\(path) = \(number)"] : []
        case .array(let values):
            return values.enumerated().flatMap { negatives($1, path: "\(path)[\($0)]", signed: signed) }
        case .object(let members):
            return members.flatMap { key, member in
                negatives(
                    member, path: path + "." + key,
                    signed: signed || signedKeys.contains(key) || timeKeys.contains(key))
            }
        case .null, .bool, .string: return []
        }
    }

    @Test("Every fixture's and corpus trace's JSON report has no negative figure outside the signed fields")
    func noNegativeFigures() throws {
        let paths = Self.traces
        #expect(paths.count > 20, "the fixtures are found from the package root")
        #expect(
            paths.contains { $0.hasSuffix("nowinandroid__trace.perfetto-trace") }
                || !FileManager.default
                    .fileExists(atPath: Self.packageRoot.appendingPathComponent("../shared/traces/third-party").path)
        )
        for path in paths {
            // A fixture made to fail reading (a torn varint, a length past the file) has no report.
            guard let trace = try? TraceReader.read(contentsOf: path) else { continue }
            let report = FrameAnalyzer.analyze(trace)
            let found = Self.negatives(report.jsonValue(source: path))
            #expect(found.isEmpty, "\(URL(fileURLWithPath: path).lastPathComponent): \(found.prefix(5))")
        }
    }
}
