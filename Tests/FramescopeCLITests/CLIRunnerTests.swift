import Foundation
import Testing

/// The runner every CLI test uses must not hang on a child that fills one pipe while the other
/// is read, whichever it fills first.
@Suite("The CLI tests' runner")
struct CLIRunnerTests {
    @Test("A child that writes far more than a pipe holds to standard error before standard output is read whole")
    func fullStandardError() throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        // 1 MB to standard error, then 1 MB to standard output: a pipe holds 64 KiB.
        let script = "head -c 1000000 /dev/zero | tr '\\0' e >&2; head -c 1000000 /dev/zero | tr '\\0' o; exit 7"
        let result = try CLI.run(["-c", script], program: shell)
        #expect(result.status == 7)
        #expect(result.standardError.utf8.count == 1_000_000 && result.standardError.allSatisfy { $0 == "e" })
        #expect(result.standardOutput.utf8.count == 1_000_000 && result.standardOutput.allSatisfy { $0 == "o" })
    }
}

/// On virtual time a run is deterministic, down to the trace's bytes.
@Suite("The same seed writes the same trace")
struct DeterministicTraceTests {
    @Test("Two simulate runs on virtual time write byte-identical traces: process id 1, thread ids in start order")
    func sameBytes() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var traces: [Data] = []
        for run in 0..<2 {
            let path = folder.appendingPathComponent("run\(run).json").path
            // Four workers: more threads that could start in either order.
            let result = try CLI.run(["simulate", "corner-rounding", "--frames", "4", "--workers", "4", "--out", path])
            #expect(result.status == 0, "\(result.standardError)")
            traces.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(traces[0] == traces[1])
        let object = try #require(try JSONSerialization.jsonObject(with: traces[0]) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        let names = events.filter { $0["name"] as? String == "thread_name" }
            .map { (($0["tid"] as? Int) ?? -1, (($0["args"] as? [String: Any])?["name"] as? String) ?? "") }
        #expect(events.allSatisfy { ($0["pid"] as? Int) == 1 })
        let workers = names.filter { $0.1.hasPrefix("worker-") }.sorted { $0.0 < $1.0 }.map(\.1)
        #expect(workers == ["worker-1", "worker-2", "worker-3", "worker-4"], "ids follow the names")
    }
}
