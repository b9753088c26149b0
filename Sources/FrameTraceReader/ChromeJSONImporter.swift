import FrameTrace

/// Imports Chrome Trace Event JSON (the format of `chrome://tracing`, Perfetto's JSON importer and
/// framescope's own writer) into a ``Trace``; ``TraceReader`` hands it every input that is not
/// Perfetto protobuf.
///
/// The importer is a hand-written streaming byte scanner: it makes no `String` for a name it has
/// seen before, skips unknown keys and nested arguments without building them, and never
/// recurses, so no input can overflow the stack. Files are mapped read-only and the part already
/// read is handed back to the system as the scan moves on, so peak memory stays near the size of
/// the trace values rather than the file plus the values. On a machine with two cores or more, a
/// large event array is read on two threads: one tokenizes events ahead while the calling thread
/// builds the trace from them in order (`workerThread: false` keeps it to one), with the same
/// result.
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
/// let trace = try TraceReader.read(contentsOf: "run.json")
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
enum ChromeJSONImporter {
    /// Parses a whole JSON input; errors come back located (line and column filled in).
    /// - Parameter releasesInput: Whether `buffer` is a private file mapping whose pages may be
    ///   handed back once read (``ReadPageRelease``).
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, releasesInput: Bool, arguments: TraceReader.ArgumentSelection = .all,
        pipelining: TraceReader.Pipelining = .automatic
    ) -> Result<Trace, TraceReadError> {
        var parser = Parser(buffer, releasesInput: releasesInput, arguments: arguments, pipelining: pipelining)
        do throws(TraceReadError) {
            try parser.parseDocument()
        } catch {
            return .failure(error.located(in: buffer))
        }
        return .success(parser.finish())
    }
}
