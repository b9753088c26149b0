#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to create or write a file, with the path and the system's reason.
public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file involved.
    public var path: String
    /// What went wrong, e.g. `no such file or directory`.
    public var reason: String
    /// The system's error number (`errno`: `ENOSPC`, `EACCES`, ...) when the system reported the
    /// failure, so a program can act on it without matching ``reason``'s words; `nil` otherwise.
    public var code: Int32?

    /// Creates an error.
    /// - Parameters:
    ///   - path: The file involved.
    ///   - reason: What went wrong, in words that read well after the path and a colon.
    ///   - code: The system's error number, or `nil` when the system reported none.
    public init(path: String, reason: String, code: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// `path: reason`, such as `trace.json: permission denied`.
    public var description: String { "\(path): \(reason)" }

    /// The error for `code` (the current `errno` by default), with the system's words for it.
    package static func fromErrno(_ path: String, code: Int32 = errno) -> FileError {
        FileError(path: path, reason: systemReason(code), code: code)
    }
}

/// Writes a whole buffer to a file descriptor, at `offset` (`pwrite`) or at its current position
/// (`write`): retries writes the system cut short or a signal interrupted (`EINTR`), and stops
/// at the first failure. The one write loop of every framescope output.
/// - Returns: `nil` when every byte was written, else the system's error number (0 when the
///   system accepted no byte without saying why).
package func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int? = nil) -> Int32? {
    guard let base = buffer.baseAddress else { return nil }
    var done = 0
    while done < buffer.count {
        let written =
            offset.map { systemPositionedWrite(descriptor, base + done, buffer.count - done, $0 + done) }
            ?? systemWrite(descriptor, base + done, buffer.count - done)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if written == 0 { return 0 }
        done += written
    }
    return nil
}

/// A file opened for writing, appended to in whole chunks that go straight to the operating
/// system, so another process (or a crash) sees every chunk written so far.
///
/// ```swift
/// let file = try OutputFile(path: "trace.json")
/// try file.write(trace.chromeJSON())
/// try file.close()
/// ```
public final class OutputFile {
    /// The path the file was opened at; `-` means standard output.
    public let path: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool

    /// Creates (or truncates) the file at `path`; `-` writes to standard output.
    ///
    /// - Parameters:
    ///   - path: The file, or `-` for standard output.
    ///   - appending: Keep what the file holds and write after it (creating it if needed),
    ///     instead of truncating it.
    /// - Throws: ``FileError`` when the file cannot be created or opened.
    public init(path: String, appending: Bool = false) throws(FileError) {
        self.path = path
        if path == "-" {
            fflush(nil)  // keep order with anything already printed
            descriptor = 1
            ownsDescriptor = false
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC), 0o644)
            guard opened >= 0 else { throw FileError.fromErrno(path) }
            descriptor = opened
            ownsDescriptor = true
        }
    }

    /// Appends bytes, retrying short writes until every byte is written.
    /// - Parameter bytes: What to write.
    /// - Throws: ``FileError`` when the write fails (a full disk, a closed file); some of the
    ///   bytes may have been written.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        guard descriptor >= 0 else { throw FileError(path: path, reason: "file already closed") }
        let failure = bytes.withUnsafeBytes { writeFully(descriptor, $0) }
        if let failure { throw error(failure, unwritten: bytes.count) }
    }

    /// The error for a failed write: the system's, or one that says no byte was accepted.
    private func error(_ code: Int32, unwritten count: Int) -> FileError {
        code == 0
            ? FileError(path: path, reason: "the system accepted none of the \(count) bytes")
            : .fromErrno(path, code: code)
    }

    /// Writes bytes at an offset from the start of the file (`pwrite`), retrying short writes;
    /// the file grows if they reach past its end. For files only, not standard output.
    ///
    /// ```swift
    /// try file.write(Array(",{...}\n]".utf8), at: closingBracketOffset)
    /// ```
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - offset: Where, in bytes from the start of the file.
    /// - Throws: ``FileError`` when the write fails; some of the bytes may have been written.
    public func write(_ bytes: [UInt8], at offset: Int) throws(FileError) {
        guard descriptor >= 0 else { throw FileError(path: path, reason: "file already closed") }
        let failure = bytes.withUnsafeBytes { writeFully(descriptor, $0, at: offset) }
        if let failure { throw error(failure, unwritten: bytes.count) }
    }

    /// Writes `bytes` as the whole new content of `path`: into a temporary file in the same
    /// folder, then renamed over `path`. So a reader never sees half a file, a failure leaves
    /// `path` as it was, and a symbolic link planted at `path` is replaced, not followed (a
    /// pull request cannot aim a CI output at another file). `-` writes to standard output, and
    /// a device, pipe or socket at `path` (`/dev/stdout`, a FIFO) is written to as it is: only a
    /// regular file, a symbolic link or nothing is replaced.
    /// - Parameters:
    ///   - path: The file to replace, or `-` for standard output.
    ///   - bytes: The file's whole new content.
    /// - Throws: ``FileError`` naming `path` when the folder cannot hold the file or the write
    ///   or rename fails; the temporary file is removed.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let replacement = try ReplacementFile(path: path)
        try replacement.write(bytes)
        try replacement.commit()
    }

    /// Appends `bytes` to the file at `path`, creating it if needed, without following a
    /// symbolic link there (the GitHub step summary, which the runner creates as a file).
    /// - Parameters:
    ///   - path: The file to append to.
    ///   - bytes: What to append.
    /// - Throws: ``FileError`` when `path` is a symbolic link or cannot be written.
    public static func append(_ path: String, _ bytes: [UInt8]) throws(FileError) {
        let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard opened >= 0 else {
            if errno == ELOOP { throw FileError(path: path, reason: "is a symbolic link; not followed", code: ELOOP) }
            throw FileError.fromErrno(path)
        }
        let file = OutputFile(path: path, descriptor: opened)
        try file.write(bytes)
        try file.close()
    }

    /// Takes over an open descriptor, which ``close()`` closes.
    package init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = true
    }

    /// Closes the file; later writes fail.
    /// - Throws: ``FileError`` when closing fails.
    public func close() throws(FileError) {
        guard descriptor >= 0 else { return }
        let closing = descriptor
        descriptor = -1
        if ownsDescriptor, systemClose(closing) != 0 { throw FileError.fromErrno(path) }
    }

    deinit {
        if ownsDescriptor, descriptor >= 0 { _ = systemClose(descriptor) }
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.write(descriptor, pointer, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, pointer, count)
    #else
        Glibc.write(descriptor, pointer, count)
    #endif
}

private func systemPositionedWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int
{
    #if canImport(Darwin)
        Darwin.pwrite(descriptor, pointer, count, off_t(offset))
    #elseif canImport(Musl)
        Musl.pwrite(descriptor, pointer, count, off_t(offset))
    #else
        Glibc.pwrite(descriptor, pointer, count, off_t(offset))
    #endif
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        Darwin.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #else
        Glibc.close(descriptor)
    #endif
}

extension Trace {
    /// Writes the trace as one Chrome Trace Event JSON document, replacing the file whole
    /// (``OutputFile/replace(_:with:)``).
    /// - Parameters:
    ///   - path: Where to write; `-` for standard output.
    ///   - form: The document's shape; the object form by default.
    /// - Throws: ``FileError`` when the file cannot be written.
    public func writeChromeJSON(toFile path: String, form: ChromeTraceWriter.Form = .object) throws(FileError) {
        try OutputFile.replace(path, with: chromeJSON(form: form))
    }
}

/// The system's reason for an error number, as the middle of a sentence: `permission denied`.
package func systemReason(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    guard let first = text.first, first.isUppercase,
        text.dropFirst().first.map({ !$0.isUppercase }) ?? true
    else { return text }
    return first.lowercased() + text.dropFirst()
}
