/// A trace as values: events, the strings and arguments they refer to, thread and process names,
/// the producer's metadata, and diagnostics from reading it.
///
/// Build one by appending events with ``append(_:name:category:thread:timestamp:duration:id:bindingPoint:scope:arguments:)``,
/// get one from a reader (`ChromeJSONImporter` and `PerfettoImporter`, module FrameTraceReader),
/// or from a FrameScope `Recorder`. Write it with ``chromeJSON(form:)``, ``encoded(as:)`` or
/// ``write(toFile:format:)``.
///
/// ```swift
/// var trace = Trace()
/// let main = ThreadKey(processID: 1, threadID: 1)
/// trace.setThread(TraceThread(key: main, name: "main", sortIndex: 0))
/// trace.append(.complete, name: "layout", category: "layout", thread: main, timestamp: 0, duration: 2_000_000)
/// let json = trace.chromeJSON()
/// ```
public struct Trace: Sendable {
    /// The events, in the order they were appended or read.
    public var events: [TraceEvent] = []
    /// The strings events refer to.
    public var symbols = SymbolTable()
    /// Argument lists; index 0 is the empty list shared by events without arguments.
    public var argumentLists: [[Argument]] = [[]]
    /// Threads by key, with names and sort indexes.
    public var threads: [ThreadKey: TraceThread] = [:]
    /// Processes by id, with names and sort indexes.
    public var processes: [Int64: TraceProcess] = [:]
    /// What the producer said about the trace.
    public var metadata = TraceMetadata()
    /// Inconsistencies found while reading or building the trace.
    public var diagnostics: [TraceDiagnostic] = []
    /// The only argument keys ``argumentLists`` may hold, when the trace was read keeping only
    /// those (`TraceReader.ArgumentSelection`); `nil` when it holds whatever its source had.
    public var keptArgumentKeys: Set<String>?

    /// Creates an empty trace.
    public init() {}

    /// The name of an event.
    /// - Parameter event: An event of this trace.
    /// - Returns: The event's name from ``symbols``.
    public func name(of event: TraceEvent) -> String { symbols[event.name] }

    /// The category of an event.
    /// - Parameter event: An event of this trace.
    /// - Returns: The event's category from ``symbols``; empty when it has none.
    public func category(of event: TraceEvent) -> String { symbols[event.category] }

    /// The arguments of an event.
    /// - Parameter event: An event of this trace.
    /// - Returns: The event's arguments from ``argumentLists``, in their order; empty when it has
    ///   none.
    public func arguments(of event: TraceEvent) -> [Argument] { argumentLists[Int(event.arguments)] }

    /// Stores an argument list and returns the index an event refers to it by (0 for none).
    ///
    /// Each call appends a new list, even for a list stored before.
    /// - Parameter arguments: The event's arguments, in the order to write them.
    /// - Returns: The index to give ``TraceEvent/arguments``; 0 when `arguments` is empty.
    public mutating func addArguments(_ arguments: [Argument]) -> UInt32 {
        guard !arguments.isEmpty else { return 0 }
        argumentLists.append(arguments)
        return UInt32(argumentLists.count - 1)
    }

    /// Appends an event, interning its strings.
    /// - Parameters:
    ///   - phase: The event's kind.
    ///   - name: The event's name.
    ///   - category: The event's category; empty for none.
    ///   - thread: The process and thread it happened on.
    ///   - timestamp: Nanoseconds on the trace's clock.
    ///   - duration: Nanoseconds, for `complete` events.
    ///   - id: The pairing id of async and flow events.
    ///   - bindingPoint: Where a flow event binds.
    ///   - scope: The scope of an instant.
    ///   - arguments: Scalar arguments.
    public mutating func append(
        _ phase: Phase, name: String, category: String = "", thread: ThreadKey, timestamp: Int64,
        duration: Int64 = 0, id: UInt64 = 0, bindingPoint: BindingPoint = .unspecified,
        scope: InstantScope = .thread, arguments: [Argument] = []
    ) {
        events.append(
            TraceEvent(
                phase: phase, name: symbols.intern(name), category: symbols.intern(category), thread: thread,
                timestamp: timestamp, duration: duration, id: id, bindingPoint: bindingPoint, scope: scope,
                arguments: addArguments(arguments)))
    }

    /// Records a thread's name and sort index, and makes sure its process is known.
    /// - Parameter thread: The thread; it replaces what the trace said about the same key.
    public mutating func setThread(_ thread: TraceThread) {
        threads[thread.key] = thread
        if processes[thread.key.processID] == nil {
            processes[thread.key.processID] = TraceProcess(processID: thread.key.processID)
        }
    }

    /// The thread's name from metadata, if the trace has one.
    /// - Parameter key: The thread's process and id.
    /// - Returns: The name from ``threads``, or `nil` when the trace does not name the thread.
    public func threadName(_ key: ThreadKey) -> String? { threads[key]?.name }

    /// The time of the earliest event that is not metadata, in nanoseconds, or `nil` when there
    /// is none: where the writers put time 0 unless told otherwise.
    public var earliestTimestamp: Int64? {
        events.lazy.filter { $0.phase != .metadata }.map(\.timestamp).min()
    }

    /// Every thread that has events or metadata, sorted by sort index, then process and thread id.
    public var allThreads: [TraceThread] {
        var seen = threads
        for event in events where seen[event.thread] == nil {
            seen[event.thread] = TraceThread(key: event.thread)
        }
        return seen.values.sorted {
            ($0.sortIndex ?? Int64.max, $0.key) < ($1.sortIndex ?? Int64.max, $1.key)
        }
    }
}
