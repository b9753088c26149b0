#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's whole new content, written in pieces and put in place at the end: what
/// ``OutputFile/replace(_:with:)`` does in one call, for output too large to hold at once (a
/// Parquet file's row groups) or a destination to check before the work that fills it.
///
/// Opening creates a temporary file in the destination's folder, so a folder that does not
/// exist or cannot be written to fails then, before any work. ``commit()`` renames it over the
/// destination; a replacement never committed removes its temporary file when it goes away, and
/// the destination stays as it was. `-`, and a device, pipe or socket at the path, are written
/// to directly, as ``OutputFile/replace(_:with:)`` does.
///
/// ```swift
/// let out = try ReplacementFile(path: "frames.parquet")   // fails fast: EACCES, ENOENT
/// for rowGroup in rowGroups { try out.write(rowGroup) }
/// try out.commit()
/// ```
package final class ReplacementFile {
    /// The destination.
    package let path: String
    private let file: OutputFile
    /// The temporary file beside ``path``; `nil` when writing to the destination directly.
    private let temporary: String?
    private var isCommitted = false

    /// Opens a replacement for `path`.
    /// - Throws: ``FileError`` naming `path` when `path` is a folder or its folder cannot hold
    ///   a new file.
    package init(path: String) throws(FileError) {
        self.path = path
        var status = stat()
        let exists = lstat(path, &status) == 0
        let kind = status.st_mode & S_IFMT
        if path == "-" || (exists && kind != S_IFREG && kind != S_IFLNK && kind != S_IFDIR) {
            file = try OutputFile(path: path)
            temporary = nil
            return
        }
        if exists && kind == S_IFDIR { throw FileError.fromErrno(path, code: EISDIR) }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + name + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FileError.fromErrno(path) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fchmod(descriptor, 0o644)
        file = OutputFile(path: temporary, descriptor: descriptor)
        self.temporary = temporary
    }

    /// Appends bytes to the new content.
    /// - Throws: ``FileError`` naming the destination when the write fails (a full disk).
    package func write(_ bytes: [UInt8]) throws(FileError) {
        do {
            try file.write(bytes)
        } catch {
            throw FileError(path: path, reason: error.reason, code: error.code)
        }
    }

    /// Closes the new content and renames it over the destination.
    /// - Throws: ``FileError`` naming the destination when closing or the rename fails; the
    ///   temporary file is removed.
    package func commit() throws(FileError) {
        precondition(!isCommitted, "a replacement is committed once")
        isCommitted = true
        do {
            try file.close()
        } catch {
            if let temporary { _ = unlink(temporary) }
            throw FileError(path: path, reason: error.reason, code: error.code)
        }
        guard let temporary else { return }
        guard rename(temporary, path) == 0 else {
            let failure = FileError.fromErrno(path)
            _ = unlink(temporary)
            throw failure
        }
    }

    deinit {
        guard !isCommitted, let temporary else { return }
        try? file.close()
        _ = unlink(temporary)
    }
}
