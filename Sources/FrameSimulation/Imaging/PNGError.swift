/// Why a PNG could not be decoded, and where in the file.
///
/// ```swift
/// do {
///     let bitmap = try PNGDecoder.decode(bytes)
/// } catch {
///     print(error) // "the PNG uses Adam7 interlacing, which framescope does not decode (in IHDR, at byte 28)"
/// }
/// ```
package struct PNGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the file has.
    package enum Code: String, Hashable, Sendable {
        /// The file does not start with the PNG signature.
        case notPNG
        /// The file ends inside a chunk or before the IEND chunk.
        case truncated
        /// A chunk's CRC-32 does not match its type and data.
        case checksumMismatch
        /// A chunk is malformed, missing, repeated or out of order.
        case invalidChunk
        /// The IHDR values are out of range or contradict each other.
        case invalidHeader
        /// The file is valid but uses something framescope does not decode (16-bit or sub-byte
        /// samples, interlacing, an unknown critical chunk); the message names it.
        case unsupportedFeature
        /// The declared pixel count exceeds the caller's `maxPixels`; nothing was allocated.
        case imageTooLarge
        /// PLTE or tRNS is malformed, or a pixel uses an index the palette does not have.
        case invalidPalette
        /// The zlib stream in the IDAT chunks is corrupt or has the wrong size.
        case invalidImageData
        /// A scanline starts with a filter type other than 0–4.
        case invalidFilter
    }

    /// What kind of problem the file has.
    package var code: Code
    /// A sentence that says what is wrong, for people.
    package var message: String
    /// The file offset at which the problem was found.
    package var byteOffset: Int
    /// The type of the chunk the problem is in (`"IHDR"`, `"IDAT"`, ...), when there is one.
    package var chunk: String?
    /// The inflate error behind an `invalidImageData` error, when there is one.
    package var inflateError: InflateError?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of problem the file has.
    ///   - message: A sentence that says what is wrong.
    ///   - byteOffset: The file offset at which the problem was found.
    ///   - chunk: The type of the chunk the problem is in.
    ///   - inflateError: The inflate error behind the problem.
    package init(
        _ code: Code, _ message: String, byteOffset: Int, chunk: String? = nil, inflateError: InflateError? = nil
    ) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.chunk = chunk
        self.inflateError = inflateError
    }

    /// The message followed by the chunk and the byte offset.
    package var description: String {
        if let chunk {
            "\(message) (in \(chunk), at byte \(byteOffset))"
        } else {
            "\(message) (at byte \(byteOffset))"
        }
    }
}
