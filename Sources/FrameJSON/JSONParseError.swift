/// Why bytes could not be parsed as JSON, and where.
///
/// ``FrameTrace/JSONValue/parse(_:maxDepth:)-(some Collection<UInt8>,_)`` throws this; the trace
/// readers, which scan JSON with the same scanner, throw their own `TraceReadError` with the same
/// code, message and position.
///
/// The position is given three ways: ``byteOffset`` (0-based, for tools), and ``line`` and
/// ``column`` (1-based, for people; the column counts Unicode scalars from the start of the line).
///
/// ```swift
/// do {
///     _ = try JSONValue.parse("[1, 2")
/// } catch {
///     print(error)  // line 1, column 6 (byte 5): the input ends where ',' or ']' after an array element was expected
/// }
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, stable for tests and tools: the table the readers' `TraceReadError`
    /// shares (``ReadErrorCode``).
    public typealias Code = ReadErrorCode

    /// What went wrong.
    public var code: Code
    /// A one-line explanation, e.g. `expected ',' or '}' after an object member`.
    public var message: String
    /// The 0-based offset of the offending byte in the input.
    public var byteOffset: Int
    /// The 1-based line of the offending byte.
    public var line: Int
    /// The 1-based column (in Unicode scalars) of the offending byte.
    public var column: Int

    /// Creates an error.
    ///
    /// ```swift
    /// let error = JSONParseError(.unexpectedToken, "expected a value, found '}'", byteOffset: 6, line: 1, column: 7)
    /// ```
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A one-line explanation.
    ///   - byteOffset: The 0-based offset of the offending byte.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column in Unicode scalars.
    public init(_ code: Code, _ message: String, byteOffset: Int, line: Int, column: Int) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// `line L, column C (byte B): message`, as the readers describe their errors.
    public var description: String {
        guard line > 0 else { return message }
        return "line \(line), column \(column) (byte \(byteOffset)): \(message)"
    }

    /// The error with ``line`` and ``column`` computed from the input it refers to.
    func located(in input: UnsafeBufferPointer<UInt8>) -> JSONParseError {
        guard line == 0 else { return self }
        var copy = self
        (copy.byteOffset, copy.line, copy.column) = JSONParseError.position(of: byteOffset, in: input)
        return copy
    }

    /// The offset (clamped to the input), 1-based line and 1-based column (in Unicode scalars)
    /// of a byte offset in `input`.
    ///
    /// Positions are computed only when an error escapes to the caller, so the scanner's hot
    /// path never counts lines.
    /// - Complexity: O(`offset`).
    package static func position(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (
        byteOffset: Int, line: Int, column: Int
    ) {
        let end = min(max(offset, 0), input.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        for index in lineStart..<end where input[index] & 0xC0 != 0x80 {
            column += 1
        }
        return (end, line, column)
    }
}

/// An error a ``JSONScanner`` can throw: ``JSONParseError`` for JSON on its own, the readers'
/// `TraceReadError` when the JSON is a trace, so a reader's hot path throws its own error
/// without converting one.
@usableFromInline package protocol JSONScanFailure: Error {
    /// The error for a JSON syntax problem at a byte offset, without a line or column yet.
    static func syntax(_ code: JSONParseError.Code, _ message: String, at byteOffset: Int) -> Self
}

extension JSONParseError: JSONScanFailure {
    @usableFromInline package static func syntax(_ code: Code, _ message: String, at byteOffset: Int) -> JSONParseError
    {
        JSONParseError(code, message, byteOffset: byteOffset, line: 0, column: 0)
    }
}
