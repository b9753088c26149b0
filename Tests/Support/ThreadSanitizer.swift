#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`): its
/// runtime, linked into the test executable, exports `__tsan_init`.
///
/// Under ThreadSanitizer every memory access is checked and a debug build runs some 10 to 50 times
/// slower, so the stress tests that CI runs there record fewer spans: a race shows in how threads
/// interleave, not in how many times the same interleaving repeats.
public let threadSanitizerIsActive: Bool = {
    #if canImport(Glibc)
        return dlsym(nil, "__tsan_init") != nil  // RTLD_DEFAULT is a null handle on glibc
    #elseif canImport(Darwin)
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
    #else
        return false
    #endif
}()
