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
