import FrameTrace
import Testing

/// One frame rate, one conversion: a rate's interval is `1e9 / hertz` rounded half away from zero,
/// an interval stays as given, and a rate from input is checked, never trusted.
@Suite("Frame rates and their intervals")
struct FrameRateTests {
    @Test(
        "Common display rates give the intervals framescope has always written",
        arguments: [
            (60.0, 16_666_667), (120.0, 8_333_333), (30.0, 33_333_333), (24.0, 41_666_667), (90.0, 11_111_111),
            (144.0, 6_944_444), (240.0, 4_166_667), (1.0, 1_000_000_000), (1000.0, 1_000_000), (59.94, 16_683_350),
        ] as [(Double, Int64)])
    func commonRates(hertz: Double, nanoseconds: Int64) throws {
        let rate = FrameRate(hertz: hertz)
        #expect(rate.hertz == hertz)
        #expect(rate.intervalNanoseconds == nanoseconds)
        #expect(rate.interval == .nanoseconds(nanoseconds))
        #expect(try FrameRate(validating: hertz) == rate)
    }

    @Test("Every whole rate from 1 to 1000 Hz rounds as the five old conversions did")
    func wholeRatesRoundAsBefore() {
        for hertz in 1...1000 {
            // The expression DisplayConfiguration, the analysis and the budget each used to hold.
            let before = Int64((1e9 / Double(hertz)).rounded())
            #expect(FrameRate(hertz: Double(hertz)).intervalNanoseconds == before, "\(hertz) Hz")
        }
    }

    @Test("A half nanosecond rounds away from zero")
    func halvesRoundUp() {
        #expect(FrameRate(hertz: 4e8).intervalNanoseconds == 3)  // 2.5 ns
        #expect(FrameRate(hertz: 2e9).intervalNanoseconds == 1)  // 0.5 ns: the shortest interval
    }

    @Test("The standard rate is 60 Hz, a frame every 16,666,667 ns")
    func standardRate() {
        #expect(FrameRate.standard == FrameRate(hertz: 60))
        #expect(FrameRate.standard.intervalNanoseconds == 16_666_667)
        #expect(FrameRate.standard.description == "60 Hz")
        #expect(FrameRate.acceptedHertz == 1...1000)
    }

    @Test(
        "Rates from input outside the accepted range throw an error that says what was expected",
        arguments: [
            (0.0, "expected a frame rate from 1 to 1000, got 0"),
            (-60.0, "expected a frame rate from 1 to 1000, got -60"),
            (0.5, "expected a frame rate from 1 to 1000, got 0.5"),
            (1000.5, "expected a frame rate from 1 to 1000, got 1000.5"),
            (1e-300, "expected a frame rate from 1 to 1000, got 1e-300"),
            (1e300, "expected a frame rate from 1 to 1000, got 1e+300"),
            (Double.nan, "expected a frame rate from 1 to 1000, got nan"),
            (Double.infinity, "expected a frame rate from 1 to 1000, got inf"),
            (-Double.infinity, "expected a frame rate from 1 to 1000, got -inf"),
            (Double.greatestFiniteMagnitude, "expected a frame rate from 1 to 1000, got 1.7976931348623157e+308"),
        ] as [(Double, String)])
    func hostileRates(hertz: Double, message: String) {
        #expect(throws: FrameRateError.self) { try FrameRate(validating: hertz) }
        do {
            _ = try FrameRate(validating: hertz)
        } catch {
            #expect(error.description == message)
            #expect(error.range == FrameRate.acceptedHertz)
            #expect(error.expectedRange == "from 1 to 1000")
        }
    }

    @Test("A narrower range is the caller's, and a range that admits impossible rates still rejects them")
    func customRanges() throws {
        #expect(try FrameRate(validating: 240, in: 1...240).intervalNanoseconds == 4_166_667)
        #expect(throws: FrameRateError(value: 241, range: 1...240)) { try FrameRate(validating: 241, in: 1...240) }
        #expect(throws: FrameRateError(value: 0, range: 0...10)) { try FrameRate(validating: 0, in: 0...10) }
        let huge = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        #expect(throws: FrameRateError.self) { try FrameRate(validating: 1e-30, in: huge) }  // an interval past Int64
        #expect(throws: FrameRateError.self) { try FrameRate(validating: 3e9, in: huge) }  // under half a nanosecond
        #expect(throws: FrameRateError.self) { try FrameRate(validating: -1, in: huge) }
    }

    @Test("A rate made from an interval keeps the interval exactly")
    func fromIntervals() throws {
        for nanoseconds: Int64 in [1, 7, 8_333_333, 16_666_667, 16_683_350, 7_000_000, 1_000_000_000_000, .max] {
            let rate = try #require(FrameRate(intervalNanoseconds: nanoseconds))
            #expect(rate.intervalNanoseconds == nanoseconds)
            #expect(rate.hertz == 1e9 / Double(nanoseconds))
        }
        #expect(FrameRate(intervalNanoseconds: 0) == nil)
        #expect(FrameRate(intervalNanoseconds: -16_666_667) == nil)
        #expect(FrameRate(intervalNanoseconds: .min) == nil)
        #expect(FrameRate(intervalNanoseconds: 16_666_667)?.description == "60 Hz")
        #expect(FrameRate(intervalNanoseconds: 16_666_667) != FrameRate.standard)  // 59.9999988 Hz
    }

    @Test("A rate made from a duration keeps whole nanoseconds, at least one, at most Int64.max")
    func fromDurations() {
        #expect(FrameRate(interval: .nanoseconds(8_333_333))?.intervalNanoseconds == 8_333_333)
        #expect(FrameRate(interval: .milliseconds(8))?.intervalNanoseconds == 8_000_000)
        // truncated, as the recorder did
        #expect(FrameRate(interval: .seconds(1) / 60)?.intervalNanoseconds == 16_666_666)
        #expect(FrameRate(interval: .nanoseconds(1) / 4)?.intervalNanoseconds == 1)
        #expect(FrameRate(interval: .seconds(Int64.max))?.intervalNanoseconds == .max)
        #expect(FrameRate(interval: .zero) == nil)
        #expect(FrameRate(interval: .nanoseconds(-1)) == nil)
    }

    @Test("Descriptions round to three decimals and drop a whole rate's fraction")
    func descriptions() {
        #expect(FrameRate(hertz: 120).description == "120 Hz")
        #expect(FrameRate(hertz: 59.94).description == "59.94 Hz")
        #expect(FrameRate(hertz: 1e-9).description == "1e-09 Hz")
    }

    @Test("Trace metadata states a rate only for a positive interval, and setting a rate sets the interval")
    func metadata() {
        var metadata = TraceMetadata(frameIntervalNanoseconds: 8_333_333)
        #expect(metadata.frameRate?.intervalNanoseconds == 8_333_333)
        for hostile: Int64? in [nil, 0, -1, .min] {
            metadata.frameIntervalNanoseconds = hostile
            #expect(metadata.frameRate == nil)
        }
        metadata.frameRate = .standard
        #expect(metadata.frameIntervalNanoseconds == 16_666_667)
        metadata.frameRate = nil
        #expect(metadata.frameIntervalNanoseconds == nil)
        #expect(metadata.isEmpty)
    }
}
