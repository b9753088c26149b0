import FrameTrace
import Testing

@testable import FrameScope

/// The deprecated frame-interval spellings, reached through protocols so that calling them for
/// the test compiles without a deprecation warning (a conformance may use a deprecated witness).
private protocol LegacyFrameInterval: AnyObject {
    var frameInterval: Duration? { get set }
    func setFrameInterval(_ interval: Duration?)
}

extension Recorder: LegacyFrameInterval {}

private protocol LegacyConfiguration {
    init(
        perThreadCapacity: Int, totalCapacity: Int?, frameInterval: Duration?, processName: String, isEnabled: Bool,
        processID: Int64?)
    var frameInterval: Duration? { get set }
}

extension Recorder.Configuration: LegacyConfiguration {}

@Suite("Recorder.shared and the property-style settings")
struct RecorderSharedTests {
    @Test("configureShared after shared is made changes nothing and says so")
    func configureAfterUse() {
        let before = Recorder.shared.configuration.perThreadCapacity
        #expect(!Recorder.configureShared(Recorder.Configuration(perThreadCapacity: 7)))
        #expect(Recorder.shared.configuration.perThreadCapacity == before)
    }

    @Test("isEnabled and frameRate are settable properties; Recorder.disabled stays off")
    func properties() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        recorder.isEnabled = false
        recorder.withSpan("off", category: .layout) {}
        recorder.isEnabled = true
        recorder.withSpan("on", category: .layout) {}
        #expect(recorder.snapshot().events.count == 1)
        recorder.frameRate = FrameRate(hertz: 120)
        #expect(recorder.frameRate == FrameRate(hertz: 120))
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == 8_333_333)
        #expect(recorder.traceMetadata.frameRate?.intervalNanoseconds == 8_333_333)
        recorder.frameRate = nil
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == nil)
        Recorder.disabled.isEnabled = true
        #expect(!Recorder.disabled.isEnabled)
    }

    @Test("The deprecated frameInterval spellings still set the rate, and write the interval exactly as given")
    func deprecatedFrameInterval() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        let legacy: any LegacyFrameInterval = recorder
        legacy.frameInterval = .nanoseconds(8_333_333)
        #expect(legacy.frameInterval == .nanoseconds(8_333_333))
        #expect(recorder.frameRate?.intervalNanoseconds == 8_333_333)
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == 8_333_333)
        // A whole-millisecond interval, as an app measuring its display link might give: not a
        // whole rate, kept to the nanosecond; a sub-nanosecond interval keeps 1 ns, as before.
        legacy.setFrameInterval(.milliseconds(7))
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == 7_000_000)
        legacy.frameInterval = .nanoseconds(1) / 4
        #expect(recorder.traceMetadata.frameIntervalNanoseconds == 1)
        legacy.frameInterval = nil
        #expect(recorder.frameRate == nil)

        let legacyType: any LegacyConfiguration.Type = Recorder.Configuration.self
        var configuration = legacyType.init(
            perThreadCapacity: 8, totalCapacity: nil, frameInterval: .milliseconds(8), processName: "p",
            isEnabled: true, processID: nil)
        #expect((configuration as? Recorder.Configuration)?.frameRate == FrameRate(interval: .milliseconds(8)))
        #expect((configuration as? Recorder.Configuration)?.frameRate?.intervalNanoseconds == 8_000_000)
        configuration.frameInterval = nil
        #expect((configuration as? Recorder.Configuration)?.frameRate == nil)
        #expect(Recorder.Configuration().frameRate == nil)
        #expect(
            Recorder(configuration: .init(frameRate: .standard)).traceMetadata.frameIntervalNanoseconds == 16_666_667)
    }
}
