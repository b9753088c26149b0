import FrameScope
import FrameTrace
import Foundation

/// Recorder figures: span cost against the raw clock, disabled cost, two threads at once, export.
func runRecorderBenchmarks() {
    section("Recorder (ns per operation; median and p99 over 300 repetitions of 1,000 operations)")
    let operations = 1_000
    let repetitions = 300
    let clock = RecorderClock.monotonic

    let clockRead = measure(repetitions: repetitions, operations: operations) {
        var sum: Int64 = 0
        for _ in 0..<operations { sum &+= clock.now() }
        blackHole(sum)
    }
    let twoClockReads = measure(repetitions: repetitions, operations: operations) {
        var sum: Int64 = 0
        for _ in 0..<operations { sum &+= clock.now() &- clock.now() }
        blackHole(sum)
    }
    figure("raw clock read", clockRead.median, "ns", note: "p99 \(formatFixed(clockRead.p99, decimals: 1)) ns")
    figure("two raw clock reads (baseline)", twoClockReads.median, "ns", note: "p99 \(formatFixed(twoClockReads.p99, decimals: 1)) ns")

    let recorder = Recorder(configuration: .init(perThreadCapacity: 1 << 20))
    let enabled = measureSpans(recorder: recorder, repetitions: repetitions, operations: operations)
    figure("enabled span (begin + end)", enabled.median, "ns", note: "p99 \(formatFixed(enabled.p99, decimals: 1)) ns")
    figure("enabled span / two clock reads", enabled.median / twoClockReads.median, "x", note: "target <= 1.5")

    recorder.setEnabled(false)
    let disabled = measureSpans(recorder: recorder, repetitions: repetitions, operations: operations * 10)
    figure("disabled span", disabled.median, "ns", note: "target <= 1 ns; p99 \(formatFixed(disabled.p99, decimals: 2)) ns")
    recorder.setEnabled(true)

    let contended = measureTwoThreads(repetitions: repetitions, operations: operations)
    figure("enabled span, 2 threads recording at once", contended.median, "ns", note: "p99 \(formatFixed(contended.p99, decimals: 1)) ns")

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

private func measureSpans(recorder: Recorder, repetitions: Int, operations: Int) -> Timing {
    var samples: [Double] = []
    for repetition in 0...repetitions {
        let start = benchNow()
        for _ in 0..<operations {
            recorder.withSpan("bench span", category: .layout) {}
        }
        let end = benchNow()
        if repetition > 0 { samples.append(Double(end - start) / Double(operations)) }
        _ = recorder.drain()
    }
    return timing(of: samples)
}

private func measureTwoThreads(repetitions: Int, operations: Int) -> Timing {
    let recorder = Recorder(configuration: .init(perThreadCapacity: 1 << 22))
    let results = ResultBox()
    let done = DispatchGroup()
    for _ in 0..<2 {
        done.enter()
        let thread = Thread {
            var samples: [Double] = []
            for _ in 0..<repetitions {
                let start = benchNow()
                for _ in 0..<operations {
                    recorder.withSpan("bench span", category: .layout) {}
                }
                samples.append(Double(benchNow() - start) / Double(operations))
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
    func append(_ values: [Double]) { lock.lock(); stored += values; lock.unlock() }
    var samples: [Double] { lock.lock(); defer { lock.unlock() }; return stored }
}
