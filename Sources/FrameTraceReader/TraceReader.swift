import FrameSupport
package import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a trace file of any format framescope knows into a ``Trace``: the one door every
/// command, benchmark and test goes through.
///
/// The format is told by content, never by the file's name (``format(of:)``), and each has an
/// importer of its own, named by what it reads:
/// - Chrome Trace Event JSON (`chrome://tracing`, Perfetto's JSON importer, framescope's own
///   writer): ``ChromeJSONImporter``, a streaming byte scanner in stages (tokenizer, event
///   builder, `B`/`E` pairer).
/// - Perfetto's protobuf trace (`.pftrace`, Android's `perfetto` tool, Chrome's tracing service):
///   ``PerfettoImporter`` (packet framer, decoder, packet applier).
/// - Instruments' `xcrun xctrace export` XML (a document starting `<?xml`, `<trace-query-result>`
///   or `<trace-toc>`): ``InstrumentsImporter``; a directory of exported tables (and the run's
///   `--toc`) reads as one recording.
///
/// Both make the same ``Trace`` values, with ``Trace/diagnostics`` for whatever is inconsistent
/// but readable, and throw the same ``TraceReadError`` for input that is not a trace. Files are
/// mapped read-only and the part already read is handed back to the system as the read moves
/// on, so peak memory stays near the size of the trace values rather than the file plus the
/// values. On a machine with two cores or more, a large input is read on two threads: one
/// tokenizes events (or frames packets) ahead while the calling thread builds the trace from them
/// in order (`workerThread: false` keeps it to one), with the same result.
///
/// ```swift
/// let trace = try TraceReader.read(contentsOf: "run.json")   // or "run.pftrace"
/// for diagnostic in trace.diagnostics { print(diagnostic) }
/// let layout = trace.events.filter { trace.name(of: $0) == "layout" }
/// ```
///
/// Why `TraceReader` and not `TraceFile`: it is a verb's namespace, not a value. Nothing here
/// holds a file; it reads one and returns a ``Trace``, as ``TraceRepair`` repairs one and
/// returns bytes.
package enum TraceReader {
    /// Reads the trace in a file; `-` reads standard input.
    ///
    /// ```swift
    /// let trace = try TraceReader.read(contentsOf: "Traces/demo.json")
    /// ```
    /// - Parameters:
    ///   - path: The file to read, or `-` for standard input.
    ///   - maximumSize: The largest input accepted, in bytes; a pipe or device is read only this
    ///     far (2 GiB by default).
    ///   - arguments: The event arguments to keep (all by default; see ``ArgumentSelection``).
    ///   - workerThread: Whether a large input (4 MiB or more) is tokenized on a second thread
    ///     (a JSON event array's events, a Perfetto file's packets) while this one builds the
    ///     trace, when the process may use two cores or more (the default); the trace is the
    ///     same either way.
    /// - Returns: The trace, with diagnostics for anything inconsistent.
    /// - Throws: ``TraceReadError`` with ``TraceReadError/Code/ioError`` when the file cannot be
    ///   opened or read, ``TraceReadError/Code/tooLarge`` beyond `maximumSize`, or a syntax code
    ///   with the position when it is not a trace.
    /// - Complexity: O(*n*) in the file's size, plus O(*e* log *e*) for the events of threads
    ///   whose `X` events are not in start order (the partial-overlap check sorts those).
    package static func read(
        contentsOf path: String, maximumSize: Int = InputFile.defaultMaximumSize, arguments: ArgumentSelection = .all,
        workerThread: Bool = true
    ) throws(TraceReadError) -> Trace {
        let options = Options(arguments: arguments, pipelining: workerThread ? .automatic : .never)
        if path == "-" {
            return try read(fileDescriptor: 0, name: "standard input", maximumSize: maximumSize, options: options)
        }
        if let tables = try InstrumentsDirectory.tables(in: path) {
            return try InstrumentsDirectory.read(tables, maximumSize: maximumSize, arguments: arguments)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFile.ioError(path) }
        defer { close(descriptor) }
        return try read(fileDescriptor: descriptor, name: path, maximumSize: maximumSize, options: options)
    }

    /// Reads the trace from an open file descriptor: a regular file is mapped, a pipe or terminal
    /// is read to its end.
    ///
    /// ```swift
    /// let trace = try TraceReader.read(fileDescriptor: STDIN_FILENO)
    /// ```
    /// - Parameters:
    ///   - fileDescriptor: A descriptor open for reading; it is not closed.
    ///   - maximumSize: The largest input accepted, in bytes (2 GiB by default).
    ///   - arguments: The event arguments to keep (all by default; see ``ArgumentSelection``).
    ///   - workerThread: Whether a large input (4 MiB or more) is tokenized on a second thread
    ///     (a JSON event array's events, a Perfetto file's packets) while this one builds the
    ///     trace, when the process may use two cores or more (the default); the trace is the
    ///     same either way.
    /// - Returns: The trace, with diagnostics for anything inconsistent.
    /// - Throws: ``TraceReadError``, as ``read(contentsOf:maximumSize:arguments:workerThread:)``.
    /// - Complexity: O(*n*) in the input's size.
    package static func read(
        fileDescriptor: Int32, maximumSize: Int = InputFile.defaultMaximumSize, arguments: ArgumentSelection = .all,
        workerThread: Bool = true
    ) throws(TraceReadError) -> Trace {
        try read(
            fileDescriptor: fileDescriptor, name: "file descriptor \(fileDescriptor)", maximumSize: maximumSize,
            options: Options(arguments: arguments, pipelining: workerThread ? .automatic : .never))
    }

    /// Reads a trace from bytes in memory.
    ///
    /// ```swift
    /// let trace = try TraceReader.read(bytes: Array(#"[{"ph":"X","name":"a","ts":1,"dur":2}]"#.utf8))
    /// ```
    /// - Parameters:
    ///   - bytes: The trace: UTF-8 JSON text or Perfetto protobuf.
    ///   - arguments: The event arguments to keep (all by default; see ``ArgumentSelection``).
    ///   - workerThread: Whether a large input (4 MiB or more) is tokenized on a second thread
    ///     (a JSON event array's events, a Perfetto file's packets) while this one builds the
    ///     trace, when the process may use two cores or more (the default); the trace is the
    ///     same either way.
    /// - Returns: The trace, with diagnostics for anything inconsistent.
    /// - Throws: ``TraceReadError`` with the position when the bytes are not a trace.
    /// - Complexity: O(*n*) in the number of bytes (a non-contiguous collection is copied first).
    package static func read(
        bytes: some Collection<UInt8>, arguments: ArgumentSelection = .all, workerThread: Bool = true
    ) throws(TraceReadError) -> Trace {
        let pipelining: Pipelining = workerThread ? .automatic : .never
        let result: Result<Trace, TraceReadError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parse(buffer, releasesInput: false, arguments: arguments, pipelining: pipelining)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer {
            parse($0, releasesInput: false, arguments: arguments, pipelining: pipelining)
        }.get()
    }

    /// The format of a trace, told by its content: Perfetto protobuf when the bytes look like
    /// packets (``PerfettoImporter/looksLikePerfetto(_:)``), Chrome JSON otherwise (whose
    /// importer reports input that is not JSON either).
    ///
    /// ```swift
    /// let format = bytes.withUnsafeBufferPointer { TraceReader.format(of: $0) }   // .perfetto
    /// ```
    /// - Parameter bytes: The start of the input, or all of it.
    /// - Returns: The format whose importer reads `bytes`.
    /// - Complexity: O(1) for a trace; O(*w*) in the white space a JSON document starts with.
    package static func format(of bytes: UnsafeBufferPointer<UInt8>) -> TraceFormat {
        PerfettoImporter.looksLikePerfetto(bytes) ? .perfetto : .chromeJSON
    }

    // MARK: - Input

    /// Parses a whole input with the importer of its format; errors come back located (line and
    /// column filled in for JSON, byte offsets for protobuf).
    /// - Parameter releasesInput: Whether `buffer` is a private file mapping whose pages may be
    ///   handed back once read (``ReadPageRelease``).
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, releasesInput: Bool, arguments: ArgumentSelection = .all,
        pipelining: Pipelining = .automatic
    ) -> Result<Trace, TraceReadError> {
        if InstrumentsImporter.looksLikeXML(buffer) {
            return InstrumentsImporter.parse([buffer], releasesInput: releasesInput, arguments: arguments)
        }
        switch format(of: buffer) {
        case .perfetto:
            return PerfettoImporter.parse(
                buffer, arguments: arguments, pipelining: pipelining, releasesInput: releasesInput)
        case .chromeJSON:
            return ChromeJSONImporter.parse(
                buffer, releasesInput: releasesInput, arguments: arguments, pipelining: pipelining)
        }
    }

    private static func read(
        fileDescriptor descriptor: Int32, name: String, maximumSize: Int, options: Options
    ) throws(TraceReadError) -> Trace {
        let size = try InputFile.checkedSize(of: descriptor, name: name, maximumSize: maximumSize)
        if size > 0, let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED {
            defer { munmap(mapping, size) }
            _ = madvise(mapping, size, MADV_SEQUENTIAL)
            let buffer = UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size)
            return try parse(buffer, releasesInput: true, arguments: options.arguments, pipelining: options.pipelining)
                .get()
        }
        let bytes = try InputFile.readToEnd(descriptor, name: name, maximumSize: maximumSize, expected: size)
        return try bytes.withUnsafeBufferPointer {
            parse($0, releasesInput: false, arguments: options.arguments, pipelining: options.pipelining)
        }.get()
    }

    /// How a file is read, past where it comes from.
    private struct Options {
        var arguments: ArgumentSelection
        var pipelining: Pipelining
    }

    /// When reading uses the worker thread (a JSON event array's tokenizer, a Perfetto file's
    /// packet framer).
    enum Pipelining: Sendable {
        /// For at least ``minimumBytes`` left to read, when the process may use two cores or more.
        case automatic
        /// Always (tests use it to compare the two ways on small inputs).
        case always
        /// Never.
        case never

        /// Inputs shorter than this are read on the calling thread: starting a thread costs more
        /// than the overlap would save.
        static let minimumBytes = 4 << 20

        /// Whether `bytes` still to read are read with the worker thread.
        func usesWorker(for bytes: Int) -> Bool {
            #if canImport(Glibc) || canImport(Darwin)
                switch self {
                case .never: false
                case .always: true
                case .automatic: bytes >= Self.minimumBytes && AvailableProcessors.count >= 2
                }
            #else
                false  // no threads here
            #endif
        }
    }
}
