import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// A framescope recording exported as Instruments would export it reports as itself.
///
/// The fixtures in `Fixtures/xctrace-round-trip` were made once, on real time, and committed:
/// `framescope simulate feed-scroll --strategy manual-main+decode-main --fps F --frames 20
/// --clock real --out decode-main-F.json`, then `tools/xctrace_export.py decode-main-F.json --out
/// decode-main-F.xml` (the signpost intervals the mirror writes, frames with `index N
/// since-vsync S ns budget B ns`, and the display's refresh rate), and the same with `--hitches`
/// (Apple's `hitches` table beside them), for F = 60 and 120. CI repeats this on fresh
/// recordings (`tools/check_instruments.py`).
@Suite("Instruments round trip: an exported framescope recording reports as the recording")
struct InstrumentsRoundTripTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xctrace-round-trip")

    static func report(_ name: String) throws -> FrameReport {
        FrameAnalyzer.analyze(try TraceReader.read(contentsOf: directory.appendingPathComponent(name).path))
    }

    static func categories(_ report: FrameReport) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: report.categories.map { ($0.name, $0.mainNanoseconds) })
    }

    @Test(
        "The export's frames, late frames, missed vsyncs, hitch time, categories and interval are the trace's",
        arguments: [60, 120])
    func signposts(fps: Int) throws {
        let trace = try Self.report("decode-main-\(fps).json")
        let export = try Self.report("decode-main-\(fps).xml")
        #expect(trace.summary.lateFrames > 0, "the fixture is meant to have late frames")
        #expect(export.summary.frameCount == trace.summary.frameCount)
        #expect(export.summary.lateFrames == trace.summary.lateFrames)
        #expect(export.summary.missedVsyncs == trace.summary.missedVsyncs)
        #expect(export.summary.slowFrames == trace.summary.slowFrames)
        #expect(export.method.frameRate.intervalNanoseconds == trace.method.frameRate.intervalNanoseconds)
        #expect(export.method.frameRate.intervalNanoseconds == FrameRate(hertz: Double(fps)).intervalNanoseconds)
        // The export's times are the trace's microseconds in whole nanoseconds: 1 µs a frame.
        let tolerance = Int64(1_000 * trace.summary.frameCount)
        #expect(abs(export.summary.hitchNanoseconds - trace.summary.hitchNanoseconds) <= tolerance)
        let mine = Self.categories(trace)
        let theirs = Self.categories(export)
        #expect(Set(mine.keys) == Set(theirs.keys))
        for (name, nanoseconds) in mine {
            #expect(abs((theirs[name] ?? 0) - nanoseconds) <= tolerance, "category \(name)")
        }
    }

    /// Apple's rows in the `--hitches` fixtures, read with Python's ElementTree
    /// (`tools/check_instruments.py`'s `hitch_rows`): 60 Hz [50000001, 33333334], 120 Hz
    /// [66666664, 33333332].
    static let appleHitches: [Int: [Int64]] = [60: [50_000_001, 33_333_334], 120: [66_666_664, 33_333_332]]

    @Test("With Apple's hitches table beside the signposts, Apple's rows decide", arguments: [60, 120])
    func appleDecides(fps: Int) throws {
        let export = try Self.report("decode-main-\(fps)-hitches.xml")
        let rows = try #require(Self.appleHitches[fps])
        let interval = FrameRate(hertz: Double(fps)).intervalNanoseconds
        #expect(export.summary.lateFrames == rows.count)
        #expect(export.summary.hitchNanoseconds == rows.reduce(0, +))
        let rounded = rows.map { ($0 + interval / 2) / interval }.reduce(0, +)
        #expect(export.summary.missedVsyncs == rounded)
        // The frames' work still comes from framescope's own frames.
        #expect(Self.categories(export) == Self.categories(try Self.report("decode-main-\(fps).json")))
    }
}
