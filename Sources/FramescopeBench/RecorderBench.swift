import CFrameScope
import Foundation
import FrameScope
import FrameTrace
import Synchronization

/// Recorder figures: span cost against the raw clock, disabled cost, two threads at once, export.
func runRecorderBenchmarks() {
    section("Recorder (ns per operation; median and p99 over 300 repetitions of 1,000 operations)")
    let operations = 1_000
    let repetitions = 300
    let clock = RecorderClock.fastest
    print("recorder clock: \(clock.name)")
    let twoCounterReads = runClockReadBenchmarks(repetitions: repetitions, operations: operations)
    let enabled = runSpanBenchmarks(repetitions: repetitions, operations: operations, baseline: twoCounterReads)
    let contended = measureTwoThreads(repetitions: repetitions, operations: operations)
    figure(
        "enabled span, 2 threads recording at once", contended.median, "ns",
        note: "p99 \(formatFixed(contended.p99, decimals: 1)) ns")
    figure("2 threads at once / one thread", contended.median / enabled.median, "x", note: "target <= 1.2")
    let alternating = measureAlternatingRecorders(repetitions: repetitions, operations: operations)
    figure(
        "enabled span, two recorders alternating", alternating.median, "ns",
        note: "p99 \(formatFixed(alternating.p99, decimals: 1)) ns")

    // Never drained, so every chunk is new: 300,000 records grow the thread by 1,172 chunks.
    let fresh = Recorder(configuration: .init(perThreadCapacity: 1 << 20))
    let firstPass = measureSpans(recorder: fresh, repetitions: repetitions, operations: operations, drains: false)
    figure(
        "enabled span, growing into new chunks", firstPass.median, "ns",
        note: "p99 \(formatFixed(firstPass.p99, decimals: 1)) ns; a chunk from malloc every 256 spans")

    runThreadChurn()
    runExportBenchmark()
}

/// The raw clock reads a span is measured against; returns two counter reads' time, a span's
/// baseline.
private func runClockReadBenchmarks(repetitions: Int, operations: Int) -> Timing {
    let counterRead = measure(repetitions: repetitions, operations: operations) {
        var sum: Int64 = 0
        for _ in 0..<operations { sum &+= fs_counter_ticks() }
        blackHole(sum)
    }
    let twoCounterReads = measure(repetitions: repetitions, operations: operations) {
        var sum: Int64 = 0
        for _ in 0..<operations { sum &+= fs_counter_ticks() &- fs_counter_ticks() }
        blackHole(sum)
    }
    let clockGettime = measure(repetitions: repetitions, operations: operations) {
        var sum: Int64 = 0
        for _ in 0..<operations { sum &+= fs_monotonic_ns() }
        blackHole(sum)
    }
    let counterNote =
        RecorderClock.counter == nil ? "no invariant counter: fs_counter_ticks reads the monotonic clock; " : ""
    figure(
        "raw counter read", counterRead.median, "ns",
        note: "\(counterNote)p99 \(formatFixed(counterRead.p99, decimals: 1)) ns")
    figure(
        "two raw counter reads (baseline)", twoCounterReads.median, "ns",
        note: "p99 \(formatFixed(twoCounterReads.p99, decimals: 1)) ns")
    figure(
        "raw clock_gettime read", clockGettime.median, "ns",
        note: "p99 \(formatFixed(clockGettime.p99, decimals: 1)) ns")
    return twoCounterReads
}

/// A span on one thread, enabled and disabled, against `baseline` (two counter reads); returns
/// the enabled span's time.
private func runSpanBenchmarks(repetitions: Int, operations: Int, baseline: Timing) -> Timing {
    // The default 65,536-event (2 MiB) capacity, filled once and drained before timing: the steady
    // state, in which the thread's chunks come from the pool and every page has been touched. A
    // thread that grows into new chunks also pays their allocation and first touch (figure below).
    let recorder = Recorder()
    warm(recorder)
    let enabled = measureSpans(recorder: recorder, repetitions: repetitions, operations: operations)
    figure("enabled span (begin + end)", enabled.median, "ns", note: "p99 \(formatFixed(enabled.p99, decimals: 1)) ns")
    figure("enabled span / two counter reads", enabled.median / baseline.median, "x", note: "target <= 1.5")

    recorder.isEnabled = false
    let disabled = measureSpans(recorder: recorder, repetitions: repetitions, operations: operations * 10)
    figure(
        "disabled span", disabled.median, "ns", note: "target <= 1 ns; p99 \(formatFixed(disabled.p99, decimals: 2)) ns"
    )
    recorder.isEnabled = true
    let disabledValue = measureSpans(recorder: .disabled, repetitions: repetitions, operations: operations * 10)
    figure(
        "span on Recorder.disabled", disabledValue.median, "ns",
        note: "p99 \(formatFixed(disabledValue.p99, decimals: 2)) ns")
    return enabled
}

/// A span on one thread recording into two recorders in turn.
private func measureAlternatingRecorders(repetitions: Int, operations: Int) -> Timing {
    let first = Recorder()
    let second = Recorder()
    warm(first)
    warm(second)
    var samples: [Double] = []
    for repetition in 0...repetitions {
        let start = benchNow()
        for _ in 0..<(operations / 2) {
            first.withSpan("bench span", category: .layout) {}
            second.withSpan("bench span", category: .layout) {}
        }
        let end = benchNow()
        if repetition > 0 { samples.append(Double(end - start) / Double(operations)) }
        _ = first.drain()
        _ = second.drain()
    }
    return timing(of: samples)
}

/// A 1,000,000-event recording's snapshot and its Chrome JSON.
private func runExportBenchmark() {
    section("Export (1,000,000 events)")
    let exportRecorder = Recorder(configuration: .init(perThreadCapacity: 1 << 20))
    for index in 0..<1_000_000 {
        if index % 10 == 0 {
            exportRecorder.withSpan("decode", category: .imageDecode, arguments: ["index": .int(Int64(index))]) {}
        } else {
            exportRecorder.withSpan("layout cell", category: .layout) {}
        }
    }
    let snapshotStart = benchNow()
    let trace = exportRecorder.snapshot()
    let snapshotEnd = benchNow()
    var bytes: [UInt8] = []
    var best = UInt64.max
    for _ in 0..<5 {
        let start = benchNow()
        bytes = trace.chromeJSON()
        best = min(best, benchNow() - start)
    }
    let seconds = Double(best) / 1e9
    figure("events exported", Double(trace.events.count), "events")
    figure("snapshot (records to trace values)", Double(snapshotEnd - snapshotStart) / 1e6, "ms")
    figure("JSON write, best of 5", Double(best) / 1e6, "ms", note: "\(bytes.count) bytes")
    figure("JSON write throughput", Double(bytes.count) / seconds / 1e6, "MB/s", note: "target >= 100")
    figure("JSON write rate", Double(trace.events.count) / seconds / 1e6, "M events/s")
}

private func measureSpans(recorder: Recorder, repetitions: Int, operations: Int, drains: Bool = true) -> Timing {
    var samples: [Double] = []
    for repetition in 0...repetitions {
        let start = benchNow()
        for _ in 0..<operations {
            recorder.withSpan("bench span", category: .layout) {}
        }
        let end = benchNow()
        if repetition > 0 { samples.append(Double(end - start) / Double(operations)) }
        if drains { _ = recorder.drain() }
    }
    return timing(of: samples)
}

/// Runs `body` on `count` new threads and joins them: each has exited, its exit hook run, on return.
private func runJoined(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    #if canImport(Darwin)
        var threads: [pthread_t?] = []
    #else
        var threads: [pthread_t] = []
    #endif
    for _ in 0..<count {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread, nil,
            { raw in
                #if canImport(Darwin)
                    Unmanaged<Start>.fromOpaque(raw).takeRetainedValue().body()
                #else
                    Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
                #endif
                return nil
            }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
        threads.append(thread)
    }
    #if canImport(Darwin)
        for thread in threads { if let thread { pthread_join(thread, nil) } }
    #else
        for thread in threads { pthread_join(thread, nil) }
    #endif
}

/// Fills the calling thread's ring once and drains it, so its pages are touched before timing.
private func warm(_ recorder: Recorder) {
    for _ in 0..<recorder.configuration.perThreadCapacity { recorder.withSpan("bench span", category: .layout) {} }
    _ = recorder.drain()
}

/// 10,000 short-lived threads recording 10 spans each, in waves of 8, while another thread drains:
/// the peak of the bytes of chunks the recorder's pool allocated, read from its counters.
private func runThreadChurn() {
    section("Thread churn (10,000 threads x 10 spans, 8 at a time and joined, one thread draining)")
    for waitsForDrain in [false, true] {
        let result = churn(threads: 10_000, wave: 8, waitsForDrain: waitsForDrain)
        let pool = result.pool
        let mebibytes = Double(pool.peakBytesAllocated) / 1_048_576
        print(waitsForDrain ? "each wave waits for a drain:" : "drainer runs freely:")
        figure("  spans drained", Double(result.drained), "spans", note: "of 100000")
        figure(
            "  thread buffers (peak)", Double(result.buffers), "buffers",
            note: "threads exited and not yet drained, plus those alive")
        figure(
            "  chunks allocated (peak)", Double(pool.peakChunksAllocated), "chunks",
            note: "\(pool.chunkBytes) bytes each: \(pool.chunkRecords) records and a header")
        if waitsForDrain {
            figure("  peak buffer memory", mebibytes, "MiB")
        } else {
            print("churn peak buffer memory: \(formatFixed(mebibytes, decimals: 2)) MiB")
        }
        figure("  churn wall time", result.nanoseconds / 1e6, "ms")
    }
    print("(before chunks, each of those buffers was a 2 MiB ring: one per thread would be 10000 = 20000 MiB;")
    print(" a freely running drainer on a loaded machine lets exited threads pile up between its time slices)")
}

/// Runs `threads` short-lived threads in joined waves while another thread drains; with
/// `waitsForDrain`, each wave starts only after a drain that began once the last wave had exited.
private func churn(threads: Int, wave: Int, waitsForDrain: Bool)
    -> (drained: Int, buffers: Int, pool: BufferPoolStatistics, nanoseconds: Double)
{
    let recorder = Recorder()
    let spawning = Atomic<Bool>(true)
    let drains = Atomic<Int>(0)
    let drained = Atomic<Int>(0)
    let drainerDone = DispatchGroup()
    drainerDone.enter()
    Thread {
        var count = 0
        while spawning.load(ordering: .acquiring) {
            count += recorder.drain().events.count
            drains.add(1, ordering: .releasing)
        }
        count += recorder.drain().events.count
        drained.store(count, ordering: .releasing)
        drainerDone.leave()
    }.start()
    let start = benchNow()
    for _ in 0..<(threads / wave) {
        runJoined(wave) {
            for _ in 0..<10 { recorder.withSpan("churn", category: .layout) {} }
        }
        if waitsForDrain {
            let target = drains.load(ordering: .acquiring) + 2
            while drains.load(ordering: .acquiring) < target { sched_yield() }
        }
    }
    let elapsed = Double(benchNow() - start)
    spawning.store(false, ordering: .releasing)
    drainerDone.wait()
    return (drained.load(ordering: .acquiring), recorder.threadBufferCount, recorder.bufferPoolStatistics, elapsed)
}

private func measureTwoThreads(repetitions: Int, operations: Int) -> Timing {
    let recorder = Recorder()
    let results = ResultBox()
    let done = DispatchGroup()
    for _ in 0..<2 {
        done.enter()
        let thread = Thread {
            var samples: [Double] = []
            warm(recorder)
            for _ in 0..<repetitions {
                let start = benchNow()
                for _ in 0..<operations {
                    recorder.withSpan("bench span", category: .layout) {}
                }
                samples.append(Double(benchNow() - start) / Double(operations))
                _ = recorder.drain()  // both threads' rings, outside the timed part, as for one thread
            }
            results.append(samples)
            done.leave()
        }
        thread.start()
    }
    done.wait()
    return timing(of: results.samples)
}

private func timing(of samples: [Double]) -> Timing {
    let sorted = samples.sorted()
    let p99Index = min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)
    return Timing(median: sorted[sorted.count / 2], p99: sorted[p99Index], min: sorted[0])
}

/// Samples from the benchmark threads; the lock guards `samples`.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    func append(_ values: [Double]) {
        lock.lock()
        stored += values
        lock.unlock()
    }
    var samples: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
