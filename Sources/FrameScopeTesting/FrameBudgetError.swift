import FrameAnalysis
import FrameTraceReader

/// Why a budget or a trace file could not be read, and where: the file, then the JSON path of
/// the offending value (`limits.hitch-time-ratio`) or the line and column of a syntax error.
///
/// The budget's own problems are `framescope check`'s, word for word:
///
/// ```swift
/// do {
///     _ = try FrameBudget(json: #"{"version": 1, "limits": {"hitch-time-ratio": "5"}}"#)
/// } catch {
///     print(error)           // limits.hitch-time-ratio: expected a number, got a string
///     print(error.code)      // wrong-type
/// }
/// ```
public struct FrameBudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. A struct rather than an enum, so that a new code is not a breaking
    /// change; compare with `==`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier, e.g. `wrong-type`.
        public let rawValue: String
        /// Creates a code from its identifier.
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The budget is not JSON; ``FrameBudgetError/line`` and ``FrameBudgetError/column`` say where.
        public static let invalidJSON = Code(rawValue: "invalid-json")
        /// A key the budget format does not define.
        public static let unknownKey = Code(rawValue: "unknown-key")
        /// The same key twice in one object.
        public static let duplicateKey = Code(rawValue: "duplicate-key")
        /// A required key is absent.
        public static let missingKey = Code(rawValue: "missing-key")
        /// A value of the wrong JSON type.
        public static let wrongType = Code(rawValue: "wrong-type")
        /// A value of the right type but out of range (a negative limit, a share above 1).
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// A budget `version` this framescope does not read.
        public static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// The file (budget or trace) could not be opened or read, or is larger than 2 GiB.
        public static let unreadableFile = Code(rawValue: "unreadable-file")
        /// The trace file is neither Chrome JSON nor Perfetto protobuf; the message says where.
        public static let invalidTrace = Code(rawValue: "invalid-trace")
    }

    /// What went wrong.
    public let code: Code
    /// The file the problem is in, as given; `nil` for a budget given as JSON.
    public let file: String?
    /// The JSON path of the offending value in a budget, e.g. `traces[0].limits.hitch-time-ratio`;
    /// empty for the document itself, for syntax errors and for traces.
    public let path: String
    /// The 1-based line of a syntax error; otherwise 0.
    public let line: Int
    /// The 1-based column (in Unicode scalars) of a syntax error; otherwise 0.
    public let column: Int
    /// A one-line explanation, e.g. `expected a number, got a string`.
    public let message: String
    /// The whole line, as `framescope check` prints it.
    private let text: String

    /// A budget's problem, with the file it came from.
    init(budget error: BudgetError, file: String?) {
        code = Code(rawValue: error.code.rawValue)
        self.file = file
        path = error.path
        line = error.line
        column = error.column
        message = error.message
        text = (file.map { "\($0): " } ?? "") + error.description
    }

    /// A reader's problem with a budget or trace file.
    init(reading error: TraceReadError, file: String) {
        let unreadable = error.code == .ioError || error.code == .tooLarge
        code = unreadable ? .unreadableFile : .invalidTrace
        self.file = file
        path = ""
        line = error.line
        column = error.column
        message = error.message
        // An unreadable file's message already names it (`budget.json: no such file or directory`).
        text = unreadable ? error.message : "\(file): \(error)"
    }

    /// `budget.json: limits.hitch-time-ratio: expected a number, got a string`; `line L, column C:`
    /// for a syntax error; the file is left out for a budget given as JSON.
    public var description: String { text }
}
