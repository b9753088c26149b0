@_spi(FramescopeInternals) import FrameTrace

/// What every importer builds as it reads, and the one place it becomes a ``Trace``: the events,
/// the interned strings, the argument lists, the threads and processes, framescope's metadata
/// and the diagnostics.
///
/// Each importer owns one, mutated in place while it reads (never copied: it holds every event),
/// and calls ``finished(keptArgumentKeys:)`` when it is done, so both formats come out of the
/// same assembly.
struct TraceAssembly {
    var events: [TraceEvent] = []
    var symbols = SymbolTable()
    /// The argument lists events refer to by index; list 0 is the empty list.
    var argumentLists: [[Argument]] = [[]]
    var threads: [ThreadKey: TraceThread] = [:]
    var processes: [Int64: TraceProcess] = [:]
    var metadata = TraceMetadata()
    var log = DiagnosticLog()

    /// The finished trace: the one assembly both importers end with.
    /// - Parameter keptArgumentKeys: The argument keys the read kept (``Trace/keptArgumentKeys``),
    ///   or `nil` when it kept every argument.
    func finished(keptArgumentKeys: Set<String>?) -> Trace {
        var trace = Trace()
        trace.events = events
        trace.symbols = symbols
        trace.argumentLists = argumentLists
        trace.keptArgumentKeys = keptArgumentKeys
        trace.processes = processes
        for thread in threads.values { trace.setThread(thread) }
        trace.metadata = metadata
        trace.diagnostics = log.finished()
        return trace
    }

    /// A name quoted for a diagnostic message, shortened past 80 characters; `(unnamed)` when
    /// empty. Both importers' diagnostics use it.
    static func quotedName(_ name: String) -> String {
        if name.isEmpty { return "(unnamed)" }
        return "\"" + (name.count > 80 ? String(name.prefix(77)) + "..." : name) + "\""
    }

    /// framescope's metadata object (the shape `ChromeTraceWriter.writeMetadata` writes) as
    /// values; `nil` when `value` is not an object. Shared by the JSON and Perfetto readers.
    static func framescopeMetadata(from value: JSONValue) -> TraceMetadata? {
        guard case .object = value else { return nil }
        var result = TraceMetadata()
        result.producer = value[FrameContract.Metadata.producer]?.stringValue
        result.producerVersion = value[FrameContract.Metadata.version]?.stringValue
        result.clock = value[FrameContract.Metadata.clock]?.stringValue.map(TraceClock.init(rawValue:))
        result.frameIntervalNanoseconds = value[FrameContract.Metadata.frameInterval]?.integerValue
        if let main = value[FrameContract.Metadata.mainThread], let pid = main["pid"]?.integerValue,
            let tid = main["tid"]?.integerValue
        {
            result.mainThread = ThreadKey(processID: pid, threadID: tid)
        }
        for entry in value[FrameContract.Metadata.droppedEvents]?["threads"]?.arrayValue ?? [] {
            guard let pid = entry["pid"]?.integerValue, let tid = entry["tid"]?.integerValue,
                let count = entry["count"]?.integerValue
            else { continue }
            let key = ThreadKey(processID: pid, threadID: tid)
            let (sum, overflow) = result.droppedEvents[key, default: 0].addingReportingOverflow(count)
            result.droppedEvents[key] = overflow ? .max : sum
        }
        for (key, member) in value[FrameContract.Metadata.extra]?.objectValue ?? [] {
            switch member {
            case .null: result.extra.append(Argument(key, .null))
            case .bool(let bool): result.extra.append(Argument(key, .bool(bool)))
            case .int(let integer): result.extra.append(Argument(key, .int(integer)))
            case .double(let number): result.extra.append(Argument(key, .double(number)))
            case .string(let string): result.extra.append(Argument(key, .string(string)))
            case .array, .object: continue
            }
        }
        return result
    }
}
