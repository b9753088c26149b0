import Testing
@testable import FrameScope

@Suite("Recorder.shared and the property-style settings")
struct RecorderSharedTests {
    @Test("configureShared after shared is made changes nothing and says so")
    func configureAfterUse() {
        let before = Recorder.shared.configuration.perThreadCapacity
        #expect(!Recorder.configureShared(Recorder.Configuration(perThreadCapacity: 7)))
        #expect(Recorder.shared.configuration.perThreadCapacity == before)
    }

    @Test("isEnabled and frameInterval are settable properties; Recorder.disabled stays off")
    func properties() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        recorder.isEnabled = false
        recorder.withSpan("off", category: .layout) {}
        recorder.isEnabled = true
        recorder.withSpan("on", category: .layout) {}
        #expect(recorder.snapshot().events.count == 1)
        recorder.frameInterval = .nanoseconds(8_333_333)
        #expect(recorder.frameInterval == .nanoseconds(8_333_333))
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == 8_333_333)
        recorder.frameInterval = nil
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == nil)
        Recorder.disabled.isEnabled = true
        #expect(!Recorder.disabled.isEnabled)
    }
}
