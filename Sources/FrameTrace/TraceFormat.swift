/// The file formats framescope writes traces in, and how a path chooses one.
///
/// Both hold the same trace: Chrome's Trace Event JSON (the default: every viewer opens it, a
/// person can read it) and Perfetto's native protobuf (``PerfettoTraceWriter``: frames as tracks
/// of their own, exact nanosecond times, a smaller file that needs no parsing of text). Readers
/// tell them apart by content, never by name.
///
/// ```swift
/// let format = TraceFormat(path: "run.pftrace")   // .perfetto
/// try trace.write(toFile: "run.pftrace", format: format)
/// ```
public enum TraceFormat: String, Sendable, CaseIterable {
    /// Chrome Trace Event JSON, object form.
    case chromeJSON = "chrome-json"
    /// Perfetto's protobuf `Trace`.
    case perfetto

    /// The file name endings that choose Perfetto's format: `.pftrace`, `.perfetto-trace`.
    public static let perfettoExtensions = [".pftrace", ".perfetto-trace"]

    /// The format a path's ending chooses: Perfetto for ``perfettoExtensions``, else Chrome JSON.
    /// - Parameter path: A file path; its ending is compared without regard to case, and `-`
    ///   (standard output) chooses Chrome JSON.
    public init(path: String) {
        let lowered = path.lowercased()
        self = Self.perfettoExtensions.contains { lowered.hasSuffix($0) } ? .perfetto : .chromeJSON
    }

    /// The ending framescope gives files of this format: `.json` or `.pftrace`.
    public var fileExtension: String { self == .perfetto ? ".pftrace" : ".json" }
}

extension Trace {
    /// The trace's bytes in a format.
    /// - Parameter format: The format to encode in.
    /// - Returns: The whole file: ``chromeJSON(form:)`` in the object form, or the Perfetto
    ///   protobuf `Trace`.
    public func encoded(as format: TraceFormat) -> [UInt8] {
        switch format {
        case .chromeJSON: chromeJSON()
        case .perfetto: perfettoProtobuf()
        }
    }

    /// Writes the trace to `path` in a format (by default the one the path's ending chooses),
    /// replacing the file whole (see ``OutputFile/replace(_:with:)``); `-` is standard output.
    /// - Parameters:
    ///   - path: The file to write; `-` for standard output.
    ///   - format: The format to write, or `nil` to choose it from the path's ending.
    /// - Throws: ``FileError`` when the file cannot be written.
    public func write(toFile path: String, format: TraceFormat? = nil) throws(FileError) {
        try OutputFile.replace(path, with: encoded(as: format ?? TraceFormat(path: path)))
    }
}
