import FrameJSON
@_spi(FramescopeInternals) import FrameTrace

extension ChromeJSONImporter.Parser {
    // MARK: - Committing one event

    /// Turns the event just read into trace values, by phase.
    ///
    /// Always inlined into its two callers (the sequential and the pipelined loop), as the
    /// optimizer chose to when the phases were hex literals: with `UInt8(ascii:)` patterns its
    /// inlining estimate grew past the limit (before the calls fold to constants) and the call
    /// cost about 0.8% of a read's instructions.
    @inline(__always)
    mutating func commit(_ index: Int) {
        switch event.phase {
        case UInt8(ascii: "X"): commitComplete(index)
        case UInt8(ascii: "B"): commitBegin(index)
        case UInt8(ascii: "E"): commitEnd(index)
        case UInt8(ascii: "i"), UInt8(ascii: "I"): commitInstant(index)
        case UInt8(ascii: "C"): commitCounter(index)
        case UInt8(ascii: "M"): commitMetadata(index)
        case UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "e"): commitAsync(index)
        case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "f"): commitFlow(index)
        case 0: trace.log.add(.invalidEvent, index, "the event has no \"ph\"")
        case ChromeJSONImporter.RawEvent.invalidPhase:
            trace.log.add(.invalidEvent, index, "the event's \"ph\" is not a phase letter")
        default: countSkippedPhase(index)
        }
    }

    private mutating func commitComplete(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        var duration: Int64 = 0
        switch event.duration {
        case .missing: break
        case .invalid:
            trace.log.add(
                .invalidEvent, index,
                "\"dur\" is not a number of microseconds within ±2^60 ns (about 36 years); the event is dropped")
            return
        case .value(let value):
            duration = value
        }
        if duration < 0 {
            report(.negativeDuration, index) { p in "\(p.eventName) has a negative duration; it is read as 0" }
            duration = 0
        }
        duration = min(duration, Int64.max - max(timestamp, 0))
        _ = slot(for: thread)  // complete events may come in any order: the format does not require it
        let slice = TraceEvent(
            phase: .complete, name: symbol(event.name), category: symbol(event.category), thread: thread,
            timestamp: timestamp, duration: duration, arguments: argumentList())
        append(slice, index: index)
        appendBoundFlows(of: slice, index: index)
    }

    /// A `B` becomes a complete event now; its end is found when every event has been read
    /// (``pairBeginsAndEnds()``), since a producer may write its ends out of timestamp order.
    private mutating func commitBegin(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        let slot = noteTimestamp(timestamp, thread: thread, index: index)
        let name = symbol(event.name)
        let slice = TraceEvent(
            phase: .complete, name: name, category: symbol(event.category), thread: thread,
            timestamp: timestamp, arguments: argumentList(shared: false))
        pairing.threadStates[slot].beginsAndEnds.append(
            .init(timestamp: timestamp, inputIndex: index, name: name, isEnd: false, payload: trace.events.count))
        append(slice, index: index)
        appendBoundFlows(of: slice, index: index)
    }

    /// An `E` is remembered with its arguments until the pairing at the end.
    private mutating func commitEnd(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        let slot = noteTimestamp(timestamp, thread: thread, index: index)
        if timestamp > lastTimestamp { lastTimestamp = timestamp }
        let name: Symbol? = if let token = event.name, token.length > 0 { symbol(token) } else { nil }
        countSkippedNestedValues(index)
        let endArguments = argumentValues()
        var payload = -1
        if !endArguments.isEmpty {
            payload = pairing.pendingEndArguments.count
            pairing.pendingEndArguments.append(endArguments)
        }
        pairing.threadStates[slot].beginsAndEnds.append(
            .init(timestamp: timestamp, inputIndex: index, name: name, isEnd: true, payload: payload))
    }

    private mutating func commitInstant(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        _ = slot(for: thread)
        append(
            TraceEvent(
                phase: .instant, name: symbol(event.name), category: symbol(event.category), thread: thread,
                timestamp: timestamp, scope: event.instantScope, arguments: argumentList()),
            index: index)
    }

    private mutating func commitCounter(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        _ = slot(for: thread)
        append(
            TraceEvent(
                phase: .counter, name: symbol(event.name), category: symbol(event.category), thread: thread,
                timestamp: timestamp, id: eventID(thread) ?? 0, arguments: argumentList(numericOnly: true)),
            index: index)
    }

    private mutating func commitAsync(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        guard let id = eventID(thread) else {
            report(.invalidEvent, index) { p in "async event \(p.eventName) has no \"id\" or \"id2\"; it is dropped" }
            return
        }
        let phase: Phase =
            event.phase == UInt8(ascii: "b")
            ? .asyncBegin : event.phase == UInt8(ascii: "e") ? .asyncEnd : .asyncInstant
        _ = slot(for: thread)
        let category = symbol(event.category)
        append(
            TraceEvent(
                phase: phase, name: symbol(event.name), category: category, thread: thread, timestamp: timestamp,
                id: id, arguments: argumentList()),
            index: index)
        let key = ChromeJSONImporter.AsyncKey(category: category, id: id)
        switch phase {
        case .asyncBegin:
            pairing.openAsync[key, default: []].append((index, trace.events.count - 1))
        case .asyncEnd:
            if pairing.openAsync[key]?.popLast() == nil {
                report(.unmatchedAsync, index) { p in "async end \(p.eventName) (id \(p.hex(id))) has no open begin" }
            } else if pairing.openAsync[key]?.isEmpty == true {
                pairing.openAsync[key] = nil
            }
        default:
            break
        }
    }

    private mutating func commitFlow(_ index: Int) {
        guard let thread = thread(index), let timestamp = timestamp(index) else { return }
        guard let id = eventID(thread) else {
            report(.invalidEvent, index) { p in "flow event \(p.eventName) has no \"id\"; it is dropped" }
            return
        }
        let phase: Phase =
            event.phase == UInt8(ascii: "s") ? .flowStart : event.phase == UInt8(ascii: "f") ? .flowEnd : .flowStep
        _ = slot(for: thread)
        append(
            TraceEvent(
                phase: phase, name: symbol(event.name), category: symbol(event.category), thread: thread,
                timestamp: timestamp, id: id, bindingPoint: event.bindingPoint, arguments: argumentList()),
            index: index)
        switch phase {
        case .flowStart: openFlow(id, index: index)
        case .flowEnd: closeFlow(id, index: index)
        default:
            if pairing.openFlows[id] == nil {
                report(.unmatchedFlow, index) { p in "flow step \(p.eventName) (id \(p.hex(id))) has no open flow" }
            }
        }
    }

    /// Flow v2: a slice with `bind_id` and `flow_in`/`flow_out` gets a flow end and/or start bound
    /// to it (binding point: the enclosing slice), right after it.
    private mutating func appendBoundFlows(of slice: TraceEvent, index: Int) {
        guard let raw = event.bindID, event.flowIn || event.flowOut else { return }
        var flow = slice
        flow.duration = 0
        flow.id = raw
        flow.bindingPoint = .enclosing
        flow.arguments = 0
        if event.flowIn {
            flow.phase = .flowEnd
            append(flow, index: index)
            closeFlow(raw, index: index)
        }
        if event.flowOut {
            flow.phase = .flowStart
            append(flow, index: index)
            openFlow(raw, index: index)
        }
    }

    private mutating func openFlow(_ id: UInt64, index: Int) {
        if pairing.openFlows[id] != nil {
            pairing.openFlows[id]!.count += 1
        } else {
            pairing.openFlows[id] = ChromeJSONImporter.OpenFlow(count: 1, firstIndex: index)
        }
    }

    private mutating func closeFlow(_ id: UInt64, index: Int) {
        guard let open = pairing.openFlows[id] else {
            report(.unmatchedFlow, index) { p in "flow end \(p.eventName) (id \(p.hex(id))) has no start" }
            return
        }
        pairing.openFlows[id] =
            open.count > 1 ? ChromeJSONImporter.OpenFlow(count: open.count - 1, firstIndex: open.firstIndex) : nil
    }

    private mutating func commitMetadata(_ index: Int) {
        guard let thread = thread(index) else { return }
        let name = event.name.map { scanner.string($0) } ?? ""
        switch name {
        case "process_name":
            if let value = stringArgument("name") {
                trace.processes[thread.processID, default: TraceProcess(processID: thread.processID)].name = value
            }
        case "process_sort_index":
            if let value = integerArgument("sort_index") {
                trace.processes[thread.processID, default: TraceProcess(processID: thread.processID)].sortIndex = value
            }
        case "thread_name":
            if let value = stringArgument("name") {
                trace.threads[thread, default: TraceThread(key: thread)].name = value
            }
        case "thread_sort_index":
            if let value = integerArgument("sort_index") {
                trace.threads[thread, default: TraceThread(key: thread)].sortIndex = value
            }
        case "framescope":
            if event.argumentsEnd > event.argumentsStart,
                let value = subdocument(from: event.argumentsStart, to: event.argumentsEnd)
            {
                adoptFramescopeMetadata(value)
            }
        default:
            var timestamp: Int64 = 0
            if case .value(let value) = event.timestamp { timestamp = value }
            append(
                TraceEvent(
                    phase: .metadata, name: symbol(event.name), category: symbol(event.category), thread: thread,
                    timestamp: timestamp, arguments: argumentList()),
                index: index, extendsTrace: false)
        }
    }

    private mutating func countSkippedPhase(_ index: Int) {
        if event.phase != ChromeJSONImporter.RawEvent.otherPhase {
            skipped.countPhase(event.phase, index: index)
        } else {
            skipped.countPhase(named: scanner.string(event.phaseToken), index: index)
        }
    }

    // MARK: - Pieces

    /// The event's thread; `nil` (with a diagnostic) when `pid` or `tid` is unusable.
    @inline(__always)
    private mutating func thread(_ index: Int) -> ThreadKey? {
        let processID: Int64
        switch event.processID {
        case .number(let value): processID = value
        case .missing: processID = 0
        case .invalid:
            trace.log.add(.invalidEvent, index, "\"pid\" is not an integer or a string; the event is dropped")
            return nil
        }
        switch event.threadID {
        case .number(let value): return ThreadKey(processID: processID, threadID: value)
        case .missing: return ThreadKey(processID: processID, threadID: processID)
        case .invalid:
            trace.log.add(.invalidEvent, index, "\"tid\" is not an integer or a string; the event is dropped")
            return nil
        }
    }

    /// The event's timestamp; `nil` (with a diagnostic) when it is missing or out of range.
    @inline(__always)
    private mutating func timestamp(_ index: Int) -> Int64? {
        switch event.timestamp {
        case .value(let value): return value
        case .missing: trace.log.add(.invalidEvent, index, "the event has no \"ts\"; it is dropped")
        case .invalid:
            trace.log.add(
                .invalidEvent, index,
                "\"ts\" is not a number of microseconds within ±2^60 ns (about 36 years); the event is dropped")
        }
        return nil
    }

    /// The async or flow id with `id2` and `scope` folded in; `nil` when the event has none.
    ///
    /// A plain or global id is kept as is. A `local` id is combined with the `pid`, and a `scope`
    /// with the id, through a 64-bit mix, so distinct (scope, id) pairs do not collide.
    private func eventID(_ thread: ThreadKey) -> UInt64? {
        var id: UInt64
        var isLocal = false
        if let id2 = event.id2 {
            id = id2
            isLocal = event.id2IsLocal
        } else if let plain = event.id {
            id = plain
        } else {
            return nil
        }
        if isLocal { id = mix(id ^ mix(UInt64(bitPattern: thread.processID) &+ 0x6C6F_6361_6C00)) }
        if let scope = event.scope { id = mix(id ^ scope) }
        return id
    }

    /// The SplitMix64 finalizer.
    private func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Finds the thread's state and counts a begin or end event as out of order if its
    /// timestamp is before the previous begin or end on the same thread.
    ///
    /// Only `B`/`E` are checked: their order on a thread is their nesting, so the reader pairs
    /// them in timestamp order (``pairBeginsAndEnds()``) and says that the file needed it. Complete, instant, counter, async and flow events carry their own
    /// times, and the format does not require them in timestamp order (a streaming writer emits a
    /// span when it ends, after spans that began later), so they are not flagged.
    @inline(__always)
    @discardableResult
    private mutating func noteTimestamp(_ timestamp: Int64, thread: ThreadKey, index: Int) -> Int {
        let slot = self.slot(for: thread)
        if timestamp < pairing.threadStates[slot].lastTimestamp {
            skipped.countOutOfOrder(thread: thread, index: index)
        }
        pairing.threadStates[slot].lastTimestamp = timestamp
        return slot
    }

    /// The thread's index in `threadStates`, made on first sight (``ThreadSlots``).
    @inline(__always)
    mutating func slot(for thread: ThreadKey) -> Int {
        let slot = threadSlots.slot(of: thread)
        if slot == pairing.threadStates.count {
            pairing.threadStates.append(ChromeJSONImporter.ThreadState(thread: thread))
        }
        return slot
    }

    @inline(__always)
    private mutating func append(_ traceEvent: TraceEvent, index: Int, extendsTrace: Bool = true) {
        trace.events.append(traceEvent)
        inputIndexes.append(UInt32(truncatingIfNeeded: index))
        if extendsTrace {
            let end = traceEvent.endTimestamp
            if end > lastTimestamp { lastTimestamp = end }
        }
    }

    /// The symbol for a name or category, made from the bytes only the first time they occur.
    @inline(__always)
    mutating func symbol(_ token: JSONStringToken?) -> Symbol {
        guard let token, token.length > 0 else { return .empty }
        // Names of up to 16 bytes: first a direct-mapped table of recent ones, keyed by the bytes.
        var recent = -1
        var low: UInt64 = 0
        var high: UInt64 = 0
        if token.length <= 16, token.start &+ 16 <= scanner.count {
            (low, high) = shortWords(token)
            recent = Self.recentIndex(low, high, token.length)
            let entry = recentSymbols[recent]
            if entry.length == token.length, entry.low == low, entry.high == high {
                return Symbol(rawValue: entry.value)
            }
        }
        let symbol = internedSymbol(token)
        if recent >= 0 {
            recentSymbols[recent] = ChromeJSONImporter.RecentSymbol(
                low: low, high: high, length: token.length, value: symbol.rawValue)
        }
        return symbol
    }

    /// The symbol for a name through the interner: made from the bytes only the first time.
    @inline(__always)
    private mutating func internedSymbol(_ token: JSONStringToken) -> Symbol {
        let bytes = scanner.rawBytes(token)
        let probe = symbolCache.probe(bytes)
        if let value = probe.value { return Symbol(rawValue: value) }
        let symbol = trace.symbols.intern(scanner.string(token))
        symbolCache.insert(bytes, at: probe, value: symbol.rawValue)
        return symbol
    }

    /// A string for an argument key or value; repeated ones of moderate length share storage.
    @inline(__always)
    private mutating func cachedString(_ token: JSONStringToken) -> String {
        // Up to 15 UTF-8 bytes a String is stored inline, and long unique values would only fill
        // the cache, so only the middle range is interned.
        if token.length <= 15 { return shortString(token) }
        guard !token.hasEscapes, token.length <= 256 else { return scanner.string(token) }
        let bytes = scanner.rawBytes(token)
        let probe = stringCache.probe(bytes)
        if let value = probe.value {
            stringCacheHits &+= 1
            return cachedStrings[Int(value)]
        }
        let string = scanner.string(token)
        // Past 1,024 strings, new ones are kept only while lookups find a cached string at least
        // once per four strings held: values that never repeat (URLs with ids, say) would only
        // copy their bytes into the cache and grow its table. Either way the string is the same.
        guard stringCache.count < 1024 || stringCacheHits >= stringCache.count / 4 else { return string }
        stringCache.insert(bytes, at: probe, value: UInt32(truncatingIfNeeded: cachedStrings.count))
        cachedStrings.append(string)
        return string
    }

    /// A string of at most 15 bytes (stored inline in the String, so sharing saves no memory),
    /// from a small direct-mapped table of recent ones keyed by the bytes themselves: making it
    /// again means validating its UTF-8, which costs several times a table hit.
    @inline(__always)
    private mutating func shortString(_ token: JSONStringToken) -> String {
        guard !token.hasEscapes, token.start &+ 16 <= scanner.count else { return scanner.string(token) }
        let length = token.length
        let (low, high) = shortWords(token)
        let index = Self.recentIndex(low, high, length)
        if shortStrings[index].length == length, shortStrings[index].low == low, shortStrings[index].high == high {
            return shortStrings[index].string
        }
        let string = scanner.string(token)
        shortStrings[index] = ChromeJSONImporter.ShortString(low: low, high: high, length: length, string: string)
        return string
    }

    /// The raw bytes of a string of at most 16 bytes as two little-endian words, zero past its
    /// end. The 16 bytes from its start must be inside the input.
    @inline(__always)
    private func shortWords(_ token: JSONStringToken) -> (UInt64, UInt64) {
        let length = token.length
        let pointer = UnsafeRawPointer(scanner.base + token.start)
        var low = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
        var high = UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if length < 8 {
            low &= (1 &<< UInt64(8 &* length)) &- 1
            high = 0
        } else if length < 16 {
            high &= (1 &<< UInt64(8 &* (length &- 8))) &- 1
        }
        return (low, high)
    }

    /// The entry of a 256-entry table for a short string's words and length.
    @inline(__always)
    private static func recentIndex(_ low: UInt64, _ high: UInt64, _ length: Int) -> Int {
        let mixed = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(length)
        return Int(truncatingIfNeeded: (mixed &* 0xFF51_AFD7_ED55_8CCD) &>> 56)
    }

    /// Stores the event's scalar arguments and returns the list's index (0 for none).
    ///
    /// Events whose `args` text is byte-for-byte the same as a recent one's share its list (a
    /// small direct-mapped cache keyed by the text), so repeated arguments, common in Chrome
    /// traces, cost neither conversion nor memory. Nested values were skipped; they are counted
    /// here, for events that are kept.
    /// - Parameter shared: Whether the list may be shared; `B` lists are not, since an `E` merges
    ///   into them in place.
    mutating func argumentList(numericOnly: Bool = false, shared: Bool = true) -> UInt32 {
        countSkippedNestedValues(eventIndex - 1)
        guard argumentCount > 0, keepsAnyArgument() else { return 0 }
        let length = event.argumentsEnd - event.argumentsStart
        guard shared, length <= ArgumentCache.maximumLength else {
            return store(argumentValues(numericOnly: numericOnly))
        }
        let text = UnsafeBufferPointer(start: scanner.base + event.argumentsStart, count: length)
        let hash = JSONStringInterner.hash(text) ^ (numericOnly ? 0x5555_5555_5555_5555 : 0)
        if let index = argumentCache.index(for: text, hash: hash) { return index }
        let index = store(argumentValues(numericOnly: numericOnly))
        argumentCache.remember(text, hash: hash, index: index)
        return index
    }

    /// Appends a list to the trace's argument lists and returns its index (0 for an empty one).
    mutating func store(_ list: consuming [Argument]) -> UInt32 {
        guard !list.isEmpty else { return 0 }
        trace.argumentLists.append(list)
        return UInt32(truncatingIfNeeded: trace.argumentLists.count - 1)
    }

    /// The event's scalar arguments as values.
    private mutating func argumentValues(numericOnly: Bool = false) -> [Argument] {
        var list: [Argument] = []
        guard argumentCount > 0 else { return list }
        // A selection usually keeps a few of an event's arguments, so only a whole list is
        // reserved up front.
        if argumentKeys == nil { list.reserveCapacity(argumentCount) }
        for argument in arguments[..<argumentCount] where isKept(argument) {
            let value: JSONValue
            switch argument.kind {
            case .number: value = argument.number.argumentValue(in: scanner)
            case .string where !numericOnly: value = .string(cachedString(argument.string))
            case .bool where !numericOnly: value = .bool(argument.bool)
            case .null where !numericOnly: value = .null
            case .nested where !numericOnly:
                // Parsed only here, for a key the selection keeps.
                // The tokenizer checked the text and its depth: it parses.
                guard let parsed = subdocument(from: argument.string.start, to: argument.string.end) else { continue }
                value = parsed
            default: continue
            }
            if let prefix = argument.prefix {
                list.append(Argument(cachedString(prefix) + "." + cachedString(argument.key), value))
            } else {
                list.append(Argument(cachedString(argument.key), value))
            }
        }
        return list
    }

    /// Counts the event's nested values too deep to keep, for the
    /// ``FrameTrace/TraceDiagnostic/Kind/skippedArgument`` summary.
    private mutating func countSkippedNestedValues(_ index: Int) {
        guard event.nestedArguments > 0 else { return }
        skipped.countNestedArguments(event.nestedArguments, index: index)
    }

    private func stringArgument(_ key: String) -> String? {
        for argument in arguments[..<argumentCount].reversed()
        where argument.kind == .string && argument.prefix == nil && scanner.string(argument.key) == key {
            return scanner.string(argument.string)
        }
        return nil
    }

    private func integerArgument(_ key: String) -> Int64? {
        for argument in arguments[..<argumentCount].reversed()
        where argument.kind == .number && argument.prefix == nil && scanner.string(argument.key) == key {
            return argument.number.scaledInteger(shift: 0, rounding: .towardZero)
        }
        return nil
    }

    /// The event's name for a diagnostic message: quoted, shortened, or `(unnamed)`.
    var eventName: String {
        guard let name = event.name, name.length > 0 else { return "(unnamed)" }
        return quoted(scanner.string(name))
    }

    /// A name quoted for a diagnostic message, shortened past 80 characters.
    func quoted(_ name: String) -> String { TraceAssembly.quotedName(name) }

    func hex(_ id: UInt64) -> String { "0x" + String(id, radix: 16) }

    func saturatingDifference(_ a: Int64, _ b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return difference }
        return a > b ? .max : .min
    }
}

extension ChromeJSONImporter.Parser {
    /// Adds a diagnostic, making its message (from the parser's state) only if it will be listed.
    mutating func report(_ kind: TraceDiagnostic.Kind, _ eventIndex: Int?, _ message: (borrowing Self) -> String) {
        let text = trace.log.lists(kind) ? message(self) : ""
        trace.log.add(kind, eventIndex, text)
    }
}
