public import FrameTrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads Chrome Trace Event JSON (the format of `chrome://tracing`, Perfetto's JSON importer and
/// framescope's own writer) into a ``Trace``.
///
/// The reader is a hand-written streaming byte scanner: it makes no `String` for a name it has
/// seen before, skips unknown keys and nested arguments without building them, and never
/// recurses, so no input can overflow the stack. Files are mapped read-only and the part already
/// read is handed back to the system as the scan moves on, so peak memory stays near the size of
/// the trace values rather than the file plus the values. On a machine with two cores or more, a
/// large event array is read on two threads: one tokenizes events ahead while the calling thread
/// builds the trace from them in order (`workerThread: false` keeps it to one), with the same
/// result. A large Perfetto file is read the same way, its packets decoded ahead.
///
/// What it accepts:
/// - **Both forms**: `[event, ...]` and `{"traceEvents": [...], ...}`. The array form may lack its
///   closing `]`, and may end with a trailing comma or whitespace: a program that died while
///   writing leaves such a file, and the format allows it. `systemTraceEvents`, `otherData`,
///   `stackFrames`, `samples` and `displayTimeUnit` are skipped; a top-level `metadata` object
///   whose `producer` is `framescope` fills ``Trace/metadata``.
/// - **Times**: `ts` and `dur` are microseconds whatever `displayTimeUnit` says, given as integers,
///   decimals, exponents or numeric strings, and kept as integer nanoseconds (three fractional
///   digits exact, further digits rounded half away from zero).
/// - **Threads**: `pid` and `tid` as numbers or strings. A string holding a decimal integer is that
///   integer; any other string gets a stable synthetic id (2^48 + *n*, in order of first
///   appearance) and becomes the thread's (or process's) name unless metadata names it. A missing
///   `tid` is the `pid`, as in Perfetto.
/// - **Phases**: `X`; `B`/`E` on a per-thread stack, each pair becoming one `complete` event at the
///   `B`'s position (arguments merged, the `E`'s winning); `i`/`I`; `C` (numeric arguments only);
///   `M` (`process_name`, `thread_name`, `process_sort_index`, `thread_sort_index` fill
///   ``Trace/processes`` and ``Trace/threads``; `framescope` fills ``Trace/metadata``; any other
///   `M` is kept as a ``Phase/metadata`` event); async `b`/`n`/`e` and flows `s`/`t`/`f`, with
///   `id`, `id2` (`local` ids are folded with the `pid`) and `scope` folded into one 64-bit id;
///   flow v2 (`bind_id` with `flow_in`/`flow_out` on a slice) becomes `flowEnd`/`flowStart`
///   events bound to that slice. Other phases (`S`/`T`/`F`, `P`, `O`/`N`/`D`, `R`, ...) are skipped
///   and counted per phase.
/// - **Arguments**: top-level scalars are kept; nested objects and arrays are skipped and counted
///   in one ``TraceDiagnostic/Kind/skippedArgument`` summary.
///
/// What it reports instead of failing (as ``Trace/diagnostics``, each with the event's index in the
/// input): an `E` with nothing open (dropped), a `B` never closed (closed at the trace's last
/// timestamp), an `E` whose name differs from the `B` it closes, `X` events that partially overlap
/// on one thread, a negative duration (clamped to 0), events whose timestamps go backwards on a
/// thread (one summary), async and flow events that do not pair, events without a usable `ph`,
/// `ts`, `pid`, `tid` or `id` (dropped), and a cut-off last event (``TraceDiagnostic/Kind/truncated``;
/// every complete event before it is kept). Each kind lists at most 100 individual diagnostics and
/// then one summary with the remaining count, so a hostile file cannot make the list explode.
///
/// What it rejects with a ``TraceReadError`` (byte offset, line and column): input that is not
/// JSON, JSON that is not a trace, a syntax error anywhere (a cut-off file is not a syntax error),
/// an object form cut off before its `traceEvents` began, nesting deeper than 10,000 levels, and
/// anything after the trace's closing bracket.
///
/// ```swift
/// let trace = try ChromeTraceReader.read(contentsOf: "run.json")
/// for diagnostic in trace.diagnostics { print(diagnostic) }
/// let layout = trace.events.filter { trace.name(of: $0) == "layout" }
/// ```
///
/// Memory: each event is one 56-byte ``TraceEvent`` plus its share of the strings and argument
/// lists it refers to. Names and categories are stored once per distinct value; argument keys and
/// values of 16 to 256 bytes are shared between events; events whose `args` text repeats a recent
/// one byte for byte share one argument list (so a list index may be used by several events; a
/// `complete` event made from `B`/`E` always has its own). While reading, 4 more bytes per event
/// record its input index for diagnostics; they are freed before the trace is returned.
public enum ChromeTraceReader {
    /// Reads the trace in a file; `-` reads standard input.
    ///
    /// ```swift
    /// let trace = try ChromeTraceReader.read(contentsOf: "Traces/demo.json")
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
    public static func read(
        contentsOf path: String, maximumSize: Int = InputFile.defaultMaximumSize, arguments: ArgumentSelection = .all,
        workerThread: Bool = true
    ) throws(TraceReadError) -> Trace {
        let options = Options(arguments: arguments, pipelining: workerThread ? .automatic : .never)
        if path == "-" { return try read(fileDescriptor: 0, name: "standard input", maximumSize: maximumSize, options: options) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFile.ioError(path) }
        defer { close(descriptor) }
        return try read(fileDescriptor: descriptor, name: path, maximumSize: maximumSize, options: options)
    }

    /// Reads the trace from an open file descriptor: a regular file is mapped, a pipe or terminal
    /// is read to its end.
    ///
    /// ```swift
    /// let trace = try ChromeTraceReader.read(fileDescriptor: STDIN_FILENO)
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
    /// - Throws: ``TraceReadError``, as ``read(contentsOf:maximumSize:arguments:)``.
    /// - Complexity: O(*n*) in the input's size.
    public static func read(
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
    /// let trace = try ChromeTraceReader.read(bytes: Array(#"[{"ph":"X","name":"a","ts":1,"dur":2}]"#.utf8))
    /// ```
    /// - Parameters:
    ///   - bytes: The UTF-8 JSON text of a trace.
    ///   - arguments: The event arguments to keep (all by default; see ``ArgumentSelection``).
    ///   - workerThread: Whether a large input (4 MiB or more) is tokenized on a second thread
    ///     (a JSON event array's events, a Perfetto file's packets) while this one builds the
    ///     trace, when the process may use two cores or more (the default); the trace is the
    ///     same either way.
    /// - Returns: The trace, with diagnostics for anything inconsistent.
    /// - Throws: ``TraceReadError`` with the position when the bytes are not a trace.
    /// - Complexity: O(*n*) in the number of bytes (a non-contiguous collection is copied first).
    public static func read(
        bytes: some Collection<UInt8>, arguments: ArgumentSelection = .all, workerThread: Bool = true
    ) throws(TraceReadError) -> Trace {
        let pipelining: Pipelining = workerThread ? .automatic : .never
        let result: Result<Trace, TraceReadError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parse(buffer, releasesInput: false, arguments: arguments, pipelining: pipelining)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parse($0, releasesInput: false, arguments: arguments, pipelining: pipelining) }.get()
    }

    // MARK: - Input

    /// Parses a whole input; errors come back located (line and column filled in).
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, releasesInput: Bool, arguments: ArgumentSelection = .all, pipelining: Pipelining = .automatic
    ) -> Result<Trace, TraceReadError> {
        if PerfettoTraceReader.looksLikePerfetto(buffer) { return PerfettoTraceReader.parse(buffer, arguments: arguments, pipelining: pipelining, releasesInput: releasesInput) }
        var parser = Parser(buffer, releasesInput: releasesInput, arguments: arguments, pipelining: pipelining)
        do throws(TraceReadError) {
            try parser.parseDocument()
        } catch {
            return .failure(error.located(in: buffer))
        }
        return .success(parser.finish())
    }

    private static func read(
        fileDescriptor descriptor: Int32, name: String, maximumSize: Int, options: Options
    ) throws(TraceReadError) -> Trace {
        let size = try InputFile.checkedSize(of: descriptor, name: name, maximumSize: maximumSize)
        if size > 0, let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED {
            defer { munmap(mapping, size) }
            _ = madvise(mapping, size, MADV_SEQUENTIAL)
            let buffer = UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size)
            return try parse(buffer, releasesInput: true, arguments: options.arguments, pipelining: options.pipelining).get()
        }
        let bytes = try InputFile.readToEnd(descriptor, name: name, maximumSize: maximumSize, expected: size)
        return try bytes.withUnsafeBufferPointer { parse($0, releasesInput: false, arguments: options.arguments, pipelining: options.pipelining) }.get()
    }

    /// How a file is read, past where it comes from.
    private struct Options {
        var arguments: ArgumentSelection
        var pipelining: Pipelining
    }
}
