// An interface stub of Apple's `Darwin` module for `tools/check_darwin.sh`: Glibc, re-exported, for
// the C library both systems share (getenv, pthread_self, clock_gettime, write, ...), plus the
// Darwin-only names framescope's `#if canImport(Darwin)` branches use, with the labels and types
// Apple documents. It lets the Darwin branches be chosen and type-checked on Linux; it cannot make
// the shared names take Darwin's types (`pthread_t` is a non-optional pointer on Darwin and an
// integer on Glibc; `clockid_t` an imported C enum on Darwin and an `Int32` on Glibc), so code
// whose Darwin branch depends on those types is type-checked against Glibc's.
//
// Transcribed from Apple's documentation (developer.apple.com/documentation/kernel/1462446-mach_absolute_time,
// mach_timebase_info, clock_gettime_nsec_np(3) and the `_CLOCK_…` constants of `<time.h>`, which Swift
// imports as `clockid_t` values because `CLOCK_MONOTONIC` and friends are `#define` aliases of them).
@_exported import Glibc

/// The current value of the absolute-time clock, in ticks of `mach_timebase_info`. (Darwin: `mach/mach_time.h`.)
public func mach_absolute_time() -> UInt64 { fatalError("Darwin stub: not callable") }

/// The ratio of absolute-time ticks to nanoseconds. (Darwin: `mach_timebase_info_data_t`.)
public struct mach_timebase_info_data_t {
    public var numer: UInt32
    public var denom: UInt32
    public init() { (numer, denom) = (0, 0) }
    public init(numer: UInt32, denom: UInt32) { (self.numer, self.denom) = (numer, denom) }
}

/// Fills `info` with the absolute-time clock's timebase; `KERN_SUCCESS` (0) on success.
public func mach_timebase_info(_ info: UnsafeMutablePointer<mach_timebase_info_data_t>!) -> Int32 {
    fatalError("Darwin stub: not callable")
}

/// The clock's time in nanoseconds, or 0 on error. (Darwin: `clock_gettime_nsec_np(3)`.)
public func clock_gettime_nsec_np(_ clock_id: clockid_t) -> UInt64 { fatalError("Darwin stub: not callable") }

/// Darwin's clock ids, as the Swift importer spells them (`CLOCK_MONOTONIC` is a macro alias of
/// `_CLOCK_MONOTONIC`). Typed with Glibc's `clockid_t` here, so `clock_gettime` accepts them.
public var _CLOCK_REALTIME: clockid_t { CLOCK_REALTIME }
public var _CLOCK_MONOTONIC: clockid_t { CLOCK_MONOTONIC }
public var _CLOCK_MONOTONIC_RAW: clockid_t { CLOCK_MONOTONIC_RAW }
public var _CLOCK_UPTIME_RAW: clockid_t { CLOCK_MONOTONIC_RAW }
public var _CLOCK_PROCESS_CPUTIME_ID: clockid_t { CLOCK_PROCESS_CPUTIME_ID }
public var _CLOCK_THREAD_CPUTIME_ID: clockid_t { CLOCK_THREAD_CPUTIME_ID }

/// Whether the calling thread is the main thread: 1 if it is. (Darwin: `pthread_main_np(3)`.)
public func pthread_main_np() -> Int32 { fatalError("Darwin stub: not callable") }
