/// Why a read failed, as a stable identifier: one table for ``JSONParseError`` and the trace
/// readers' `TraceReadError`, which scan JSON with the same scanner and so fail the same ways.
///
/// A struct rather than an enum, so that a new code is not a breaking change (as swift-nio's
/// errors do); compare with `==` or match with `case .name`. The codes here are the JSON syntax
/// failures both errors carry; FrameTraceReader adds the ones only a trace read has (`not-a-trace`,
/// `io-error`, `too-large`, `invalid-protobuf`) in an extension beside `TraceReadError`.
///
/// ```swift
/// if error.code == .unexpectedEnd { print("cut off at byte \(error.byteOffset)") }
/// ```
public struct ReadErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The stable identifier, e.g. `unexpected-token`.
    public let rawValue: String
    /// Creates a code from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The identifier.
    public var description: String { rawValue }

    /// The input is not JSON at all: empty, only white space, or starting with something no JSON
    /// value starts with.
    public static let notJSON = ReadErrorCode(rawValue: "not-json")
    /// A byte that the JSON grammar does not allow where it appears.
    public static let unexpectedToken = ReadErrorCode(rawValue: "unexpected-token")
    /// The input ends in the middle of a value where the format does not allow it.
    public static let unexpectedEnd = ReadErrorCode(rawValue: "unexpected-end")
    /// A string that the input ends inside of.
    public static let unterminatedString = ReadErrorCode(rawValue: "unterminated-string")
    /// A backslash escape that JSON does not define, or a malformed `\u` escape.
    public static let invalidEscape = ReadErrorCode(rawValue: "invalid-escape")
    /// A number that does not follow JSON's number grammar.
    public static let invalidNumber = ReadErrorCode(rawValue: "invalid-number")
    /// Arrays and objects nested deeper than the parser's or the reader's limit.
    public static let tooDeep = ReadErrorCode(rawValue: "too-deep")
}
