import Foundation
import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// Instruments recordings analysed as Apple counts them: Apple's hitches are the late frames,
/// their durations the hitch time, their missed vsyncs rounded; the display's rate comes from
/// the recording; hangs stay apart from hitches.
@Suite("Instruments recordings: Apple's hitches decide the late frames")
struct InstrumentsHitchTests {
    /// `<repo>/../shared/traces/third-party`.
    static let thirdParty = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/traces/third-party")
    /// The reader's fixture recording: the real hitches, device-display-info and potential-hangs
    /// exports and a hand-written `--toc` (a 40 s Animation Hitches run).
    static let recording = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FrameTraceReaderTests/Fixtures/xctrace/recording").path

    static var hasThirdParty: Bool {
        FileManager.default.fileExists(atPath: thirdParty.appendingPathComponent("xctrace__hitches.xml").path)
    }

    /// The sum of the 11 `<duration>` values of `xctrace__hitches.xml`, refs resolved, computed
    /// by hand with Python: `sum([216666666, 16666666, 200000000, 16666666, 16666666, 16666666,
    /// 16666666, 16666791, 33333333, 16666708, 50000000])`.
    static let hitchNanoseconds: Int64 = 616_666_828

    static func report(_ path: String, options: AnalysisOptions = AnalysisOptions()) throws -> FrameReport {
        FrameAnalyzer.analyze(try TraceReader.read(contentsOf: path), options: options)
    }

    @Test(
        "xctrace__hitches.xml: the late frames are Apple's 11 hitches, the hitch time their sum to the nanosecond",
        .enabled(if: hasThirdParty, "shared/traces/third-party is not beside this clone"))
    func hitchesAlone() throws {
        let report = try Self.report(Self.thirdParty.appendingPathComponent("xctrace__hitches.xml").path)
        #expect(report.method.frameSource == .instruments)
        #expect(report.summary.lateFrames == 11)
        #expect(report.summary.hitchNanoseconds == Self.hitchNanoseconds)
        // At the default 60 Hz (no display table in the file): each duration in intervals,
        // rounded: 13 + 1 + 12 + 1 + 1 + 1 + 1 + 1 + 2 + 1 + 3.
        #expect(report.summary.missedVsyncs == 37)
        // No frame table and no TOC: the recording's length is unknown, and no ratio is guessed.
        #expect(!report.summary.isMeasuredTimeKnown)
        #expect(report.summary.measuredNanoseconds == 0)
        #expect(report.summary.hitchBand == nil)
        #expect(report.summary.systemHitches == 0)
        let text = report.text(source: "xctrace__hitches.xml")
        #expect(text.contains("Potentially expensive app update(s)"))
        #expect(text.contains("recording length unknown"))
        let html = report.html(source: "xctrace__hitches.xml")
        #expect(html.contains("hitch time ratio unknown"))
        #expect(!html.contains("ms/s hitch time ratio"), "a ratio over an unknown length must not be printed")
        let issues = report.frames.compactMap(\.hitchStage)
        #expect(issues.count == 10)  // one row leaves Potential Issue empty
        #expect(report.frames.allSatisfy { $0.hitchCause == .commit })
    }

    @Test("A recording directory with its TOC: 120 Hz from device-display-info, the ratio over the run, hangs apart")
    func recordingWithTOC() throws {
        let report = try Self.report(Self.recording)
        #expect(report.method.frameIntervalSource == .instruments(.displayInfo))
        #expect(report.method.frameRate.intervalNanoseconds == 8_333_333)
        #expect(report.summary.hitchNanoseconds == Self.hitchNanoseconds)
        // At 120 Hz, rounded: 26 + 2 + 24 + 2 + 2 + 2 + 2 + 2 + 4 + 2 + 6.
        #expect(report.summary.missedVsyncs == 74)
        #expect(report.summary.measuredNanoseconds == 40_000_000_000)
        #expect(abs(report.summary.hitchTimeRatio - 616.666828 / 40) < 1e-9)
        #expect(report.summary.hitchBand == .critical)
        #expect(report.hangs.count == 23)
        #expect(report.hangs.first?.type == "Brief Unresponsiveness")
        #expect(report.hangs.first?.threadName == "Main Thread")
        let text = report.text(source: "recording")
        #expect(text.contains("Hangs (Instruments' potential-hangs"))
        #expect(text.contains("Instruments: the main display's refresh rate"))
        let json = report.jsonValue(source: "recording")
        #expect(json["instruments"]?["hangs"]?.arrayValue?.count == 23)
        #expect(json["method"]?["frame-interval-source"]?.stringValue == "instruments-device-display-info")
    }

    @Test("With framescope's frame signposts, Apple decides which frames were late; a hitch after no frame is kept")
    func signpostFramesWithHitches() throws {
        let report = FrameAnalyzer.analyze(try TraceReader.read(bytes: Array(Self.mixedRecording.utf8)))
        #expect(report.method.frameSource == .frameSpans)
        #expect(report.method.frameIntervalSource == .instruments(.frameBudgets))
        #expect(report.method.frameRate.intervalNanoseconds == 8_333_333)
        guard case .instrumentsHitches(let frames, _, let hitches, let unmatched, _) = report.method.frameSourceDetail
        else {
            Issue.record("expected Instruments' detail, got \(report.method.frameSourceDetail)")
            return
        }
        #expect(frames == 4)  // three frame signposts and the hitch that followed none
        #expect(hitches == 2)
        #expect(unmatched == 1)
        // Frame 1 ran 20 ms against an 8.33 ms budget, but Apple saw no hitch there: on time.
        let interval = report.method.frameRate.intervalNanoseconds
        #expect(!report.frames[1].isLate(interval: interval))
        #expect(report.frames[2].lateness(interval: interval) == 8_333_333)
        #expect(report.frames[2].hitchCause == .render)
        #expect(report.frames[3].lateness(interval: interval) == 25_000_000)
        #expect(report.summary.lateFrames == 2)
        #expect(report.summary.hitchNanoseconds == 33_333_333)
        #expect(report.summary.missedVsyncs == 1 + 3)
        // framescope's frames give the per-frame work: frame 0's 5 ms on the main thread, a 4 ms layout inside.
        #expect(report.frames[0].mainThreadNanoseconds == 5_000_000)
        #expect(report.categories.first { $0.name == "layout" }?.mainNanoseconds == 4_000_000)
    }

    @Test("Missed vsyncs of an Apple hitch are its duration in intervals, rounded, at least one")
    func roundedMissedVsyncs() {
        let cases: [(Int64, Int64)] = [
            (0, 0), (1, 1), (16_666_666, 1), (16_666_791, 1), (33_333_333, 2), (216_666_666, 13),
        ]
        for (duration, missed) in cases {
            let verdict = FrameReport.AppleVerdict(hitchNanoseconds: duration, potentialIssue: nil, hitchStart: 0)
            #expect(verdict.missedVsyncs(interval: 16_666_667) == missed, "\(duration)")
        }
    }

    /// Three framescope frames (120 Hz budgets) on the main thread, a layout span in the first,
    /// a `hitches-renders` stage, and two app hitches: one right after frame 2 (render-bound),
    /// one long after every frame.
    static let mixedRecording = """
        <?xml version="1.0"?><trace-query-result>\
        <node><schema name="os-signpost-interval">\
        <col><mnemonic>start</mnemonic><name>Start</name></col><col><mnemonic>duration</mnemonic><name>Duration</name></col>\
        <col><mnemonic>name</mnemonic><name>Name</name></col><col><mnemonic>category</mnemonic><name>Category</name></col>\
        <col><mnemonic>subsystem</mnemonic><name>Subsystem</name></col>\
        <col><mnemonic>start-thread</mnemonic><name>Start Thread</name></col>\
        <col><mnemonic>start-message</mnemonic><name>Start Message</name></col></schema>\
        <row><start-time id="1">1000000000</start-time><duration id="2">5000000</duration>\
        <signpost-name id="3">frame</signpost-name><category id="4">frame</category><subsystem id="5">framescope</subsystem>\
        <thread id="6" fmt="Main Thread"><tid id="7">9</tid><process id="8" fmt="App (3)"><pid id="9">3</pid></process></thread>\
        <os-log-metadata id="10">index 0 since-vsync 0 ns budget 8333333 ns</os-log-metadata></row>\
        <row><start-time id="11">1000500000</start-time><duration id="12">4000000</duration>\
        <signpost-name id="13">layout</signpost-name><category id="14">layout</category><subsystem ref="5"/><thread ref="6"/>\
        <sentinel/></row>\
        <row><start-time id="15">1008333333</start-time><duration id="16">20000000</duration><signpost-name ref="3"/>\
        <category ref="4"/><subsystem ref="5"/><thread ref="6"/>\
        <os-log-metadata id="17">index 1 since-vsync 0 ns budget 8333333 ns</os-log-metadata></row>\
        <row><start-time id="18">1033333333</start-time><duration ref="2"/><signpost-name ref="3"/>\
        <category ref="4"/><subsystem ref="5"/><thread ref="6"/>\
        <os-log-metadata id="19">index 2 since-vsync 0 ns budget 8333333 ns</os-log-metadata></row>\
        </node>\
        <node><schema name="hitches-renders"><col><mnemonic>start</mnemonic><name>Start</name></col>\
        <col><mnemonic>duration</mnemonic><name>Duration</name></col></schema>\
        <row><start-time id="20">1038000000</start-time><duration id="21">12000000</duration></row></node>\
        <node><schema name="hitches"><col><mnemonic>start</mnemonic><name>Start</name></col>\
        <col><mnemonic>duration</mnemonic><name>Duration</name></col>\
        <col><mnemonic>process</mnemonic><name>Process</name></col><col><mnemonic>is-system</mnemonic><name>Is System</name></col>\
        <col><mnemonic>narrative-description</mnemonic><name>Potential Issue</name></col></schema>\
        <row><start-time id="22">1041666666</start-time><duration id="23">8333333</duration><process ref="8"/>\
        <boolean id="24">0</boolean><sentinel/></row>\
        <row><start-time id="25">3000000000</start-time><duration id="26">25000000</duration><process ref="8"/>\
        <boolean ref="24"/><string id="27">Potentially expensive app update(s)</string></row>\
        <row><start-time id="28">1500000000</start-time><duration ref="26"/><process ref="8"/>\
        <boolean id="29">1</boolean><sentinel/></row>\
        </node></trace-query-result>
        """
}
