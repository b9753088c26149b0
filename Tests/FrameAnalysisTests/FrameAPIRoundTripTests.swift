import FrameScope
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// An app records frames with the public frame API under a manual clock; the analysis must read
/// back exactly the vsync, deadline, lateness and missed vsyncs the app meant.
@Suite("Frame API round trip")
struct FrameAPIRoundTripTests {
    /// One frame as the app sees it: its refresh interval, when its work starts after the vsync,
    /// and how long the work takes (all in nanoseconds).
    struct PlannedFrame {
        var interval: Int64
        var startAfterVsync: Int64
        var work: Int64
    }

    /// Drives a recorder the way a display-link callback would and returns the analysed report.
    static func record(_ plan: [PlannedFrame], relative: Bool) throws -> (FrameReport, [Int64]) {
        let clock = ManualClock(start: 1_000_000_000)
        let recorder = Recorder(clock: .manual(clock))
        recorder.designateCurrentThreadAsMain()
        var vsync: Int64 = 1_000_000_000
        var vsyncs: [Int64] = []
        for (index, frame) in plan.enumerated() {
            clock.set(nanoseconds: vsync + frame.startAfterVsync)
            vsyncs.append(vsync)
            let body = {
                recorder.withSpan("layout", category: .layout) { clock.advance(by: .nanoseconds(frame.work / 2)) }
                clock.advance(by: .nanoseconds(frame.work - frame.work / 2))
            }
            if relative {
                recorder.withFrame(
                    sinceVsync: .nanoseconds(frame.startAfterVsync), budget: .nanoseconds(frame.interval), index: index,
                    body)
            } else {
                recorder.withFrame(vsync: vsync, deadline: vsync + frame.interval, index: index, body)
            }
            // The next vsync is the first one after the work ended, as on a display.
            let end = vsync + frame.startAfterVsync + frame.work
            let next = plan.indices.contains(index + 1) ? plan[index + 1].interval : frame.interval
            vsync += frame.interval
            while vsync < end { vsync += next }
        }
        let trace = recorder.snapshot()
        let readBack = try TraceReader.read(bytes: trace.chromeJSON())
        return (FrameAnalyzer.analyze(readBack), vsyncs)
    }

    static let p60: Int64 = 16_666_667
    static let p120: Int64 = 8_333_333

    @Test(
        "Frames recorded at 60 and 120 Hz and at mixed rates read back with their vsync, deadline and lateness",
        arguments: [false, true])
    func roundTrip(relative: Bool) throws {
        let plans: [[PlannedFrame]] = [
            [
                .init(interval: Self.p60, startAfterVsync: 200_000, work: 4_000_000),
                .init(interval: Self.p60, startAfterVsync: 100_000, work: 30_000_000),
                .init(interval: Self.p60, startAfterVsync: 50_000, work: 16_000_000),
            ],
            [
                .init(interval: Self.p120, startAfterVsync: 100_000, work: 2_000_000),
                .init(interval: Self.p120, startAfterVsync: 100_000, work: 9_000_000),
                .init(interval: Self.p120, startAfterVsync: 0, work: 8_333_333),
            ],
            // ProMotion: 120, 80 and 48 Hz frames in one recording, each judged by its own budget.
            [
                .init(interval: Self.p120, startAfterVsync: 100_000, work: 7_000_000),
                .init(interval: 12_500_000, startAfterVsync: 100_000, work: 10_000_000),
                .init(interval: 20_833_333, startAfterVsync: 100_000, work: 22_000_000),
                .init(interval: Self.p120, startAfterVsync: 300_000, work: 1_000_000),
            ],
        ]
        for plan in plans {
            let (report, vsyncs) = try Self.record(plan, relative: relative)
            #expect(report.method.frameSource == .frameSpans)
            try #require(report.frames.count == plan.count)
            // Export rebases the clock so the first event is at 0; everything else is exact.
            let shift = vsyncs[0] - report.frames[0].vsync
            #expect(report.frames[0].workStart == 0)
            for (index, frame) in report.frames.enumerated() {
                let planned = plan[index]
                #expect(frame.vsync + shift == vsyncs[index], "frame \(index) vsync")
                #expect(frame.deadline + shift == vsyncs[index] + planned.interval, "frame \(index) deadline")
                #expect(frame.workStart + shift == vsyncs[index] + planned.startAfterVsync)
                #expect(frame.commitEnd + shift == vsyncs[index] + planned.startAfterVsync + planned.work)
                let overrun = planned.startAfterVsync + planned.work - planned.interval
                #expect(frame.overrun == overrun, "frame \(index) overrun")
                #expect(frame.mainThreadNanoseconds == planned.work)
            }
            let late = plan.filter { $0.startAfterVsync + $0.work > $0.interval }
            #expect(report.summary.lateFrames == late.count)
            let interval = report.method.frameRate.intervalNanoseconds
            let missed = late.map { ($0.startAfterVsync + $0.work - $0.interval + interval - 1) / interval }.reduce(
                0, +)
            #expect(report.summary.missedVsyncs == missed)
        }
    }

    @Test("The frame span is structure: its uncovered time is unattributed, and commit is a category of its own")
    func frameIsStructure() throws {
        let clock = ManualClock(start: 0)
        let recorder = Recorder(clock: .manual(clock))
        recorder.designateCurrentThreadAsMain()
        recorder.withFrame(vsync: 0, deadline: Self.p60) {
            clock.advance(by: .milliseconds(1))
            recorder.withSpan("layout", category: .layout) { clock.advance(by: .milliseconds(3)) }
            recorder.withSpan("commit", category: .commit) { clock.advance(by: .milliseconds(2)) }
        }
        let report = FrameAnalyzer.analyze(recorder.snapshot())
        let frame = try #require(report.frames.first)
        #expect(
            frame.mainByCategory == [
                FrameAnalyzer.unattributedCategory: 1_000_000, "layout": 3_000_000, "commit": 2_000_000,
            ])
        #expect(report.categories.first { $0.name == FrameContract.frameCategory } == nil)
        #expect(report.categories.first { $0.name == FrameContract.commitCategory }?.spanCount == 1)
    }

    @Test("Recorder.shared states no frame interval until the app sets one, and an explicit --fps wins over it")
    func frameIntervalSetting() throws {
        let recorder = Recorder(clock: .manual(ManualClock()))
        #expect(recorder.frameRate == nil)
        #expect(recorder.snapshot().metadata.frameIntervalNanoseconds == nil)
        recorder.frameRate = FrameRate(hertz: 120)
        #expect(recorder.snapshot().metadata.frameIntervalNanoseconds == Self.p120)
        let trace = recorder.snapshot()
        #expect(FrameAnalyzer.analyze(trace).method.frameIntervalSource.description == "trace metadata")
        let overridden = FrameAnalyzer.analyze(trace, options: AnalysisOptions(frameRate: FrameRate(hertz: 60)))
        #expect(overridden.method.frameRate.intervalNanoseconds == Self.p60)
        #expect(overridden.method.frameIntervalSource.description == "--fps 60 (over trace metadata 8.33 ms)")
    }
}
