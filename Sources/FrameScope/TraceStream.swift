public import FrameTrace

/// Streams a recording to a file while the program runs, so that the file on disk is a complete
/// trace between flushes: in Chrome's JSON array form, or in Perfetto's protobuf format.
///
/// **Perfetto** (`TraceFormat.perfetto`, chosen by a `.pftrace` or
/// `.perfetto-trace` path): each flush appends whole packets, each self-contained, so the file
/// is a complete trace between flushes and a kill mid-flush leaves at most one torn last packet,
/// which `framescope repair` cuts. The metadata packet comes last, from ``finish()``.
///
/// **Chrome JSON**:
/// The file always ends with the array's closing `]`: each ``flush()`` writes its events over
/// that bracket and a new bracket after them, in one positioned write (`pwrite`). So:
///
/// - **Between flushes** (and after ``init(recorder:path:format:)``, which writes a first `framescope`
///   metadata event) the file is complete JSON — `[{...},...,{...}\n]` — that Perfetto,
///   chrome://tracing and Tracy load unchanged, holding every event flushed so far. A process
///   killed outside a flush loses only what it recorded since its last flush.
/// - **A kill during a flush** can leave that one write cut short: the file then ends with a
///   prefix of the flush (events complete, then at most one torn event, and no `]`).
///   `TraceReader` (module FrameTraceReader) reads such a file with a `truncated`
///   diagnostic, and `TraceRepair` (same module; `framescope repair`) turns it into a complete
///   trace, dropping only the torn event.
/// - Flows are written once both ends are recorded, and spans that cross threads as one async
///   pair, so every flushed file is balanced. A span that straddles a flush is written with the
///   flush after it ends: complete events are not in timestamp order in the file, which the
///   format allows.
///
/// Nothing here survives the machine losing power: the writes reach the operating system, not
/// the disk (there is no `fsync`).
///
/// ```swift
/// let stream = try TraceStream(recorder: recorder, path: "run.json")
/// for _ in 0..<600 { runFrame(); try stream.flush() }
/// try stream.finish()
/// ```
public final class TraceStream {
    /// The recorder being drained.
    public let recorder: Recorder
    /// The file being written.
    public let path: String
    private let file: OutputFile
    /// The format being written.
    public let format: TraceFormat
    private var writer: ChromeTraceWriter
    private var perfetto: PerfettoTraceWriter
    private var isFinished = false
    /// Where the closing bracket starts: the next flush writes from here.
    private var contentEnd: Int
    /// Bytes written to the file so far, the closing bracket included.
    public private(set) var byteCount: Int
    /// Events written so far.
    public private(set) var eventCount = 0

    /// What ends the file between flushes.
    private static let closing: [UInt8] = Array("\n]\n".utf8)

    /// Creates the file and writes a complete trace: for JSON, one holding a `framescope`
    /// metadata event; for Perfetto, the packet that opens the sequence.
    /// - Parameters:
    ///   - recorder: The recorder to drain; it should not be drained by anyone else meanwhile.
    ///   - path: The file to create (a regular file: the stream writes at offsets).
    ///   - format: The file's format; by default the one the path's ending chooses.
    /// - Throws: `FileError` when the file cannot be created.
    public init(recorder: Recorder, path: String, format: TraceFormat? = nil) throws(FileError) {
        self.recorder = recorder
        self.path = path
        self.format = format ?? TraceFormat(path: path)
        file = try OutputFile(path: path)
        writer = ChromeTraceWriter(form: .array, baseTimestamp: recorder.startTimestamp)
        perfetto = PerfettoTraceWriter(baseTimestamp: recorder.startTimestamp)
        if self.format == .perfetto {
            let opening = perfetto.begin()
            contentEnd = opening.count
            byteCount = opening.count
            try file.write(opening, at: 0)
            return
        }
        // A first event, so the file starts `[{"` (what Perfetto sniffs for) from the start.
        var opening = writer.begin()
        opening += writer.finish(metadata: recorder.traceMetadata, closeArray: false).drop { $0 == 0x2C || $0 == 0x0A }
        contentEnd = opening.count
        byteCount = opening.count + Self.closing.count
        try file.write(opening + Self.closing, at: 0)
    }

    /// Drains the recorder and writes what it held: in JSON over the closing bracket, with the
    /// bracket after it; in Perfetto's format as whole packets after the last.
    /// - Returns: The number of events written; 0 when the recorder held nothing new.
    /// - Throws: `FileError` when writing fails.
    /// - Precondition: ``finish()`` has not been called.
    @discardableResult
    public func flush() throws(FileError) -> Int {
        precondition(!isFinished, "flush() after finish()")
        let chunk = recorder.drain()
        let bytes = format == .perfetto ? perfetto.append(chunk) : writer.append(chunk)
        guard !bytes.isEmpty else { return 0 }
        try write(bytes)
        eventCount += chunk.events.count
        return chunk.events.count
    }

    /// Flushes what is left, appends the final metadata (dropped-event counts included) and
    /// closes the file. Calling it again does nothing.
    /// - Throws: `FileError` when writing fails.
    public func finish() throws(FileError) {
        guard !isFinished else { return }
        try flush()
        isFinished = true
        if format == .perfetto {
            try write(perfetto.finish(metadata: recorder.traceMetadata))
        } else {
            try write(writer.finish(metadata: recorder.traceMetadata, closeArray: false))
        }
        try file.close()
    }

    private func write(_ bytes: [UInt8]) throws(FileError) {
        let closing = format == .perfetto ? [] : Self.closing
        try file.write(bytes + closing, at: contentEnd)
        contentEnd += bytes.count
        byteCount = contentEnd + closing.count
    }
}
