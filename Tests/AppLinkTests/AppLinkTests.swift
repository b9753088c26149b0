import FrameScope
import Testing

/// An app's view of framescope: this target depends on FrameScope alone (see Package.swift), so
/// it builds only if recording, frames and export need neither the trace reader nor analysis.
@Suite("What an app links")
struct AppLinkTests {
    @Test("An app records frames and spans and exports a trace with FrameScope alone")
    func recordAndExport() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        recorder.withFrame(vsync: 0, deadline: 16_666_667, index: 0) {
            recorder.withSpan("layout", category: .layout) { clock.advance(by: .milliseconds(2)) }
        }
        let trace = recorder.snapshot()
        #expect(trace.events.count == 2)
        let json = String(decoding: trace.chromeJSON(), as: UTF8.self)
        #expect(json.contains("\"name\":\"layout\"") && json.contains("\"name\":\"frame\""))
    }
}
