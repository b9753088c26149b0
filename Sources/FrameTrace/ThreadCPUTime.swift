#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`); 0 if it cannot be
/// read. The recorder's CPU-time clock and the simulation's calibrating meter both read it.
package func threadCPUNanoseconds() -> Int64 {
    var time = timespec()
    #if canImport(Darwin)
        // Darwin's `clockid_t` is an enum whose constants are spelled `_CLOCK_…`; `CLOCK_THREAD_CPUTIME_ID`
        // is only a `#define` alias of one, which the Swift importer need not import.
        let clockID = _CLOCK_THREAD_CPUTIME_ID
    #else
        let clockID = CLOCK_THREAD_CPUTIME_ID
    #endif
    guard clock_gettime(clockID, &time) == 0 else { return 0 }
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
}
