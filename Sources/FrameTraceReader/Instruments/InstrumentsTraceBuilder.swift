@_spi(FramescopeInternals) import FrameTrace

/// Turns the rows of an export's tables into trace events as they are read
/// (``InstrumentsImporter`` says what each table becomes).
struct InstrumentsTraceBuilder: InstrumentsRowSink {
    var values = InstrumentsValues()
    var trace = TraceAssembly()
    var release = ReadPageRelease(UnsafeBufferPointer(start: nil, count: 0), isFileMapping: false)
    private var schema = InstrumentsSchema(name: "", mnemonics: [], names: [])
    private var table: InstrumentsTable?
    private var columns: [String: Int] = [:]
    /// Rows of tables framescope does not read, by schema name, in the order first seen.
    private var unusedRows: [(name: String, rows: Int)] = []
    private var namedThreads: Set<ThreadKey> = []
    /// The argument keys to keep; `nil` keeps every argument.
    var keptKeys: Set<String>?

    mutating func begin(_ schema: InstrumentsSchema) {
        self.schema = schema
        table = InstrumentsTable(schemaName: schema.name, mnemonics: schema.mnemonics)
        columns = [:]
        for (index, mnemonic) in schema.mnemonics.enumerated() where columns[mnemonic] == nil {
            columns[mnemonic] = index
        }
        if table?.isUsed != true { unusedRows.append((schema.name, 0)) }
    }

    mutating func add(_ cells: [UInt32], at position: Int) throws(TraceReadError) {
        release.release(before: position)
        guard let table, table.isUsed else {
            if !unusedRows.isEmpty { unusedRows[unusedRows.count - 1].rows += 1 }
            return
        }
        switch table {
        case .signpostIntervals: addInterval(cells)
        case .signpostEvents: addSignpostEvent(cells)
        default: addAppleRow(cells, table: table)
        }
    }

    // MARK: - Cells

    private func cell(_ cells: [UInt32], _ mnemonics: String...) -> UInt32? {
        for mnemonic in mnemonics {
            if let column = columns[mnemonic], column < cells.count, cells[column] != 0 { return cells[column] }
        }
        return nil
    }

    private func text(_ cells: [UInt32], _ mnemonics: String...) -> String? {
        for mnemonic in mnemonics {
            if let column = columns[mnemonic], column < cells.count, let text = values.text(cells[column]) {
                return text
            }
        }
        return nil
    }

    /// A time or duration column's nanoseconds; a diagnostic and `nil` when the row cannot be read.
    private mutating func nanoseconds(_ cells: [UInt32], _ mnemonics: [String], what: String) -> Int64? {
        var found: UInt32?
        for mnemonic in mnemonics where found == nil { found = cell(cells, mnemonic) }
        guard let cell = found else {
            note(.invalidEvent, "a \(schema.name) row without a \(what): not read")
            return nil
        }
        guard let value = values.number(cell) else {
            let problem = values.overflows(cell) ? "does not fit in 64 bits" : "is not a number"
            note(.invalidEvent, "a \(schema.name) row whose \(what) \(problem): not read")
            return nil
        }
        guard value >= 0 else {
            note(.negativeDuration, "a \(schema.name) row with a negative \(what) (\(value) ns): not read")
            return nil
        }
        guard value <= TraceEvent.timeLimitNanoseconds else {
            note(.invalidEvent, "a \(schema.name) row whose \(what) is past 2^60 ns: not read")
            return nil
        }
        return value
    }

    private mutating func note(_ kind: TraceDiagnostic.Kind, _ message: String) {
        trace.log.add(kind, nil, message)
    }

    /// The thread of a row: its thread column's `tid` in its process (or the row's process),
    /// named as Instruments names it (`Main Thread`); `nil` without one.
    private mutating func thread(_ cells: [UInt32], _ mnemonics: String...) -> ThreadKey? {
        let processCell = cell(cells, "process", "start-process")
        var processID = processCell.flatMap { values.child($0, "pid") }.flatMap { values.number($0) }
        for mnemonic in mnemonics {
            guard let threadCell = cell(cells, mnemonic), let tid = values.child(threadCell, "tid") else { continue }
            if let process = values.child(threadCell, "process") {
                processID = values.child(process, "pid").flatMap { values.number($0) } ?? processID
                register(process: processID ?? 0, cell: process)
            }
            let key = ThreadKey(processID: processID ?? 0, threadID: values.number(tid) ?? 0)
            if !namedThreads.contains(key) {
                namedThreads.insert(key)
                let name = values.format(threadCell).map { Self.threadName($0) }
                trace.threads[key] = TraceThread(key: key, name: name)
            }
            if let processCell { register(process: key.processID, cell: processCell) }
            return key
        }
        if let processCell, let processID {
            register(process: processID, cell: processCell)
            return ThreadKey(processID: processID, threadID: 0)
        }
        return nil
    }

    private mutating func register(process: Int64, cell: UInt32) {
        guard trace.processes[process] == nil else { return }
        trace.processes[process] = TraceProcess(processID: process, name: values.format(cell).map(Self.processName))
    }

    /// `Main Thread (0x2732bb) (TestApp, pid: 12345)` → `Main Thread`.
    static func threadName(_ format: String) -> String {
        let bytes = Array(format.utf8)
        let marker = Array(" (0x".utf8)
        guard bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<($0 + marker.count)].elementsEqual(marker)
            })
        else { return format }
        return String(decoding: bytes[..<start], as: UTF8.self)
    }

    /// `TestApp (12345)` → `TestApp`.
    static func processName(_ format: String) -> String {
        guard format.hasSuffix(")"), let open = format.lastIndex(of: "(") else { return format }
        let name = format[..<open]
        return name.hasSuffix(" ") ? String(name.dropLast()) : String(name)
    }
}

extension InstrumentsTraceBuilder {
    // MARK: - Rows

    mutating func addInterval(_ cells: [UInt32]) {
        guard let start = nanoseconds(cells, ["start"], what: "start"),
            let duration = nanoseconds(cells, ["duration"], what: "duration")
        else { return }
        let thread = thread(cells, "start-thread", "thread") ?? ThreadKey(processID: 0, threadID: 0)
        var name = text(cells, "name") ?? ""
        var category = text(cells, "category") ?? ""
        let message = text(cells, "start-message", "message") ?? ""
        var arguments: [Argument] = []
        if keeps(InstrumentsImporter.Key.subsystem), let subsystem = text(cells, "subsystem") {
            arguments.append(Argument(InstrumentsImporter.Key.subsystem, .string(subsystem)))
        }
        if !message.isEmpty, keeps(InstrumentsImporter.Key.message) {
            arguments.append(Argument(InstrumentsImporter.Key.message, .string(message)))
        }
        if name == Self.frameName, category == FrameContract.frameCategory || category == "framescope" {
            category = FrameContract.frameCategory
            arguments += Self.frameArguments(message)
        } else if name == "span", !message.isEmpty {
            name = message
        }
        append(
            TraceEvent(
                phase: .complete, name: trace.symbols.intern(name), category: trace.symbols.intern(category),
                thread: thread, timestamp: start, duration: duration), arguments: arguments)
    }

    /// framescope's frame message, `index N since-vsync S ns budget B ns` (or the older
    /// `index N budget B ns`), as frame-span arguments; words it does not know are ignored.
    static func frameArguments(_ message: String) -> [Argument] {
        var message = message
        return message.withUTF8 { bytes in
            var arguments: [Argument] = []
            var words: [Range<Int>] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x20 {
                if index > start { words.append(start..<index) }
                start = index + 1
            }
            func word(_ range: Range<Int>, is literal: StaticString) -> Bool {
                UnsafeBufferPointer(rebasing: bytes[range]).elementsEqual(
                    UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
            }
            for position in words.indices.dropLast() {
                guard let value = number(bytes, words[position + 1]) else { continue }
                let key = words[position]
                if word(key, is: "index"), value >= 0 {
                    arguments.append(Argument(FrameContract.Key.index, .int(value)))
                } else if word(key, is: "since-vsync"), value >= 0 {
                    arguments.append(Argument(FrameContract.Key.sinceVsync, .int(value)))
                } else if word(key, is: "budget"), value > 0 {
                    arguments.append(Argument(FrameContract.Key.budget, .int(value)))
                }
            }
            return arguments
        }
    }

    /// The decimal number in `range` (at most 18 digits, so it cannot overflow); `nil` otherwise.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var value: Int64 = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    static let frameName = String(describing: FrameContract.frameSpanName)

    /// Whether the read keeps arguments named `key`.
    func keeps(_ key: String) -> Bool { keptKeys?.contains(key) ?? true }

    mutating func addSignpostEvent(_ cells: [UInt32]) {
        guard let time = nanoseconds(cells, ["time", "timestamp", "start"], what: "time") else { return }
        let thread = thread(cells, "thread", "start-thread") ?? ThreadKey(processID: 0, threadID: 0)
        let name = text(cells, "name") ?? ""
        let category = text(cells, "category") ?? ""
        let message = text(cells, "message", "start-message") ?? ""
        var arguments: [Argument] = []
        if let subsystem = text(cells, "subsystem") {
            arguments.append(Argument(InstrumentsImporter.Key.subsystem, .string(subsystem)))
        }
        // The mirror's grammar (SignpostMessage): the span lasted `duration` and ended `ago` before
        // the event; both are checked to lie within the recording before they are subtracted.
        if let measured = SignpostMessage.MeasuredSpan(parsing: message), measured.durationNanoseconds >= 0,
            measured.endedNanosecondsAgo >= 0, measured.endedNanosecondsAgo <= time,
            measured.durationNanoseconds <= time - measured.endedNanosecondsAgo
        {
            let end = time - measured.endedNanosecondsAgo
            append(
                TraceEvent(
                    phase: .complete, name: trace.symbols.intern(name), category: trace.symbols.intern(category),
                    thread: thread, timestamp: end - measured.durationNanoseconds,
                    duration: measured.durationNanoseconds), arguments: arguments)
            return
        }
        if !message.isEmpty { arguments.append(Argument(InstrumentsImporter.Key.message, .string(message))) }
        append(
            TraceEvent(
                phase: .instant, name: trace.symbols.intern(name), category: trace.symbols.intern(category),
                thread: thread, timestamp: time), arguments: arguments)
    }

    /// A row of one of Apple's tables: an instant at its start with every column as an argument
    /// under the column's name for people.
    mutating func addAppleRow(_ cells: [UInt32], table: InstrumentsTable) {
        guard let time = nanoseconds(cells, ["start", "timestamp", "time"], what: "start") else { return }
        if columns["duration"] != nil, nanoseconds(cells, ["duration"], what: "duration") == nil { return }
        let thread = thread(cells, "thread")
        var arguments: [Argument] = []
        var seen: Set<String> = []
        for (column, cell) in cells.enumerated() where column < schema.names.count && cell != 0 {
            let key = schema.names[column].isEmpty ? schema.mnemonics[column] : schema.names[column]
            guard !seen.contains(key) else { continue }
            seen.insert(key)
            if let number = values.number(cell) {
                arguments.append(Argument(key, .int(number)))
            } else if let text = values.text(cell) ?? values.format(cell) {
                arguments.append(Argument(key, .string(text)))
            }
        }
        append(
            TraceEvent(
                phase: .instant, name: trace.symbols.intern(table.eventName),
                category: trace.symbols.intern(table.category),
                thread: thread ?? ThreadKey(processID: 0, threadID: 0), timestamp: time,
                scope: thread == nil ? .global : .process),
            arguments: arguments)
    }

    private mutating func append(_ event: TraceEvent, arguments: [Argument]) {
        var event = event
        let kept = keptKeys.map { keys in arguments.filter { keys.contains($0.key) } } ?? arguments
        if !kept.isEmpty {
            trace.argumentLists.append(kept)
            event.arguments = UInt32(truncatingIfNeeded: trace.argumentLists.count - 1)
        }
        trace.events.append(event)
    }

    // MARK: - Finishing

    mutating func apply(_ toc: InstrumentsTOC) {
        if let duration = toc.durationNanoseconds {
            trace.metadata.extra.append(Argument(InstrumentsImporter.TOCKey.duration, .int(duration)))
        }
        if let device = toc.device {
            trace.metadata.extra.append(Argument(InstrumentsImporter.TOCKey.device, .string(device)))
        }
        if let template = toc.template {
            trace.metadata.extra.append(Argument(InstrumentsImporter.TOCKey.template, .string(template)))
        }
        if let start = toc.startDate {
            trace.metadata.extra.append(Argument(InstrumentsImporter.TOCKey.startDate, .string(start)))
        }
    }

    /// The trace: events in time order (the order each table lists them in otherwise), with a
    /// diagnostic for each table not read.
    mutating func finished() -> Trace {
        trace.metadata.producer = InstrumentsImporter.producer
        for (name, rows) in unusedRows {
            note(.skippedPhase, "Instruments table \(TraceAssembly.quotedName(name)) not used (\(rows) rows)")
        }
        if !trace.events.indices.dropFirst().allSatisfy({ trace.events[$0 - 1].timestamp <= trace.events[$0].timestamp }
        ) {
            let order = trace.events.indices.sorted {
                (trace.events[$0].timestamp, $0) < (trace.events[$1].timestamp, $1)
            }
            trace.events = order.map { trace.events[$0] }
        }
        return trace.finished(keptArgumentKeys: keptKeys)
    }
}
