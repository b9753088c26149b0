// Public: the scanner conformance below is @usableFromInline, so inlined scanner code can use it.
package import FrameJSON

/// Why input could not be read as a trace (or as JSON), and where.
///
/// Readers throw this for input that is not JSON, JSON that is not a trace, and files that cannot
/// be opened. Inconsistent but well-formed traces do not throw: they load with
/// ``TraceDiagnostic``s instead.
///
/// The position is given three ways: ``byteOffset`` (0-based, for tools), and ``line`` and
/// ``column`` (1-based, for people; the column counts Unicode scalars from the start of the line).
/// For ``Code/ioError`` and ``Code/tooLarge`` there is no position and all three are 0.
///
/// ```swift
/// do {
///     let trace = try TraceReader.read(contentsOf: "run.json")
///     print(trace.events.count)
/// } catch {
///     print(error)  // line 3, column 17 (byte 42): expected ',' or '}' after an object member
/// }
/// ```
package struct TraceReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, stable for tests and exit codes: FrameJSON's table, which
    /// ``JSONParseError`` shares, with the codes only a trace read has (below).
    package typealias Code = ReadErrorCode

    /// What went wrong.
    package var code: Code
    /// A one-line explanation, e.g. `expected ',' or '}' after an object member`.
    package var message: String
    /// The 0-based offset of the offending byte in the input.
    package var byteOffset: Int
    /// The 1-based line of the offending byte; 0 when there is no position.
    package var line: Int
    /// The 1-based column (in Unicode scalars) of the offending byte; 0 when there is no position.
    package var column: Int
    /// For ``Code/ioError``, the system's error number (`errno`: `ENOENT`, `EACCES`, `EISDIR`,
    /// ...), so a program can act on it without matching ``message``'s words; `nil` otherwise.
    package var systemCode: Int32?
    /// Whether the input is binary (Perfetto protobuf), so the position is a byte offset only:
    /// ``line`` and ``column`` stay 0 and the description says `byte B`.
    package var isBinaryPosition = false

    /// Creates an error.
    ///
    /// ```swift
    /// let error = TraceReadError(.notATrace, "expected an array of events", byteOffset: 0, line: 1, column: 1)
    /// ```
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A one-line explanation.
    ///   - byteOffset: The 0-based offset of the offending byte.
    ///   - line: The 1-based line, or 0 without a position.
    ///   - column: The 1-based column in Unicode scalars, or 0 without a position.
    package init(_ code: Code, _ message: String, byteOffset: Int, line: Int, column: Int) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// An error whose line and column are filled in later by ``located(in:)``.
    init(_ code: Code, _ message: String, at byteOffset: Int) {
        self.init(code, message, byteOffset: byteOffset, line: 0, column: 0)
    }

    /// `line L, column C (byte B): message`, or just the message when there is no position.
    package var description: String {
        if isBinaryPosition { return "byte \(byteOffset): \(message)" }
        guard line > 0 else { return message }
        return "line \(line), column \(column) (byte \(byteOffset)): \(message)"
    }

    /// Whether the input ran out where more was needed: the sign of a cut-off file.
    var isEndOfInput: Bool { code == .unexpectedEnd || code == .unterminatedString }

    /// The error with ``line`` and ``column`` computed from the input it refers to.
    ///
    /// Positions are computed only when an error escapes to the caller, so the scanner's hot
    /// path never counts lines.
    /// - Complexity: O(`byteOffset`).
    func located(in input: UnsafeBufferPointer<UInt8>) -> TraceReadError {
        guard code != .ioError, code != .tooLarge, line == 0, !isBinaryPosition else { return self }
        var copy = self
        (copy.byteOffset, copy.line, copy.column) = JSONParseError.position(of: byteOffset, in: input)
        return copy
    }
}

/// The Chrome reader and ``TraceRepair`` scan with FrameJSON's scanner, which throws reader
/// errors directly: the same code (the identifiers are shared), message and offset as the
/// ``JSONParseError`` it would make, and no conversion on the hot path.
extension TraceReadError: JSONScanFailure {
    @usableFromInline package static func syntax(_ code: JSONParseError.Code, _ message: String, at byteOffset: Int)
        -> TraceReadError
    {
        TraceReadError(code, message, at: byteOffset)
    }
}

extension ReadErrorCode {
    /// The input is JSON, but not an array of events or an object with a `traceEvents` array.
    package static let notATrace = ReadErrorCode(rawValue: "not-a-trace")
    /// The file could not be opened or read.
    package static let ioError = ReadErrorCode(rawValue: "io-error")
    /// The input is larger than the reader's size limit (``InputFile/defaultMaximumSize``
    /// unless the caller set another).
    package static let tooLarge = ReadErrorCode(rawValue: "too-large")
    /// Perfetto protobuf input that breaks the wire format: a varint over ten bytes, a
    /// length past its message, a group, a field number of 0, a packet length of 2 GiB or
    /// more (past protobuf's limit for a message). (A file cut off inside its first packet is
    /// ``unexpectedEnd``; one cut off after a whole packet loads with a `truncated`
    /// diagnostic, as a cut-off JSON event array does.)
    package static let invalidProtobuf = ReadErrorCode(rawValue: "invalid-protobuf")
}

/// The scanner the readers tokenize JSON with, throwing their own error.
typealias TraceScanner = JSONScanner<TraceReadError>
