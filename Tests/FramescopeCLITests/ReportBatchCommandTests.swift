import Foundation
import ParquetTestSupport
import Testing

/// `report TRACE... --format ROWS --summary-out --errors-out`: a batch of traces, each read once,
/// as the Spark job runs a partition.
@Suite("framescope report: several traces, one read each")
struct ReportBatchCommandTests {
    /// A folder with the small Chrome trace as `a.json`, a copy of the shipped reload trace (whose
    /// metadata gives it `meta_` columns the Chrome trace has not) as `b.json`, and an unreadable
    /// `broken.json`.
    func writeTraces() throws -> (directory: URL, a: String, b: String, broken: String) {
        let directory = try CLI.temporaryDirectory()
        let a = directory.appendingPathComponent("a.json").path
        let b = directory.appendingPathComponent("b.json").path
        let broken = directory.appendingPathComponent("broken.json").path
        try Data(ReportCommandTests.trace.utf8).write(to: URL(fileURLWithPath: a))
        try FileManager.default.copyItem(atPath: ShippedTraces.reload, toPath: b)
        try Data("{\"traceEvents\": [{\"ph\": \"X\",, \"ts\": 1}]}\n".utf8).write(to: URL(fileURLWithPath: broken))
        return (directory, a, b, broken)
    }

    static func text(_ cell: ParquetTestFile.Cell) -> String? {
        if case .bytes(let bytes) = cell { String(decoding: bytes, as: UTF8.self) } else { nil }
    }

    static func isNull(_ cell: ParquetTestFile.Cell) -> Bool {
        if case .null = cell { true } else { false }
    }

    @Test("JSON Lines: every trace's frame rows and summary rows, each as report writes it alone")
    func jsonLines() throws {
        let (directory, a, b, _) = try writeTraces()
        let summaries = directory.appendingPathComponent("summaries.jsonl").path
        let batch = try CLI.run([
            "report", a, b, "--format", "frames-jsonl", "--summary-out", summaries, "--label", "lab=ci", "--jobs", "2",
        ])
        #expect(batch.status == 0, "stderr: \(batch.standardError)")
        var frames = ""
        var summary = ""
        for trace in [a, b] {
            frames += try CLI.run(["report", trace, "--format", "frames-jsonl", "--label", "lab=ci"]).standardOutput
            summary += try CLI.run(["report", trace, "--format", "summary-jsonl", "--label", "lab=ci"]).standardOutput
        }
        #expect(batch.standardOutput == frames)
        #expect(try String(contentsOfFile: summaries, encoding: .utf8) == summary)
    }

    @Test("Parquet: one file of every trace's rows in order, a column one trace lacks null in its rows")
    func parquet() throws {
        let (directory, a, b, _) = try writeTraces()
        let framesOut = directory.appendingPathComponent("frames.parquet").path
        let summaryOut = directory.appendingPathComponent("summary.parquet").path
        let batch = try CLI.run([
            "report", a, b, "--format", "frames-parquet", "--out", framesOut, "--summary-out", summaryOut,
        ])
        #expect(batch.status == 0 && batch.standardOutput.isEmpty, "stderr: \(batch.standardError)")
        let alone = try [a, b].map { try CLI.run(["report", $0, "--format", "frames-jsonl"]).standardOutput }
        let counts = alone.map { $0.split(separator: "\n").count }
        let frames = try ParquetTestFile([UInt8](Data(contentsOf: URL(fileURLWithPath: framesOut))))
        let names = frames.columns.map(\.name)
        let traceColumn = try #require(names.firstIndex(of: "trace"))
        let rows = try frames.rows()
        #expect(
            rows.map { Self.text($0[traceColumn]) }
                == Array(repeating: a, count: counts[0]) + Array(repeating: b, count: counts[1]))
        // The reload trace's metadata is a meta_ column: null in the Chrome trace's rows, set in its own.
        let meta = try #require(names.firstIndex { $0.hasPrefix("meta_") })
        #expect(rows.prefix(counts[0]).allSatisfy { Self.isNull($0[meta]) })
        #expect(rows.suffix(counts[1]).allSatisfy { !Self.isNull($0[meta]) })
        let summary = try ParquetTestFile([UInt8](Data(contentsOf: URL(fileURLWithPath: summaryOut))))
        #expect(summary.rowCount == 2)
        #expect(summary.keyValues["framescope.schema"] == "framescope.summary")
    }

    @Test("An unreadable trace is an error record and exit 3; the others' rows are still written")
    func unreadable() throws {
        let (directory, a, b, broken) = try writeTraces()
        let errorsOut = directory.appendingPathComponent("errors.jsonl").path
        let batch = try CLI.run(["report", a, broken, b, "--format", "frames-jsonl", "--errors-out", errorsOut])
        #expect(batch.status == 3)
        let alone = try [a, b].map { try CLI.run(["report", $0, "--format", "frames-jsonl"]).standardOutput }
        #expect(batch.standardOutput == alone.joined())
        let single = try CLI.run(["report", broken, "--format", "frames-jsonl"])
        #expect(single.status == 3)
        #expect(batch.standardError == single.standardError)
        let message = String(single.standardError.dropFirst("error: ".count).dropLast())
        let record = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: errorsOut))) as? [String: Any])
        #expect(record["trace"] as? String == broken)
        #expect(record["exit_status"] as? Int == 3)
        #expect(record["message"] as? String == message)
        #expect(message.contains(broken))
    }

    @Test("When no trace can be read, only the errors are written")
    func nothingReadable() throws {
        let (directory, _, _, broken) = try writeTraces()
        let framesOut = directory.appendingPathComponent("frames.parquet").path
        let errorsOut = directory.appendingPathComponent("errors.jsonl").path
        let missing = directory.appendingPathComponent("missing.json").path
        let batch = try CLI.run([
            "report", broken, missing, "--format", "frames-parquet", "--out", framesOut, "--errors-out", errorsOut,
        ])
        #expect(batch.status == 3)
        #expect(!FileManager.default.fileExists(atPath: framesOut))
        let lines = try String(contentsOfFile: errorsOut, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[1].contains("missing.json"))
    }

    @Test(
        "Several traces or --summary-out without a row format that has a summary are usage errors",
        arguments: [
            ["--format", "text"], ["--format", "json"], ["--format", "frames-csv", "--summary-out", "s.jsonl"],
            ["--format", "summary-jsonl", "--summary-out", "s.jsonl"],
            ["--format", "frames-jsonl", "--errors-out", ""],
        ])
    func usage(options: [String]) throws {
        let (_, a, b, _) = try writeTraces()
        let result = try CLI.run(["report", a, b] + options)
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(result.standardOutput.isEmpty && result.standardError.hasPrefix("error: "))
    }
}
