import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic nanoseconds for benchmark timing (not the recorder's clock).
@inline(__always)
func benchNow() -> UInt64 {
    var ts = timespec()
    #if canImport(Darwin)
        // Darwin's `clockid_t` constants are spelled `_CLOCK_…`; `CLOCK_MONOTONIC` is a `#define` alias
        // the Swift importer need not import.
        clock_gettime(_CLOCK_MONOTONIC, &ts)
    #else
        clock_gettime(CLOCK_MONOTONIC, &ts)
    #endif
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimizer cannot delete the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Figures from repeated timing of one operation.
struct Timing {
    /// Nanoseconds per operation: median over repetitions.
    var median: Double
    /// Nanoseconds per operation: 99th percentile over repetitions.
    var p99: Double
    /// Nanoseconds per operation: fastest repetition.
    var min: Double
}

/// Times `body` (which performs `operations` operations) `repetitions` times and returns
/// per-operation nanoseconds. A warm-up repetition runs first and is discarded.
func measure(repetitions: Int = 200, operations: Int, _ body: () -> Void) -> Timing {
    body()
    var samples: [Double] = []
    samples.reserveCapacity(repetitions)
    for _ in 0..<repetitions {
        let start = benchNow()
        body()
        let end = benchNow()
        samples.append(Double(end - start) / Double(operations))
    }
    samples.sort()
    let p99Index = Swift.min(samples.count - 1, Int((Double(samples.count) * 0.99).rounded(.up)) - 1)
    return Timing(median: samples[samples.count / 2], p99: samples[p99Index], min: samples[0])
}

/// Prints a section heading for the benchmark report.
func section(_ title: String) {
    print("\n## \(title)")
}

/// Prints one aligned figure line: `name  value unit  (note)`.
func figure(_ name: String, _ value: Double, _ unit: String, note: String = "") {
    let padded = name + String(repeating: " ", count: max(0, 44 - name.count))
    let number = value >= 100 ? String(Int(value.rounded())) : formatFixed(value, decimals: 2)
    print("\(padded) \(number) \(unit)\(note.isEmpty ? "" : "  (\(note))")")
}

/// Formats with a fixed number of decimals without Foundation.
func formatFixed(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled.truncatingRemainder(dividingBy: scale))
    var fractionText = String(fraction)
    while fractionText.count < decimals { fractionText = "0" + fractionText }
    return (value < 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fractionText : "")
}

/// This process's peak resident memory in KiB: `VmHWM` from `/proc/self/status`, which belongs to
/// this address space alone (`getrusage`'s `ru_maxrss` survives `execve`); `nil` where there is no
/// `/proc`.
func peakResidentKilobytes() -> Int? {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
        .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
}
