import Foundation
import Testing

@Suite("Command line: help, version, errors and exit codes")
struct CommandLineTests {
    @Test("--help lists the commands and the exit codes, and exits 0")
    func help() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("demo"))
        #expect(result.standardOutput.contains("EXIT CODES"))
    }

    @Test("--version prints the version")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("framescope "))
    }

    @Test(
        "Usage errors exit 2 with one line on stderr naming the problem",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["demo", "--frames", "zero"], "option '--frames' expects an integer"),
            (["demo", "--bogus"], "unknown option '--bogus'"),
            (["demo", "--out-dir"], "option '--out-dir' needs a value"),
            (["demo", "--fps", "0"], "option '--fps' expects a frame rate from 1 to 240, got '0'"),
            (["demo", "--fps", "241"], "option '--fps' expects a frame rate from 1 to 240, got '241'"),
            (
                ["simulate", "diffable-update", "--out", "/nonexistent/trace.json", "--fps", "-60"],
                "option '--fps' expects a frame rate from 1 to 240, got '-60'"
            ),
            (
                ["simulate", "diffable-update", "--out", "/nonexistent/trace.json", "--fps", "nan"],
                "option '--fps' expects a frame rate from 1 to 240, got 'nan'"
            ),
            (
                ["simulate", "diffable-update", "--out", "/nonexistent/trace.json", "--fps", "1e999"],
                "option '--fps' expects a frame rate from 1 to 240, got '1e999'"
            ),
            (
                ["simulate", "diffable-update", "--out", "/nonexistent/trace.json", "--fps", "sixty"],
                "option '--fps' expects a frame rate from 1 to 240, got 'sixty'"
            ),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardOutput.isEmpty)
    }

    @Test("No command at all is a usage error that shows the help")
    func noCommand() throws {
        let result = try CLI.run([])
        #expect(result.status == 2)
        #expect(result.standardError.contains("USAGE"))
    }

    @Test("Every command's --help exits 0", arguments: ["demo", "simulate", "report"])
    func commandHelp(command: String) throws {
        let result = try CLI.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE: framescope \(command)"))
    }

    @Test(
        "Every command's --help fits a 100-column terminal",
        arguments: ["demo", "simulate", "report", "check", "compare", "repair"])
    func helpFitsTerminal(command: String) throws {
        let text = try CLI.run([command, "--help"]).standardOutput
        let long = text.split(separator: "\n").filter { $0.count > 100 }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }

    @Test("simulate --help lists every scenario and every strategy name in full")
    func simulateHelpListsStrategies() throws {
        let lines = try CLI.run(["simulate", "--help"]).standardOutput.split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let expected = [
            "constraints-main", "manual-main", "specs-background", "constraints-main+decode-main",
            "manual-main+decode-main",
            "specs-background+decode-main", "reload", "snapshot-diff", "offscreen-clip", "prerendered-opaque",
            "prerendered-transparent", "corner-mask-overlay", "naive", "responsive",
        ]
        for name in expected {
            #expect(lines.contains { $0.hasPrefix(name + "  ") }, "\(name) is listed in full")
        }
        for scenario in ["feed-scroll:", "diffable-update:", "corner-rounding:", "paper-transition:"] {
            #expect(lines.contains { $0.hasPrefix(scenario) })
        }
    }
}

@Suite("framescope demo and simulate")
struct DemoCommandTests {
    @Test("The demo runs every scenario and strategy, writes a valid trace for each and prints one table")
    func demoRunsEveryScenario() throws {
        let directory = try CLI.temporaryDirectory()
        // Four frames a run: every scenario and strategy still runs, and a debug build's real
        // workloads (decode, rounding, layout) stay a minute of the test run, not several.
        let result = try CLI.run(["demo", "--out-dir", directory.path, "--frames", "4", "--workers", "2"])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("diffable-update"))
        #expect(result.standardOutput.contains("snapshot-diff"))
        #expect(result.standardError.contains("[1/"), "progress goes to stderr")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.contains("diffable-update--reload.json"))
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            #expect(data.prefix(2) == Data("{\"".utf8))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let events = try #require(document["traceEvents"] as? [[String: Any]])
            let threadNames = Set(
                events.filter { $0["name"] as? String == "thread_name" }.compactMap {
                    ($0["args"] as? [String: Any])?["name"] as? String
                })
            #expect(threadNames.isSuperset(of: ["main", "worker-1", "render-server-1"]), "\(file)")
            #expect(
                events.filter { $0["ph"] as? String == "X" && $0["name"] as? String == "frame" }.count == 4, "\(file)")
            let metadata = try #require(document["metadata"] as? [String: Any])
            #expect(metadata["producer"] as? String == "framescope")
            let extra = try #require(metadata["extra"] as? [String: Any])
            #expect(extra["scenario"] as? String != nil)
        }
    }

    @Test("simulate runs one scenario, writes the trace and prints its report")
    func simulateOneScenario() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("run.json").path
        let result = try CLI.run([
            "simulate", "diffable-update", "--strategy", "snapshot-diff", "--frames", "10", "--fps", "120", "--out",
            path,
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("8.33 ms (120.0 fps, trace metadata)"))
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test(
        "simulate rejects unknown scenarios and strategies with a usage error",
        arguments: [
            (["simulate", "nope", "--out", "x.json"], "unknown scenario 'nope'"),
            (
                ["simulate", "diffable-update", "--strategy", "magic", "--out", "x.json"],
                "option '--strategy' expects one of reload, snapshot-diff"
            ),
            (["simulate", "diffable-update"], "simulate needs --out TRACE"),
        ])
    func simulateUsageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message))
    }

    @Test("An unwritable output path exits 3 and says which path")
    func unwritableOutput() throws {
        let result = try CLI.run(["simulate", "diffable-update", "--frames", "1", "--out", "/nonexistent-dir/x.json"])
        #expect(result.status == 3)
        #expect(result.standardError.contains("/nonexistent-dir/x.json"))
    }
}
