import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace
import FrameTraceReader

/// `framescope compare`: head runs against base runs, noise-aware, as a CI gate.
enum CompareCommand: Command {
    static let options: Set<String> = [
        "base", "head", "budget", "alpha", "min-relative", "min-absolute-ms", "format", "junit", "fps", "main-thread",
        "process", "frame-marker",
        "max-input-size", "jobs",
    ]
    static let flags: Set<String> = ["github-annotations", "rows"]
    /// Options that choose how a trace is analysed: frames rows were analysed when written.
    static let analysisOptionNames = ["fps", "main-thread", "process", "frame-marker", "jobs"]
    static let help = """
        USAGE: framescope compare BASE HEAD [options]
               framescope compare --base TRACE [--base TRACE ...] --head TRACE [--head TRACE ...] [options]
               framescope compare --rows --base ROWS [--base ROWS ...] --head ROWS [--head ROWS ...]
                                  [options]

        Compares the per-frame distributions of head against base: main-thread cost, overrun, and
        each category's main-thread time per frame, with base and head median and p95, the change,
        a p-value and a verdict; hitch time ratio, slow and frozen frames are shown for
        information. Repeated runs given with --base/--head are pooled.

        A metric regresses when head is worse both significantly and by at least the minimum
        effects (relative and absolute):
          - typical frame: Mann-Whitney U p-value below alpha, and the Hodges-Lehmann shift;
          - slow tail: the p95 change, with a bootstrap interval at 1 - alpha that excludes 0.
        A change of at least the minimum effects that is not significant is reported as a
        possible regression (a warning; it passes). With fewer than \(MetricComparison.minimumFrames) frames a side a metric
        is not judged: no-data, "too few frames to judge", a warning that passes.

        With --rows, each input is instead the frames rows of `framescope report TRACE --format
        frames-jsonl` (schema framescope.frames, version 1; one file is one run, and may hold
        several traces' rows): no trace is read again. The metrics, p-values, shifts,
        percentiles and intervals are exactly those of comparing the traces themselves. Rows
        carry no report summary, so the summary shows the frame counts only: hitch time
        ratio, slow and frozen frames need the traces (JSON: "input": "frame-rows"). A bad
        row is an error naming the file and line; that file is not compared (exit 3).

        OPTIONS:
          --base TRACE          A base run (repeatable); instead of the BASE HEAD positionals.
          --head TRACE          A head run (repeatable).
          --rows                The inputs are frames-jsonl rows, not traces; --fps,
                                --frame-marker, --main-thread, --process and --jobs do not
                                apply to them.
          --alpha A             Significance level, between 0 and 1 (default: 0.01).
          --min-relative R      Minimum change relative to base, 0.1 = 10% (default: 0.1).
          --min-absolute-ms M   Minimum change in milliseconds (default: 0.25).
          --budget FILE         Take the thresholds from the budget file's "regression" section;
                                the flags above override it.
          --format F            text (default), markdown, or json (schema framescope.compare,
                                version \(Comparison.schemaVersion)).
          --junit FILE          Also write a JUnit XML report: one test case per metric.
          --github-annotations  After the report, print ::error lines for regressions and
                                ::warning lines for possible ones, worst first, at most
                                \(GitHubAnnotations.defaultLimit), then one line saying how many more.
          --fps N               Frame rate, 1-1000 (wins over the budget's fps
                                and the trace's metadata).
          --frame-marker NAME   Spans or instants named NAME mark frames (repeatable).
          --main-thread PID:TID The main (UI) thread, overriding the traces' metadata and names.
          --process PID         The process to analyse: its CrRendererMain (or main-like, else
                                busiest) thread. A Chrome report lists the other renderers.
          \(InputLimit.helpLine)
          \(TraceBatch.helpLine)

        Defaults: two runs of the same code must pass and a 20% main-thread regression must
        fail. A false alarm needs both a 1-in-100 test result and an apparent change of 10%
        and 0.25 ms; 20% is twice the relative minimum. When the environment variable
        GITHUB_STEP_SUMMARY names a file, the Markdown report is appended to it.

        EXIT CODES:
          0  no regression
          1  a regression was found
          2  usage error
          3  unreadable or invalid input (missing file, not a trace, a bad frames row, a side
             without frames, an invalid budget file), or an output that cannot be written
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let (baseSources, headSources) = try sources(arguments)
        let isRows = arguments.has("rows")
        if isRows, let option = analysisOptionNames.first(where: { !arguments.values($0).isEmpty }) {
            throw UsageError(
                "option '--\(option)' does not apply to --rows: frames rows were analysed when they were written")
        }
        let format = try arguments.choice("format", among: [OutputFormat.text, .markdown, .json], default: .text)
        let options = isRows ? nil : try ReportCommand.analysisOptions(arguments)
        let (thresholds, budget, maximumSize) = try regressionThresholds(arguments)

        // Every input that can be read is compared; one that cannot is an error line and an
        // <error> test case of its own (exit 3), not the end of the run.
        let runs: [Result<ComparedRuns, InputError>]
        if let options {
            let jobs = try TraceBatch.jobs(arguments)
            runs = analyzeTraces(
                baseSources + headSources, budget: budget, options: options, jobs: jobs, maximumSize: maximumSize)
        } else {
            runs = (baseSources + headSources).map { source in readRows(source, maximumSize: maximumSize) }
        }
        var unreadable: [Comparison.UnreadableTrace] = []
        var base: [(source: String, run: ComparedRuns)] = []
        var head: [(source: String, run: ComparedRuns)] = []
        for (index, (source, result)) in zip(baseSources + headSources, runs).enumerated() {
            switch result {
            case .success(let run):
                if index < baseSources.count { base.append((source, run)) } else { head.append((source, run)) }
            case .failure(let error):
                unreadable.append(Comparison.UnreadableTrace(source: source, reason: error.description))
            }
        }
        for trace in unreadable { printError("error: \(UntrustedText.terminal(trace.reason))") }
        let nothingToCompare = emptySides(
            base: base, head: head, given: (baseSources, headSources), inputs: isRows ? "rows file" : "trace")
        guard nothingToCompare.isEmpty else {
            if !unreadable.isEmpty { try GateOutputs.writeJUnit(arguments, Comparison.junit(unreadable: unreadable)) }
            throw InputError(nothingToCompare.joined(separator: "; "))
        }
        var comparison = Comparison(
            base: ComparedRuns(pooling: base.map(\.run)), head: ComparedRuns(pooling: head.map(\.run)),
            baseSources: base.map(\.source), headSources: head.map(\.source), thresholds: thresholds)
        comparison.unreadableTraces = unreadable
        switch format {
        case .markdown: printUntrusted(comparison.markdown(), terminator: "")
        case .json: print(comparison.json())
        default: printUntrusted(comparison.text(), terminator: "")
        }
        try GateOutputs.write(
            arguments, junit: comparison.junit(), markdown: comparison.markdown(), annotations: comparison.annotations()
        )
        return !unreadable.isEmpty ? .input : comparison.passed ? .success : .gateFailed
    }

    /// The base and head inputs: `BASE HEAD`, or `--base` and `--head` (repeatable), standard
    /// input at most once.
    private static func sources(_ arguments: ParsedArguments) throws -> (base: [String], head: [String]) {
        var baseSources = arguments.values("base")
        var headSources = arguments.values("head")
        if baseSources.isEmpty && headSources.isEmpty {
            guard arguments.positionals.count == 2 else {
                throw UsageError("compare takes BASE HEAD, or --base TRACE and --head TRACE (repeatable)")
            }
            baseSources = [arguments.positionals[0]]
            headSources = [arguments.positionals[1]]
        } else {
            guard arguments.positionals.isEmpty else {
                throw UsageError("give traces either as BASE HEAD or with --base/--head, not both")
            }
            guard !baseSources.isEmpty else { throw UsageError("compare needs at least one --base TRACE") }
            guard !headSources.isEmpty else { throw UsageError("compare needs at least one --head TRACE") }
        }
        guard (baseSources + headSources).filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input (-) can be read only once")
        }
        return (baseSources, headSources)
    }

    /// The regression thresholds (each option, else the budget's, else the defaults), the budget
    /// (`--budget`) and the input size limit.
    private static func regressionThresholds(_ arguments: ParsedArguments) throws -> (
        RegressionThresholds, Budget?, Int
    ) {
        var alpha = try number(arguments, "alpha") { $0 > 0 && $0 < 1 }
        var relative = try number(arguments, "min-relative") { $0 >= 0 }
        var absolute = try number(arguments, "min-absolute-ms") { $0 >= 0 }
        let maximumSize = try InputLimit.maximumSize(arguments)
        let budget = try arguments.value("budget").map { path in
            try CheckCommand.readBudget(path, maximumSize: maximumSize)
        }
        let fromBudget = budget?.regression ?? .defaults
        alpha = alpha ?? fromBudget.alpha
        relative = relative ?? fromBudget.minimumRelativeEffect
        absolute = absolute ?? fromBudget.minimumAbsoluteMilliseconds
        let thresholds = RegressionThresholds(
            alpha: alpha!, minimumRelativeEffect: relative!, minimumAbsoluteMilliseconds: absolute!)
        return (thresholds, budget, maximumSize)
    }

    /// Why each side has nothing to compare (no input read, or no frames in what was), if it has not.
    private static func emptySides(
        base: [(source: String, run: ComparedRuns)], head: [(source: String, run: ComparedRuns)],
        given: (base: [String], head: [String]), inputs: String
    ) -> [String] {
        var emptySides: [String] = []
        for (side, read, given) in [("base", base, given.base), ("head", head, given.head)]
        where !read.contains(where: { !$0.run.frames.isEmpty }) {
            let sources = (read.isEmpty ? given : read.map(\.source)).map(UntrustedText.terminal).joined(
                separator: ", ")
            emptySides.append(
                read.isEmpty
                    ? "\(side): no \(inputs) could be read; nothing to compare"
                    : "\(side): no frames found in \(sources); nothing to compare")
        }
        return emptySides
    }

    /// Reads and analyses traces, all in one batch so that every core is busy until the last
    /// trace is read; a report without the asked-for process is unreadable.
    static func analyzeTraces(
        _ sources: [String], budget: Budget?, options: AnalysisOptions, jobs: Int, maximumSize: Int
    ) -> [Result<ComparedRuns, InputError>] {
        let results = TraceBatch.analyze(sources, jobs: jobs, maximumSize: maximumSize) { trace in
            if let budget { return budget.analyze(consume trace, options: options) }
            return FrameAnalyzer.analyze(consume trace, options: options)
        }
        return zip(sources, results).map { source, result in
            result.flatMap { report in
                if let missing = ReportCommand.missingProcess(report, options: options) {
                    return .failure(InputError("\(source): \(missing)"))
                }
                return .success(ComparedRuns(report: report))
            }
        }
    }

    /// Reads one file of frames rows as a run; any problem is an input error naming the file
    /// (and, for a bad row, its line).
    static func readRows(_ source: String, maximumSize: Int) -> Result<ComparedRuns, InputError> {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(contentsOf: source, maximumSize: maximumSize)
        } catch  where error.code == .tooLarge {
            return .failure(InputError(InputLimit.explain(error)))
        } catch {
            return .failure(InputError(error.description))  // the path and the system's reason
        }
        do {
            return .success(try FrameRows.readRun(bytes))
        } catch {
            return .failure(InputError("\(source == "-" ? "<stdin>" : source): \(error)"))
        }
    }

    /// A decimal option that must satisfy `isValid`, or `nil` when absent.
    static func number(_ arguments: ParsedArguments, _ name: String, isValid: (Double) -> Bool) throws(UsageError)
        -> Double?
    {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Double(text), value.isFinite, isValid(value) else {
            let range = name == "alpha" ? "a number between 0 and 1" : "a number of at least 0"
            throw UsageError("option '--\(name)' expects \(range), got '\(text)'")
        }
        return value
    }
}
