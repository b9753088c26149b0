import FrameTrace
import Testing

@testable import FrameScope

/// The signpost mirror's switch and its promise never to change what is recorded. On Linux the
/// mirror cannot exist, so these tests check that it stays off and costs the recording nothing; on
/// an Apple platform (where nobody has run them yet) the same tests exercise the mirrored paths.
@Suite("The signpost mirror: a switch beside isEnabled that never changes the recording")
struct SignpostMirrorTests {
    @Test("The mirror exists exactly where the os module does")
    func mirrorExistsWhereOSDoes() {
        #if canImport(os)
            #expect(Recorder.canMirrorToSignposts)
        #else
            #expect(!Recorder.canMirrorToSignposts)
        #endif
    }

    @Test("Starting and stopping the mirror leaves isEnabled alone, and isEnabled leaves the mirror alone")
    func mirrorIsASwitchBesideIsEnabled() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        recorder.stopMirroringToSignposts()  // in case FRAMESCOPE_SIGNPOSTS is set for this run
        #expect(!recorder.isMirroringToSignposts)
        recorder.startMirroringToSignposts()
        #expect(recorder.isMirroringToSignposts == Recorder.canMirrorToSignposts)
        #expect(recorder.isEnabled)
        recorder.isEnabled = false
        #expect(!recorder.isEnabled)
        #expect(
            recorder.isMirroringToSignposts == Recorder.canMirrorToSignposts, "turning recording off keeps the switch")
        recorder.isEnabled = true
        #expect(recorder.isEnabled && recorder.isMirroringToSignposts == Recorder.canMirrorToSignposts)
        recorder.stopMirroringToSignposts()
        #expect(!recorder.isMirroringToSignposts && recorder.isEnabled)

        Recorder.disabled.startMirroringToSignposts(subsystem: "com.example.never")
        #expect(!Recorder.disabled.isMirroringToSignposts && !Recorder.disabled.isEnabled)
    }

    @Test("A recording made with the mirror on is the recording made with it off", arguments: [false, true])
    func mirrorNeverChangesTheRecording(mirrored: Bool) throws {
        func record(mirroring: Bool) -> [String] {
            let clock = ManualClock(start: 1_000)
            let recorder = Recorder(clock: .manual(clock))
            if mirroring {
                recorder.startMirroringToSignposts(subsystem: "com.example.framescope-tests")
            } else {
                recorder.stopMirroringToSignposts()
            }
            recorder.withFrame(sinceVsync: .microseconds(1), budget: .milliseconds(16), index: 3) {
                recorder.withSpan("layout", category: .layout, arguments: ["row": 1]) {
                    clock.advance(by: .microseconds(2))
                }
                recorder.withSpan(named: "dynamic \(7)", category: .diffApply) { clock.advance(by: .microseconds(1)) }
                recorder.withSpan("x", category: .other) { clock.advance(by: .microseconds(1)) }  // a one-scalar name
                let interval = recorder.beginInterval("decode", category: .imageDecode)
                clock.advance(by: .microseconds(3))
                interval.end()
                recorder.recordInstant("tap", category: .input)
                recorder.recordCounter("queue depth", value: 2)
                recorder.recordSpan("measured", category: .render, start: 1_000, end: 2_500)
                recorder.withSpan("composite", category: .render) {
                    clock.advance(by: .microseconds(1))
                } argumentsAtEnd: { start, end in
                    ["took": .int(end - start)]
                }
            }
            let trace = recorder.snapshot()
            return trace.events.map { event in
                "\(event.phase) \(trace.name(of: event)) \(trace.category(of: event)) \(event.timestamp) \(event.duration) \(trace.arguments(of: event))"
            }
        }
        let plain = record(mirroring: false)
        #expect(plain.count == 9)
        #expect(record(mirroring: mirrored) == plain)
    }

    @Test("FRAMESCOPE_SIGNPOSTS: 1 is the default subsystem, another value names one, 0 or nothing is off")
    func environmentValue() {
        #expect(Recorder.signpostEnvironmentVariable == "FRAMESCOPE_SIGNPOSTS")
        #expect(Recorder.signpostSubsystem(environmentValue: nil) == nil)
        #expect(Recorder.signpostSubsystem(environmentValue: "") == nil)
        #expect(Recorder.signpostSubsystem(environmentValue: "0") == nil)
        #expect(Recorder.signpostSubsystem(environmentValue: "1") == Recorder.defaultSignpostSubsystem)
        #expect(Recorder.signpostSubsystem(environmentValue: "com.example.feed") == "com.example.feed")
    }

    @Test(
        "A frame's begin message is its index, the time since its vsync and its budget, and reads back",
        arguments: [
            (
                Int64?.some(7), Int64?.some(1_200_000), Int64(8_333_333),
                "index 7 since-vsync 1200000 ns budget 8333333 ns"
            ),
            (0, 0, 16_666_667, "index 0 since-vsync 0 ns budget 16666667 ns"),
            (nil, 5_000_000, 16_666_667, "index -1 since-vsync 5000000 ns budget 16666667 ns"),
            (3, nil, 16_666_667, "index 3 budget 16666667 ns"),
        ])
    func frameMessageRoundTrips(index: Int64?, sinceVsync: Int64?, budget: Int64, text: String) throws {
        let message = SignpostMessage.Frame(index: index, sinceVsyncNanoseconds: sinceVsync, budgetNanoseconds: budget)
        #expect(message.text == text)
        let parsed = try #require(SignpostMessage.Frame(parsing: text))
        #expect(parsed == message)
        #expect(
            parsed.index == index && parsed.sinceVsyncNanoseconds == sinceVsync && parsed.budgetNanoseconds == budget)
    }

    @Test("Out-of-range frame parts are written as the recording writes them: no index, no negative time, 1 ns budget")
    func frameMessageClampsLikeTheRecording() {
        let message = SignpostMessage.Frame(index: -4, sinceVsyncNanoseconds: -10, budgetNanoseconds: 0)
        #expect(message.text == "index -1 since-vsync 0 ns budget 1 ns")
    }

    @Test(
        "Text that is not exactly a frame message is refused",
        arguments: [
            "", "index 7", "index 7 budget 0 ns", "index 7 budget -5 ns", "index 7 budget 16 ms",
            "index 7 budget 16 ns ",
            " index 7 budget 16 ns", "index  7 budget 16 ns", "index 07 budget 16 ns", "index -2 budget 16 ns",
            "index 7 since-vsync -1 ns budget 16 ns", "index 7 budget 16 ns since-vsync 1 ns", "index x budget 16 ns",
            "index 7 since-vsync 1 budget 16 ns", "Index 7 budget 16 ns", "index 7 budget 99999999999999999999 ns",
        ])
    func malformedFrameMessagesAreRefused(text: String) {
        #expect(SignpostMessage.Frame(parsing: text) == nil)
    }

    @Test("A measured span's event message says how long it lasted and how long before the event it ended")
    func measuredSpanMessageRoundTrips() throws {
        let ended = SignpostMessage.MeasuredSpan(durationNanoseconds: 1_500, endedNanosecondsAgo: 250)
        #expect(ended.text == "measured span: 1500 ns ended 250 ns ago")
        #expect(SignpostMessage.MeasuredSpan(parsing: ended.text) == ended)
        let now = SignpostMessage.MeasuredSpan(durationNanoseconds: 42)
        #expect(now.text == "measured span: 42 ns")
        let old = try #require(SignpostMessage.MeasuredSpan(parsing: "measured span: 42 ns"))
        #expect(old.durationNanoseconds == 42 && old.endedNanosecondsAgo == 0)
        #expect(
            SignpostMessage.MeasuredSpan(durationNanoseconds: -3, endedNanosecondsAgo: -1).text == "measured span: 0 ns"
        )
        for text in [
            "measured span: 42", "measured span: 42 ns ended 1 ns", "measured span 42 ns", "measured span: 4.2 ns",
        ] {
            #expect(SignpostMessage.MeasuredSpan(parsing: text) == nil, "\(text)")
        }
    }

    @Test("Dynamic names go into the message of a signpost named span (intervals) or instant (events)")
    func dynamicNames() {
        #expect(SignpostMessage.dynamicSpanName.description == "span")
        #expect(SignpostMessage.dynamicInstantName.description == "instant")
        #expect(SignpostMessage.dynamicSpanName.hasPointerRepresentation, "OSSignposter reads names through a pointer")
    }
}
