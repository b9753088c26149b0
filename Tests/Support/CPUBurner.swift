import FrameTrace

/// Burns the calling thread's CPU until its CPU time has advanced by at least `nanoseconds`: real
/// work for tests that run on a thread-CPU-time clock, where a sleep would cost no CPU time.
public func burnThreadCPU(nanoseconds: Int64) {
    let start = threadCPUNanoseconds()
    var sink: UInt64 = 0x9E37_79B9_7F4A_7C15
    while threadCPUNanoseconds() - start < nanoseconds {
        for _ in 0..<1_000 { sink = sink &* 6_364_136_223_846_793_005 &+ 1 }
    }
    withExtendedLifetime(sink) {}
}
