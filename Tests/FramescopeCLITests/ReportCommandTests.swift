import Foundation
import Testing

@Suite("framescope report")
struct ReportCommandTests {
    /// Two frames on a thread named CrRendererMain; the second runs 4 ms past its deadline.
    static let trace = """
        {"traceEvents":[
        {"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"CrRendererMain"}},
        {"ph":"X","name":"Layout","cat":"blink","pid":7,"tid":1,"ts":0,"dur":5000},
        {"ph":"B","name":"Paint","cat":"blink","pid":7,"tid":1,"ts":20000},
        {"ph":"E","pid":7,"tid":1,"ts":37333.334},
        {"ph":"X","name":"Raster","cat":"cc","pid":7,"tid":2,"ts":1000,"dur":3000}
        ]}
        """

    func writeTrace(_ text: String = trace) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent("trace.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("The text report names how it read the trace and finds the late frame")
    func textReport() throws {
        let result = try CLI.run(["report", try writeTrace()])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("CrRendererMain (pid:tid 7:1, chosen by thread name)"))
        #expect(result.standardOutput.contains("frames from     estimated from main-thread work"))
        let late = result.standardOutput.split(separator: "\n").first { $0.contains("late frames") }
        #expect(late?.split(separator: " ").filter { !$0.isEmpty } == ["late", "frames", "1", "1", "missed", "vsyncs"])
    }

    @Test(
        "--process picks a process's main thread; a process with no thread is an input error naming it, never another thread's report"
    )
    func processOption() throws {
        let path = try writeTrace()
        let chosen = try CLI.run(["report", path, "--process", "7"])
        #expect(chosen.status == 0, "stderr: \(chosen.standardError)")
        #expect(chosen.standardOutput.contains("CrRendererMain (pid:tid 7:1, chosen by --process)"))
        let missing = try CLI.run(["report", path, "--process", "8"])
        #expect(missing.status == 3 && missing.standardOutput.isEmpty)
        #expect(
            missing.standardError
                == "error: \(path): --process 8: the trace has no thread in that process (processes: 7)\n")
        let malformed = try CLI.run(["report", path, "--process", "seven"])
        #expect(
            malformed.status == 2
                && malformed.standardError.contains("option '--process' expects a process id, e.g. 1234, got 'seven'"))
    }

    @Test(
        "The JSON report follows schema framescope.report v4 with exact nanoseconds and the frame source's counts as values"
    )
    func jsonReport() throws {
        let result = try CLI.run(["report", try writeTrace(), "--format", "json"])
        #expect(result.status == 0)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["schema"] as? String == "framescope.report")
        #expect(report["version"] as? Int == 4)
        let method = try #require(report["method"] as? [String: Any])
        let detail = try #require(method["frame-boundaries-detail"] as? [String: Any])
        #expect(detail["kind"] as? String == "estimated")
        #expect((detail["text"] as? String)?.hasPrefix("each stretch of main-thread work is a frame") == true)
        let frames = try #require(report["frames"] as? [[String: Any]])
        #expect(frames.count == 2)
        #expect(frames[1]["main-ns"] as? Int == 17_333_334)
        let categories = try #require(report["categories"] as? [[String: Any]])
        #expect(categories.first { $0["name"] as? String == "cc" }?["background-ns"] as? Int == 3_000_000)
    }

    @Test("Markdown output has tables; stdin works with -")
    func markdownFromStandardInput() throws {
        let result = try CLI.run(["report", "-", "--format", "markdown"], input: Data(Self.trace.utf8))
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("## framescope report: `-`"))
        #expect(result.standardOutput.contains("| :--- |"))
    }

    @Test("--main-thread and --fps override what the trace says")
    func overrides() throws {
        let result = try CLI.run([
            "report", try writeTrace(), "--main-thread", "7:2", "--fps", "120", "--format", "json",
        ])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let method = try #require(report["method"] as? [String: Any])
        #expect(method["main-thread-rule"] as? String == "option")
        #expect(method["frame-interval-ns"] as? Int == 8_333_333)
    }

    @Test(
        "--fps takes a fractional rate, and a rate out of range or not a number is a usage error",
        arguments: [
            "0", "1001", "-1", "nan", "inf", "1e999", "60fps",
        ])
    func frameRateOption(text: String) throws {
        let result = try CLI.run(["report", try writeTrace(), "--fps", text])
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "error: option '--fps' expects a frame rate from 1 to 1000, got '\(text)'; run 'framescope report --help' for usage\n"
        )
    }

    @Test("--fps 59.94 judges frames against 16,683,350 ns and reports the rate asked for")
    func fractionalFrameRate() throws {
        let result = try CLI.run(["report", try writeTrace(), "--fps", "59.94", "--format", "json"])
        #expect(result.status == 0)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let method = try #require(report["method"] as? [String: Any])
        #expect(method["frame-interval-ns"] as? Int == 16_683_350)
        #expect(method["frame-interval-requested-fps"] as? Double == 59.94)
    }

    @Test(
        "A file that is not a trace exits 3 with the line and column",
        arguments: [
            ("{\"traceEvents\": [\n  {\"ph\": \"X\",, }]}", "line 2, column"),
            ("hello", "line 1, column 1"),
        ])
    func unreadableInput(text: String, location: String) throws {
        let result = try CLI.run(["report", try writeTrace(text)])
        #expect(result.status == 3)
        #expect(result.standardError.contains(location))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("A missing file exits 3 and names it once")
    func missingFile() throws {
        let result = try CLI.run(["report", "/nonexistent/trace.json"])
        #expect(result.status == 3)
        #expect(result.standardError.components(separatedBy: "/nonexistent/trace.json").count == 2)
    }

    @Test(
        "Malformed options are usage errors",
        arguments: [
            ["report"], ["report", "a.json", "--main-thread", "7"], ["report", "a.json", "--format", "xml"],
            ["report", "a.json", "--top", "-1"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
    }
}

@Suite("framescope report --format html and --wide")
struct ReportHTMLCommandTests {
    @Test("--format html prints one page whose timeline has the report's frame count")
    func htmlReport() throws {
        let path = try ReportCommandTests().writeTrace()
        let result = try CLI.run(["report", path, "--format", "html"])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.hasPrefix("<!DOCTYPE html>"))
        #expect(result.standardOutput.contains("data-frames=\"2\""))
        #expect(result.standardOutput.contains("Frames from: estimated from main-thread work"))
    }

    @Test("--wide is accepted and keeps every categories column")
    func wide() throws {
        let path = try ReportCommandTests().writeTrace()
        let narrow = try CLI.run(["report", path])
        let wide = try CLI.run(["report", path, "--wide"])
        #expect(wide.status == 0)
        #expect(wide.standardOutput.contains("main p50/frame"))
        #expect(!narrow.standardOutput.contains("main p50/frame"))
    }
}

@Suite("framescope report --format frames-jsonl and frames-csv")
struct ReportFrameRowsCommandTests {
    @Test("frames-jsonl writes one labelled JSON object per frame")
    func jsonLines() throws {
        let path = try ReportCommandTests().writeTrace()
        let result = try CLI.run([
            "report", path, "--format", "frames-jsonl", "--label", "branch=main", "--label", "run=2",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(row["schema"] as? String == "framescope.frames")
        #expect(row["label_branch"] as? String == "main")
        #expect(row["label_run"] as? String == "2")
        #expect(row["index"] as? Int == 1)
        #expect(row["missed_vsyncs"] as? Int == 1)
    }

    @Test("frames-csv writes a header and one line per frame")
    func csv() throws {
        let path = try ReportCommandTests().writeTrace()
        let result = try CLI.run(["report", path, "--format", "frames-csv"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("schema,version,trace,frame_source,frame_interval_ms,index,"))
    }

    @Test("A label without KEY= is a usage error")
    func badLabel() throws {
        let path = try ReportCommandTests().writeTrace()
        let result = try CLI.run(["report", path, "--format", "frames-jsonl", "--label", "main"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("'--label' expects KEY=VALUE"))
    }
}
