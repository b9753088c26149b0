import Foundation
import FrameTrace
import Synchronization
import Testing

@testable import FrameScope

/// The span API's contract: scoped and manual spans, disabled recording, intervals that cross
/// threads, flows, full buffers, and the strings that reach the trace.
@Suite("Recorder spans and edge cases")
struct RecorderSpanTests {
    enum DecodeError: Error, Equatable { case corrupt(Int) }

    /// Events of a snapshot other than metadata.
    static func events(_ recorder: Recorder) -> (trace: Trace, events: [TraceEvent]) {
        let trace = recorder.snapshot()
        return (trace, trace.events)
    }

    // MARK: - withSpan

    @Test("withSpan returns what its body returns and records one complete span")
    func withSpanReturnsBodyValue() throws {
        let clock = ManualClock(start: 1_000)
        let recorder = Recorder(clock: .manual(clock))
        let value = recorder.withSpan("layout cell", category: .layout, arguments: ["row": 7]) {
            clock.advance(by: .microseconds(3))
            return "frames"
        }
        #expect(value == "frames")
        let trace = recorder.snapshot()
        let event = try #require(trace.events.first)
        #expect(trace.events.count == 1)
        #expect(event.phase == .complete)
        #expect(trace.name(of: event) == "layout cell")
        #expect(trace.category(of: event) == "layout")
        #expect(event.timestamp == 1_000)
        #expect(event.duration == 3_000)
        #expect(trace.arguments(of: event) == [Argument("row", .int(7))])
    }

    @Test("withSpan rethrows its body's typed error and still records the span")
    func withSpanRethrowsTypedErrorAndRecords() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        do {
            _ = try recorder.withSpan("decode", category: .imageDecode) { () throws(DecodeError) -> Int in
                clock.advance(by: .microseconds(2))
                throw .corrupt(42)
            }
            Issue.record("withSpan did not throw")
        } catch {
            // Typed throws: `error` is a DecodeError here, not `any Error`.
            let typed: DecodeError = error
            #expect(typed == .corrupt(42))
        }
        let trace = recorder.snapshot()
        let event = try #require(trace.events.first)
        #expect(trace.name(of: event) == "decode")
        #expect(event.phase == .complete)
        #expect(event.duration == 2_000)
    }

    @Test("withSpan(named:) records a run-time name and rethrows")
    func dynamicNameSpan() throws {
        let recorder = Recorder()
        let name = "cell \(3)"
        #expect(throws: DecodeError.corrupt(1)) {
            try recorder.withSpan(named: name, category: .layout) { () throws(DecodeError) in throw .corrupt(1) }
        }
        let count = recorder.withSpan(named: name, category: .layout) { 5 }
        #expect(count == 5)
        let trace = recorder.snapshot()
        #expect(trace.events.map { trace.name(of: $0) } == ["cell 3", "cell 3"])
    }

    @Test("recordSpan records the start and end the caller measured, and evaluates arguments only when enabled")
    func recordSpanUsesGivenTimes() throws {
        let recorder = Recorder(clock: .manual(ManualClock()))
        var evaluations = 0
        func arguments() -> SpanArguments {
            evaluations += 1
            return ["since-vsync-ns": 250]
        }
        recorder.recordSpan("frame", category: .frame, start: 1_000, end: 17_667, arguments: arguments())
        recorder.isEnabled = false
        recorder.recordSpan("ignored", category: .frame, start: 0, end: 1, arguments: arguments())
        #expect(evaluations == 1)
        let trace = recorder.snapshot()
        let event = try #require(trace.events.first)
        #expect(trace.events.count == 1)
        #expect(trace.name(of: event) == "frame" && trace.category(of: event) == "frame")
        #expect((event.timestamp, event.duration) == (1_000, 16_667))
        #expect(trace.arguments(of: event) == [Argument("since-vsync-ns", .int(250))])
    }

    @Test("Nested spans on one thread are complete events, each child inside its parent")
    func nestedSpansNest() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        recorder.withSpan("outer", category: .frame) {
            clock.advance(by: .nanoseconds(10))
            recorder.withSpan("middle", category: .layout) {
                clock.advance(by: .nanoseconds(5))
                recorder.withSpan("inner", category: .cornerRounding) { clock.advance(by: .nanoseconds(1)) }
                clock.advance(by: .nanoseconds(5))
            }
            clock.advance(by: .nanoseconds(10))
        }
        let trace = recorder.snapshot()
        let byName = Dictionary(uniqueKeysWithValues: trace.events.map { (trace.name(of: $0), $0) })
        let outer = try #require(byName["outer"])
        let middle = try #require(byName["middle"])
        let inner = try #require(byName["inner"])
        #expect([outer, middle, inner].allSatisfy { $0.phase == .complete && $0.thread == outer.thread })
        #expect((outer.timestamp, outer.duration) == (0, 31))
        #expect((middle.timestamp, middle.duration) == (10, 11))
        #expect((inner.timestamp, inner.duration) == (15, 1))
        let text = String(decoding: trace.chromeJSON(), as: UTF8.self)
        #expect(!text.contains("\"ph\":\"b\""))
    }

    // MARK: - Disabled recording

    @Test("A disabled recorder records nothing and never evaluates arguments, but runs every body")
    func disabledRecorderRecordsNothing() async throws {
        let recorder = Recorder(configuration: .init(isEnabled: false))
        var evaluations = 0
        func arguments() -> SpanArguments {
            evaluations += 1
            return ["evaluated": true]
        }
        #expect(!recorder.isEnabled)
        let value = recorder.withSpan("sync", category: .layout, arguments: arguments()) { 1 }
        let named = recorder.withSpan(named: "dynamic", category: .layout, arguments: arguments()) { 2 }
        recorder.recordInstant("instant", category: .input, arguments: arguments())
        recorder.recordCounter("counter", value: 1)
        let flow = recorder.makeFlow("flow")
        recorder.startFlow(flow)
        recorder.finishFlow(flow)
        let asyncValue = await recorder.withSpan("async", category: .layout, arguments: arguments()) {
            await Task.yield()
            return 3
        }
        #expect(value == 1 && named == 2 && asyncValue == 3)
        #expect(evaluations == 0)
        #expect(recorder.snapshot().events.isEmpty)
        #expect(recorder.droppedEventCounts.isEmpty)

        recorder.isEnabled = true
        recorder.withSpan("after enabling", category: .layout, arguments: arguments()) {}
        #expect(evaluations == 1)
        let trace = recorder.snapshot()
        #expect(trace.events.map { trace.name(of: $0) } == ["after enabling"])

        recorder.isEnabled = false
        recorder.withSpan("disabled again", category: .layout, arguments: arguments()) {}
        #expect(evaluations == 1)
        #expect(recorder.snapshot().events.count == 1)
    }

    @Test("beginInterval on a disabled recorder is a no-op, even if recording is enabled before it ends")
    func beginIntervalOnDisabledRecorder() {
        let recorder = Recorder(configuration: .init(isEnabled: false))
        let interval = recorder.beginInterval("load", category: .diffApply)
        #expect(recorder.openIntervalCount == 0)
        recorder.isEnabled = true
        interval.end()
        #expect(recorder.openIntervalCount == 0)
        #expect(recorder.snapshot().events.isEmpty)
    }

    @Test("A span open when recording is turned off still ends and is recorded")
    func spanOpenAcrossDisableStillEnds() {
        let recorder = Recorder()
        let interval = recorder.beginInterval("open", category: .layout)
        recorder.withSpan("scoped", category: .layout) { recorder.isEnabled = false }
        interval.end()
        let trace = recorder.snapshot()
        #expect(Set(trace.events.map { trace.name(of: $0) }) == ["open", "scoped"])
    }

    // MARK: - Intervals

    @Test("openIntervalCount counts intervals begun and not ended, and the metadata reports them")
    func openIntervalCount() throws {
        let recorder = Recorder()
        #expect(recorder.openIntervalCount == 0)
        let first = recorder.beginInterval("first", category: .layout)
        let second = recorder.beginInterval("second", category: .layout)
        #expect(recorder.openIntervalCount == 2)
        first.end()
        #expect(recorder.openIntervalCount == 1)
        _ = consume second  // dropped without end(): still open, records nothing
        #expect(recorder.openIntervalCount == 1)
        let trace = recorder.snapshot()
        #expect(trace.events.map { trace.name(of: $0) } == ["first"])
        #expect(trace.metadata.extra == [Argument("open-intervals", .int(1))])
        let parsed = try parseTrace(trace.chromeJSON())
        let extra = try #require(parsed.metadata?["extra"] as? [String: Any])
        #expect(extra["open-intervals"] as? Int == 1)
    }

    @Test("An interval ended on the thread it began on is a complete event")
    func sameThreadIntervalIsComplete() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        let interval = recorder.beginInterval("apply snapshot", category: .diffApply)
        clock.advance(by: .microseconds(7))
        interval.end()
        let trace = recorder.snapshot()
        let event = try #require(trace.events.first)
        #expect(trace.events.count == 1)
        #expect(event.phase == .complete)
        #expect(event.duration == 7_000)
        #expect(trace.category(of: event) == "diff-apply")
    }

    @Test("An interval begun on one thread and ended on another exports as b/e with one id, category and name, never X")
    func crossThreadIntervalExportsAsAsyncPair() throws {
        let clock = ManualClock()
        let recorder = Recorder(clock: .manual(clock))
        let box = IntervalBox()
        runOnNewThread {
            recorder.nameCurrentThread("begins")
            recorder.withSpan("before", category: .layout) { clock.advance(by: .microseconds(1)) }
            box.put(recorder.beginInterval("decode", category: .imageDecode))
        }
        clock.advance(by: .microseconds(5))
        runOnNewThread {
            recorder.nameCurrentThread("ends")
            box.take()?.end()
        }
        #expect(recorder.openIntervalCount == 0)
        let trace = recorder.snapshot()
        let decode = trace.events.filter { trace.name(of: $0) == "decode" }
        #expect(decode.map(\.phase) == [.asyncBegin, .asyncEnd])
        let begin = try #require(decode.first)
        let end = try #require(decode.last)
        #expect(begin.id != 0 && begin.id == end.id)
        #expect(trace.category(of: begin) == "image-decode" && trace.category(of: end) == "image-decode")
        #expect(trace.threadName(begin.thread) == "begins")
        #expect(trace.threadName(end.thread) == "ends")
        #expect(begin.timestamp == 1_000 && end.timestamp == 6_000)

        let parsed = try parseTrace(trace.chromeJSON())
        let exported = parsed.events(named: "decode")
        #expect(exported.map { $0["ph"] as? String } == ["b", "e"])
        #expect(exported[0]["id"] as? Int == exported[1]["id"] as? Int)
        #expect(exported[0]["cat"] as? String == "image-decode" && exported[1]["cat"] as? String == "image-decode")
        #expect(exported[0]["tid"] as? Int != exported[1]["tid"] as? Int)
    }

    @Test("Each cross-thread span gets its own async id")
    func crossThreadSpansHaveDistinctIDs() {
        let recorder = Recorder()
        let boxes = [IntervalBox(), IntervalBox(), IntervalBox()]
        runOnNewThread { for box in boxes { box.put(recorder.beginInterval("hop", category: .imageDecode)) } }
        runOnNewThread { for box in boxes { box.take()?.end() } }
        let trace = recorder.snapshot()
        let begins = trace.events.filter { $0.phase == .asyncBegin }.map(\.id)
        let ends = trace.events.filter { $0.phase == .asyncEnd }.map(\.id)
        #expect(begins.count == 3)
        #expect(Set(begins).count == 3)
        #expect(Set(begins) == Set(ends))
    }

    @Test("An async withSpan whose task resumes on another thread exports as a b/e pair")
    func asyncSpanCrossingThreads() async throws {
        let recorder = Recorder()
        let executor = NewThreadPerJobExecutor()
        // Where the body ran before and after its suspension, as the recorder knows threads. The
        // executor starts a thread per job, but the runtime decides whether the task really hops,
        // so the export is checked against what happened.
        let serials = Mutex<[UInt64]>([])
        let value = await withTaskExecutorPreference(executor) {
            await recorder.withSpan("hop", category: .imageDecode, arguments: ["step": 1], isolation: nil) {
                serials.withLock { $0.append(threadSerial(recorder)) }
                await Task.yield()  // resumes as a new job, on a new thread
                serials.withLock { $0.append(threadSerial(recorder)) }
                return 11
            }
        }
        #expect(value == 11)
        let trace = recorder.snapshot()
        let hop = trace.events.filter { trace.name(of: $0) == "hop" }
        let observed = serials.withLock { $0 }
        try #require(observed.count == 2)
        guard observed[0] != observed[1] else {
            // The task resumed on the thread it began on: one complete event is the truth.
            #expect(hop.map(\.phase) == [.complete])
            return
        }
        #expect(hop.map(\.phase) == [.asyncBegin, .asyncEnd])
        let begin = try #require(hop.first)
        let end = try #require(hop.last)
        #expect(begin.thread != end.thread)
        #expect(begin.id == end.id)
        #expect(trace.arguments(of: begin) == [Argument("step", .int(1))])
        #expect(end.timestamp >= begin.timestamp)
    }

    @Test(
        "An async withSpan that does not suspend stays on its thread, so it is a complete event; its error is rethrown")
    func asyncSpanWithoutSuspension() async throws {
        let recorder = Recorder()
        let executor = NewThreadPerJobExecutor()
        let caught: DecodeError? = await withTaskExecutorPreference(executor) {
            do {
                try await recorder.withSpan("no suspension", category: .layout, isolation: nil) {
                    () async throws -> Void in
                    throw DecodeError.corrupt(2)
                }
                return nil
            } catch {
                return error as? DecodeError
            }
        }
        #expect(caught == .corrupt(2))
        let trace = recorder.snapshot()
        #expect(trace.events.map(\.phase) == [.complete])
        #expect(trace.events.first.map { trace.name(of: $0) } == "no suspension")
    }

    // MARK: - Flows

    @Test("A flow appears only once both ends are recorded, and the f end binds to its enclosing slice")
    func flowNeedsBothEnds() throws {
        let recorder = Recorder()
        let flow = recorder.makeFlow("decoded image", category: .imageDecode)
        runOnNewThread { recorder.withSpan("decode", category: .imageDecode) { recorder.startFlow(flow) } }
        #expect(!recorder.snapshot().events.contains { $0.phase == .flowStart || $0.phase == .flowEnd })

        recorder.withSpan("apply", category: .imageDecode) { recorder.finishFlow(flow) }
        let trace = recorder.snapshot()
        let ends = trace.events.filter { $0.phase == .flowStart || $0.phase == .flowEnd }
        #expect(ends.map(\.phase) == [.flowStart, .flowEnd])
        #expect(
            ends.allSatisfy {
                $0.id == flow.id && trace.name(of: $0) == "decoded image" && trace.category(of: $0) == "image-decode"
            })
        #expect(ends[0].thread != ends[1].thread)
        #expect(ends[1].bindingPoint == .enclosing)
        let text = String(decoding: trace.chromeJSON(), as: UTF8.self)
        #expect(text.contains(",\"id\":\(flow.id),\"bp\":\"e\"}"))
    }

    @Test("A flow whose start was drained earlier appears whole in the drain that sees its finish")
    func flowAcrossDrains() throws {
        let recorder = Recorder()
        let flow = recorder.makeFlow("result", category: .diffApply)
        let unfinished = recorder.makeFlow("never finished", category: .diffApply)
        recorder.withSpan("diff", category: .diffApply) {
            recorder.startFlow(flow)
            recorder.startFlow(unfinished)
        }
        let first = recorder.drain()
        #expect(first.events.map(\.phase) == [.complete])
        recorder.withSpan("apply", category: .diffApply) { recorder.finishFlow(flow) }
        let second = recorder.drain()
        #expect(
            second.events.filter { $0.phase == .flowStart || $0.phase == .flowEnd }.map(\.id) == [flow.id, flow.id])
        #expect(!second.events.contains { $0.id == unfinished.id && $0.phase != .complete })
        #expect(recorder.drain().events.isEmpty)
    }

    @Test("Flows get distinct ids")
    func flowIDsAreDistinct() {
        let recorder = Recorder()
        let ids = (0..<100).map { _ in recorder.makeFlow("f").id }
        #expect(Set(ids).count == 100)
    }

    // MARK: - Drain and snapshot

    @Test("drain hands each event out once; snapshot leaves events in place")
    func drainConsumesSnapshotDoesNot() {
        let recorder = Recorder()
        recorder.withSpan("one", category: .layout) {}
        recorder.recordInstant("two", category: .input)
        #expect(recorder.snapshot().events.count == 2)
        #expect(recorder.snapshot().events.count == 2)
        #expect(recorder.drain().events.count == 2)
        #expect(recorder.drain().events.isEmpty)
        #expect(recorder.snapshot().events.isEmpty)
        recorder.withSpan("three", category: .layout, arguments: ["n": 3]) {}
        let trace = recorder.drain()
        #expect(trace.events.map { trace.name(of: $0) } == ["three"])
        #expect(trace.events.first.map { trace.arguments(of: $0) } == [Argument("n", .int(3))])
    }

    // MARK: - Full buffers

    @Test("A full buffer drops events and counts them per thread, in droppedEventCounts and the exported metadata")
    func capacityExhaustionCountsDropsPerThread() throws {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 16))
        runOnNewThread {
            recorder.nameCurrentThread("twenty")
            for _ in 0..<20 { recorder.withSpan("span", category: .layout, arguments: ["a": 1]) {} }
        }
        runOnNewThread {
            recorder.nameCurrentThread("eighteen")
            for _ in 0..<18 { recorder.recordInstant("tick", category: .input) }
        }
        let trace = recorder.snapshot()
        let twenty = try #require(trace.threads.values.first { $0.name == "twenty" }?.key)
        let eighteen = try #require(trace.threads.values.first { $0.name == "eighteen" }?.key)
        #expect(trace.events.filter { $0.thread == twenty }.count == 16)
        #expect(trace.events.filter { $0.thread == eighteen }.count == 16)
        #expect(recorder.droppedEventCounts == [twenty: 4, eighteen: 2])
        #expect(trace.metadata.droppedEvents == [twenty: 4, eighteen: 2])

        let parsed = try parseTrace(trace.chromeJSON())
        let dropped = try #require(parsed.metadata?["dropped-events"] as? [String: Any])
        #expect(dropped["total"] as? Int == 6)
        let threads = try #require(dropped["threads"] as? [[String: Any]])
        let counts = Dictionary(
            uniqueKeysWithValues: threads.compactMap { entry -> (Int, Int)? in
                guard let tid = entry["tid"] as? Int, let count = entry["count"] as? Int else { return nil }
                return (tid, count)
            })
        #expect(counts == [Int(twenty.threadID): 4, Int(eighteen.threadID): 2])
    }

    @Test("After a drain frees a full buffer, the thread records again")
    func drainFreesFullBuffer() {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 16))
        runOnNewThread {
            for _ in 0..<20 { recorder.recordInstant("before", category: .input) }
            _ = recorder.drain()
            for _ in 0..<3 { recorder.recordInstant("after", category: .input) }
        }
        let trace = recorder.drain()
        #expect(trace.events.map { trace.name(of: $0) } == ["after", "after", "after"])
        #expect(recorder.droppedEventCounts.values.reduce(0, +) == 4)
    }

    @Test("Per-thread capacity rounds up to a power of two", arguments: [(10, 16), (16, 16), (17, 32), (1, 1)])
    func capacityRoundsUp(requested: Int, kept: Int) {
        let recorder = Recorder(configuration: .init(perThreadCapacity: requested))
        runOnNewThread { for _ in 0..<40 { recorder.recordInstant("tick", category: .input) } }
        #expect(recorder.snapshot().events.count == kept)
        #expect(recorder.droppedEventCounts.values.reduce(0, +) == Int64(40 - kept))
    }

    // MARK: - Threads

    @Test("A thread whose system name is the process name is called thread-N; a system name of its own is used")
    func defaultThreadNames() throws {
        let recorder = Recorder()
        #if os(Linux)
            // Linux threads start with their creator's name, the process name for threads the process
            // made itself; framescope treats that name as no name.
            let processName = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8).trimmingCharacters(
                in: .newlines)
            runOnNewThread {
                Thread.current.name = processName
                recorder.recordInstant("unnamed", category: .input)
            }
        #else
            runOnNewThread { recorder.recordInstant("unnamed", category: .input) }
        #endif
        runOnNewThread {
            Thread.current.name = "sys-named"  // sets the system (pthread) name of the current thread
            recorder.recordInstant("named", category: .input)
        }
        let trace = recorder.snapshot()
        let unnamed = try #require(trace.events.first { trace.name(of: $0) == "unnamed" })
        let named = try #require(trace.events.first { trace.name(of: $0) == "named" })
        #expect(trace.threadName(unnamed.thread) == "thread-\(unnamed.thread.threadID)")
        #expect(trace.threadName(named.thread) == "sys-named")
        #expect(trace.threads[unnamed.thread]?.sortIndex == unnamed.thread.threadID)
    }

    @Test("nameCurrentThread renames a thread that already recorded")
    func renameThread() {
        let recorder = Recorder()
        runOnNewThread {
            recorder.recordInstant("first", category: .input)
            recorder.nameCurrentThread("renamed")
        }
        let trace = recorder.snapshot()
        #expect(trace.threads.values.map(\.name) == ["renamed"])
    }

    // MARK: - Strings

    static let awkward = "quote \" backslash \\ newline \n tab \t return \r control \u{01} delete \u{7F} emoji 😀 é"

    @Test(
        "Names, categories, thread names and arguments with quotes, escapes, controls, emoji and invalid UTF-8 come back intact"
    )
    func awkwardStringsRoundTrip() throws {
        let recorder = Recorder()
        let invalid = String(decoding: [0x61, 0xFF, 0x62], as: UTF8.self)
        #expect(invalid == "a\u{FFFD}b")
        let category = Category.named("custom \"category\"\t😀")
        runOnNewThread {
            recorder.nameCurrentThread("worker \"1\"\n😀")
            recorder.withSpan(
                "quote \" backslash \\ newline \n tab \t return \r control \u{01} delete \u{7F} emoji 😀 é",
                category: category,
                arguments: SpanArguments([
                    Argument(Self.awkward, .string(Self.awkward)), Argument("invalid", .string(invalid)),
                ])
            ) {}
            recorder.withSpan(named: invalid, category: .layout) {}
            recorder.recordInstant(
                "tab\there", category: .input, arguments: SpanArguments([Argument(invalid, .string("\u{0}nul"))]))
        }
        let bytes = recorder.snapshot().chromeJSON()
        // Every control character inside strings is escaped; only the writer's own newlines remain.
        #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A })
        #expect(String(decoding: bytes, as: UTF8.self).contains("control \\u0001 delete"))

        let parsed = try parseTrace(bytes)
        let span = try parsed.event(named: Self.awkward)
        #expect(span["cat"] as? String == "custom \"category\"\t😀")
        #expect(span.args[Self.awkward] as? String == Self.awkward)
        #expect(span.args["invalid"] as? String == "a\u{FFFD}b")
        let dynamic = try parsed.event(named: "a\u{FFFD}b")
        #expect(dynamic["ph"] as? String == "X")
        let instant = try parsed.event(named: "tab\there")
        #expect(instant.args["a\u{FFFD}b"] as? String == "\u{0}nul")
        #expect(parsed.threadNames.values.contains("worker \"1\"\n😀"))
    }
}

/// Carries one ``Interval`` from the thread that begins it to the thread that ends it.
final class IntervalBox: Sendable {
    private let slot = Mutex<Interval?>(nil)

    func put(_ interval: consuming Interval) {
        var incoming: Interval? = consume interval
        slot.withLock { $0 = incoming.take() }
    }
    func take() -> Interval? { slot.withLock { $0.take() } }
}

/// A task executor that runs every job on a new thread, so a task that suspends always resumes on
/// a different thread than it suspended on.
/// The recorder's id for the calling thread (synchronous, so callable between suspensions).
func threadSerial(_ recorder: Recorder) -> UInt64 { recorder.currentThreadSerial() }

final class NewThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
