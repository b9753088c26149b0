import Foundation
import FrameScope
import FrameScopeTesting
import FrameTrace
import Synchronization
import Testing

/// Code a user might test: decodes on a thread of its own, lays out on the caller's.
private struct ThumbnailLoader {
    let recorder: Recorder
    let clock: ManualClock

    func load() {
        let (recorder, clock) = (self.recorder, self.clock)
        recorder.withSpan("layout", category: .layout) { clock.advance(by: .milliseconds(2)) }
        let done = DispatchSemaphore(value: 0)
        Thread {
            recorder.nameCurrentThread("decoder")
            recorder.withSpan("decode", category: .imageDecode, arguments: ["bytes": .int(4096)]) {
                clock.advance(by: .milliseconds(5))
            }
            done.signal()
        }.start()
        done.wait()
    }
}

@Suite("TestRecorder: a recorder double for users' tests")
struct TestRecorderTests {
    @Test("Spans come back as values: name, category, thread, start, duration, arguments")
    func spansAsValues() throws {
        let test = TestRecorder(start: 1_000)
        ThumbnailLoader(recorder: test.recorder, clock: test.clock).load()
        #expect(test.spans.map(\.name) == ["layout", "decode"])
        let decode = try #require(test.spans(named: "decode").first)
        #expect(decode.category == "image-decode")
        #expect(decode.threadName == "decoder")
        #expect(decode.start == 2_001_000)
        #expect(decode.duration == 5_000_000)
        #expect(decode.arguments["bytes"]?.integerValue == 4096)
        #expect(test.spans(in: .layout).map(\.duration) == [2_000_000])
        #expect(test.droppedEvents == 0)
    }

    @Test("The thread that creates the test recorder plays the main thread, wherever the test runs")
    func creatingThreadIsMain() throws {
        let test = TestRecorder()
        ThumbnailLoader(recorder: test.recorder, clock: test.clock).load()
        #expect(try #require(test.spans(named: "layout").first).threadName == "main")
        #expect(test.spans(named: "decode").first?.threadName == "decoder")
    }

    @Test("Frames are the spans in the frame category; a full buffer is counted, not silent")
    func framesAndDrops() {
        let test = TestRecorder(capacity: 4)
        for index in 0..<3 {
            test.recorder.withFrame(
                vsync: Int64(index) * 16_666_667, deadline: Int64(index + 1) * 16_666_667, index: index
            ) {
                test.advance(by: .milliseconds(4))
            }
        }
        for _ in 0..<10 { test.recorder.withSpan("tiny", category: .other) {} }
        #expect(test.frames.count == 3)
        #expect(test.frames.allSatisfy { $0.duration == 4_000_000 })
        #expect(test.droppedEvents > 0)
        #expect(test.spans.count + Int(test.droppedEvents) == 13)
    }
}
