package import FrameJSON
import FrameTrace

/// Why a budget file could not be read, and where: a JSON path such as
/// `categories.layout.main-ms-per-frame.p95`, or a line and column for JSON syntax errors.
///
/// ```swift
/// do {
///     _ = try Budget.parse(#"{"version": 1, "limits": {"hitch-time-ratio": "5"}}"#)
/// } catch {
///     print(error)   // limits.hitch-time-ratio: expected a number, got a string
/// }
/// ```
package struct BudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, stable for tests and tools.
    /// A struct rather than an enum, so that a new code is not a breaking change (as swift-nio's
    /// errors do); compare with `==` or match with `case .name`.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier, e.g. `io-error`.
        package let rawValue: String
        /// Creates a code from its identifier.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        package var description: String { rawValue }

        /// The file is not JSON; ``BudgetError/line`` and ``BudgetError/column`` say where.
        package static let invalidJSON = Code(rawValue: "invalid-json")
        /// A key the budget format does not define.
        package static let unknownKey = Code(rawValue: "unknown-key")
        /// The same key twice in one object.
        package static let duplicateKey = Code(rawValue: "duplicate-key")
        /// A required key is absent.
        package static let missingKey = Code(rawValue: "missing-key")
        /// A value of the wrong JSON type.
        package static let wrongType = Code(rawValue: "wrong-type")
        /// A value of the right type but out of range (a negative limit, a share above 1).
        package static let invalidValue = Code(rawValue: "invalid-value")
        /// A `version` this framescope does not read.
        package static let unsupportedVersion = Code(rawValue: "unsupported-version")
    }

    /// What went wrong.
    package var code: Code
    /// The JSON path of the offending value, e.g. `traces[0].limits.hitch-time-ratio`; empty for
    /// the document itself and for syntax errors.
    package var path: String
    /// A one-line explanation, e.g. `expected a number, got a string`.
    package var message: String
    /// For ``Code/invalidJSON``: the 1-based line of the problem; otherwise 0.
    package var line: Int
    /// For ``Code/invalidJSON``: the 1-based column (in Unicode scalars); otherwise 0.
    package var column: Int

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - path: The JSON path of the offending value, or empty.
    ///   - message: A one-line explanation.
    ///   - line: The 1-based line for syntax errors, else 0.
    ///   - column: The 1-based column for syntax errors, else 0.
    package init(_ code: Code, path: String, _ message: String, line: Int = 0, column: Int = 0) {
        self.code = code
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// A syntax error from the JSON reader, keeping its position.
    /// - Parameter error: The JSON parser's error.
    package init(syntax error: JSONParseError) {
        self.init(.invalidJSON, path: "", error.message, line: error.line, column: error.column)
    }

    /// `path: message`, `line L, column C: message` for syntax errors, or the message alone.
    package var description: String {
        if line > 0 { return "line \(line), column \(column): \(message)" }
        return path.isEmpty ? message : "\(path): \(message)"
    }
}
