import FrameTrace
import FrameTraceReader
import Testing

@Suite("Chrome trace reader: timestamps and durations")
struct ChromeJSONImporterTimeTests {
    @Test(
        "Microseconds in every number form become exact integer nanoseconds",
        arguments: [
            ("integer", 1_000),
            ("one decimal", 1_500),
            ("three decimals", 1_234),
            ("half rounds up", 1_001),
            ("below half rounds down", 1_000),
            ("exponent", 2_000_000),
            ("negative exponent", 2),
            ("explicit plus exponent", 125_000),
            ("string", 1_234_000),
            ("decimal string", 12_500),
            ("tiny", 0),
            ("negative", -5_250),
            ("large", 895_158_070_542_123),
            ("many digits", 1_234_568),
        ] as [(String, Int64)])
    func timestampForms(name: String, nanoseconds: Int64) throws {
        let trace = try Fixture.read("timestamps-number-forms.json")
        let event = try #require(trace.event(named: name))
        #expect(event.timestamp == nanoseconds)
    }

    @Test("Durations keep their fraction: 16666.667 microseconds is 16,666,667 nanoseconds")
    func durationFraction() throws {
        let trace = try Fixture.read("timestamps-number-forms.json")
        #expect(trace.event(named: "frame")?.duration == 16_666_667)
        #expect(trace.event(named: "zero")?.duration == 0)
    }

    @Test("displayTimeUnit does not change how ts is read")
    func displayTimeUnitIgnored() throws {
        let trace = try Fixture.read("display-time-unit-ns.json")
        #expect(trace.events.first?.timestamp == 1_500)
        #expect(trace.events.first?.duration == 2_000)
    }

    @Test(
        "displayTimeUnit ns in catapult's fixture does not change how ts and dur are read",
        .enabled(
            if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone; third-party checks skipped"
        ))
    func displayTimeUnitIgnoredByCatapultFixture() throws {
        let nanoseconds = try ThirdParty.read("catapult__nanoseconds.json")
        #expect(nanoseconds.events.first { nanoseconds.name(of: $0) == "ns1" }?.duration == 11)
    }

    @Test("Numbers out of range drop their event with a diagnostic instead of trapping")
    func hugeNumbers() throws {
        let trace = try Fixture.read("timestamps-huge.json")
        #expect(
            trace.events.map { trace.name(of: $0) } == ["fine", "id 1e400", "id 1e400", "ts 9e12 fits", "args huge"])
        #expect(trace.indexes(.invalidEvent) == [1, 2, 3, 4, 5, 8])
        #expect(trace.event(named: "ts 9e12 fits")?.timestamp == 9_000_000_000_000_000)
        let ids = trace.events(named: "id 1e400").map(\.id)
        #expect(ids.count == 2 && ids[0] == ids[1], "a number id that is not an integer hashes stably")
        let arguments = try trace.argumentDictionary(of: #require(trace.event(named: "args huge")))
        #expect(arguments["big"] == .double(.infinity))
        #expect(arguments["negative"] == .double(-.infinity))
        #expect(arguments["small"] == .double(0))
        #expect(arguments["int"] == .double(123456789012345678901234567890.0))
    }

    @Test(
        "Timestamps written by framescope's writer read back exactly",
        arguments: [0, 1, 999, 1_000, 1_001, 16_666_667, 123_456_789_012_345])
    func writerTimestampsExact(nanoseconds: Int64) throws {
        var trace = Trace()
        let thread = ThreadKey(processID: 1, threadID: 1)
        trace.append(.instant, name: "origin", thread: thread, timestamp: 0)
        trace.append(.complete, name: "span", thread: thread, timestamp: nanoseconds, duration: nanoseconds)
        let read = try TraceReader.read(bytes: trace.chromeJSON())
        #expect(read.event(named: "span")?.timestamp == nanoseconds)
        #expect(read.event(named: "span")?.duration == nanoseconds)
    }
}
