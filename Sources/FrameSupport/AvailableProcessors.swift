#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many processors this process can use at once: the online ones, or fewer where Linux
/// restricts the process, by its CPU affinity (`taskset -c 0`, a container's cpuset) or by a
/// cgroup v2 CPU quota (`docker run --cpus 1.5` counts as 2).
///
/// The reader's worker thread, the analysis's parallel parts and `check`'s default `--jobs` ask
/// this rather than the online count, which on Linux ignores both: two threads taking turns on
/// one processor read a large trace about 10% slower than one thread (measured on the
/// development VM under `taskset -c 0`: 171–177 ms against 155–160 ms).
package enum AvailableProcessors {
    /// The count for this process, read once.
    package static let count: Int = {
        var online = 1
        var affinity: Int?
        var quota: String?
        #if canImport(Glibc) || canImport(Darwin)
            online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #endif
        #if canImport(Glibc)
            var mask = [UInt64](repeating: 0, count: 16)  // 1,024 processors, glibc's cpu_set_t
            if mask.withUnsafeMutableBytes({ schedGetAffinity(0, $0.count, $0.baseAddress!) }) == 0 {
                affinity = mask.reduce(0) { $0 + $1.nonzeroBitCount }
            }
            quota = smallFile("/sys/fs/cgroup/cpu.max")
        #endif
        return count(online: online, affinity: affinity, cpuMax: quota)
    }()

    /// The processors allowed by all three limits, at least 1.
    /// - Parameters:
    ///   - online: The processors online.
    ///   - affinity: The processors in the affinity mask, if it could be read (0 is ignored).
    ///   - cpuMax: The text of cgroup v2's `cpu.max` (`max 100000`, or a quota and a period in
    ///     microseconds, `150000 100000`), if there is one; anything else is ignored.
    package static func count(online: Int, affinity: Int?, cpuMax: String?) -> Int {
        var count = max(1, online)
        if let affinity, affinity > 0 { count = min(count, affinity) }
        if let cpuMax {
            let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" })
            if fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 {
                let (whole, remainder) = quota.quotientAndRemainder(dividingBy: period)
                count = min(count, max(1, whole + (remainder > 0 ? 1 : 0)))
            }
        }
        return count
    }

    #if canImport(Glibc)
        /// The first bytes of a small system file as text; `nil` when it cannot be read.
        private static func smallFile(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 64)
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            guard got > 0 else { return nil }
            return String(decoding: bytes[..<got], as: UTF8.self)
        }
    #endif
}

#if canImport(Glibc)
    /// glibc's `sched_getaffinity`, which the `Glibc` module does not export (it needs `_GNU_SOURCE`).
    @_silgen_name("sched_getaffinity")
    private func schedGetAffinity(_ pid: Int32, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32
#endif
