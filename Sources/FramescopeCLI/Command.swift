import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace

/// One subcommand: what it accepts, its help, and what it does.
protocol Command {
    /// Options that take a value.
    static var options: Set<String> { get }
    /// Options that take no value.
    static var flags: Set<String> { get }
    /// The text `--help` prints.
    static var help: String { get }
    /// Runs the command.
    static func run(_ arguments: ParsedArguments) throws -> ExitCode
}

/// An input that could not be read or is invalid. Exits with ``ExitCode/input``.
struct InputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Prints one line (or a block) to standard error.
func printError(_ message: String) {
    var line = message
    if !line.hasSuffix("\n") { line += "\n" }
    FileHandle.standardError.write(Data(line.utf8))
}

/// Progress for work that takes more than a second: on stderr, so stdout stays machine-readable.
///
/// The message is one line through ``UntrustedText/terminal(_:)``: it names files a pull
/// request chose (`repair` names the trace), so a control character, a bidi override or a line
/// break before `::warning::` in a file name is shown as a visible escape, never written.
func progress(_ message: String) {
    printError(UntrustedText.terminal(message))
}

/// `text` wrapped into lines of at most `width` columns, the first starting with `first` and the
/// rest with `rest` (which must be as wide).
func wrapped(_ text: String, first: String, rest: String, width: Int = 100) -> String {
    ReportTable.wrap(text, width: width - first.count).enumerated()
        .map { ($0.offset == 0 ? first : rest) + $0.element }.joined(separator: "\n")
}
