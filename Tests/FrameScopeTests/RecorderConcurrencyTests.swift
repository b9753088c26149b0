import Foundation
import FrameScope
import FrameTrace
import FramescopeTestSupport
import Synchronization
import Testing

/// Many threads recording into one recorder while others drain and snapshot it.
///
/// `.ci/run` also runs this suite alone under ThreadSanitizer:
/// `swift test --sanitize=thread --filter RecorderConcurrencyTests`.
@Suite("Recorder concurrency", .serialized)
struct RecorderConcurrencyTests {
    static let producerCount = 8
    /// Spans each producer makes: half `outer` spans, each with one `inner` span inside it; a fifth
    /// as many under ThreadSanitizer, where each one costs some 30 times more.
    static let spansPerProducer = threadSanitizerIsActive ? 20_000 : 100_000
    static var iterationsPerProducer: Int { spansPerProducer / 2 }
    /// Iterations each producer records before the drainer may start: 2 × 20 = 40 spans, more than
    /// a 16-record ring holds, so the small-capacity variant drops on every thread.
    static let iterationsBeforeDraining = 20

    /// One producer's iteration `i`: `outer` (layout) containing `inner` (image-decode), both
    /// carrying the producer index `t` and the iteration `i`.
    static func recordIteration(_ recorder: Recorder, producer: Int, iteration: Int) {
        recorder.withSpan(
            "outer", category: .layout, arguments: ["t": .int(Int64(producer)), "i": .int(Int64(iteration))]
        ) {
            recorder.withSpan(
                "inner", category: .imageDecode, arguments: ["t": .int(Int64(producer)), "i": .int(Int64(iteration))]
            ) {}
        }
    }

    @Test(
        "Eight threads recording 100,000 spans each (20,000 under ThreadSanitizer) while another drains: every span is drained once and intact or counted as dropped",
        arguments: [16, 131_072])
    func drainWhileRecording(capacity: Int) throws {
        let recorder = Recorder(configuration: .init(perThreadCapacity: capacity))
        let producers = Self.producerCount
        let warmedUp = DispatchGroup()
        for _ in 0..<producers { warmedUp.enter() }
        let finished = Atomic<Int>(0)
        let result = Mutex<DrainChecker?>(nil)

        runOnNewThreads(producers + 1) { index in
            if index == producers {
                // The drainer: drain repeatedly until every producer is done, then once more.
                warmedUp.wait()
                var checker = DrainChecker(producers: producers, iterations: Self.iterationsPerProducer)
                while finished.load(ordering: .sequentiallyConsistent) < producers { checker.check(recorder.drain()) }
                checker.check(recorder.drain())
                result.withLock { $0 = checker }
                return
            }
            for iteration in 0..<Self.iterationsPerProducer {
                Self.recordIteration(recorder, producer: index, iteration: iteration)
                if iteration + 1 == Self.iterationsBeforeDraining { warmedUp.leave() }
            }
            finished.add(1, ordering: .sequentiallyConsistent)
        }

        let checker = try #require(result.withLock { $0 })
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(10))")
        #expect(recorder.drain().events.isEmpty, "a final drain after everything was drained must be empty")

        // Made = recorded + dropped, exactly, on every thread.
        let dropped = recorder.droppedEventCounts
        #expect(Set(checker.threadOfProducer.values).count == producers)
        for producer in 0..<producers {
            let thread = try #require(checker.threadOfProducer[producer], "producer \(producer) recorded nothing")
            let recorded = checker.recorded[producer]
            #expect(recorded + Int(dropped[thread] ?? 0) == Self.spansPerProducer, "producer \(producer)")
        }
        #expect(Set(dropped.keys).isSubset(of: Set(checker.threadOfProducer.values)))
        let totalDropped = Int(dropped.values.reduce(0, +))
        #expect(checker.recorded.reduce(0, +) + totalDropped == producers * Self.spansPerProducer)
        if capacity < 2 * Self.iterationsBeforeDraining {
            // Each ring overflowed before the first drain.
            for producer in 0..<producers {
                let thread = try #require(checker.threadOfProducer[producer])
                #expect((dropped[thread] ?? 0) >= Int64(2 * Self.iterationsBeforeDraining - capacity))
            }
        } else {
            #expect(totalDropped == 0)
            #expect(checker.recorded.allSatisfy { $0 == Self.spansPerProducer })
            #expect(checker.unmatchedCount == 0, "every inner span was checked against its outer span")
        }
    }

    @Test("snapshot() while threads record sees, per thread, an unbroken prefix of what was recorded, never torn")
    func snapshotWhileRecording() throws {
        let producers = 4
        let iterations = 12_500
        let recorder = Recorder(configuration: .init(perThreadCapacity: 2 * iterations))
        let finished = Atomic<Int>(0)
        let problems = Mutex<[String]>([])
        let snapshots = Atomic<Int>(0)

        runOnNewThreads(producers + 1) { index in
            if index == producers {
                var seenCounts = [Int](repeating: 0, count: producers)
                repeat {
                    let done = finished.load(ordering: .sequentiallyConsistent) == producers
                    let trace = recorder.snapshot()
                    var checker = DrainChecker(producers: producers, iterations: iterations)
                    checker.check(trace)
                    var found = checker.problems
                    for producer in 0..<producers {
                        // Nothing is ever dropped here, so a snapshot holds positions 0..<k of each thread.
                        if !checker.isPrefix(producer) {
                            found.append("producer \(producer): snapshot is not a prefix")
                        }
                        if checker.recorded[producer] < seenCounts[producer] {
                            found.append(
                                "producer \(producer): snapshot shrank from \(seenCounts[producer]) to \(checker.recorded[producer])"
                            )
                        }
                        seenCounts[producer] = checker.recorded[producer]
                    }
                    if done, seenCounts.contains(where: { $0 != 2 * iterations }) {
                        found.append("final snapshot misses events: \(seenCounts)")
                    }
                    if !found.isEmpty { problems.withLock { $0 += found } }
                    snapshots.add(1, ordering: .relaxed)
                    if done { return }
                } while true
            }
            for iteration in 0..<iterations {
                Self.recordIteration(recorder, producer: index, iteration: iteration)
            }
            finished.add(1, ordering: .sequentiallyConsistent)
        }

        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0.prefix(10) })")
        #expect(snapshots.load(ordering: .relaxed) >= 1)
        // Snapshots consumed nothing: a drain still gets every event, once.
        var checker = DrainChecker(producers: producers, iterations: iterations)
        checker.check(recorder.drain())
        #expect(checker.problems.isEmpty)
        #expect(checker.recorded == [Int](repeating: 2 * iterations, count: producers))
        #expect(recorder.droppedEventCounts.isEmpty)
    }

    @Test("Snapshots and drains from two threads at once, while threads record, hand every event out exactly once")
    func snapshotAndDrainTogether() throws {
        let producers = 4
        let iterations = 10_000
        let recorder = Recorder(configuration: .init(perThreadCapacity: 2 * iterations))
        let finished = Atomic<Int>(0)
        let drained = Mutex<DrainChecker?>(nil)
        let snapshotProblems = Mutex<[String]>([])

        runOnNewThreads(producers + 2) { index in
            switch index {
            case producers:
                var checker = DrainChecker(producers: producers, iterations: iterations)
                while finished.load(ordering: .sequentiallyConsistent) < producers { checker.check(recorder.drain()) }
                checker.check(recorder.drain())
                drained.withLock { $0 = checker }
            case producers + 1:
                while finished.load(ordering: .sequentiallyConsistent) < producers {
                    // A snapshot sees what no drain has taken yet: per thread, a gap-free run.
                    var checker = DrainChecker(producers: producers, iterations: iterations)
                    checker.check(recorder.snapshot())
                    var found = checker.problems
                    for producer in 0..<producers where !checker.isContiguous(producer) {
                        found.append("producer \(producer): snapshot has a gap")
                    }
                    if !found.isEmpty { snapshotProblems.withLock { $0 += found } }
                }
            default:
                for iteration in 0..<iterations {
                    Self.recordIteration(recorder, producer: index, iteration: iteration)
                }
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }

        let checker = try #require(drained.withLock { $0 })
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(10))")
        #expect(snapshotProblems.withLock { $0 }.isEmpty, "\(snapshotProblems.withLock { $0.prefix(10) })")
        #expect(checker.recorded == [Int](repeating: 2 * iterations, count: producers))
        #expect(checker.unmatchedCount == 0)
    }

    @Test("Names interned and categories registered while drains run come back by name, never as placeholders")
    func namesCreatedDuringDrains() throws {
        let spans = 20_000
        let categoryEvery = 200  // 100 new categories per run, of the process's 4,096
        let prefix = "race-\(UInt32.random(in: 0...UInt32.max))"
        let recorder = Recorder(configuration: .init(perThreadCapacity: 2 * spans))
        let finished = Atomic<Bool>(false)
        let problems = Mutex<[String]>([])
        let counts = Mutex<(names: Int, categories: Int)>((0, 0))

        runOnNewThreads(2) { index in
            if index == 0 {
                for i in 0..<spans {
                    recorder.withSpan(named: "dynamic-\(i)", category: .layout) {}
                    if i % categoryEvery == 0 {
                        let category = Category.named("\(prefix)-\(i / categoryEvery)")
                        recorder.recordInstant(
                            "categorized", category: category, arguments: ["k": .int(Int64(i / categoryEvery))])
                    }
                }
                finished.store(true, ordering: .sequentiallyConsistent)
                return
            }
            var nextName = 0
            var nextCategory = 0
            var found: [String] = []
            func check(_ trace: Trace) {
                for event in trace.events {
                    let name = trace.name(of: event)
                    if event.phase == .instant {
                        let expected = "\(prefix)-\(nextCategory)"
                        if trace.category(of: event) != expected
                            || trace.arguments(of: event)["k"]?.integerValue != Int64(nextCategory)
                        {
                            found.append("instant has category \(trace.category(of: event)), expected \(expected)")
                        }
                        nextCategory += 1
                    } else {
                        if name != "dynamic-\(nextName)" {
                            found.append("span named \(name), expected dynamic-\(nextName)")
                        }
                        nextName += 1
                    }
                }
            }
            repeat {
                let done = finished.load(ordering: .sequentiallyConsistent)
                check(recorder.drain())
                if done { break }
            } while found.count < 10
            problems.withLock { $0 = Array(found.prefix(10)) }
            counts.withLock { $0 = (nextName, nextCategory) }
        }
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0 })")
        let (names, categories) = counts.withLock { $0 }
        #expect(names == spans)
        #expect(categories == spans / categoryEvery)
    }

    @Test("Flows started and finished on different threads while another thread drains each appear exactly once, whole")
    func flowsAcrossThreadsWhileDraining() throws {
        let pairs = 3
        let flowsPerProducer = 5_000
        let recorder = Recorder(configuration: .init(perThreadCapacity: 4 * flowsPerProducer))
        let queues = (0..<pairs).map { _ in FlowQueue() }
        let finished = Atomic<Int>(0)
        let collected = Mutex<[TraceEvent]>([])

        runOnNewThreads(2 * pairs + 1) { index in
            if index == 2 * pairs {
                var events: [TraceEvent] = []
                while finished.load(ordering: .sequentiallyConsistent) < 2 * pairs {
                    events += recorder.drain().events.filter { $0.phase == .flowStart || $0.phase == .flowEnd }
                }
                events += recorder.drain().events.filter { $0.phase == .flowStart || $0.phase == .flowEnd }
                collected.withLock { $0 = events }
            } else if index < pairs {
                for _ in 0..<flowsPerProducer {
                    let flow = recorder.makeFlow("handoff", category: .imageDecode)
                    recorder.withSpan("produce", category: .imageDecode) { recorder.startFlow(flow) }
                    queues[index].push(flow)
                }
                finished.add(1, ordering: .sequentiallyConsistent)
            } else {
                var taken = 0
                while taken < flowsPerProducer {
                    guard let flow = queues[index - pairs].pop() else { continue }
                    recorder.withSpan("consume", category: .imageDecode) { recorder.finishFlow(flow) }
                    taken += 1
                }
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }

        let events = collected.withLock { $0 }
        var starts: [UInt64: Int] = [:]
        var finishes: [UInt64: Int] = [:]
        for event in events {
            if event.phase == .flowStart {
                starts[event.id, default: 0] += 1
            } else {
                finishes[event.id, default: 0] += 1
            }
        }
        #expect(starts.count == pairs * flowsPerProducer)
        #expect(starts.values.allSatisfy { $0 == 1 })
        #expect(finishes.values.allSatisfy { $0 == 1 })
        #expect(Set(starts.keys) == Set(finishes.keys))
        #expect(events.filter { $0.phase == .flowEnd }.allSatisfy { $0.bindingPoint == .enclosing })
        #expect(recorder.droppedEventCounts.isEmpty)
    }
}

/// A locked queue of flows from a producer thread to its consumer.
///
/// `NSLock` rather than `Mutex`: ThreadSanitizer on Linux sees pthread locks but not `Mutex`.
final class FlowQueue: @unchecked Sendable {
    // @unchecked: `flows` and `head` are only touched with `lock` held.
    private let lock = NSLock()
    private var flows: [Flow] = []
    private var head = 0

    func push(_ flow: Flow) { lock.withLock { flows.append(flow) } }

    func pop() -> Flow? {
        lock.withLock {
            guard head < flows.count else { return nil }
            defer { head += 1 }
            return flows[head]
        }
    }
}

/// Checks chunks of events recorded by ``RecorderConcurrencyTests/recordIteration(_:producer:iteration:)``.
///
/// Each producer's records are numbered: position `2i` for `inner` `i`, `2i + 1` for `outer` `i`.
/// Across all the chunks checked, no position may be handed out twice, every event must be whole
/// (phase, name, category, arguments, one thread per producer), and each `inner` must lie inside
/// the `outer` of the same iteration on the same thread. The order of events within a chunk is
/// not assumed.
struct DrainChecker {
    let producers: Int
    let iterations: Int
    /// Events seen per producer.
    var recorded: [Int]
    var threadOfProducer: [Int: ThreadKey] = [:]
    var producerOfThread: [ThreadKey: Int] = [:]
    var problems: [String] = []
    private var seen: [[Bool]]
    private var lowest: [Int]
    private var highest: [Int]
    /// Spans whose partner (the other of inner and outer of the same iteration) was not seen yet.
    private var unmatched: [[Int: (isOuter: Bool, start: Int64, end: Int64, thread: ThreadKey)]]

    init(producers: Int, iterations: Int) {
        self.producers = producers
        self.iterations = iterations
        recorded = Array(repeating: 0, count: producers)
        seen = Array(repeating: Array(repeating: false, count: 2 * iterations), count: producers)
        lowest = Array(repeating: Int.max, count: producers)
        highest = Array(repeating: -1, count: producers)
        unmatched = Array(repeating: [:], count: producers)
    }

    /// Whether the producer's positions seen form one unbroken run.
    func isContiguous(_ producer: Int) -> Bool {
        recorded[producer] == 0 || highest[producer] - lowest[producer] + 1 == recorded[producer]
    }

    /// Whether the producer's positions seen are exactly 0..<k.
    func isPrefix(_ producer: Int) -> Bool {
        recorded[producer] == 0 || (lowest[producer] == 0 && isContiguous(producer))
    }

    /// Spans still waiting for their partner.
    var unmatchedCount: Int { unmatched.reduce(0) { $0 + $1.count } }

    mutating func check(_ trace: Trace) {
        for event in trace.events {
            let name = trace.name(of: event)
            let category = trace.category(of: event)
            let arguments = trace.arguments(of: event)
            guard event.phase == .complete else {
                fail("unexpected phase \(event.phase) for \(name)")
                continue
            }
            let isOuter: Bool
            switch (name, category) {
            case ("outer", "layout"): isOuter = true
            case ("inner", "image-decode"): isOuter = false
            default:
                fail("unexpected event \(name) [\(category)]")
                continue
            }
            guard arguments.count == 2, let producer = arguments["t"]?.integerValue.map(Int.init),
                let iteration = arguments["i"]?.integerValue.map(Int.init), (0..<producers).contains(producer),
                (0..<iterations).contains(iteration)
            else {
                fail("\(name) has arguments \(arguments)")
                continue
            }
            // One thread per producer, one producer per thread.
            if let thread = threadOfProducer[producer], thread != event.thread {
                fail("producer \(producer) seen on two threads")
            }
            if let other = producerOfThread[event.thread], other != producer {
                fail("thread \(event.thread) carries producers \(other) and \(producer)")
            }
            threadOfProducer[producer] = event.thread
            producerOfThread[event.thread] = producer

            let position = 2 * iteration + (isOuter ? 1 : 0)
            if seen[producer][position] {
                fail("producer \(producer): \(name) \(iteration) handed out twice")
                continue
            }
            seen[producer][position] = true
            recorded[producer] += 1
            lowest[producer] = min(lowest[producer], position)
            highest[producer] = max(highest[producer], position)

            if event.duration < 0 { fail("\(name) \(iteration) has negative duration \(event.duration)") }
            if let partner = unmatched[producer].removeValue(forKey: iteration) {
                let outer = isOuter ? (event.timestamp, event.endTimestamp) : (partner.start, partner.end)
                let inner = isOuter ? (partner.start, partner.end) : (event.timestamp, event.endTimestamp)
                if partner.isOuter == isOuter { fail("producer \(producer) iteration \(iteration): two \(name) spans") }
                if partner.thread != event.thread {
                    fail("producer \(producer) iteration \(iteration): inner and outer on two threads")
                }
                if inner.0 < outer.0 || inner.1 > outer.1 {
                    fail("producer \(producer) iteration \(iteration): inner \(inner) outside outer \(outer)")
                }
            } else {
                unmatched[producer][iteration] = (isOuter, event.timestamp, event.endTimestamp, event.thread)
            }
        }
    }

    private mutating func fail(_ problem: String) {
        if problems.count < 100 { problems.append(problem) }
    }
}
