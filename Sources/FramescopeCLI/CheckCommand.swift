import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace
import FrameTraceReader

/// `framescope check`: traces against a budget file, as a CI gate.
enum CheckCommand: Command {
    static let options: Set<String> = [
        "budget", "format", "junit", "fps", "main-thread", "process", "frame-marker", "max-input-size", "jobs",
    ]
    static let flags: Set<String> = ["github-annotations"]
    static let help = """
        USAGE: framescope check TRACE... --budget FILE [--format text|markdown|json] [--junit FILE]
                                [--github-annotations] [--fps N] [--main-thread PID:TID]
                                [--process PID] [--max-input-size BYTES] [--jobs N]

        Checks each trace against a budget file: every rule that applies to the trace (the
        budget's limits, plus the trace sections whose glob matches the trace's file name) is
        printed with its measured value, its limit and a verdict. A value exactly at its limit
        passes; at 90% of its limit or more it passes as "near limit". A check never passes by
        checking nothing: a trace no rule applies to, or a category rule on a category no
        checked trace has ("did you mean ...?"), is an error; a category only some traces have
        is "not in trace" for the others; a trace section that matches no trace is a warning.
        An unreadable trace is an error, and the others are still checked and reported. The
        budget file is documented key by key in the Continuous Integration article
        (Sources/FrameScope/FrameScope.docc/ContinuousIntegration.md).

        OPTIONS:
          --budget FILE         The budget file (JSON, version 1). Required.
          --format F            text (default), markdown, or json (schema framescope.check,
                                version \(BudgetCheck.schemaVersion)).
          --junit FILE          Also write a JUnit XML report: one test case per rule.
          --github-annotations  After the report, print ::error lines for exceeded rules and
                                ::warning lines for rules near their limit, worst first, at most
                                \(GitHubAnnotations.defaultLimit), then one line saying how many more.
          --fps N               Frame rate, 1-1000 (wins over the budget's fps
                                and the trace's metadata).
          --frame-marker NAME   Spans or instants named NAME mark frames (repeatable).
          --main-thread PID:TID The main (UI) thread, overriding the trace's metadata and names.
          --process PID         The process to analyse: its CrRendererMain (or main-like, else
                                busiest) thread. A Chrome report lists the other renderers.
          \(InputLimit.helpLine)
          \(TraceBatch.helpLine)

        When the environment variable GITHUB_STEP_SUMMARY names a file, the Markdown report is
        appended to it.

        EXIT CODES:
          0  every rule passed
          1  a budget was exceeded
          2  usage error
          3  unreadable or invalid input (missing file, not a trace, a trace without frames,
             an invalid budget file), a check of nothing (a trace no rule applies to, a
             category no trace has), or an output that cannot be written
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let sources = arguments.positionals
        guard !sources.isEmpty else { throw UsageError("check needs at least one TRACE") }
        guard let budgetPath = arguments.value("budget") else { throw UsageError("check needs --budget FILE") }
        guard sources.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input (-) can be read only once")
        }
        let format = try arguments.choice("format", among: [OutputFormat.text, .markdown, .json], default: .text)
        let options = try ReportCommand.analysisOptions(arguments)
        let maximumSize = try InputLimit.maximumSize(arguments)
        let budget = try readBudget(budgetPath, maximumSize: maximumSize)
        // Every trace that can be read is checked and reported; one that cannot is an error of
        // its own (exit 3), not the end of the run.
        var traces: [BudgetCheck.TraceResult] = []
        var unreadable: [BudgetCheck.SkippedTrace] = []
        let jobs = try TraceBatch.jobs(arguments)
        let results = TraceBatch.analyze(sources, jobs: jobs, maximumSize: maximumSize) {
            budget.analyze(consume $0, options: options)
        }
        for (source, result) in zip(sources, results) {
            switch result {
            case .success(let report):
                if let missing = ReportCommand.missingProcess(report, options: options) {
                    unreadable.append(
                        BudgetCheck.SkippedTrace(
                            name: traceName(source), source: source, reason: .unreadable("\(source): \(missing)")))
                    continue
                }
                traces.append(
                    BudgetCheck.TraceResult(name: traceName(source), source: source, report: report, budget: budget))
            case .failure(let error):
                unreadable.append(
                    BudgetCheck.SkippedTrace(
                        name: traceName(source), source: source, reason: .unreadable(error.description)))
            }
        }
        let check = BudgetCheck(budgetSource: budgetPath, budget: budget, traces: traces, unreadable: unreadable)
        switch format {
        case .markdown: printUntrusted(check.markdown(), terminator: "")
        case .json: print(check.json())
        default: printUntrusted(check.text(), terminator: "")
        }
        for line in check.errorLines(UntrustedText.terminal) { printError("error: " + line) }
        try GateOutputs.write(
            arguments, junit: check.junit(), markdown: check.markdown(), annotations: check.annotations())
        return check.hasErrors ? .input : check.passed ? .success : .gateFailed
    }

    /// Reads and validates a budget file; any problem is an input error naming the file.
    static func readBudget(_ path: String, maximumSize: Int = InputFile.defaultMaximumSize) throws -> Budget {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(contentsOf: path, maximumSize: maximumSize)
        } catch  where error.code == .tooLarge {
            throw InputError(InputLimit.explain(error))
        } catch {
            throw InputError(error.description)  // the path and the system's reason
        }
        do {
            return try Budget.parse(bytes)
        } catch {
            throw InputError("\(path): \(error)")
        }
    }

    /// The name trace sections match: the file name, or `-` for stdin.
    static func traceName(_ source: String) -> String {
        source == "-" ? "-" : (source as NSString).lastPathComponent
    }
}

/// The CI outputs `check` and `compare` share: `--junit FILE`, the GitHub step summary, and
/// `--github-annotations`.
enum GateOutputs {
    static func write(
        _ arguments: ParsedArguments, junit: JUnitReport, markdown: String, annotations: [GitHubAnnotation]
    ) throws {
        try writeJUnit(arguments, junit)
        if let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            do {
                try OutputFile.append(path, Array((markdown + "\n").utf8))
            } catch {
                throw InputError("\(error) (GITHUB_STEP_SUMMARY)")
            }
        }
        if arguments.has("github-annotations") {
            for line in GitHubAnnotations.lines(annotations) { print(line) }  // framescope's own workflow commands
        }
    }

    /// Writes `--junit FILE`, when given.
    static func writeJUnit(_ arguments: ParsedArguments, _ junit: JUnitReport) throws {
        guard let path = arguments.value("junit") else { return }
        do {
            try OutputFile.replace(path, with: Array(junit.xml().utf8))
        } catch {
            throw InputError("\(error) (--junit)")
        }
    }
}
