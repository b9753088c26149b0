import FrameTrace
import FrameTraceReader

/// `--max-input-size BYTES`: the cap on every input `report`, `check` and `compare` read (traces
/// and budget files), so an endless or huge input stops with one line instead of exhausting memory.
enum InputLimit {
    /// The option's line in a command's help.
    static let helpLine = """
        --max-input-size B    Refuse any input (trace or budget) larger than B bytes; a pipe or
                                device is read only that far (default: \(InputFile.defaultMaximumSize), 2 GiB).
        """

    /// The cap the command line asks for, or the default.
    static func maximumSize(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        guard let text = arguments.value("max-input-size") else { return InputFile.defaultMaximumSize }
        guard let bytes = Int(text), bytes >= 1, bytes <= Int(Int32.max) * 1024 else {
            throw UsageError(
                "option '--max-input-size' expects a number of bytes from 1 to \(Int(Int32.max) * 1024), got '\(text)'")
        }
        return bytes
    }

    /// The too-large error with the way out.
    static func explain(_ error: TraceReadError) -> String {
        "\(error.message); raise it with --max-input-size BYTES"
    }
}
