import Foundation
import Testing

/// `compare --rows`: the frames-jsonl of traces compare exactly as the traces do.
@Suite("framescope compare --rows")
struct CompareRowsCommandTests {
    static let analysisFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../FrameAnalysisTests/Fixtures").standardized
    /// `shared/traces/third-party` beside the repository, when it is there.
    static let thirdParty = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/traces/third-party")

    /// Writes `framescope report TRACE --format frames-jsonl` to a file and returns its path.
    static func rows(_ trace: String, in directory: URL) throws -> String {
        let result = try CLI.run(["report", trace, "--format", "frames-jsonl"])
        try #require(result.status == 0, "report \(trace): \(result.standardError)")
        let path = directory.appendingPathComponent(UUID().uuidString + ".jsonl").path
        try result.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "stderr: \(result.standardError)")
    }

    /// Trace pairs: the shipped samples, Chrome fixtures with compositor, raster and GPU lanes,
    /// and third-party Lighthouse traces when they are beside the clone.
    static var pairs: [(base: [String], head: [String])] {
        var pairs: [(base: [String], head: [String])] = [
            ([ShippedTraces.snapshotDiff], [ShippedTraces.reload]),
            ([ShippedTraces.reload], [ShippedTraces.reload]),
            (
                [analysisFixtures.appendingPathComponent("chrome-smooth-animation.json").path],
                [analysisFixtures.appendingPathComponent("chrome-stage-overrun.json").path]
            ),
            // Pooled runs, with a lane only one run of each side has.
            (
                [
                    ShippedTraces.snapshotDiff,
                    analysisFixtures.appendingPathComponent("chrome-stage-overrun.json").path,
                ],
                [
                    ShippedTraces.reload, ShippedTraces.reload,
                    analysisFixtures.appendingPathComponent("chrome-legacy-frames.json").path,
                ]
            ),
        ]
        let intercom = thirdParty.appendingPathComponent("lighthouse__frames-intercom-widget.json").path
        let userFlow = thirdParty.appendingPathComponent("lighthouse__frames-user-flow-step3.json").path
        if FileManager.default.fileExists(atPath: intercom), FileManager.default.fileExists(atPath: userFlow) {
            pairs.append(([intercom], [userFlow]))
        }
        return pairs
    }

    @Test("compare --rows on the frames-jsonl of traces gives the metrics of compare on the traces, to the last digit")
    func sameMetricsAsTraces() throws {
        let directory = try CLI.temporaryDirectory()
        for (baseTraces, headTraces) in Self.pairs {
            func arguments(_ side: String, _ paths: [String]) -> [String] { paths.flatMap { ["--\(side)", $0] } }
            let traces = try CLI.run(
                ["compare", "--format", "json"] + arguments("base", baseTraces) + arguments("head", headTraces))
            let baseRows = try baseTraces.map { try Self.rows($0, in: directory) }
            let headRows = try headTraces.map { try Self.rows($0, in: directory) }
            let rows = try CLI.run(
                ["compare", "--rows", "--format", "json"] + arguments("base", baseRows) + arguments("head", headRows))
            let what =
                "\(baseTraces.map { ($0 as NSString).lastPathComponent }) vs \(headTraces.map { ($0 as NSString).lastPathComponent })"
            #expect(rows.status == traces.status, "\(what): \(rows.standardError)")
            let fromTraces = try Self.json(traces)
            let fromRows = try Self.json(rows)
            let traceMetrics = try #require(fromTraces["metrics"] as? [[String: Any]])
            let rowMetrics = try #require(fromRows["metrics"] as? [[String: Any]])
            #expect(traceMetrics.count >= 4, "\(what)")
            // Ids, verdicts, reasons, p-values, shifts, percentiles and intervals: every field.
            #expect((traceMetrics as NSArray).isEqual(to: rowMetrics), "\(what)")
            #expect(rowMetrics.map { $0["id"] as? String } == traceMetrics.map { $0["id"] as? String })
            #expect(fromRows["passed"] as? Bool == fromTraces["passed"] as? Bool)
            for side in ["base", "head"] {
                let t = try #require(fromTraces[side] as? [String: Any])
                let r = try #require(fromRows[side] as? [String: Any])
                #expect(r["frames"] as? Int == t["frames"] as? Int, "\(what) \(side)")
                #expect(r["frame-boundaries"] as? [String] == t["frame-boundaries"] as? [String], "\(what) \(side)")
            }
            // The same fields everywhere; rows say where they came from and keep only the frame counts.
            #expect(Set(fromRows.keys) == Set(fromTraces.keys))
            #expect(fromTraces["input"] as? String == "traces")
            #expect(fromRows["input"] as? String == "frame-rows")
            let summary = try #require(fromRows["summary"] as? [[String: Any]])
            #expect(summary.map { $0["id"] as? String } == ["frames"])
        }
    }

    @Test("Text and Markdown output say that the summary holds only the frame counts")
    func textAndMarkdown() throws {
        let directory = try CLI.temporaryDirectory()
        let base = try Self.rows(ShippedTraces.snapshotDiff, in: directory)
        let head = try Self.rows(ShippedTraces.reload, in: directory)
        let text = try CLI.run(["compare", "--rows", base, head])
        #expect(text.status == 1)
        #expect(
            text.standardOutput.contains(
                "from frames rows: frames only, since hitch time ratio, slow and frozen frames need the traces"))
        #expect(
            text.standardOutput.split(separator: "\n").contains {
                $0.hasPrefix("  main-thread-ms ") && $0.hasSuffix("REGRESSION")
            })
        #expect(!text.standardOutput.contains("hitch time ratio  "))
        let markdown = try CLI.run(["compare", "--rows", "--format", "markdown", base, head])
        #expect(markdown.standardOutput.hasPrefix("## framescope compare: ❌ REGRESSION"))
        #expect(
            markdown.standardOutput.contains(
                "frames only, since hitch time ratio, slow and frozen frames need the traces"))
        #expect(markdown.standardOutput.contains("```mermaid"), "the head's chart, from its rows")
    }

    @Test("A rows file that cannot be read is listed with its line, the others are compared, and compare exits 3")
    func unreadableFile() throws {
        let directory = try CLI.temporaryDirectory()
        let good = try Self.rows(ShippedTraces.snapshotDiff, in: directory)
        let head = try Self.rows(ShippedTraces.reload, in: directory)
        let lines = try String(contentsOfFile: good, encoding: .utf8).split(separator: "\n")
        let bad = directory.appendingPathComponent("bad.jsonl").path
        try (lines[0] + "\n" + lines[1].replacingOccurrences(of: "\"main_ms\":", with: "\"main_ms\":\"") + "\n").write(
            toFile: bad, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "compare", "--rows", "--base", good, "--base", bad, "--base", "/nonexistent/rows.jsonl", "--head", head,
            "--format", "json",
        ])
        #expect(result.status == 3)
        #expect(result.standardError.contains("error: \(bad): line 2: not a JSON object"), "\(result.standardError)")
        #expect(result.standardError.contains("error: /nonexistent/rows.jsonl: no such file or directory"))
        let object = try Self.json(result)
        #expect(
            (object["errors"] as? [[String: Any]])?.map { $0["source"] as? String } == [bad, "/nonexistent/rows.jsonl"])
        #expect((object["base"] as? [String: Any])?["sources"] as? [String] == [good])
        #expect((object["metrics"] as? [[String: Any]])?.first?["verdict"] as? String == "regression")
    }

    @Test(
        "Bad rows exit 3 with one line naming the file, the line and the column",
        arguments: [
            ("not json", "line 2: not a JSON object: column 1"),
            (
                #"{"schema":"framescope.report","version":1}"#,
                #"line 2: schema "framescope.report", expected "framescope.frames""#
            ),
            (#"{"schema":"framescope.frames","version":2}"#, "line 2: version 2 of framescope.frames, expected 1"),
            (#"{"schema":"framescope.frames","version":1}"#, #"line 2: missing column "trace""#),
        ])
    func badRows(row: String, message: String) throws {
        let directory = try CLI.temporaryDirectory()
        let head = try Self.rows(ShippedTraces.reload, in: directory)
        let first = try String(contentsOfFile: head, encoding: .utf8).split(separator: "\n")[0]
        let bad = directory.appendingPathComponent("bad.jsonl").path
        try (first + "\n" + row + "\n\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try CLI.run(["compare", "--rows", bad, head])
        #expect(result.status == 3)
        #expect(result.standardError.contains("error: \(bad): \(message)"), "\(result.standardError)")
    }

    @Test("Sides without frames exit 3, and analysis options are usage errors with --rows")
    func inputAndUsageErrors() throws {
        let directory = try CLI.temporaryDirectory()
        let head = try Self.rows(ShippedTraces.reload, in: directory)
        let empty = directory.appendingPathComponent("empty.jsonl").path
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let noFrames = try CLI.run(["compare", "--rows", empty, head])
        #expect(noFrames.status == 3)
        #expect(noFrames.standardError.contains("base: no frames found in \(empty)"))
        for option in [
            ["--fps", "60"], ["--frame-marker", "frame"], ["--main-thread", "1:1"], ["--process", "1"],
            ["--jobs", "2"],
        ] {
            let result = try CLI.run(["compare", "--rows", head, head] + option)
            #expect(result.status == 2, "\(option)")
            #expect(result.standardError.contains("does not apply to --rows"))
        }
        let help = try CLI.run(["compare", "--help"])
        #expect(help.standardOutput.contains("framescope compare --rows --base ROWS"))
    }
}
