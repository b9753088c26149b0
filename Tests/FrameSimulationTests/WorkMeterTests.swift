import Foundation
import FrameAnalysis
import FrameRuns
import FrameScope
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameSimulation

@Suite("Work meter: counted work priced into virtual time")
struct WorkMeterTests {
    private typealias Sample = WorkMeter.Sample

    @Test("A fit recovers per-call and per-unit costs that explain the samples exactly")
    func fitRecoversRates() throws {
        let samples = [100, 250, 400, 1_000].map {
            Sample(kind: .pngDecode, units: $0, nanoseconds: Int64(5_000 + 16 * $0))
        }
        let fit = try #require(WorkMeter.fit(samples).first)
        #expect(fit.kind == .pngDecode && fit.calls == 4 && fit.units == 1_750)
        #expect(abs(fit.rate.perCall - 5_000) < 1e-6)
        #expect(abs(fit.rate.perUnit - 16) < 1e-9)
        #expect(abs(fit.rSquared - 1) < 1e-12)
        #expect(fit.measured == Double(samples.reduce(0) { $0 + $1.nanoseconds }))
    }

    @Test(
        "Calls that all did the same units get the median call; a fit that would need a negative cost per call goes through the origin"
    )
    func fitEdgeCases() throws {
        let frames = [10_000, 12_000, 900_000, 11_000, 13_000].map {
            Sample(kind: .mainFrame, units: 1, nanoseconds: Int64($0))
        }
        let median = try #require(WorkMeter.fit(frames).first)
        #expect(
            median.rate.perCall == 0 && median.rate.perUnit == 12_000,
            "the 900 us first call is not spread over the rest")
        // Cost rises faster than the units: a free line would cross zero below 0 units.
        let steep = [(10, 10), (20, 40), (30, 70)].map {
            Sample(kind: .downsample, units: $0.0, nanoseconds: Int64($0.1))
        }
        let fit = try #require(WorkMeter.fit(steep).first)
        #expect(fit.rate.perCall == 0)
        #expect(abs(fit.rate.perUnit - (10.0 * 10 + 20 * 40 + 30 * 70) / (100.0 + 400 + 900)) < 1e-9)
        #expect(WorkMeter.fit([]).isEmpty)
    }

    @Test(
        "A model prices units: per call plus per unit, rounded; a kind without a rate costs nothing; never negative, never overflowing"
    )
    func prices() {
        let model = CostModel(
            name: "test",
            rates: [.downsample: .init(perCall: 1_000, perUnit: 2.5), .drawCopy: .init(perCall: -5, perUnit: 0)])
        #expect(model.cost(of: .downsample, units: 3) == 1_008)  // 1,007.5 rounds away from zero
        #expect(model.cost(of: .downsample, units: -4) == 1_000)
        #expect(model.cost(of: .pngDecode, units: 1_000) == 0)
        #expect(model.cost(of: .drawCopy, units: 1) == 0)
        #expect(model.cost(of: .downsample, units: .max) == 1_000_000_000_000_000)
    }

    @Test(
        "Without a meter the work just runs; a pricing meter moves its clock by each piece's own price, nested pieces included once"
    )
    func pricing() {
        #expect(WorkMeter.measure(.downsample) { (42, units: 10) } == 42)
        let clock = ManualClock(start: 100)  // a plain manual clock: not moved by readings
        let model = CostModel(
            name: "test",
            rates: [.downsample: .init(perCall: 0, perUnit: 10), .pngDecode: .init(perCall: 1_000, perUnit: 0)])
        var readingInside: Int64 = 0
        let result = WorkMeter.withCurrent(.pricing(model, clock: clock)) {
            WorkMeter.measure(.pngDecode) {
                let inner = WorkMeter.measure(.downsample) { ("inner", units: 7) }  // 70 ns
                return (inner + "+outer", units: 1)  // 1,000 ns
            }
        }
        #expect(result == "inner+outer")
        #expect(clock.nanoseconds == 100 + 70 + 1_000)
        // Units known up front are charged before the work runs.
        WorkMeter.withCurrent(.pricing(model, clock: clock)) {
            WorkMeter.measure(.downsample, units: 5) { readingInside = clock.nanoseconds }
        }
        #expect(readingInside == 100 + 1_070 + 50)
        #expect(WorkMeter.current == nil, "withCurrent restores the thread's previous meter")
    }

    @Test("The meter is the calling thread's: another thread runs unmetered")
    func meterIsPerThread() {
        let clock = ManualClock()
        let model = CostModel(name: "test", rates: [.downsample: .init(perCall: 500, perUnit: 0)])
        let seenElsewhere = LockedFlag()
        WorkMeter.withCurrent(.pricing(model, clock: clock)) {
            let done = DispatchSemaphore(value: 0)
            Thread {
                seenElsewhere.set(WorkMeter.current != nil)
                WorkMeter.measure(.downsample) { ((), units: 1) }
                done.signal()
            }.start()
            done.wait()
        }
        #expect(!seenElsewhere.value)
        #expect(clock.nanoseconds == 0, "the other thread's work was not priced")
    }

    @Test("A calibrating meter records each piece's kind, units and CPU time without the pieces nested in it")
    func calibrating() throws {
        let meter = WorkMeter(.calibrating)
        WorkMeter.withCurrent(meter) {
            WorkMeter.measure(.mainFrame, units: 1) {
                WorkMeter.measure(.pngDecode) {
                    spin(iterations: 20_000_000)
                    return ((), units: 64)
                }
            }
        }
        let samples = meter.samples
        try #require(samples.count == 2)
        #expect(samples[0].kind == .pngDecode && samples[0].units == 64)
        #expect(samples[1].kind == .mainFrame && samples[1].units == 1)
        #expect(samples[0].nanoseconds > 0)
        // The outer piece did nothing of its own but call the inner one: its own time is a small
        // part of the inner one's (with the inner time included it would be at least as long).
        #expect(samples[1].nanoseconds < samples[0].nanoseconds / 2)
    }
}

@Suite("Virtual time: frames decided by priced work")
struct VirtualTimeTests {
    @Test(
        "Priced work decides the frames exactly: 30 ms of counted main-thread work misses one vsync; a 20 ms job lands two frames on"
    )
    func pricedWorkDecidesTheFrames() throws {
        // One unit of downsampling costs 1 us on this device; nothing else costs anything.
        let (recorder, meter) = virtualTime(
            model: CostModel(name: "test", rates: [.downsample: .init(perCall: 0, perUnit: 1_000)]))
        let scenario = CountedScenario()
        scenario.mainUnits[2] = 30_000
        scenario.jobUnits = 20_000
        let summary = DisplayLoop(
            recorder: recorder,
            configuration: DisplayConfiguration(frameRate: .standard, frameCount: 6, workerCount: 2), meter: meter
        )
        .run(scenario)
        #expect(summary.missedVsyncs == 1)
        #expect(summary.lateFramesByCause == [.commit: 1])
        let trace = recorder.snapshot()
        #expect(trace.metadata.clock == TraceClock.virtual)
        let frames = trace.events.filter { $0.phase == .complete && trace.category(of: $0) == "frame" }.sorted {
            $0.timestamp < $1.timestamp
        }
        try #require(frames.count == 6)
        #expect(isPriced(frames[2].duration, 30_000_000), "the priced work")
        #expect(isPriced(frames[1].duration, 0))
        let job = try #require(trace.events.first { $0.phase == .complete && trace.name(of: $0) == "counted job" })
        #expect(isPriced(job.duration, 20_000_000))
        // Requested in frame 1 at V1, the job ends at V1 + 20 ms: after frame 2's vsync, before frame 3's.
        #expect(scenario.appliedInFrame == 3)
    }

    @Test(
        "A scenario run on virtual time prices every counted piece: with 1 ms a call, a background decode-and-round is 4 ms"
    )
    func runsArePricedPerPiece() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-priced-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let everyCall = CostModel(
            name: "1 ms a call",
            rates: Dictionary(
                uniqueKeysWithValues: WorkKind.allCases.map { ($0, CostModel.Rate(perCall: 1_000_000, perUnit: 0)) }))
        let corner = try #require(ScenarioCatalog.scenario(named: "corner-rounding"))
        let run = try ScenarioRun.execute(
            corner, strategy: "prerendered-opaque", settings: RunSettings(frames: 4), tracePath: path,
            costModel: everyCall)
        let trace = try TraceReader.read(contentsOf: path)
        #expect(trace.metadata.extra["cost-model"]?.stringValue == "1 ms a call")
        func durations(_ name: String) -> [Int64] {
            trace.events.filter { $0.phase == .complete && trace.name(of: $0) == name }.map(\.duration)
        }
        #expect(!durations("decode PNG").isEmpty && durations("decode PNG").allSatisfy { isPriced($0, 1_000_000) })
        #expect(!durations("downsample").isEmpty && durations("downsample").allSatisfy { isPriced($0, 1_000_000) })
        // A job's own work, the decode, the downsample and the rounding: one call each.
        #expect(durations("decode and prepare image").allSatisfy { isPriced($0, 4_000_000) })
        #expect(run.report.summary.frameCount == 4)
    }

    @Test("The same scenario and seed on virtual time give the same trace times and frame outcomes in two runs")
    func identicalRuns() throws {
        // Small photos keep a debug build quick; decoding priced at 1 us a pixel makes the frames
        // that decode on the main thread late, so the comparison covers late frames.
        var model = CostModel.reference
        model.rates[.pngDecode] = .init(perCall: 0, perUnit: 1_000)
        var outcomes: [[String]] = []
        var spans: [[Int64]] = []
        for _ in 0..<2 {
            let (recorder, meter) = virtualTime(model: model)
            let scenario = FeedScrollScenario(
                strategy: .manualMain, decode: .main, seed: 3, avatarCount: 3, photoCount: 5, photoSize: (96, 72))
            DisplayLoop(
                recorder: recorder, configuration: DisplayConfiguration(frameCount: 30, workerCount: 2), meter: meter
            ).run(scenario)
            let trace = recorder.snapshot()
            outcomes.append(
                FrameAnalyzer.analyze(trace).frames.map {
                    "\($0.index) \($0.vsync) \($0.commitEnd) \($0.hitchCause) \($0.mainThreadNanoseconds)"
                })
            spans.append(
                trace.events.filter { $0.phase == .complete }.flatMap { [$0.timestamp, $0.duration] }.sorted())
        }
        #expect(outcomes[0].count == 30)
        #expect(outcomes[0] == outcomes[1])
        #expect(spans[0] == spans[1])
        #expect(
            outcomes[0].contains { !$0.contains(" none ") }, "the run has late frames, so the comparison covers them")
    }
}

/// Whether a span lasted `nanoseconds` of priced work plus the nanosecond a virtual clock moves
/// at each reading (a few dozen readings at most in these spans).
private func isPriced(_ duration: Int64, _ nanoseconds: Int64) -> Bool {
    (nanoseconds..<(nanoseconds + 100)).contains(duration)
}

/// Work counted as downsampling units: main-thread work per frame, and one background job in
/// frame 1.
private final class CountedScenario: Scenario {
    var mainUnits: [Int: Int] = [:]
    var jobUnits = 0
    var appliedInFrame: Int?
    private var currentFrame = -1

    func frame(_ context: FrameContext) {
        currentFrame = context.frameIndex
        if context.frameIndex == 1, jobUnits > 0 {
            let units = jobUnits
            context.inBackground(
                "counted job", category: .imageDecode, work: { WorkMeter.measure(.downsample) { (0, units: units) } }
            ) {
                [unowned self] _ in appliedInFrame = currentFrame + 1  // applied before the frame's own work
            }
        }
        let units = mainUnits[context.frameIndex] ?? 0
        context.recorder.withSpan("work", category: .layout) { WorkMeter.measure(.downsample) { ((), units: units) } }
    }
}

/// A flag set on one thread and read on another.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set(_ value: Bool) { lock.withLock { flag = value } }
}

/// Work the optimizer cannot remove.
private func spin(iterations: Int) {
    var sink: UInt64 = 1
    for _ in 0..<iterations { sink = sink &* 6_364_136_223_846_793_005 &+ 1 }
    withExtendedLifetime(sink) {}
}
