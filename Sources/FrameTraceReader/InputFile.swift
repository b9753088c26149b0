import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading whole inputs (traces, budget files) with a cap on their size, so an endless or huge
/// input (`/dev/zero`, a runaway pipe) stops with an error instead of exhausting memory.
///
/// ```swift
/// let bytes = try InputFile.bytes(contentsOf: "budget.json", maximumSize: 1 << 20)
/// ```
package enum InputFile {
    /// The default cap on an input's size: 2 GiB.
    ///
    /// A 1,000,000-event trace is about 130 MB, so the cap leaves room for traces fifteen times
    /// that, and keeps the reader's worst case (the input plus its values) within a small
    /// machine's memory.
    package static let defaultMaximumSize = 2 << 30

    /// Reads a whole file; `-` reads standard input.
    ///
    /// - Parameters:
    ///   - path: The file, or `-`.
    ///   - maximumSize: The most bytes accepted; checked before reading a regular file and while
    ///     reading a pipe or device, so no more than `maximumSize` plus one chunk is ever held.
    /// - Returns: The file's bytes.
    /// - Throws: ``TraceReadError`` with ``TraceReadError/Code/ioError`` and the path and the
    ///   system's reason (`budget.json: permission denied`, `/tmp: is a directory`), or
    ///   ``TraceReadError/Code/tooLarge`` beyond `maximumSize`.
    /// - Complexity: O(*n*) in the file's size.
    package static func bytes(contentsOf path: String, maximumSize: Int = defaultMaximumSize) throws(TraceReadError)
        -> [UInt8]
    {
        if path == "-" { return try bytes(fileDescriptor: 0, name: "standard input", maximumSize: maximumSize) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ioError(path) }
        defer { close(descriptor) }
        return try bytes(fileDescriptor: descriptor, name: path, maximumSize: maximumSize)
    }

    /// Reads an open descriptor to its end (it is not closed).
    static func bytes(fileDescriptor descriptor: Int32, name: String, maximumSize: Int) throws(TraceReadError)
        -> [UInt8]
    {
        let size = try checkedSize(of: descriptor, name: name, maximumSize: maximumSize)
        return try readToEnd(descriptor, name: name, maximumSize: maximumSize, expected: size)
    }

    /// The size of a regular file, or 0 for a pipe or device; throws for a directory or a regular
    /// file over the cap.
    static func checkedSize(of descriptor: Int32, name: String, maximumSize: Int) throws(TraceReadError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ioError(name) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw ioError(name, code: EISDIR) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return 0 }
        let size = Int(status.st_size)
        guard size <= maximumSize else { throw tooLarge(name, maximumSize: maximumSize) }
        return size
    }

    /// Reads until the end of the input, stopping with an error once more than `maximumSize`
    /// bytes have come. Input that can start neither a JSON document (its first byte after
    /// whitespace and a byte-order mark is not `{` or `[`) nor a Perfetto trace
    /// (``PerfettoImporter/looksLikePerfetto(_:)``) stops being read after its first chunk:
    /// the parser's error will be about that byte whatever follows.
    static func readToEnd(_ descriptor: Int32, name: String, maximumSize: Int, expected: Int = 0) throws(TraceReadError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(expected, maximumSize) + 1)
        let chunk = 1 << 20
        var checkedStart = false
        while true {
            let start = bytes.count
            let want = min(chunk, maximumSize - start + 1)
            bytes.append(contentsOf: repeatElement(0, count: want))
            let got = bytes.withUnsafeMutableBufferPointer { buffer in
                systemRead(descriptor, buffer.baseAddress! + start, want)
            }
            if got < 0 {
                bytes.removeLast(want)
                if errno == EINTR { continue }
                throw ioError(name)
            }
            bytes.removeLast(want - got)
            if got == 0 { return bytes }
            guard bytes.count <= maximumSize else { throw tooLarge(name, maximumSize: maximumSize) }
            if !checkedStart, let first = firstSignificantByte(bytes) {
                checkedStart = true
                let mayBeJSON = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
                if !mayBeJSON, !bytes.withUnsafeBufferPointer({ PerfettoImporter.looksLikePerfetto($0) }) {
                    return bytes
                }
            }
        }
    }

    /// The first byte that is not whitespace or part of a leading byte-order mark, if any yet.
    private static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            case let byte: return byte
            }
        }
        return nil
    }

    /// The error for a failed system call on `name`, with `errno` kept.
    static func ioError(_ name: String, code: Int32 = errno) -> TraceReadError {
        var error = TraceReadError(.ioError, "\(name): \(systemReason(code))", byteOffset: 0, line: 0, column: 0)
        error.systemCode = code
        return error
    }

    static func tooLarge(_ name: String, maximumSize: Int) -> TraceReadError {
        TraceReadError(
            .tooLarge, "\(name): larger than the input size limit of \(maximumSize) bytes", byteOffset: 0, line: 0,
            column: 0)
    }
}

func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}

/// The pages of a mapped input that a read has moved past, handed back to the system as it goes,
/// so a mapped file does not stay resident beside the values read from it.
///
/// Only for a private read-only file mapping: a page released there is read from the file again
/// if it is touched again (as the Perfetto reader's second pass does), where released anonymous
/// memory would read back as zeros.
struct ReadPageRelease {
    /// The input's start, or `nil` when nothing is released.
    private let base: UnsafePointer<UInt8>?
    private var releasedUpTo = 0

    init(_ input: UnsafeBufferPointer<UInt8>, isFileMapping: Bool) {
        base = isFileMapping ? input.baseAddress : nil
    }

    /// Releases the whole pages before `position` not released yet, once there is 1 MiB of
    /// them (each call is a system call).
    @inline(__always)
    mutating func release(before position: Int) {
        guard let base, position &- releasedUpTo >= 1 << 20 else { return }
        let end = position & ~(Int(getpagesize()) - 1)  // a mapping starts on a page boundary
        guard end > releasedUpTo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + releasedUpTo), end - releasedUpTo, MADV_DONTNEED)
        releasedUpTo = end
    }
}
