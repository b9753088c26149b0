import FrameTrace
import Testing

@testable import FrameScope

/// The counter clock: the tick-to-nanosecond calibration math on synthetic readings, then a real
/// recording checked against monotonic-clock readings taken alongside.
@Suite("Recorder clock")
struct RecorderClockTests {
    /// A counter at 2,993,712,345 ticks per second that started long before the recording.
    static let ticksPerSecond: Int64 = 2_993_712_345
    static let originTicks: Int64 = 81_234_567_890_123
    static let originNanoseconds: Int64 = 5_000_000_000

    /// The counter's reading at `offset` nanoseconds after the origin (rounded down to a tick).
    static func ticks(atOffset offset: Int64) -> Int64 {
        originTicks + offset / 1_000_000_000 * ticksPerSecond + offset % 1_000_000_000 * ticksPerSecond / 1_000_000_000
    }

    @Test("Ticks convert to the monotonic time they were read at, over a 60-second recording")
    func conversionOverSixtySeconds() {
        let first = CalibrationPoint(ticks: Self.originTicks, nanoseconds: Self.originNanoseconds)
        let sixty: Int64 = 60_000_000_000
        let last = CalibrationPoint(ticks: Self.ticks(atOffset: sixty), nanoseconds: Self.originNanoseconds + sixty)
        let conversion = TickConversion(from: first, to: last)
        var worst: Int64 = 0
        for offset in stride(from: Int64(0), through: sixty, by: 7_777_777) {
            let converted = conversion.nanoseconds(ticks: Self.ticks(atOffset: offset))
            worst = max(worst, abs(converted - (Self.originNanoseconds + offset)))
        }
        // Exact points: only the tick's own rounding (a third of a nanosecond) and the rounding to
        // whole nanoseconds remain.
        #expect(worst <= 1)
    }

    @Test("Calibration points read 40 ns late or early still keep every conversion within 1 µs")
    func noisyCalibrationPointsStayWithinAMicrosecond() {
        let sixty: Int64 = 60_000_000_000
        for (firstError, lastError) in [(Int64(40), Int64(-40)), (-40, 40), (40, 40), (0, -40)] {
            let first = CalibrationPoint(ticks: Self.originTicks, nanoseconds: Self.originNanoseconds + firstError)
            let last = CalibrationPoint(
                ticks: Self.ticks(atOffset: sixty), nanoseconds: Self.originNanoseconds + sixty + lastError)
            let conversion = TickConversion(from: first, to: last)
            for offset in stride(from: Int64(0), through: sixty, by: 999_999_937) {
                let error =
                    conversion.nanoseconds(ticks: Self.ticks(atOffset: offset)) - (Self.originNanoseconds + offset)
                #expect(abs(error) <= 41, "offset \(offset): \(error) ns")
            }
        }
    }

    @Test("Conversion saturates instead of overflowing, and two points on one tick give a flat line")
    func conversionEdges() {
        let first = CalibrationPoint(ticks: .max - 10, nanoseconds: .max - 5)
        let last = CalibrationPoint(ticks: .max, nanoseconds: .max)
        let steep = TickConversion(
            from: CalibrationPoint(ticks: 0, nanoseconds: 0), to: CalibrationPoint(ticks: 1, nanoseconds: 1_000_000))
        #expect(TickConversion(from: first, to: last).nanoseconds(ticks: .max) == .max)
        #expect(TickConversion(from: first, to: last).nanoseconds(ticks: .min) == .min)
        #expect(steep.nanoseconds(ticks: .max) == .max)
        #expect(steep.nanoseconds(ticks: .min) == .min)
        let flat = TickConversion(from: first, to: first)
        #expect(flat.nanoseconds(ticks: 12_345) == first.nanoseconds)
        let backwards = TickConversion(from: last, to: first)
        #expect(backwards.nanosecondsPerTick == 0)
    }

    @Test("The default clock is the counter where the machine has one, and traces name it")
    func defaultClockIsNamed() {
        let recorder = Recorder()
        let name = recorder.snapshot().metadata.clock
        if RecorderClock.counter == nil {
            #expect(name == .monotonic)
        } else {
            #expect([TraceClock.tsc, .cntvct, .machAbsoluteTime].contains(name))
        }
        #expect(Recorder(clock: .monotonic).traceMetadata.clock == .monotonic)
        #expect(Recorder(clock: .manual(ManualClock())).traceMetadata.clock == .manual)
    }

    @Test(
        "Counter timestamps export within the monotonic readings taken around them",
        .enabled(
            if: RecorderClock.counter != nil, "no hardware counter on this machine: counter timestamps not checked"))
    func counterMatchesMonotonicReadings() throws {
        let clock = try #require(RecorderClock.counter)
        let recorder = Recorder(clock: clock)
        let monotonic = RecorderClock.monotonic
        var brackets: [(before: Int64, after: Int64)] = []
        for _ in 0..<200 {
            let before = monotonic.now()
            recorder.recordInstant("reading")
            brackets.append((before, monotonic.now()))
        }
        let instants = recorder.snapshot().events.filter { $0.phase == .instant }
        #expect(instants.count == brackets.count)
        // Generous: the calibration points are good to tens of nanoseconds on an idle machine, but
        // a busy one can preempt a point's bracketing reads.
        let tolerance: Int64 = 20_000
        for (event, bracket) in zip(instants, brackets) {
            #expect(
                event.timestamp >= bracket.before - tolerance && event.timestamp <= bracket.after + tolerance,
                "\(event.timestamp) outside \(bracket.before)...\(bracket.after)")
        }
    }

    @Test("With the counter clock, frames nest around their spans and caller-given nanoseconds stay as given")
    func counterClockKeepsUnitsConsistent() throws {
        let recorder = Recorder(clock: .fastest)
        let vsync = recorder.clock.now()
        recorder.withFrame(vsync: vsync, deadline: vsync + 16_666_667, index: 0) {
            recorder.withSpan("layout", category: .layout) {}
        }
        let after = recorder.clock.now()
        recorder.recordSpan("given", category: .layout, start: 1_000, end: 17_667)
        let trace = recorder.snapshot()
        let frame = try #require(trace.events.first { trace.name(of: $0) == "frame" })
        let child = try #require(trace.events.first { trace.name(of: $0) == "layout" })
        let given = try #require(trace.events.first { trace.name(of: $0) == "given" })
        #expect(frame.timestamp <= child.timestamp)
        #expect(child.endTimestamp <= frame.endTimestamp)
        #expect(given.timestamp == 1_000 && given.duration == 16_667)
        // The frame is on the time line of `vsync`, to within the generous bound used above.
        #expect(frame.timestamp >= vsync - 20_000 && frame.endTimestamp <= after + 20_000)
    }
}
