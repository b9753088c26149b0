/// The process and thread an event belongs to.
public struct ThreadKey: Hashable, Sendable, Comparable {
    /// The process id (`pid`).
    public var processID: Int64
    /// The thread id (`tid`).
    public var threadID: Int64

    /// Creates a key from a process and thread id.
    /// - Parameters:
    ///   - processID: The process id (`pid`).
    ///   - threadID: The thread id (`tid`).
    public init(processID: Int64, threadID: Int64) {
        self.processID = processID
        self.threadID = threadID
    }

    /// Orders keys by process id, then by thread id.
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: `true` when `lhs` sorts before `rhs`.
    public static func < (lhs: ThreadKey, rhs: ThreadKey) -> Bool {
        (lhs.processID, lhs.threadID) < (rhs.processID, rhs.threadID)
    }
}

extension ThreadKey: CustomStringConvertible {
    /// `PID:TID`, the form the CLI's `--main-thread` takes.
    public var description: String { "\(processID):\(threadID)" }
}

/// One event of a trace, stored compactly.
///
/// Strings are ``Symbol``s into the owning ``Trace``'s table and arguments are an index into its
/// argument lists, so an event costs a fixed 56 bytes however long its name is. Times are integer
/// nanoseconds: the format's microseconds with their fraction kept exactly.
public struct TraceEvent: Sendable, Hashable {
    /// The largest magnitude of a timestamp or duration the reader accepts, in nanoseconds:
    /// 2^60 ns, about 36.5 years (±1,152,921,504,606,846 µs in the file). Events beyond it are
    /// dropped with a diagnostic that names them. Within it, the sum or difference of any two
    /// times is representable; longer sums saturate instead of trapping.
    public static let timeLimitNanoseconds: Int64 = 1 << 60

    /// What kind of event this is.
    public var phase: Phase
    /// For flow events, the slice the flow binds to.
    public var bindingPoint: BindingPoint
    /// For instants, the scope they cover.
    public var scope: InstantScope
    /// The event's name.
    public var name: Symbol
    /// The event's category (`cat`); several comma-separated categories stay one string.
    public var category: Symbol
    /// Index of the event's arguments in ``Trace/argumentLists``; 0 when it has none.
    ///
    /// Declared here, beside the other 4-byte fields, so that it fills what would otherwise be
    /// padding before `thread`: an event takes 56 bytes instead of 64.
    public var arguments: UInt32
    /// The process and thread the event was recorded on.
    public var thread: ThreadKey
    /// When the event happened, in nanoseconds on the trace's clock.
    public var timestamp: Int64
    /// For `complete` events, how long the span lasted, in nanoseconds; otherwise 0.
    public var duration: Int64
    /// For async and flow events, the id that pairs them; otherwise 0.
    public var id: UInt64

    /// Creates an event. Strings must already be interned in the trace that will hold it.
    ///
    /// ```swift
    /// let name = trace.symbols.intern("layout")
    /// let layout = TraceEvent(phase: .complete, name: name, thread: main, timestamp: 0, duration: 4_000_000)
    /// trace.events.append(layout)
    /// ```
    /// - Parameters:
    ///   - phase: What kind of event this is.
    ///   - name: The name, interned in the owning trace's ``Trace/symbols``.
    ///   - category: The category, interned the same way; ``Symbol/empty`` for none.
    ///   - thread: The process and thread the event was recorded on.
    ///   - timestamp: When it happened, in nanoseconds on the trace's clock.
    ///   - duration: For `complete` events, how long the span lasted, in nanoseconds.
    ///   - id: For async and flow events, the id that pairs them.
    ///   - bindingPoint: For flow events, the slice the flow binds to.
    ///   - scope: For instants, the scope they cover.
    ///   - arguments: The index of the event's arguments in ``Trace/argumentLists`` (from
    ///     ``Trace/addArguments(_:)``); 0 for none.
    public init(
        phase: Phase, name: Symbol, category: Symbol = .empty, thread: ThreadKey, timestamp: Int64,
        duration: Int64 = 0, id: UInt64 = 0, bindingPoint: BindingPoint = .unspecified,
        scope: InstantScope = .thread, arguments: UInt32 = 0
    ) {
        self.phase = phase
        self.bindingPoint = bindingPoint
        self.scope = scope
        self.name = name
        self.category = category
        self.thread = thread
        self.timestamp = timestamp
        self.duration = duration
        self.id = id
        self.arguments = arguments
    }

    /// The end of a `complete` event (`timestamp + duration`), or its timestamp for other phases.
    public var endTimestamp: Int64 { timestamp &+ duration }
}

/// What a trace says about one thread: its name and where viewers sort it.
public struct TraceThread: Sendable, Hashable {
    /// The thread's process and id.
    public var key: ThreadKey
    /// The `thread_name` metadata, if any.
    public var name: String?
    /// The `thread_sort_index` metadata, if any; lower sorts first.
    public var sortIndex: Int64?

    /// Creates a thread description.
    /// - Parameters:
    ///   - key: The thread's process and id.
    ///   - name: Its name, or `nil` when the trace names none.
    ///   - sortIndex: Where viewers sort it (lower first), or `nil` for their default.
    public init(key: ThreadKey, name: String? = nil, sortIndex: Int64? = nil) {
        self.key = key
        self.name = name
        self.sortIndex = sortIndex
    }
}

/// What a trace says about one process.
public struct TraceProcess: Sendable, Hashable {
    /// The process id.
    public var processID: Int64
    /// The `process_name` metadata, if any.
    public var name: String?
    /// The `process_sort_index` metadata, if any.
    public var sortIndex: Int64?

    /// Creates a process description.
    /// - Parameters:
    ///   - processID: The process id.
    ///   - name: Its name, or `nil` when the trace names none.
    ///   - sortIndex: Where viewers sort it, or `nil` for their default.
    public init(processID: Int64, name: String? = nil, sortIndex: Int64? = nil) {
        self.processID = processID
        self.name = name
        self.sortIndex = sortIndex
    }
}
