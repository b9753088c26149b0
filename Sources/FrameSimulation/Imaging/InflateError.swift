/// Why a DEFLATE or zlib stream could not be inflated, and where.
///
/// ```swift
/// do {
///     let bytes = try Inflater().inflate(compressed)
/// } catch {
///     print(error) // "distance 4096 reaches before the start of the output (at byte 812)"
/// }
/// ```
package struct InflateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the stream has.
    package enum Code: String, Hashable, Sendable {
        /// The input ended inside the stream.
        case truncated
        /// The two-byte zlib header is not a DEFLATE header, or its check bits are wrong.
        case invalidZlibHeader
        /// The zlib header asks for a preset dictionary, which PNG never uses.
        case presetDictionary
        /// A block header has the reserved block type 3.
        case invalidBlockType
        /// A stored block's length and its one's complement disagree.
        case storedLengthMismatch
        /// A dynamic block's code lengths do not describe a usable prefix code.
        case invalidHuffmanTable
        /// The bits do not decode to a symbol, or decode to a symbol the format reserves.
        case invalidSymbol
        /// A back-reference reaches before the start of the output.
        case distanceTooFar
        /// The output would exceed the caller's limit.
        case outputLimitExceeded
        /// The Adler-32 checksum after the data does not match the output.
        case checksumMismatch
    }

    /// What kind of problem the stream has.
    package var code: Code
    /// A sentence that says what is wrong, for people.
    package var message: String
    /// The offset into the input at which the problem was found.
    package var byteOffset: Int

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of problem the stream has.
    ///   - message: A sentence that says what is wrong.
    ///   - byteOffset: The offset into the input at which the problem was found.
    package init(_ code: Code, _ message: String, byteOffset: Int) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
    }

    /// The message followed by the byte offset.
    package var description: String { "\(message) (at byte \(byteOffset))" }
}
