import Foundation
import ParquetTestSupport
import Testing

@Suite("framescope report: Parquet and --out")
struct ParquetCommandTests {
    func writeTrace() throws -> (directory: URL, path: String) {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("trace.json").path
        try Data(ReportCommandTests.trace.utf8).write(to: URL(fileURLWithPath: path))
        return (directory, path)
    }

    @Test("--out writes frames-parquet and summary-parquet whole, holding the JSON Lines' rows")
    func parquetFiles() throws {
        let (directory, trace) = try writeTrace()
        for (format, text) in [("frames-parquet", "frames-jsonl"), ("summary-parquet", "summary-jsonl")] {
            let out = directory.appendingPathComponent("\(format).parquet").path
            let written = try CLI.run(["report", trace, "--format", format, "--out", out, "--label", "branch=a\"b"])
            #expect(written.status == 0 && written.standardOutput.isEmpty, "stderr: \(written.standardError)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
            let lines = try CLI.run(["report", trace, "--format", text, "--label", "branch=a\"b"])
            dropParquetCopy(bytes, name: "cli-\(format)", jsonLines: lines.standardOutput)
            let file = try ParquetTestFile(bytes)
            #expect(file.rowCount == lines.standardOutput.split(separator: "\n").count)
            #expect(file.columns.contains { $0.name == "label_branch" })
            // Nothing left beside it: the temporary file was renamed.
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty
            )
        }
    }

    @Test("--out with a text format writes what standard output would have received")
    func textToFile() throws {
        let (directory, trace) = try writeTrace()
        let out = directory.appendingPathComponent("rows.jsonl").path
        let written = try CLI.run(["report", trace, "--format", "frames-jsonl", "--out", out])
        let printed = try CLI.run(["report", trace, "--format", "frames-jsonl"])
        #expect(written.status == 0 && written.standardOutput.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == printed.standardOutput)
    }

    @Test("Parquet goes to a pipe, an unwritable --out is exit 3 in one line before the analysis, a bad label exit 2")
    func failures() throws {
        let (directory, trace) = try writeTrace()
        let piped = try CLI.run(["report", trace, "--format", "frames-parquet"])
        #expect(piped.status == 0 && piped.standardOutput.hasPrefix("PAR1"))
        let unwritable = try CLI.run([
            "report", trace, "--format", "frames-parquet", "--out",
            directory.appendingPathComponent("no/x.parquet").path,
        ])
        #expect(unwritable.status == 3)
        #expect(
            unwritable.standardError.hasPrefix("error: cannot write --out: ")
                && unwritable.standardError.filter { $0 == "\n" }.count == 1)
        // Found before the trace is read: a missing trace with an unwritable --out names the --out.
        for format in ["frames-parquet", "frames-jsonl"] {
            let first = try CLI.run([
                "report", directory.appendingPathComponent("missing.json").path, "--format", format, "--out",
                directory.appendingPathComponent("no/x.parquet").path,
            ])
            #expect(
                first.status == 3 && first.standardError.hasPrefix("error: cannot write --out: "),
                "\(first.standardError)")
        }
        // A trace that cannot be read after --out was opened leaves neither the file nor a temporary.
        let unread = try CLI.run([
            "report", directory.appendingPathComponent("missing.json").path, "--format", "frames-parquet", "--out",
            directory.appendingPathComponent("z.parquet").path,
        ])
        #expect(unread.status == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasPrefix(".") || $0.hasPrefix("z.")
            }.isEmpty)
        let label = try CLI.run([
            "report", trace, "--format", "summary-parquet", "--out", directory.appendingPathComponent("y.parquet").path,
            "--label", "novalue",
        ])
        #expect(label.status == 2 && label.standardError.contains("KEY=VALUE"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("y.parquet").path))
    }
}
