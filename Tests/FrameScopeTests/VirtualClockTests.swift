import Foundation
import FrameTrace
import FramescopeTestSupport
import Synchronization
import Testing

@testable import FrameScope

/// A thread-CPU-time clock's readings: they follow the owning thread's CPU time, whatever the
/// wall clock or other threads do. Assertions are on CPU time the test itself spent, so a busy
/// machine makes them slower, never different.
@Suite("Virtual clock (thread CPU time)")
struct VirtualClockTests {
    @Test("The owner's reading moves with the CPU time it spends, from where it was set")
    func followsOwnerCPUTime() {
        let clock = ManualClock.threadCPUTime(start: 5)
        #expect(clock.nanoseconds == 5, "no owner yet: the start")
        clock.set(nanoseconds: 1_000_000)
        burnThreadCPU(nanoseconds: 3_000_000)
        let reading = clock.nanoseconds
        #expect(reading >= 4_000_000)
        #expect(reading < 4_000_000 + 50_000_000, "only the burn's CPU time and the loop's own")
        #expect(clock.nanoseconds >= reading, "never goes back while owned")
        #expect(RecorderClock.manual(clock).name == "cpu-time")
        #expect(RecorderClock.manual(.virtual()).name == "virtual")
    }

    @Test(
        "A virtual clock moves on by 1 ns at every reading and by what it is advanced; a plain manual clock only when advanced"
    )
    func virtualClockTicksPerReading() {
        let virtual = ManualClock.virtual(start: 10)
        #expect(virtual.nanoseconds == 11)
        #expect(virtual.nanoseconds == 12)
        virtual.advance(by: .microseconds(1))
        #expect(virtual.nanoseconds == 1_013)
        virtual.set(nanoseconds: 500)
        #expect(virtual.nanoseconds == 501)
        #expect(!virtual.followsThreadCPUTime)
        let manual = ManualClock(start: 10)
        #expect(manual.nanoseconds == 10)
        #expect(manual.nanoseconds == 10)
        #expect(RecorderClock.manual(ManualClock()).name == "manual")
    }

    @Test("Time the owner spends off the CPU does not count")
    func waitingDoesNotCount() {
        let clock = ManualClock.threadCPUTime()
        clock.set(nanoseconds: 0)
        let before = clock.nanoseconds
        Thread.sleep(forTimeInterval: 0.05)  // the thing measured: 50 ms asleep, off the CPU
        #expect(clock.nanoseconds - before < 10_000_000)
    }

    @Test("Another thread reads the owner's last reading, and setting the clock hands it over")
    func otherThreadsSeeLastReading() {
        /// Runs `body` on a new thread and returns its result.
        func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
            let result = Mutex<T?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                let value = body()
                result.withLock { $0 = value }
                done.signal()
            }.start()
            done.wait()
            return result.withLock { $0! }
        }
        let clock = ManualClock.threadCPUTime()
        clock.set(nanoseconds: 100)
        burnThreadCPU(nanoseconds: 1_000_000)
        let last = clock.nanoseconds
        let seen = onAnotherThread {
            burnThreadCPU(nanoseconds: 1_000_000)  // a non-owner's CPU time moves nothing
            let first = clock.nanoseconds
            burnThreadCPU(nanoseconds: 1_000_000)
            return [first, clock.nanoseconds]
        }
        #expect(seen == [last, last])
        let handedOver = onAnotherThread {
            clock.set(nanoseconds: 10_000_000)
            burnThreadCPU(nanoseconds: 2_000_000)
            return clock.nanoseconds
        }
        #expect(handedOver >= 12_000_000)
        burnThreadCPU(nanoseconds: 1_000_000)
        #expect(clock.nanoseconds == handedOver, "the former owner now reads the new owner's last reading")
    }

    @Test("A plain manual clock ignores CPU time; advance moves both kinds")
    func plainManualClockIsUnmoved() {
        let plain = ManualClock(start: 7)
        plain.set(nanoseconds: 7)
        burnThreadCPU(nanoseconds: 1_000_000)
        #expect(plain.nanoseconds == 7)
        #expect(RecorderClock.manual(plain).name == "manual")
        let virtual = ManualClock.threadCPUTime()
        virtual.set(nanoseconds: 0)
        virtual.advance(by: .milliseconds(20))
        #expect(virtual.nanoseconds >= 20_000_000)
    }
}
