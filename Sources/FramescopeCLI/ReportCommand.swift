import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace
import FrameTraceReader

/// `framescope report`: where every frame's budget went, for any Chrome trace.
enum ReportCommand: Command {
    static let options: Set<String> = [
        "format", "fps", "main-thread", "process", "top", "frame-marker", "label", "max-input-size", "out",
        "summary-out", "errors-out", "jobs",
    ]
    static let flags: Set<String> = ["wide"]
    static let help = """
        USAGE: framescope report TRACE [--format F] [--out FILE] [--fps N] [--main-thread PID:TID]
                                       [--process PID] [--frame-marker NAME] [--top N] [--wide]
                                       [--label KEY=VALUE] [--max-input-size BYTES]
               framescope report TRACE... --format ROWS [--out FILE] [--summary-out FILE]
                                          [--errors-out FILE] [--jobs N] [options above]
               F: text|markdown|json|html|frames-jsonl|frames-csv|frames-parquet|
                  summary-jsonl|summary-parquet
               ROWS: frames-jsonl|frames-csv|frames-parquet|summary-jsonl|summary-parquet

        Reads a trace, Chrome JSON, Perfetto protobuf or Instruments' `xctrace export` XML (a
        file, or a folder of exported tables as one recording), framescope's own or any other
        tool's, told apart by content (`-` reads stdin); finds the frames, and
        reports where each frame's budget went: by category and thread, hitches, slow and
        frozen frames, percentiles, the worst frames and what cost most in them.

        FRAMES come from the first source the trace has, and the report says which: framescope
        frame spans (Recorder.withFrame); Chrome's own frame events (PipelineReporter, or
        BeginFrame/DrawFrame/DroppedFrame) in the main thread's renderer; Android's FrameTimeline
        (SurfaceFlinger's jank types; --process PID picks the app); an Instruments recording's
        displayed surfaces, late exactly where Apple's hitches table says; frame markers
        (--frame-marker, then Choreographer#doFrame and DrawFrame); else an estimate from the
        main thread's work, in which no frame that fits in the frame interval is slow or late.

        OPTIONS:
          --format F            text (default, for a terminal), markdown (for a pull request),
                                json (schema framescope.report, version \(FrameReport.schemaVersion)), or
                                html (one self-contained page: a frame timeline and every
                                table; redirect it to a file and open it in a browser), or
                                frames-jsonl / frames-csv / frames-parquet (one row per frame,
                                schema \(FrameRows.schema) v\(FrameRows.version), for DuckDB or ClickHouse), or
                                summary-jsonl / summary-parquet (one row per trace, schema
                                \(SummaryRows.schema) v\(SummaryRows.version), to pool a fleet's runs).
                                Parquet needs --out FILE or a redirect: never a terminal.
          --out FILE            Write the report to FILE (whole: a temporary file beside it,
                                then renamed) instead of standard output; opened before the
                                trace is read, so an unwritable FILE fails at once.
          --label KEY=VALUE     frames-* and summary-*: a label_KEY column on every row, e.g.
                                --label branch=main (repeatable).
          --fps N               Frame rate, 1-1000; wins over the trace's metadata (default: the
                                trace's, else Chrome's BeginFrame rate, else 60).
          --frame-marker NAME   Spans or instants named NAME mark frames (repeatable).
          --main-thread PID:TID The main (UI) thread, overriding the trace's metadata and names.
          --process PID         The process to analyse: its CrRendererMain (or main-like, else
                                busiest) thread. A Chrome report lists the other renderers.
          --top N               Worst frames to list, 0-1000 (default: 5).
          --wide                Text: every column, whole (default: fit 100 columns, long
                                names cut with …).
          \(InputLimit.helpLine)

        SEVERAL TRACES, ONE READ EACH (a fleet's batch, as the Spark job runs it):
          With more than one TRACE, a row format writes every trace's rows in one output, each
          row naming its trace in `trace`. Parquet and CSV are one table whose columns are every
          trace's (in order of first appearance; null or empty where a trace has no such column,
          text where traces disagree on a column's type); JSON Lines are each trace's lines as
          `report` writes them alone. A trace that cannot be read is an error line on stderr
          (and a line of --errors-out); the others' rows are still written, and the exit code
          is 3. When no trace can be read, --out and --summary-out are not written.
          --summary-out FILE    With frames-jsonl or frames-parquet: also write each trace's
                                summary row (summary-jsonl or summary-parquet) to FILE, from the
                                same read (one TRACE or several).
          --errors-out FILE     One JSON line per trace that could not be read: {"trace":
                                TRACE, "exit_status": 3, "message": the error line}; empty
                                when every trace was read.
          \(TraceBatch.helpLine)

        EXIT CODES: 0 success (a trace cut off mid-write loads, with a truncated diagnostic), 2
                    usage error (Parquet to a terminal included), 3 unreadable input (with
                    line:column or byte offset; a Perfetto file with no whole packet) or
                    unwritable --out; with several TRACEs, 3 when any could not be read.
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard let source = arguments.positionals.first else {
            throw UsageError("report takes a TRACE (a path, or - for stdin)")
        }
        let format = try arguments.choice("format", among: OutputFormat.allCases, default: .text)
        var labels: [(key: String, value: String)] = []
        for label in arguments.values("label") {
            guard let equals = label.firstIndex(of: "="), equals != label.startIndex,
                label[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
            else {
                throw UsageError(
                    "option '--label' expects KEY=VALUE with a key of letters, digits, _ or -, got '\(label)'")
            }
            labels.append((String(label[..<equals]), String(label[label.index(after: equals)...])))
        }
        let destination = arguments.value("out")
        if let destination, destination.isEmpty { throw UsageError("option '--out' expects a file, got ''") }
        if format.isParquet, destination ?? "-" == "-", isatty(1) != 0 {
            throw UsageError(
                "--format \(format.rawValue) writes binary Parquet: give --out FILE or redirect standard output, not a terminal"
            )
        }
        let options = try analysisOptions(arguments)
        if arguments.positionals.count > 1 || arguments.value("summary-out") != nil
            || arguments.value("errors-out") != nil || arguments.value("jobs") != nil
        {
            return try runBatch(arguments, format: format, labels: labels, options: options)
        }
        let maximumSize = try InputLimit.maximumSize(arguments)
        // Opened before the analysis, so an --out that cannot be written fails in a moment, not
        // after a long trace's analysis.
        let output = try OutputDestination(path: destination)
        let trace = try readTrace(source, maximumSize: maximumSize)
        let metadata = trace.metadata
        // Handed over, so the analysis can free the events before it fills in the frames.
        let report = FrameAnalyzer.analyze(consume trace, options: options)
        if let missing = missingProcess(report, options: options) {
            throw InputError("\(source == "-" ? "<stdin>" : source): \(missing)")
        }
        let traceRows = RowContext(source: source, labels: labels, metadata: metadata)
        write(report, format: format, rows: traceRows, wide: arguments.has("wide"), to: output)
        try output.finish()
        return .success
    }

    /// What the row formats say of the trace besides its report: its path, the run's labels and
    /// the trace's metadata.
    struct RowContext {
        var source: String
        var labels: [(key: String, value: String)]
        var metadata: TraceMetadata
    }

    /// The one place `report` renders: every format, to standard output or a file alike, in
    /// pieces (the JSON in pieces of about 1 MiB, rows line by line, Parquet a row group at a
    /// time), so a long trace's output is never all in memory.
    static func write(
        _ report: FrameReport, format: OutputFormat, rows: RowContext, wide: Bool, to output: OutputDestination
    ) {
        let source = rows.source
        switch format {
        case .text:
            output.write(UntrustedText.neutralizingWorkflowCommands(report.text(source: source, wide: wide)) + "\n")
        case .markdown:
            output.write(UntrustedText.neutralizingWorkflowCommands(report.markdown(source: source)) + "\n")
        case .json: report.writeJSON(source: source) { output.write($0) }
        case .html: output.write(report.html(source: source))
        case .framesParquet, .summaryParquet:
            parquetTable(report, format: format, rows: rows).writeParquet { output.write($0) }
        case .framesJSONL, .framesCSV, .summaryJSONL:
            self.rows(report, format: format, rows: rows) { output.write($0) }
        }
    }

    /// The table a Parquet format writes: the frames' or the summary's.
    static func parquetTable(_ report: FrameReport, format: OutputFormat, rows: RowContext) -> RowTable {
        format == .summaryParquet
            ? SummaryRows.table(report, trace: rows.source, labels: rows.labels, metadata: rows.metadata)
            : FrameRows.table(report, trace: rows.source, labels: rows.labels, metadata: rows.metadata)
    }

    /// A text row format (JSON Lines, CSV), line by line.
    static func rows(_ report: FrameReport, format: OutputFormat, rows: RowContext, emit: (String) -> Void) {
        if format == .summaryJSONL {
            SummaryRows.table(report, trace: rows.source, labels: rows.labels, metadata: rows.metadata)
                .writeJSONLines(to: emit)
        } else {
            FrameRows.write(
                report, trace: rows.source, labels: rows.labels, metadata: rows.metadata,
                format: format == .framesCSV ? .csv : .jsonLines, to: emit)
        }
    }

    /// The analysis flags shared by `report`, `check` and `compare`.
    static func analysisOptions(_ arguments: ParsedArguments) throws(UsageError) -> AnalysisOptions {
        var mainThread: ThreadKey?
        if let text = arguments.value("main-thread") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = Int64(parts[0]), let tid = Int64(parts[1]) else {
                throw UsageError("option '--main-thread' expects PID:TID, e.g. 1234:1, got '\(text)'")
            }
            mainThread = ThreadKey(processID: pid, threadID: tid)
        }
        let top = try arguments.integer("top", default: 5, in: 0...1000)
        let markers = arguments.values("frame-marker")
        if let empty = markers.first(where: \.isEmpty) {
            throw UsageError("option '--frame-marker' expects a span or instant name, got '\(empty)'")
        }
        var options = AnalysisOptions(
            frameRate: try arguments.frameRate("fps"), mainThread: mainThread, worstFrameCount: top,
            frameMarkers: markers)
        if let text = arguments.value("process") {
            guard let pid = Int64(text) else {
                throw UsageError("option '--process' expects a process id, e.g. 1234, got '\(text)'")
            }
            options.processID = pid
        }
        return options
    }

    /// When `--process PID` named a process with no thread in the trace, what to say (the report
    /// fell back to another main thread, which must not pass for the one asked for); else `nil`.
    static func missingProcess(_ report: FrameReport, options: AnalysisOptions) -> String? {
        guard let process = options.processID, report.method.mainThreadRule != .process else { return nil }
        var processes: [Int64] = []
        for thread in report.threads where !processes.contains(thread.key.processID) {
            processes.append(thread.key.processID)
        }
        let listed =
            processes.prefix(10).map(String.init).joined(separator: ", ") + (processes.count > 10 ? ", ..." : "")
        return
            "--process \(process): the trace has no thread in that process (processes: \(processes.isEmpty ? "none" : listed))"
    }

    /// Reads a trace from a path or stdin (at most `maximumSize` bytes), turning read failures
    /// into one-line input errors.
    static func readTrace(_ source: String, maximumSize: Int = InputFile.defaultMaximumSize) throws(InputError) -> Trace
    {
        do {
            // Every command that reads a trace analyses it, and the analysis reads only these.
            return try TraceReader.read(
                contentsOf: source, maximumSize: maximumSize, arguments: .only(FrameAnalyzer.argumentKeys))
        } catch  where error.code == .ioError {
            throw InputError(error.description)  // already names the file
        } catch  where error.code == .tooLarge {
            throw InputError(InputLimit.explain(error))
        } catch {
            throw InputError("\(source == "-" ? "<stdin>" : source): \(error)\(repairHint(error))")
        }
    }

    /// For a JSON trace cut off mid-write, what to do about it; empty otherwise. A Perfetto
    /// trace cut off after a whole packet loads (with a diagnostic), so one that is an error
    /// has no whole packet for `repair` to keep: no hint.
    static func repairHint(_ error: TraceReadError) -> String {
        guard !error.isBinaryPosition, error.code == .unexpectedEnd || error.code == .unterminatedString else {
            return ""
        }
        return " (cut off mid-write? `framescope repair` keeps what is complete)"
    }
}
