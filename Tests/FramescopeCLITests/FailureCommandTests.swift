import Foundation
import FramescopeTestSupport
import Testing

/// Runs `framescope` through the shell, for redirections the pipe-based runner cannot make
/// (standard output to `/dev/full`, standard input from `/dev/zero`).
private func shell(_ command: String, environment: [String: String] = [:]) throws -> CLIResult {
    try CLI.run(["-c", "exec \"$FRAMESCOPE\" " + command], environment: environment, shell: true)
}

extension CLI {
    /// Runs `/bin/sh` with `arguments`, `FRAMESCOPE` naming the built binary.
    static func run(_ arguments: [String], environment: [String: String], shell: Bool) throws -> CLIResult {
        try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: arguments,
            environment: environment.merging(["FRAMESCOPE": executable.path]) { $1 })
    }
}

@Suite("framescope on endless input, unwritable output and unreadable files: one line, exit 3")
struct FailureCommandTests {
    @Test(
        "Standard output on a full device is exit 3 with one line, for every command that prints",
        .enabled(if: FullDevice.isAvailable, Comment(rawValue: FullDevice.missingReason)),
        arguments: [
            "report '\(ShippedTraces.reload)'",
            "check '\(ShippedTraces.reload)' --budget '\(ShippedTraces.strictBudget)'",
            "compare '\(ShippedTraces.snapshotDiff)' '\(ShippedTraces.reload)'",
            "--help",
        ])
    func fullStandardOutput(command: String) throws {
        let result = try shell(command + " > /dev/full")
        #expect(result.status == 3)
        #expect(result.standardError == "error: standard output: no space left on device\n")
    }

    @Test("An endless standard input stops at --max-input-size with one line and exit 3, for every reading command")
    func endlessInput() throws {
        for command in [
            "report -", "check - --budget '\(ShippedTraces.strictBudget)'", "compare '\(ShippedTraces.reload)' -",
        ] {
            // `[` first, so the input looks like a trace and only the cap can stop it.
            let result = try shell(command + " --max-input-size 65536 < /dev/zero", environment: [:])
            #expect(result.status == 3, "\(command): \(result.standardError)")
        }
        let result = try CLI.run(
            ["-c", "{ printf '['; cat /dev/zero; } | \"$FRAMESCOPE\" report - --max-input-size 100000"],
            environment: [:], shell: true)
        #expect(result.status == 3)
        #expect(
            result.standardError
                == "error: standard input: larger than the input size limit of 100000 bytes; raise it with --max-input-size BYTES\n"
        )
    }

    @Test("A trace file or a budget file over --max-input-size is refused with its path")
    func fileOverCap() throws {
        let trace = try CLI.run(["report", ShippedTraces.reload, "--max-input-size", "1000"])
        #expect(trace.status == 3)
        #expect(
            trace.standardError
                == "error: \(ShippedTraces.reload): larger than the input size limit of 1000 bytes; raise it with --max-input-size BYTES\n"
        )
        let budget = try CLI.run(["check", ShippedTraces.reload, "--budget", "/dev/zero", "--max-input-size", "1000"])
        #expect(budget.status == 3)
        #expect(
            budget.standardError
                == "error: /dev/zero: larger than the input size limit of 1000 bytes; raise it with --max-input-size BYTES\n"
        )
        let malformed = try CLI.run(["report", ShippedTraces.reload, "--max-input-size", "lots"])
        #expect(malformed.status == 2)
    }

    @Test("A budget that is a directory or an endless device: one line naming the path, no Foundation error codes")
    func budgetFileErrors() throws {
        let directory = try CLI.run(["check", ShippedTraces.reload, "--budget", "/tmp"])
        #expect(directory.status == 3)
        #expect(directory.standardError == "error: /tmp: is a directory\n")
        let zero = try CLI.run(["check", ShippedTraces.reload, "--budget", "/dev/zero"])
        #expect(zero.status == 3)
        #expect(zero.standardError.hasPrefix("error: /dev/zero: line 1, column 1"))
        #expect(zero.standardError.split(separator: "\n").count == 1)
        let trace = try CLI.run(["report", "/tmp"])
        #expect(trace.standardError == "error: /tmp: is a directory\n")
    }

    @Test(
        "A budget file without read permission names the path and 'permission denied'",
        .enabled(if: getuid() != 0, "root reads any file"))
    func unreadableBudget() throws {
        let path = try ShippedTraces.write(#"{"version": 1}"#)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        let result = try CLI.run(["check", ShippedTraces.reload, "--budget", path])
        #expect(result.status == 3)
        #expect(result.standardError == "error: \(path): permission denied\n")
    }

    @Test("An unwritable GITHUB_STEP_SUMMARY is exit 3 with its path and reason, for check and compare")
    func unwritableStepSummary() throws {
        for (arguments, summary, reason) in [
            (["check", ShippedTraces.snapshotDiff, "--budget", ShippedTraces.strictBudget], "/tmp", "is a directory"),
            (
                ["compare", ShippedTraces.snapshotDiff, ShippedTraces.snapshotDiff], "/nonexistent/summary.md",
                "no such file or directory"
            ),
        ] {
            let result = try CLI.run(arguments, environment: ["GITHUB_STEP_SUMMARY": summary])
            #expect(result.status == 3)
            #expect(result.standardError == "error: \(summary): \(reason) (GITHUB_STEP_SUMMARY)\n")
        }
    }

    @Test(
        "A GITHUB_STEP_SUMMARY on a full device is exit 3 with its path and reason",
        .enabled(if: FullDevice.isAvailable, Comment(rawValue: FullDevice.missingReason)))
    func fullStepSummary() throws {
        let result = try CLI.run(
            ["compare", ShippedTraces.snapshotDiff, ShippedTraces.snapshotDiff],
            environment: ["GITHUB_STEP_SUMMARY": "/dev/full"])
        #expect(result.status == 3)
        #expect(result.standardError == "error: /dev/full: no space left on device (GITHUB_STEP_SUMMARY)\n")
    }

    @Test(
        "An unwritable --junit file is exit 3 with its path and reason",
        .enabled(if: FullDevice.isAvailable, Comment(rawValue: FullDevice.missingReason)))
    func unwritableJUnit() throws {
        let result = try CLI.run([
            "check", ShippedTraces.snapshotDiff, "--budget", ShippedTraces.strictBudget, "--junit", "/dev/full",
        ])
        #expect(result.status == 3)
        #expect(result.standardError == "error: /dev/full: no space left on device (--junit)\n")
    }
}
