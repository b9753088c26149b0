import FrameTrace
import Synchronization
import Testing

@testable import FrameScope

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Threads that come and go: their buffers are handed back at exit and reused after a drain.
extension RecorderConcurrencyTests {
    static let churnThreads = 10_000
    static let churnWave = 8
    static let spansPerChurnThread = 10

    @Test(
        "10,000 short-lived threads × 10 spans while another thread drains: every span once, buffers bounded by the threads alive at once"
    )
    func threadChurn() throws {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 64))
        let drains = Atomic<Int>(0)
        let spawningDone = Atomic<Bool>(false)
        let result = Mutex<(seen: [Int], problems: [String])?>(nil)
        let waves = Self.churnThreads / Self.churnWave

        runOnNewThreads(2) { role in
            if role == 1 {
                // The drainer: drains until the spawner is done, then once more.
                var seen: [Int] = []
                var problems: [String] = []
                func take(_ trace: Trace) {
                    for event in trace.events where event.phase == .complete {
                        guard trace.name(of: event) == "churn",
                            case .int(let id)? = trace.arguments(of: event).first?.value
                        else {
                            problems.append("unexpected event \(trace.name(of: event))")
                            continue
                        }
                        seen.append(Int(id))
                    }
                }
                while !spawningDone.load(ordering: .acquiring) {
                    take(recorder.drain())
                    drains.add(1, ordering: .releasing)
                }
                take(recorder.drain())
                result.withLock { $0 = (seen, problems) }
                return
            }
            // The spawner: waves of short-lived threads. After each wave has exited it waits for
            // a drain that began after the exits, so the next wave finds the handed-back buffers.
            for wave in 0..<waves {
                runOnNewThreads(Self.churnWave) { index in
                    let thread = wave * Self.churnWave + index
                    for span in 0..<Self.spansPerChurnThread {
                        recorder.withSpan(
                            "churn", category: .layout,
                            arguments: ["id": .int(Int64(thread * Self.spansPerChurnThread + span))]
                        ) {}
                    }
                }
                let target = drains.load(ordering: .acquiring) + 2
                while drains.load(ordering: .acquiring) < target { sched_yield() }
            }
            spawningDone.store(true, ordering: .releasing)
        }

        let (seen, problems) = try #require(result.withLock { $0 })
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        let total = Self.churnThreads * Self.spansPerChurnThread
        #expect(seen.count == total)
        #expect(Set(seen).count == total, "every span exactly once")
        #expect(seen.allSatisfy { (0..<total).contains($0) })
        #expect(recorder.droppedEventCounts.isEmpty)
        // Only one wave is ever alive or awaiting its drain, so its buffers are all there are.
        #expect(recorder.threadBufferCount <= Self.churnWave, "\(recorder.threadBufferCount) buffers")
    }

    @Test("An exited thread's events stay until the next drain, and only then is its buffer reused")
    func exitedThreadBufferWaitsForDrain() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        runOnNewThread { recorder.withSpan("first thread", category: .layout) {} }
        #expect(recorder.snapshot().events.count == 1, "a snapshot keeps an exited thread's events")
        runOnNewThread { recorder.withSpan("second thread", category: .layout) {} }
        #expect(recorder.threadBufferCount == 2, "the first buffer still holds undrained events")
        let drained = recorder.drain()
        #expect(drained.events.map { drained.name(of: $0) }.sorted() == ["first thread", "second thread"])
        #expect(Set(drained.events.map(\.thread)).count == 2)
        runOnNewThread { recorder.withSpan("third thread", category: .layout) {} }
        runOnNewThread { recorder.withSpan("fourth thread", category: .layout) {} }
        #expect(recorder.threadBufferCount == 2, "the later threads reuse the handed-back buffers")
        let later = recorder.drain()
        #expect(later.events.map { later.name(of: $0) }.sorted() == ["fourth thread", "third thread"])
        #expect(later.threads.count == 2, "handed-back threads are not listed again")
    }

    @Test("Recording into four recorders in turn from one thread takes the lock once per recorder")
    func severalRecordersOnOneThreadTakeNoLock() {
        let recorders = (0..<4).map { _ in Recorder(clock: .manual(ManualClock())) }
        runOnNewThread {
            for _ in 0..<1_000 {
                for recorder in recorders { recorder.withSpan("turn", category: .layout, arguments: ["k": 1]) {} }
            }
        }
        for recorder in recorders {
            #expect(recorder.snapshot().events.count == 1_000)
            #expect(recorder.lockedLookups.load(ordering: .relaxed) == 1)
        }
    }

    @Test("Recorder.disabled records nothing, cannot be enabled, never evaluates arguments and runs every body")
    func disabledRecorder() {
        let recorder = Recorder.disabled
        recorder.isEnabled = true
        #expect(!recorder.isEnabled)
        let evaluated = Atomic<Int>(0)
        func arguments() -> SpanArguments {
            evaluated.add(1, ordering: .relaxed)
            return ["k": 1]
        }
        let value = recorder.withSpan("nothing", category: .layout, arguments: arguments()) { 7 }
        recorder.recordInstant("nothing", arguments: arguments())
        recorder.recordCounter("nothing", value: 1)
        recorder.withFrame(budget: .milliseconds(16)) {}
        recorder.beginInterval("nothing").end()
        #expect(value == 7)
        #expect(evaluated.load(ordering: .relaxed) == 0)
        #expect(recorder.snapshot().events.isEmpty)
        #expect(recorder.threadBufferCount == 0)
    }
}
