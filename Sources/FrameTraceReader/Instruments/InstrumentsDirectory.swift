import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory of `xctrace export` documents read as one recording: every `*.xml` in it (the
/// tables exported one `--xpath` at a time, and the run's `--toc`), in name order. Only a
/// directory that holds nothing else (hidden files and subdirectories aside) is a recording; any
/// other directory is the usual `is a directory` error, so `report /tmp` does not read whatever
/// XML lies there.
enum InstrumentsDirectory {
    /// The `*.xml` files in `path`, sorted by name; `nil` when `path` is not a directory.
    /// - Throws: ``TraceReadError`` (`io-error`) when the directory cannot be listed, or holds no
    ///   `.xml` file or other files beside them (`is a directory`, as for any directory).
    static func tables(in path: String) throws(TraceReadError) -> [String]? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        guard let directory = opendir(path) else { throw InputFile.ioError(path) }
        defer { closedir(directory) }
        var names: [String] = []
        var others = 0
        let base = path.hasSuffix("/") ? path : path + "/"
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            var entryStatus = stat()
            guard stat(base + name, &entryStatus) == 0, (entryStatus.st_mode & S_IFMT) != S_IFDIR else { continue }
            if name.lowercased().hasSuffix(".xml") { names.append(name) } else { others += 1 }
        }
        guard !names.isEmpty, others == 0 else { throw InputFile.ioError(path, code: EISDIR) }
        return names.sorted().map { base + $0 }
    }

    /// Reads the files as one recording: ids are each document's own, the trace is one.
    /// - Throws: ``TraceReadError``, its message starting with the file that failed.
    static func read(
        _ paths: [String], maximumSize: Int, arguments: TraceReader.ArgumentSelection = .all
    ) throws(TraceReadError) -> Trace {
        var files: [[UInt8]] = []
        var total = 0
        for path in paths {
            let bytes = try InputFile.bytes(contentsOf: path, maximumSize: maximumSize)
            total += bytes.count
            guard total <= maximumSize else {
                throw TraceReadError(
                    .tooLarge, "\(path): the tables pass \(maximumSize) bytes", byteOffset: 0, line: 0, column: 0)
            }
            let isXML = bytes.withUnsafeBufferPointer { InstrumentsImporter.looksLikeXML($0) }
            guard isXML else {
                throw TraceReadError(.invalidXML, "\(path): not an xctrace export", byteOffset: 0, line: 1, column: 1)
            }
            files.append(bytes)
        }
        return try withBuffers(files[...]) {
            InstrumentsImporter.parse($0, releasesInput: false, names: paths, arguments: arguments)
        }.get()
    }

    private static func withBuffers<R>(
        _ files: ArraySlice<[UInt8]>, _ buffers: [UnsafeBufferPointer<UInt8>] = [],
        _ body: ([UnsafeBufferPointer<UInt8>]) -> R
    ) -> R {
        guard let first = files.first else { return body(buffers) }
        return first.withUnsafeBufferPointer { withBuffers(files.dropFirst(), buffers + [$0], body) }
    }
}
