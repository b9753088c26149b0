public import FrameTrace

/// Streams a recording to a file while the program runs, in the Chrome trace array form.
///
/// Each ``flush()`` drains the recorder and appends the events to the file at once, so if the
/// process dies, the file still holds everything flushed so far and loads in Perfetto and
/// chrome://tracing (the array form may lack its closing `]`). ``finish()`` appends the metadata
/// (clock, frame interval, dropped-event counts) and closes the array.
///
/// Use a stream for long or crash-prone runs; use ``Recorder/writeChromeJSON(to:)`` (object
/// form, metadata up front for tools) when the recording ends normally and fits in memory.
///
/// ```swift
/// let stream = try TraceStream(recorder: recorder, path: "run.json")
/// for _ in 0..<600 { runFrame(); try stream.flush() }
/// try stream.finish()
/// ```
public final class TraceStream {
    /// The recorder being drained.
    public let recorder: Recorder
    private let file: OutputFile
    private var writer: ChromeTraceWriter
    private var isFinished = false

    /// Creates the file and writes the opening of the array.
    /// - Parameters:
    ///   - recorder: The recorder to drain; it should not be drained by anyone else meanwhile.
    ///   - path: The file to create.
    /// - Throws: ``FrameTrace/FileError`` when the file cannot be created.
    public init(recorder: Recorder, path: String) throws(FileError) {
        self.recorder = recorder
        file = try OutputFile(path: path)
        writer = ChromeTraceWriter(form: .array, baseTimestamp: recorder.startTimestamp)
        try file.write(writer.begin())
    }

    /// Drains the recorder and appends what it held to the file.
    /// - Returns: The number of events written.
    /// - Throws: ``FrameTrace/FileError`` when writing fails.
    @discardableResult
    public func flush() throws(FileError) -> Int {
        precondition(!isFinished, "flush() after finish()")
        let chunk = recorder.drain()
        try file.write(writer.append(chunk))
        return chunk.events.count
    }

    /// Flushes what is left, appends the metadata and closes the array and the file.
    /// - Throws: ``FrameTrace/FileError`` when writing fails.
    public func finish() throws(FileError) {
        guard !isFinished else { return }
        try flush()
        isFinished = true
        try file.write(writer.finish(metadata: recorder.traceMetadata))
        try file.close()
    }
}
