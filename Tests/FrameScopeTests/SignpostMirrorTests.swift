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
}
