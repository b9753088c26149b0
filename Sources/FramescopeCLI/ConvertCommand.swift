import FrameTrace
import FrameTraceReader

/// `framescope convert`: rewrites a trace in another format, keeping everything it holds.
enum ConvertCommand: Command {
    static let options: Set<String> = ["to", "out", "max-input-size"]
    static let flags: Set<String> = []
    static let help = """
        USAGE: framescope convert TRACE --out FILE [--to perfetto|chrome-json]
                                  [--max-input-size BYTES]

        Reads a trace in any format framescope reads (Chrome JSON, Perfetto protobuf, xctrace
        export XML; told apart by content) and writes it in another, with its events, arguments, thread and process
        names and framescope's metadata. Timestamps are kept as they are (shifted only if some
        are negative, which neither format can hold). Converting to Perfetto gives frames
        (Expected and Actual Timeline) and async work tracks of their own in ui.perfetto.dev,
        exact nanosecond times and a smaller file; converting a Perfetto trace (Android's,
        Chrome's) to JSON opens it in chrome://tracing and in tools that read only JSON. What a
        format cannot hold is said on stderr: JSON writes spans that do not nest on their thread
        as async pairs; Perfetto has no place for JSON metadata events other than names and sort
        indexes, which are counted.

        OPTIONS:
          --out FILE            Where to write (required; - for standard output). Replaced
                                whole, through a temporary file renamed over it.
          --to FORMAT           perfetto or chrome-json (default: from FILE's ending: .pftrace
                                and .perfetto-trace are perfetto, anything else chrome-json).
          \(InputLimit.helpLine)

        EXIT CODES: 0 converted, 2 usage error, 3 unreadable input or unwritable output.
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard arguments.positionals.count == 1, let source = arguments.positionals.first else {
            throw UsageError("convert takes exactly one TRACE (- for standard input)")
        }
        guard let destination = arguments.value("out") else {
            throw UsageError("convert needs --out FILE (- for standard output)")
        }
        let format = try traceFormat(arguments.value("to"), path: destination)
        let maximumSize = try InputLimit.maximumSize(arguments)
        let trace: Trace
        do {
            trace = try TraceReader.read(contentsOf: source, maximumSize: maximumSize)
        } catch  where error.code == .ioError {
            throw InputError(error.description)
        } catch  where error.code == .tooLarge {
            throw InputError(InputLimit.explain(error))
        } catch {
            throw InputError("\(source == "-" ? "<stdin>" : source): \(error)\(ReportCommand.repairHint(error))")
        }
        let bytes = encode(trace, as: format)
        do {
            if destination == "-" {
                StandardOutput.write(bytes)
            } else {
                try OutputFile.replace(destination, with: bytes)
            }
        } catch {
            throw InputError("\(error)")
        }
        let skipped = trace.diagnostics.reduce(0) { $0 + $1.count }
        var note =
            skipped > 0
            ? "; the input had \(skipped) diagnostic\(skipped == 1 ? "" : "s") (framescope report lists them)" : ""
        let metadataEvents = format == .perfetto ? trace.events.reduce(0) { $0 + ($1.phase == .metadata ? 1 : 0) } : 0
        if metadataEvents > 0 {
            note +=
                "; \(metadataEvents) JSON metadata event\(metadataEvents == 1 ? "" : "s") not written (Perfetto has no place for them)"
        }
        progress(
            "\(source): \(trace.events.count) events written as \(format.rawValue) to \(destination) (\(bytes.count) bytes)\(note)"
        )
        return .success
    }

    /// The format `--to` names, else the one the output path's ending chooses.
    static func traceFormat(_ value: String?, path: String) throws(UsageError) -> TraceFormat {
        guard let value else { return TraceFormat(path: path) }
        guard let format = TraceFormat(rawValue: value) else {
            throw UsageError("option '--to' expects perfetto or chrome-json, got '\(value)'")
        }
        return format
    }

    /// The trace in `format`, times kept unless some are negative (then the earliest becomes 0).
    static func encode(_ trace: Trace, as format: TraceFormat) -> [UInt8] {
        let base = min(0, trace.earliestTimestamp ?? 0)
        switch format {
        case .chromeJSON: return ChromeTraceWriter.document(for: trace, form: .object, baseTimestamp: base)
        case .perfetto: return PerfettoTraceWriter.document(for: trace, baseTimestamp: base)
        }
    }
}
