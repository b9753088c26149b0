import FrameTrace
import Synchronization
import Testing

@testable import FrameScope

/// Threads' buffers grow in chunks from their recorder's pool and hand them back once drained.
@Suite("Recorder buffer pool")
struct RecorderBufferPoolTests {
    /// Counter samples 0, 1, 2, ... give each record a sequence number the trace keeps.
    static func values(_ trace: Trace, thread: ThreadKey? = nil) -> [Int] {
        trace.events.compactMap { event -> Int? in
            guard event.phase == .counter, thread.map({ event.thread == $0 }) ?? true,
                case .double(let value)? = trace.arguments(of: event).first?.value
            else { return nil }
            return Int(value)
        }
    }

    @Test(
        "A thread that records over several chunks gets every record back, in order, from a snapshot and then a drain")
    func recordsSpanChunksInOrder() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        runOnNewThread { for index in 0..<1_000 { recorder.recordCounter("sequence", value: Double(index)) } }
        let chunkRecords = recorder.bufferPoolStatistics.chunkRecords
        #expect(chunkRecords == 256)
        #expect(recorder.bufferPoolStatistics.chunksAllocated == 4, "1,000 records fill four chunks of 256")
        #expect(Self.values(recorder.snapshot()) == Array(0..<1_000))
        #expect(Self.values(recorder.drain()) == Array(0..<1_000))
        #expect(recorder.droppedEventCounts.isEmpty)
    }

    @Test("Drained chunks go back to the pool and the next records reuse them; an exited thread's go back at its drain")
    func drainedChunksAreReused() {
        let recorder = Recorder(clock: .manual(ManualClock()))
        let seen = Mutex<[[Int]]>([])
        let statistics = Mutex<[BufferPoolStatistics]>([])
        runOnNewThread {
            for index in 0..<1_000 { recorder.recordCounter("sequence", value: Double(index)) }
            seen.withLock { $0.append(Self.values(recorder.drain())) }
            // The three chunks read to their end are back; the fourth is still written into.
            statistics.withLock { $0.append(recorder.bufferPoolStatistics) }
            for index in 1_000..<2_000 { recorder.recordCounter("sequence", value: Double(index)) }
            statistics.withLock { $0.append(recorder.bufferPoolStatistics) }
        }
        let afterFirstDrain = statistics.withLock { $0[0] }
        #expect(afterFirstDrain.chunksAllocated == 4)
        #expect(afterFirstDrain.chunksInPool == 3)
        #expect(afterFirstDrain.chunksInRings == 1)
        // Positions 1,000..<2,000 need four more chunks: the pool's three and one new.
        let afterSecondBatch = statistics.withLock { $0[1] }
        #expect(afterSecondBatch.chunksAllocated == 5)
        #expect(afterSecondBatch.chunksInPool == 0)

        seen.withLock { $0.append(Self.values(recorder.drain())) }
        let exitedAndDrained = recorder.bufferPoolStatistics
        #expect(exitedAndDrained.chunksAllocated == 5)
        #expect(exitedAndDrained.chunksInPool == 5, "an exited thread's chunks all come back once it is drained")

        runOnNewThreads(3) { _ in for index in 0..<10 { recorder.recordCounter("sequence", value: Double(index)) } }
        let reused = recorder.bufferPoolStatistics
        #expect(reused.chunksAllocated == 5, "new threads take chunks from the pool rather than allocate")
        #expect(reused.chunksInPool == 2)
        #expect(reused.peakChunksAllocated == 5)
        #expect(reused.peakBytesAllocated == 5 * reused.chunkBytes)
        #expect(seen.withLock { $0 } == [Array(0..<1_000), Array(1_000..<2_000)])
    }

    @Test("A thread grows to its capacity and no further: records past it are dropped and counted")
    func dropsAtCapacity() throws {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 1_024), clock: .manual(ManualClock()))
        runOnNewThread { for index in 0..<1_100 { recorder.recordCounter("sequence", value: Double(index)) } }
        #expect(recorder.bufferPoolStatistics.chunksAllocated == 4, "1,024 records are four chunks")
        let trace = recorder.drain()
        #expect(Self.values(trace) == Array(0..<1_024))
        let thread = try #require(trace.events.first?.thread)
        #expect(recorder.droppedEventCounts == [thread: 76])
        #expect(trace.metadata.droppedEvents == [thread: 76])
    }

    @Test(
        "Capacity counts records between the drained head and the tail, as a ring did, even when the head is inside a chunk"
    )
    func dropsAtCapacityAfterPartialDrain() throws {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 512), clock: .manual(ManualClock()))
        let values = Mutex<[Int]>([])
        runOnNewThread {
            for index in 0..<300 { recorder.recordCounter("sequence", value: Double(index)) }
            values.withLock { $0 += Self.values(recorder.drain()) }
            // Positions 300..<812 fit (512 past the head at 300); the last 88 do not.
            for index in 300..<900 { recorder.recordCounter("sequence", value: Double(index)) }
        }
        let trace = recorder.drain()
        values.withLock { $0 += Self.values(trace) }
        #expect(values.withLock { $0 } == Array(0..<812))
        #expect(recorder.droppedEventCounts.values.reduce(0, +) == 88)
        #expect(
            recorder.bufferPoolStatistics.peakChunksAllocated <= 512 / 256 + 1, "capacity plus the chunk the head is in"
        )
    }

    @Test("A thread whose capacity is below a chunk gets one chunk of its capacity")
    func smallCapacityUsesSmallChunks() {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 16), clock: .manual(ManualClock()))
        runOnNewThread { for index in 0..<40 { recorder.recordCounter("sequence", value: Double(index)) } }
        let statistics = recorder.bufferPoolStatistics
        #expect(statistics.chunkRecords == 16)
        #expect(statistics.chunksAllocated == 1)
        #expect(Self.values(recorder.drain()) == Array(0..<16))
        #expect(recorder.droppedEventCounts.values.reduce(0, +) == 24)
    }

    @Test(
        "With a total capacity, a thread that finds the pool empty drops and counts its records; a drain refills the pool"
    )
    func totalCapacityDropsPerThread() throws {
        let recorder = Recorder(configuration: .init(totalCapacity: 512), clock: .manual(ManualClock()))
        runOnNewThread {
            recorder.nameCurrentThread("first")
            for index in 0..<512 { recorder.recordCounter("sequence", value: Double(index)) }
        }
        runOnNewThread {
            recorder.nameCurrentThread("second")
            for index in 0..<10 { recorder.recordCounter("sequence", value: Double(index)) }
        }
        #expect(recorder.bufferPoolStatistics.chunksAllocated == 2)
        let trace = recorder.drain()
        let first = try #require(trace.threads.values.first { $0.name == "first" }?.key)
        let second = try #require(trace.threads.values.first { $0.name == "second" }?.key)
        #expect(Self.values(trace, thread: first) == Array(0..<512))
        #expect(Self.values(trace, thread: second).isEmpty)
        #expect(recorder.droppedEventCounts == [second: 10])

        runOnNewThread { for index in 0..<10 { recorder.recordCounter("sequence", value: Double(index)) } }
        #expect(Self.values(recorder.drain()) == Array(0..<10), "the drain gave the exited threads' chunks back")
        #expect(recorder.bufferPoolStatistics.chunksAllocated == 2)
    }

    @Test(
        "Four threads recording 50,000 records each across chunks while another drains: each thread's records arrive once, in order, and every chunk comes back"
    )
    func concurrentProducersAndDrainer() throws {
        let recorder = Recorder(configuration: .init(perThreadCapacity: 1 << 16))
        let producers = 4
        let perProducer = 50_000
        let producing = Atomic<Int>(producers)
        let byThread = Mutex<[ThreadKey: [Int]]>([:])
        runOnNewThreads(producers + 1) { role in
            guard role == producers else {
                for index in 0..<perProducer { recorder.recordCounter("sequence", value: Double(index)) }
                producing.subtract(1, ordering: .releasing)
                return
            }
            func take(_ trace: Trace) {
                var batch: [ThreadKey: [Int]] = [:]
                for event in trace.events where event.phase == .counter {
                    guard case .double(let value)? = trace.arguments(of: event).first?.value else { continue }
                    batch[event.thread, default: []].append(Int(value))
                }
                byThread.withLock { all in for (thread, values) in batch { all[thread, default: []] += values } }
            }
            while producing.load(ordering: .acquiring) > 0 { take(recorder.drain()) }
            take(recorder.drain())
        }
        // The producers have exited; this drain retires their buffers.
        _ = recorder.drain()
        #expect(recorder.droppedEventCounts.isEmpty)
        let all = byThread.withLock { $0 }
        #expect(all.count == producers)
        for (thread, values) in all { #expect(values == Array(0..<perProducer), "thread \(thread.threadID)") }
        let statistics = recorder.bufferPoolStatistics
        #expect(statistics.chunksInRings == 0)
        #expect(statistics.chunksAllocated == statistics.chunksInPool)
    }
}
