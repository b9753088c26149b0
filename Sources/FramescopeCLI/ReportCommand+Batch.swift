import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace

/// `framescope report TRACE... --format ROWS`: the rows of a batch of traces, each trace read
/// once, in one process (what a fleet job runs per partition instead of a process per trace).
extension ReportCommand {
    /// One trace's rows, or why it could not be read.
    private struct TraceRows {
        var frames: RowTable
        var summary: RowTable
    }

    /// Where a batch writes: `--out` (or standard output), `--summary-out` with its format, and
    /// `--errors-out`, each checked and opened before any trace is read, so an unwritable file
    /// fails at once.
    private struct BatchDestinations {
        var output: OutputDestination
        var summary: (format: OutputFormat, output: OutputDestination)?
        var errors: OutputDestination?

        init(_ arguments: ParsedArguments, format: OutputFormat) throws {
            let summaryFormat = try ReportCommand.summaryFormat(of: format)
            let summaryOut = arguments.value("summary-out")
            if let summaryOut {
                guard summaryFormat != nil else {
                    throw UsageError(
                        "--summary-out goes with --format frames-jsonl or frames-parquet, not \(format.rawValue)")
                }
                guard !summaryOut.isEmpty, summaryOut != "-" else {
                    throw UsageError("option '--summary-out' expects a file, got '\(summaryOut)'")
                }
            }
            let errorsOut = arguments.value("errors-out")
            if let errorsOut, errorsOut.isEmpty || errorsOut == "-" {
                throw UsageError("option '--errors-out' expects a file, got '\(errorsOut)'")
            }
            output = try OutputDestination(path: arguments.value("out"))
            if let summaryOut, let summaryFormat {
                summary = (summaryFormat, try OutputDestination(path: summaryOut, option: "--summary-out"))
            }
            if let errorsOut { errors = try OutputDestination(path: errorsOut, option: "--errors-out") }
        }
    }

    /// The row formats and the format `--summary-out` writes beside each.
    private static func summaryFormat(of format: OutputFormat) throws(UsageError) -> OutputFormat? {
        switch format {
        case .framesParquet: return .summaryParquet
        case .framesJSONL: return .summaryJSONL
        case .framesCSV, .summaryJSONL, .summaryParquet: return nil
        case .text, .markdown, .json, .html:
            throw UsageError(
                "several TRACEs, --summary-out, --errors-out and --jobs go with a row format "
                    + "(frames-jsonl, frames-csv, frames-parquet, summary-jsonl, summary-parquet), not \(format.rawValue)"
            )
        }
    }

    /// Reads every TRACE once (at most `--jobs` at a time) and writes the rows of those that
    /// could be read; each that could not is an error line (and an `--errors-out` record).
    static func runBatch(
        _ arguments: ParsedArguments, format: OutputFormat, labels: [(key: String, value: String)],
        options: AnalysisOptions
    ) throws -> ExitCode {
        let sources = arguments.positionals
        guard sources.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input (-) can be read only once")
        }
        let destinations = try BatchDestinations(arguments, format: format)
        let results = TraceBatch.analyze(
            sources, jobs: try TraceBatch.jobs(arguments), maximumSize: try InputLimit.maximumSize(arguments)
        ) { trace in
            let metadata = trace.metadata
            return (FrameAnalyzer.analyze(consume trace, options: options), metadata)
        }
        var rows: [TraceRows] = []
        var errors: [(source: String, message: String)] = []
        for (source, result) in zip(sources, results) {
            switch result {
            case .success(let analysed):
                let (report, metadata) = analysed
                if let missing = missingProcess(report, options: options) {
                    errors.append((source, "\(source == "-" ? "<stdin>" : source): \(missing)"))
                    continue
                }
                rows.append(
                    TraceRows(
                        frames: FrameRows.table(report, trace: source, labels: labels, metadata: metadata),
                        summary: SummaryRows.table(report, trace: source, labels: labels, metadata: metadata)))
            case .failure(let error):
                errors.append((source, error.description))
            }
        }
        if !rows.isEmpty {
            let isSummary = format == .summaryJSONL || format == .summaryParquet
            write(rows.map { isSummary ? $0.summary : $0.frames }, format: format, to: destinations.output)
            if let summary = destinations.summary {
                write(rows.map(\.summary), format: summary.format, to: summary.output)
            }
            // With no rows, an --out or --summary-out file is left as it was.
            try destinations.output.finish()
            try destinations.summary?.output.finish()
        }
        if let errorsOutput = destinations.errors {
            for error in errors {
                errorsOutput.write("{\"trace\":\(JSONValue.string(error.source).description),")
                errorsOutput.write("\"exit_status\":\(ExitCode.input.rawValue),")
                errorsOutput.write("\"message\":\(JSONValue.string(error.message).description)}\n")
            }
            try errorsOutput.finish()
        }
        for error in errors { printError("error: \(UntrustedText.terminal(error.message))") }
        return errors.isEmpty ? .success : .input
    }

    /// Writes the traces' tables in `format`: JSON Lines trace by trace, CSV and Parquet as one
    /// table (``RowTable/concatenating(_:)``), Parquet a row group at a time.
    private static func write(_ tables: [RowTable], format: OutputFormat, to output: OutputDestination) {
        switch format {
        case .framesJSONL, .summaryJSONL:
            for table in tables { table.writeJSONLines { output.write($0) } }
        case .framesCSV:
            RowTable.concatenating(tables)?.writeCSV { output.write($0) }
        default:
            RowTable.concatenating(tables)?.writeParquet { output.write($0) }
        }
    }
}
