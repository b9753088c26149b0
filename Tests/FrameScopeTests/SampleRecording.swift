import FrameScope
import FrameTrace

extension Category {
    /// A custom category, registered once like an app would.
    static let networking = Category.named("networking")
}

/// One simulated 60 Hz frame, recorded with a manual clock so every timestamp is known: the golden
/// test compares its export byte for byte and the parse-back tests check its contents.
///
/// Recorded on a new thread designated as the trace's main thread (tests do not run on the
/// process's main thread), with a second thread as the worker. Times in µs from 0:
/// ```
/// frame 1 [frame]                      0 .. 5750.002
///   touch down [input] (instant)       0
///   handle input [input]               100 .. 300
///   layout feed [layout]               300 .. 2050.001
///     measure text [layout]            1300 .. 1800
///     round avatar [corner-rounding]   1800 .. 2050.001
///   decode queue depth (counter) = 3   2050.001
///   apply diff [diff-apply]            2050.001 .. 2350.001
///   decode hero image [image-decode]   b 2350.001 (main) .. e 4410.001 (decode-worker-1)
///   apply image [image-decode]         4410.001 .. 4450.001, flow "decoded image" ends at 4410.001
///   commit [render]                    4450.001 .. 5650.001
///   fetch [networking]                 5650.001 .. 5750.001
///   decode queue depth (counter) = 2.5 5750.001
/// decode-worker-1:
///   decode thumbnail [image-decode]    2400.001 .. 4400.001, flow "decoded image" starts at 4400.001
/// ```
func makeSampleRecording() -> Recorder {
    let clock = ManualClock()
    // A 60 Hz display, stated explicitly: a recorder states no frame interval by default.
    let recorder = Recorder(configuration: .init(frameRate: .standard), clock: .manual(clock))
    runOnNewThread {
        recorder.designateCurrentThreadAsMain()
        recordSampleFrame(recorder: recorder, clock: clock)
    }
    return recorder
}

private func recordSampleFrame(recorder: Recorder, clock: ManualClock) {
    recorder.withSpan(
        "frame 1", category: .frame,
        arguments: ["index": 1, "refresh-hz": 60.0, "scenario": "feed \"warm\"", "is-warm": true]
    ) {
        recorder.recordInstant("touch down", category: .input, arguments: ["x": 12.5, "y": 300])
        clock.advance(by: .microseconds(100))
        recorder.withSpan("handle input", category: .input) { clock.advance(by: .microseconds(200)) }
        recorder.withSpan("layout feed", category: .layout, arguments: ["cells": 15]) {
            clock.advance(by: .milliseconds(1))
            recorder.withSpan("measure text", category: .layout, arguments: ["lines": 3]) {
                clock.advance(by: .microseconds(500))
            }
            recorder.withSpan(
                "round avatar", category: .cornerRounding, arguments: ["radius": 8.5, "strategy": "opaque prerender"]
            ) {
                clock.advance(by: .nanoseconds(250_001))
            }
        }
        recorder.recordCounter("decode queue depth", value: 3, category: .imageDecode)
        recorder.withSpan(
            "apply diff", category: .diffApply, arguments: ["inserted": 2, "deleted": 1, "reconfigured": 0]
        ) {
            clock.advance(by: .microseconds(300))
        }

        // Work handed to a worker: an interval begun here and ended there, and a flow from the
        // worker's decode back to the main thread's apply.
        let hero = Handoff(recorder.beginInterval("decode hero image", category: .imageDecode))
        let flow = recorder.makeFlow("decoded image", category: .imageDecode)
        clock.advance(by: .microseconds(50))
        runOnNewThread {
            recorder.nameCurrentThread("decode-worker-1")
            recorder.withSpan(
                "decode thumbnail", category: .imageDecode, arguments: ["bytes": 48_213, "format": "png"]
            ) {
                clock.advance(by: .milliseconds(2))
                recorder.startFlow(flow)
            }
            clock.advance(by: .microseconds(10))
            hero.take()?.end()
        }

        recorder.withSpan("apply image", category: .imageDecode) {
            recorder.finishFlow(flow)
            clock.advance(by: .microseconds(40))
        }
        recorder.withSpan("commit", category: .render) { clock.advance(by: .nanoseconds(1_200_000)) }
        recorder.withSpan("fetch", category: .networking) { clock.advance(by: .microseconds(100)) }
        recorder.recordCounter("decode queue depth", value: 2.5, category: .imageDecode)
        clock.advance(by: .nanoseconds(1))
    }
}
