import FrameSupport
import FrameTrace
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The processors a process may use")
struct AvailableProcessorsTests {
    @Test("The online count stands when nothing restricts it")
    func online() {
        #expect(AvailableProcessors.count(online: 8, affinity: nil, cpuMax: nil) == 8)
        #expect(AvailableProcessors.count(online: 8, affinity: 8, cpuMax: "max 100000\n") == 8)
    }

    @Test("An affinity mask narrower than the machine wins (taskset -c 0, a cpuset)")
    func affinity() {
        #expect(AvailableProcessors.count(online: 2, affinity: 1, cpuMax: nil) == 1)
        #expect(AvailableProcessors.count(online: 64, affinity: 6, cpuMax: nil) == 6)
        // An empty mask is not a reading.
        #expect(AvailableProcessors.count(online: 4, affinity: 0, cpuMax: nil) == 4)
    }

    @Test("A cgroup v2 quota counts its processors, a fraction rounded up")
    func quota() {
        #expect(AvailableProcessors.count(online: 16, affinity: 16, cpuMax: "100000 100000\n") == 1)
        #expect(AvailableProcessors.count(online: 16, affinity: 16, cpuMax: "150000 100000\n") == 2)
        #expect(AvailableProcessors.count(online: 16, affinity: 16, cpuMax: "50000 100000") == 1)
        #expect(AvailableProcessors.count(online: 2, affinity: 2, cpuMax: "400000 100000") == 2)
        #expect(AvailableProcessors.count(online: 16, affinity: 3, cpuMax: "800000 100000") == 3)
    }

    @Test("Text that is not a quota is ignored; the count is never below 1")
    func malformed() {
        for text in ["", "max", "abc 100000", "100000 0", "-5 100000", "1 2 3", "100000"] {
            #expect(AvailableProcessors.count(online: 4, affinity: nil, cpuMax: text) == 4, "\(text)")
        }
        #expect(AvailableProcessors.count(online: 0, affinity: nil, cpuMax: nil) == 1)
    }

    @Test("This process's count is between 1 and the online processors")
    func thisProcess() {
        #expect(AvailableProcessors.count >= 1)
        #if canImport(Glibc)
            #expect(AvailableProcessors.count <= Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #endif
    }
}
