import FrameJSON
@_spi(FramescopeInternals) import FrameTrace

/// Stage three of reading a Perfetto trace, event building: a packet's TrackEvent (or atrace
/// line, `+Android`) becomes trace events, with its argument list from its debug annotations,
/// its flow ids and its track's lane (``Pairing``); events on tracks not yet described wait.
extension PerfettoParser {
    /// The event builder's state.
    struct EventBuilding {
        /// The argument keys the read keeps; `nil` for every key.
        let argumentKeys: ArgumentKeyMatcher?
        /// The `outer` of each kept `outer.inner` key: an annotation so named is a dictionary whose
        /// members may be kept.
        let keptPrefixes: Set<String>
        /// Per annotation name symbol: 0 not decided yet, 1 kept (or may be), 2 skipped.
        var keptAnnotationNames: [UInt8] = []
        /// Recent events' annotation bytes and their argument lists
        /// (``PerfettoParser/annotationList(_:slot:frameReporter:)``).
        var argumentCache = ArgumentCache()
        /// How many annotation values or fields were skipped and counted: an event whose annotations
        /// skip any is not shared, so that each event's skips count.
        var annotationSkips = 0
        /// Flow ids of the events read, as ranges of ``PendingEvent/flows``: no array per event.
        var flowArena: [(id: UInt64, terminating: Bool)] = []
        /// Track events on tracks not described when they were read, placed once every descriptor is.
        var deferred: [PendingEvent] = []
        /// The latest event time read, where slices never closed end.
        var lastTimestamp: Int64 = 0

        init(arguments: TraceReader.ArgumentSelection) {
            argumentKeys = arguments.keys.map { ArgumentKeyMatcher($0) }
            keptPrefixes = Set(
                (arguments.keys ?? []).compactMap { key in key.firstIndex(of: ".").map { String(key[..<$0]) } })
        }
    }

    // MARK: - TrackEvent

    /// Reads repeated integers, packed or not.
    private mutating func appendRepeated(
        _ type: ProtobufInput.WireType, _ input: inout ProtobufInput, to values: inout [UInt64], fixed: Bool
    ) throws(TraceReadError) {
        if type == .lengthDelimited {
            var packed = try input.message()
            while !packed.isAtEnd { values.append(fixed ? try packed.fixed64() : try packed.varint()) }
        } else if let value = try input.integer(type) {
            values.append(value)
        }
    }

    /// The fields of a TrackEvent that the general reader uses, as read
    /// (``PerfettoParser/readTrackEventFields(_:)``): strings and messages as byte ranges.
    struct TrackEventFields {
        var type: UInt64 = 0
        var nameIID: UInt64?
        var nameString: Range<Int>?
        var categoryIIDs: [UInt64] = []
        var categoryStrings: [Range<Int>] = []
        var trackUUID: UInt64?
        var counter: JSONValue?
        var flowIDs: [UInt64] = []
        var terminatingIDs: [UInt64] = []
        /// From the first annotation's key to the end of the last.
        var annotations: Range<Int>?
        var frameReporter: Range<Int>?
        var legacy: Range<Int>?
        var absoluteMicroseconds: Int64?
        var extraTracks: [UInt64] = []
        var extraValues: [UInt64] = []
        var extraDoubleTracks: [UInt64] = []
        var extraDoubleValues: [UInt64] = []
    }

    mutating func parseTrackEvent(_ input: ProtobufInput, timestamp: UInt64?, sequence: UInt64, slot: Int, offset: Int)
        throws(TraceReadError)
    {
        var event = try readTrackEventFields(input)
        guard let time = checkedTime(Self.eventTime(event, packetTime: timestamp), offset: offset) else { return }
        var uuid = event.trackUUID ?? interning.sequences[slot].defaultTrack
        var legacyThread = interning.sequences[slot].legacyThread
        // Chrome's legacy events (TrackEvent.legacy_event, type unspecified): the JSON phase and
        // what goes with it, mapped to the typed events below or to async pairs by id.
        var legacyEvent: LegacyEvent?
        if event.type == 0, let legacy = event.legacy {
            legacyEvent = try readLegacyEvent(
                input.input(over: legacy), into: &event, uuid: &uuid, legacyThread: &legacyThread)
            guard legacyEvent != nil else { return }
        }
        appendExtraCounters(event, timestamp: time, offset: offset)
        switch event.type {
        case PerfettoSchema.Event.counter:
            guard let counter = event.counter, let uuid else { return }
            appendCounter(counter, uuid: uuid, timestamp: time, offset: offset)
            return
        case PerfettoSchema.Event.sliceEnd:
            appendSliceEnd(uuid: uuid, legacyThread: legacyThread, timestamp: time, offset: offset)
            return
        case PerfettoSchema.Event.sliceBegin, PerfettoSchema.Event.instant:
            break
        case 0 where legacyEvent != nil:
            break  // an async legacy event: placed by id below
        default:
            skipped.skippedFields["TrackEvent of type \(event.type)", default: 0] += 1
            return
        }
        let name = eventName(event, input, slot: slot, sequence: sequence, offset: offset)
        let category = eventCategory(event, input, slot: slot, sequence: sequence, offset: offset)
        let flows = appendFlows(event)
        if let legacyEvent, event.type == 0 {
            try appendLegacyAsync(
                legacyEvent, event, name: name, category: category,
                thread: owner(legacyThread: legacyThread, uuid: uuid),
                timestamp: time, slot: slot)
            return
        }
        let arguments = try annotationList(event.annotations, slot: slot, frameReporter: event.frameReporter)
        appendToTrack(
            uuid: uuid, legacyThread: legacyThread,
            PendingEvent(
                uuid: uuid ?? 0, type: event.type, timestamp: time, name: name, category: category,
                arguments: arguments, flows: flows, counter: nil, offset: offset))
        if let legacyEvent, legacyEvent.phase == "X" {
            let end = Self.completeEnd(start: time, durationMicroseconds: legacyEvent.durationMicroseconds)
            appendSliceEnd(uuid: uuid, legacyThread: legacyThread, timestamp: end, offset: offset)
        }
    }

    /// A slice's end on its track (or its legacy thread's lane).
    private mutating func appendSliceEnd(uuid: UInt64?, legacyThread: ThreadKey?, timestamp: Int64, offset: Int) {
        appendToTrack(
            uuid: uuid, legacyThread: legacyThread,
            PendingEvent(
                uuid: uuid ?? 0, type: PerfettoSchema.Event.sliceEnd, timestamp: timestamp, name: .empty,
                category: .empty, arguments: 0, flows: 0..<0, counter: nil, offset: offset))
    }

    /// Reads a TrackEvent's fields; those the reader does not use are skipped and counted.
    private mutating func readTrackEventFields(_ input: ProtobufInput) throws(TraceReadError) -> TrackEventFields {
        var input = input
        var event = TrackEventFields()
        while true {
            let fieldStart = input.position
            guard let (field, wireType) = try input.nextField() else { break }
            switch (field, wireType) {
            case (PerfettoSchema.Event.type, .varint): event.type = try input.varint()
            case (PerfettoSchema.Event.nameIID, .varint): event.nameIID = try input.varint()
            case (PerfettoSchema.Event.name, .lengthDelimited): event.nameString = try input.lengthDelimited()
            case (PerfettoSchema.Event.categoryIIDs, _):
                try appendRepeated(wireType, &input, to: &event.categoryIIDs, fixed: false)
            case (PerfettoSchema.Event.categories, .lengthDelimited):
                event.categoryStrings.append(try input.lengthDelimited())
            case (PerfettoSchema.Event.trackUUID, .varint): event.trackUUID = try input.varint()
            case (PerfettoSchema.Event.counterValue, .varint):
                event.counter = .int(Int64(bitPattern: try input.varint()))
            case (PerfettoSchema.Event.doubleCounterValue, .fixed64):
                event.counter = .double(Double(bitPattern: try input.fixed64()))
            case (PerfettoSchema.Event.flowIDs, _), (PerfettoSchema.Event.flowIDsOld, _):
                try appendRepeated(wireType, &input, to: &event.flowIDs, fixed: field == PerfettoSchema.Event.flowIDs)
            case (PerfettoSchema.Event.terminatingFlowIDs, _), (PerfettoSchema.Event.terminatingFlowIDsOld, _):
                try appendRepeated(
                    wireType, &input, to: &event.terminatingIDs,
                    fixed: field == PerfettoSchema.Event.terminatingFlowIDs)
            case (PerfettoSchema.Event.debugAnnotations, .lengthDelimited):
                _ = try input.lengthDelimited()
                event.annotations = (event.annotations?.lowerBound ?? fieldStart)..<input.position
            case (PerfettoSchema.Event.chromeFrameReporter, .lengthDelimited):
                event.frameReporter = try input.lengthDelimited()
            case (PerfettoSchema.Event.legacyEvent, .lengthDelimited): event.legacy = try input.lengthDelimited()
            case (PerfettoSchema.Event.timestampAbsoluteMicroseconds, .varint):
                event.absoluteMicroseconds = Int64(bitPattern: try input.varint())
            default:
                try readExtraCounterField(field, wireType, &input, into: &event)
            }
        }
        return event
    }

    /// Reads a field of the extra counter values an event carries, or skips and counts another.
    private mutating func readExtraCounterField(
        _ field: Int, _ wireType: ProtobufInput.WireType, _ input: inout ProtobufInput,
        into event: inout TrackEventFields
    ) throws(TraceReadError) {
        switch field {
        case PerfettoSchema.Event.extraCounterTrackUUIDs:
            try appendRepeated(wireType, &input, to: &event.extraTracks, fixed: false)
        case PerfettoSchema.Event.extraCounterValues:
            try appendRepeated(wireType, &input, to: &event.extraValues, fixed: false)
        case PerfettoSchema.Event.extraDoubleCounterTrackUUIDs:
            try appendRepeated(wireType, &input, to: &event.extraDoubleTracks, fixed: false)
        case PerfettoSchema.Event.extraDoubleCounterValues:
            try appendRepeated(wireType, &input, to: &event.extraDoubleValues, fixed: true)
        default:
            try input.skip(wireType)
            skipped.skippedFields["TrackEvent field \(field)", default: 0] += 1
        }
    }

    /// An event's time: its packet's, else its own absolute microseconds (unchecked).
    @inline(__always)
    private static func eventTime(_ event: TrackEventFields, packetTime: UInt64?) -> UInt64? {
        guard packetTime == nil, let absoluteMicroseconds = event.absoluteMicroseconds else { return packetTime }
        let (nanoseconds, overflow) = absoluteMicroseconds.multipliedReportingOverflow(by: 1000)
        return overflow || nanoseconds < 0 ? UInt64.max : UInt64(nanoseconds)
    }

    /// Reads a legacy event and maps its phase to the event's type (left 0 for an async event,
    /// placed by id); its thread overrides replace the event's track. `nil` (skipped and
    /// counted) for a phase the reader does not take.
    private mutating func readLegacyEvent(
        _ input: ProtobufInput, into event: inout TrackEventFields, uuid: inout UInt64?, legacyThread: inout ThreadKey?
    ) throws(TraceReadError) -> LegacyEvent? {
        let parsed = try parseLegacyEvent(input)
        if let override = parsed.threadOverride(default: owner(legacyThread: legacyThread, uuid: uuid)) {
            uuid = nil
            legacyThread = override
        }
        switch parsed.phase {
        case "B": event.type = PerfettoSchema.Event.sliceBegin
        case "E": event.type = PerfettoSchema.Event.sliceEnd
        case "X": event.type = PerfettoSchema.Event.sliceBegin
        case "I", "i", "R": event.type = PerfettoSchema.Event.instant
        case "n" where parsed.id == nil: event.type = PerfettoSchema.Event.instant
        case "b", "e", "n", "S", "F":
            guard parsed.id != nil else {
                skipped.skippedFields["legacy event of phase \(parsed.phaseText) without an id", default: 0] += 1
                return nil
            }
        default:
            skipped.skippedFields["legacy event of phase \(parsed.phaseText)", default: 0] += 1
            return nil
        }
        if event.nameIID == nil, event.nameString == nil { event.nameIID = parsed.nameIID }
        return parsed
    }

    /// The counter values an event carries for other tracks, each a counter event at its time.
    @inline(__always)
    private mutating func appendExtraCounters(_ event: TrackEventFields, timestamp: Int64, offset: Int) {
        for (position, track) in event.extraTracks.enumerated() where position < event.extraValues.count {
            appendCounter(
                .int(Int64(bitPattern: event.extraValues[position])), uuid: track, timestamp: timestamp, offset: offset)
        }
        for (position, track) in event.extraDoubleTracks.enumerated() where position < event.extraDoubleValues.count {
            appendCounter(
                .double(Double(bitPattern: event.extraDoubleValues[position])), uuid: track, timestamp: timestamp,
                offset: offset)
        }
    }

    /// An event's name: its string, else its interned name (a placeholder, logged, for an iid
    /// its sequence never defined), else the empty name.
    @inline(__always)
    private mutating func eventName(
        _ event: TrackEventFields, _ input: ProtobufInput, slot: Int, sequence: UInt64, offset: Int
    ) -> Symbol {
        if let nameString = event.nameString { return trace.symbols.intern(input.string(nameString)) }
        return internedName(event.nameIID, slot: slot, sequence: sequence, offset: offset)
    }

    /// An event's category: its categories' names (strings, then interned ones) joined by
    /// commas, or the empty category.
    @inline(__always)
    private mutating func eventCategory(
        _ event: TrackEventFields, _ input: ProtobufInput, slot: Int, sequence: UInt64, offset: Int
    ) -> Symbol {
        if event.categoryIIDs.count == 1, event.categoryStrings.isEmpty,
            let raw = interning.sequences[slot].categories[event.categoryIIDs[0]]
        {
            return Symbol(rawValue: raw)  // the common case: one interned category, no string made
        }
        guard !event.categoryIIDs.isEmpty || !event.categoryStrings.isEmpty else { return .empty }
        var parts: [String] = event.categoryStrings.map { input.string($0) }
        for iid in event.categoryIIDs {
            if let raw = interning.sequences[slot].categories[iid] {
                parts.append(trace.symbols[Symbol(rawValue: raw)])
            } else {
                parts.append("(undefined category iid \(iid))")
                trace.log.add(
                    .invalidEvent, nil,
                    "packet at byte \(offset): category iid \(iid) is never defined on sequence \(sequence)")
            }
        }
        return trace.symbols.intern(parts.joined(separator: ","))
    }

    /// Adds an event's flow ids (then its terminating ones) to the arena; returns their range.
    @inline(__always)
    private mutating func appendFlows(_ event: TrackEventFields) -> Range<Int> {
        let flowStart = building.flowArena.count
        for id in event.flowIDs { building.flowArena.append((id, false)) }
        for id in event.terminatingIDs { building.flowArena.append((id, true)) }
        return flowStart..<building.flowArena.count
    }

    /// A legacy async event, by id, in the thread's process, as Chrome's JSON writes it; skipped
    /// and counted on no known thread.
    private mutating func appendLegacyAsync(
        _ legacyEvent: LegacyEvent, _ event: TrackEventFields, name: Symbol, category: Symbol, thread: ThreadKey?,
        timestamp: Int64, slot: Int
    ) throws(TraceReadError) {
        guard let owner = thread, let id = legacyEvent.id else {
            skipped.skippedFields["legacy async event on no known thread", default: 0] += 1
            return
        }
        let phase: Phase =
            switch legacyEvent.phase {
            case "b", "S": .asyncBegin
            case "e", "F": .asyncEnd
            default: .asyncInstant
            }
        trace.events.append(
            TraceEvent(
                phase: phase, name: name, category: category, thread: owner, timestamp: timestamp, id: id,
                arguments: phase == .asyncEnd
                    ? 0 : try annotationList(event.annotations, slot: slot, frameReporter: event.frameReporter)))
    }

    /// A legacy complete event's end, `duration_us` after its start: a negative duration is
    /// none, and one that runs past the time limit ends at the limit.
    private static func completeEnd(start: Int64, durationMicroseconds: Int64) -> Int64 {
        let (duration, overflow) = max(0, durationMicroseconds).multipliedReportingOverflow(by: 1000)
        let (sum, sumOverflow) = start.addingReportingOverflow(duration)
        let end = overflow || sumOverflow ? TraceEvent.timeLimitNanoseconds : min(TraceEvent.timeLimitNanoseconds, sum)
        return max(start, end)
    }

    /// The thread a legacy event belongs to: its sequence's thread descriptor, else its track's.
    private mutating func owner(legacyThread: ThreadKey?, uuid: UInt64?) -> ThreadKey? {
        legacyThread ?? uuid.flatMap { self.lane(forUUID: $0) }.map { pairing.lanes[$0].owner }
    }

    /// The fields of a `TrackEvent.LegacyEvent` the reader uses.
    struct LegacyEvent {
        var phase: Character = "?"
        var phaseText: String = "?"
        var nameIID: UInt64?
        var durationMicroseconds: Int64 = 0
        var id: UInt64?
        var processOverride: Int64?
        var threadOverride: Int64?

        /// The thread `pid_override`/`tid_override` name, when either is set: the override over
        /// `default`'s process and thread.
        func threadOverride(default key: ThreadKey?) -> ThreadKey? {
            guard processOverride != nil || threadOverride != nil else { return nil }
            return ThreadKey(
                processID: processOverride ?? key?.processID ?? 0, threadID: threadOverride ?? key?.threadID ?? 0)
        }
    }

    /// Reads a `LegacyEvent`: its phase (a character code, as in Chrome's JSON), duration, id
    /// (unscoped, local or global, whichever is set) and thread overrides.
    func parseLegacyEvent(_ input: ProtobufInput) throws(TraceReadError) -> LegacyEvent {
        var input = input
        var event = LegacyEvent()
        while let (field, wireType) = try input.nextField() {
            switch (field, wireType) {
            case (PerfettoSchema.LegacyEvent.nameIID, .varint): event.nameIID = try input.varint()
            case (PerfettoSchema.LegacyEvent.phase, .varint):
                let code = Int32(truncatingIfNeeded: try input.varint())
                if (0x21...0x7E).contains(code), let scalar = Unicode.Scalar(UInt32(code)) {
                    event.phase = Character(scalar)
                    event.phaseText = "'\(event.phase)'"
                } else {
                    event.phaseText = "\(code)"
                }
            case (PerfettoSchema.LegacyEvent.durationMicroseconds, .varint):
                event.durationMicroseconds = Int64(bitPattern: try input.varint())
            case (PerfettoSchema.LegacyEvent.unscopedID, .varint), (PerfettoSchema.LegacyEvent.localID, .varint),
                (PerfettoSchema.LegacyEvent.globalID, .varint):
                event.id = try input.varint()
            case (PerfettoSchema.LegacyEvent.pidOverride, .varint):
                event.processOverride = Int64(Int32(truncatingIfNeeded: try input.varint()))
            case (PerfettoSchema.LegacyEvent.tidOverride, .varint):
                event.threadOverride = Int64(Int32(truncatingIfNeeded: try input.varint()))
            default: try input.skip(wireType)
            }
        }
        return event
    }

    mutating func addArguments(_ arguments: consuming [Argument]) -> UInt32 {
        guard !arguments.isEmpty else { return 0 }
        trace.argumentLists.append(arguments)
        return UInt32(trace.argumentLists.count - 1)
    }

    /// The argument list of an event: the debug annotations in `span` of its TrackEvent (from
    /// the first annotation's key to the end of the last; other fields between them are stepped
    /// over), then Chrome's frame reporter's fields. Returns the list's index (0 for none).
    ///
    /// Events whose annotation bytes are the same as a recent event's, on the same version of
    /// their sequence's interned strings, share its list (as the JSON reader shares lists of the
    /// same `args` text): most events repeat their arguments, and then cost neither decoding nor
    /// memory. A list whose reading skipped and counted something is not shared, so the counts
    /// stay per event.
    ///
    /// Inlined for the lists that keep nothing: no annotations, or (reading only some keys, where
    /// most lists keep nothing) annotations whose names alone say each is skipped, decided before
    /// any hashing or decoding and without the general reading's large frame
    /// (``readAnnotationList(_:slot:frameReporter:)``).
    @inline(__always)
    mutating func annotationList(_ span: Range<Int>?, slot: Int, frameReporter: Range<Int>? = nil)
        throws(TraceReadError) -> UInt32
    {
        if let span {
            if frameReporter == nil, building.argumentKeys != nil, skipsEveryAnnotation(in: span, slot: slot) {
                return 0
            }
        } else if frameReporter == nil {
            return 0
        }
        return try readAnnotationList(span, slot: slot, frameReporter: frameReporter)
    }

    /// ``annotationList(_:slot:frameReporter:)`` for a list that may keep something.
    @inline(never)
    private mutating func readAnnotationList(_ span: Range<Int>?, slot: Int, frameReporter: Range<Int>?)
        throws(TraceReadError) -> UInt32
    {
        guard let span else {
            guard let frameReporter else { return 0 }
            var arguments: [Argument] = []
            try appendFrameReporter(ProtobufInput(buffer).input(over: frameReporter), to: &arguments)
            return addArguments(arguments)
        }
        let text = UnsafeBufferPointer(rebasing: buffer[span])
        let shares = frameReporter == nil && span.count <= ArgumentCache.maximumLength
        let tag = interning.sequences[slot].generation
        var hash: UInt64 = 0
        if shares {
            hash = JSONStringInterner.hash(text)
            if let index = building.argumentCache.index(for: text, hash: hash, tag: tag) { return index }
        }
        let skipsBefore = building.annotationSkips
        var arguments: [Argument] = []
        var input = ProtobufInput(buffer).input(over: span)
        while let (field, type) = try input.nextField() {
            guard field == PerfettoSchema.Event.debugAnnotations, type == .lengthDelimited else {
                try input.skip(type)
                continue
            }
            try appendAnnotation(input.input(over: try input.lengthDelimited()), slot: slot, to: &arguments)
        }
        if let frameReporter { try appendFrameReporter(input.input(over: frameReporter), to: &arguments) }
        let index = addArguments(consume arguments)
        if shares, building.annotationSkips == skipsBefore {
            building.argumentCache.remember(text, hash: hash, index: index, tag: tag)
        }
        return index
    }

    /// Whether every debug annotation in `span` is one ``appendAnnotation(_:slot:to:)`` already
    /// decided to skip by its interned name (``keptAnnotationNames``), so the list is empty. It
    /// reads raw bytes and answers `false` for anything else (another field between them, a name
    /// not interned or not decided yet, a malformed byte): the general reading then reads the
    /// list, decides and reports as it always does.
    ///
    /// `mutating` though it changes nothing: a non-mutating method called from a mutating one
    /// is handed a copy of the whole parser (a memcpy and a retain and release of every table).
    private mutating func skipsEveryAnnotation(in span: Range<Int>, slot: Int) -> Bool {
        let decoder = CommonPacketDecoder(buffer: buffer)
        let annotationKey = UInt8(PerfettoSchema.Event.debugAnnotations << 3 | 2)
        let nameKey = UInt8(PerfettoSchema.Annotation.nameIID << 3)
        var position = span.lowerBound
        let end = span.upperBound
        while position < end {
            guard buffer[position] == annotationKey else { return false }
            position += 1
            guard let length = decoder.rawVarint(&position, end), length <= UInt64(end - position) else { return false }
            let annotationEnd = position + Int(length)
            guard position < annotationEnd, buffer[position] == nameKey else { return false }
            position += 1
            guard let iid = decoder.rawVarint(&position, annotationEnd),
                let raw = interning.sequences[slot].annotationNames[iid], Int(raw) < building.keptAnnotationNames.count,
                building.keptAnnotationNames[Int(raw)] == 2
            else { return false }
            position = annotationEnd
        }
        return true
    }

    /// Whether the read keeps an argument of this key (every key unless reading only some).
    /// `mutating` though it changes nothing, for the reason ``skipsEveryAnnotation(in:slot:)`` is.
    mutating func keeps(_ key: String) -> Bool { building.argumentKeys?.matches(key) ?? true }

    /// A debug annotation as arguments: a dictionary's members as `name.member`, as the JSON
    /// reader flattens an object one level.
    mutating func appendAnnotation(_ input: ProtobufInput, slot: Int, to arguments: inout [Argument])
        throws(TraceReadError)
    {
        // Reading only some keys (framescope report), an annotation whose name no kept key is
        // or begins with is skipped before its value is decoded: most are.
        if let matcher = building.argumentKeys, !(try annotationMayBeKept(input, slot: slot, matcher: matcher)) {
            return
        }
        var input = input
        let (name, value) = try annotation(&input, slot: slot, depth: 1)
        let key = name ?? ""
        guard let value else { return }
        if case .object(let members) = value, !members.isEmpty {
            for (member, memberValue) in members where keeps(key + "." + member) {
                arguments.append(Argument(key + "." + member, memberValue))
            }
        } else if keeps(key) {
            arguments.append(Argument(key, value))
        }
    }

    /// Whether an annotation's name is a kept key or the `outer` of a kept `outer.inner`, from
    /// its name alone; decided once per interned name.
    private mutating func annotationMayBeKept(_ input: ProtobufInput, slot: Int, matcher: ArgumentKeyMatcher)
        throws(TraceReadError) -> Bool
    {
        var input = input
        while let (field, type) = try input.nextField() {
            if field == PerfettoSchema.Annotation.nameIID, type == .varint {
                guard let raw = interning.sequences[slot].annotationNames[try input.varint()] else { return true }
                let index = Int(raw)
                if index >= building.keptAnnotationNames.count {
                    building.keptAnnotationNames += repeatElement(
                        0, count: index - building.keptAnnotationNames.count + 1)
                }
                if building.keptAnnotationNames[index] == 0 {
                    let name = trace.symbols[Symbol(rawValue: raw)]
                    building.keptAnnotationNames[index] =
                        matcher.matches(name) || building.keptPrefixes.contains(name) ? 1 : 2
                }
                return building.keptAnnotationNames[index] == 1
            }
            if field == PerfettoSchema.Annotation.name, type == .lengthDelimited {
                let name = try input.string()
                return matcher.matches(name) || building.keptPrefixes.contains(name)
            }
            try input.skip(type)
        }
        return true
    }

    /// One annotation's name and value; nesting past the kept depth is skipped and counted.
    private mutating func annotation(_ input: inout ProtobufInput, slot: Int, depth: Int) throws(TraceReadError) -> (
        String?, JSONValue?
    ) {
        var name: String?
        var value: JSONValue?
        var dictionary: [(String, JSONValue)]?
        var array: [JSONValue]?
        while let (field, type) = try input.nextField() {
            switch (field, type) {
            case (PerfettoSchema.Annotation.nameIID, .varint):
                let iid = try input.varint()
                name =
                    interning.sequences[slot].annotationNames[iid].map { trace.symbols[Symbol(rawValue: $0)] }
                    ?? "(undefined annotation name iid \(iid))"
            case (PerfettoSchema.Annotation.name, .lengthDelimited): name = try input.string()
            case (PerfettoSchema.Annotation.boolValue, .varint): value = .bool(try input.varint() != 0)
            case (PerfettoSchema.Annotation.uintValue, .varint):
                let unsigned = try input.varint()
                value = unsigned <= UInt64(Int64.max) ? .int(Int64(unsigned)) : .double(Double(unsigned))
            case (PerfettoSchema.Annotation.intValue, .varint): value = .int(Int64(bitPattern: try input.varint()))
            case (PerfettoSchema.Annotation.doubleValue, .fixed64):
                value = .double(Double(bitPattern: try input.fixed64()))
            case (PerfettoSchema.Annotation.stringValue, .lengthDelimited): value = .string(try input.string())
            case (PerfettoSchema.Annotation.stringValueIID, .varint):
                let iid = try input.varint()
                value = .string(
                    interning.sequences[slot].stringValues[iid].map { trace.symbols[Symbol(rawValue: $0)] }
                        ?? "(undefined string iid \(iid))")
            case (PerfettoSchema.Annotation.pointerValue, .varint):
                value = .string("0x" + String(try input.varint(), radix: 16))
            case (PerfettoSchema.Annotation.legacyJSONValue, .lengthDelimited):
                value = Self.legacyJSONValue(try input.lengthDelimited(), in: input)
            case (PerfettoSchema.Annotation.dictEntries, .lengthDelimited),
                (PerfettoSchema.Annotation.arrayValues, .lengthDelimited):
                guard depth < TraceReader.keptNestingDepth else {
                    _ = try input.lengthDelimited()
                    skipped.skippedArguments += 1
                    building.annotationSkips += 1
                    continue
                }
                var nested = try input.message()
                let (memberName, memberValue) = try annotation(&nested, slot: slot, depth: depth + 1)
                if field == PerfettoSchema.Annotation.dictEntries {
                    if let memberValue { dictionary = (dictionary ?? []) + [(memberName ?? "", memberValue)] }
                } else if let memberValue {
                    array = (array ?? []) + [memberValue]
                }
            default:
                try input.skip(type)
                skipped.skippedFields["DebugAnnotation field \(field)", default: 0] += 1
                building.annotationSkips += 1
            }
        }
        if let dictionary { value = .object(dictionary) }
        if let array { value = .array(array) }
        return (name, value)
    }

    /// A legacy JSON annotation value: the JSON value its text holds, else the text as a string.
    private static func legacyJSONValue(_ range: Range<Int>, in input: ProtobufInput) -> JSONValue {
        let bytes = UnsafeBufferPointer(rebasing: input.buffer[range])
        return (try? JSONValue.parse(bytes, maxDepth: TraceReader.keptNestingDepth)) ?? .string(input.string(range))
    }

    /// Chrome's typed `chrome_frame_reporter` as the arguments Chrome's JSON gives it.
    private mutating func appendFrameReporter(_ input: ProtobufInput, to arguments: inout [Argument])
        throws(TraceReadError)
    {
        var input = input
        let prefix = "chrome_frame_reporter."
        while let (field, type) = try input.nextField() {
            guard type == .varint else {
                try input.skip(type)
                continue
            }
            let raw = try input.varint()
            let argument: Argument
            switch field {
            case PerfettoSchema.FrameReporter.state:
                let states = PerfettoSchema.FrameReporter.states
                argument = Argument(
                    prefix + "state", .string(raw < UInt64(states.count) ? states[Int(raw)] : "STATE_\(raw)"))
            case PerfettoSchema.FrameReporter.frameType:
                let types = PerfettoSchema.FrameReporter.frameTypes
                argument = Argument(
                    prefix + "frame_type", .string(raw < UInt64(types.count) ? types[Int(raw)] : "\(raw)"))
            case PerfettoSchema.FrameReporter.frameSequence:
                argument = Argument(prefix + "frame_sequence", .int(Int64(bitPattern: raw)))
            case PerfettoSchema.FrameReporter.layerTreeHostID:
                argument = Argument(prefix + "layer_tree_host_id", .int(Int64(bitPattern: raw)))
            case PerfettoSchema.FrameReporter.affectsSmoothness:
                argument = Argument(prefix + "affects_smoothness", .bool(raw != 0))
            default: continue
            }
            if keeps(argument.key) { arguments.append(argument) }
        }
    }

    // MARK: - Tracks to events

    /// The lane of a described track, made on first use; `nil` while the track is undescribed.
    @inline(__always)
    mutating func lane(forUUID uuid: UInt64) -> Int? {
        pairing.lastLane.uuid == uuid ? pairing.lastLane.lane : lookUpLane(forUUID: uuid)
    }

    /// ``lane(forUUID:)`` for a track other than the last one's.
    @inline(never)
    private mutating func lookUpLane(forUUID uuid: UInt64) -> Int? {
        if let lane = pairing.laneByUUID[uuid] {
            pairing.lastLane = (uuid, lane)
            return lane
        }
        guard let track = interning.tracks[uuid] else { return nil }
        let lane: SliceLane
        switch track {
        case .thread(let key): lane = SliceLane(thread: key, owner: key)
        case .process(let pid): lane = SliceLane(thread: nil, owner: ThreadKey(processID: pid, threadID: 0))
        case .other(_, let parent?) where isThreadTrack(parent):
            // A thread's child track holds that thread's work that does not nest with the rest
            // (framescope writes partially overlapping spans there): spans of the thread.
            let key = owner(of: parent)
            lane = SliceLane(thread: key, owner: key)
        case .counter(_, let parent), .other(_, let parent): lane = SliceLane(thread: nil, owner: owner(of: parent))
        }
        pairing.lanes.append(lane)
        pairing.laneByUUID[uuid] = pairing.lanes.count - 1
        pairing.lastLane = (uuid, pairing.lanes.count - 1)
        return pairing.lanes.count - 1
    }

    func isThreadTrack(_ uuid: UInt64) -> Bool {
        if case .thread? = interning.tracks[uuid] { return true }
        return false
    }

    /// The process (and thread, for a thread's child track) that a track's parent chain reaches.
    func owner(of parent: UInt64?) -> ThreadKey {
        var next = parent
        var steps = 0
        while let uuid = next, steps < 32 {
            steps += 1
            switch interning.tracks[uuid] {
            case .thread(let key)?: return key
            case .process(let pid)?: return ThreadKey(processID: pid, threadID: 0)
            case .counter(_, let parent)?, .other(_, let parent)?: next = parent
            case nil: next = nil
            }
        }
        return ThreadKey(processID: 0, threadID: 0)
    }

    /// Places a slice begin, end or instant on its track's lane, or keeps it until the track is
    /// described.
    mutating func appendToTrack(uuid: UInt64?, legacyThread: ThreadKey?, _ event: PendingEvent) {
        let lane: Int
        if let uuid {
            guard let described = self.lane(forUUID: uuid) else {
                building.deferred.append(event)
                return
            }
            lane = described
        } else if let legacyThread {
            lane = self.lane(forThread: legacyThread)
        } else {
            building.deferred.append(event)  // no track at all: Perfetto's default track
            return
        }
        place(event, on: lane)
    }

    mutating func lane(forThread key: ThreadKey) -> Int {
        if let lane = pairing.laneByThread[key] { return lane }
        pairing.lanes.append(SliceLane(thread: key, owner: key))
        pairing.laneByThread[key] = pairing.lanes.count - 1
        return pairing.lanes.count - 1
    }

    mutating func place(_ event: PendingEvent, on lane: Int) {
        place(
            type: event.type, timestamp: event.timestamp, name: event.name, category: event.category,
            arguments: event.arguments,
            flows: event.flows, on: lane)
    }

    /// A track event of a described track, on its lane (its fields as in ``PendingEvent``).
    mutating func place(
        type: UInt64, timestamp: Int64, name: Symbol, category: Symbol, arguments: UInt32, flows: Range<Int>,
        on lane: Int
    ) {
        let owner = pairing.lanes[lane].owner
        let isThread = pairing.lanes[lane].thread != nil
        let pairsNow = isThread && pairing.pairsAsItReads
        let event = trace.events.count
        let (closed, outOfOrder) = Self.record(
            type: type, timestamp: timestamp, name: name, event: event, pairsNow: pairsNow, on: &pairing.lanes[lane])
        if outOfOrder {
            pairing.needsSecondPass = true  // the stack paired what it saw; read again with records
            return
        }
        if closed >= 0 {
            trace.events[closed].duration = max(0, timestamp &- trace.events[closed].timestamp)
        }
        switch type {
        case PerfettoSchema.Event.sliceEnd:
            break
        case PerfettoSchema.Event.sliceBegin:
            trace.events.append(
                TraceEvent(
                    phase: isThread ? .complete : .asyncBegin, name: name, category: category, thread: owner,
                    timestamp: timestamp, arguments: arguments))
        default:  // instant
            trace.events.append(
                TraceEvent(
                    phase: .instant, name: name, category: category, thread: owner, timestamp: timestamp,
                    scope: isThread || owner.threadID != 0 ? .thread : (owner.processID == 0 ? .global : .process),
                    arguments: arguments))
        }
        for position in flows {
            let flow = building.flowArena[position]
            // Kept aside and appended in time order at the end (``settleFlows()``): the file
            // need not be in time order, and which occurrence starts a flow depends on it.
            pairing.flowEvents.append(
                TraceEvent(
                    phase: flow.terminating ? .flowEnd : .flowStep, name: name, category: category, thread: owner,
                    timestamp: timestamp, id: flow.id, bindingPoint: .enclosing))
        }
    }

    /// Events of process-scoped tracks carry thread 0 of their process while reading; they are
    /// given the process's main thread (the one whose id is the process id, else the first by
    /// sort index and id) so that they do not make a thread of their own. A process with no
    /// known thread keeps thread 0.
    mutating func attributeProcessEvents() {
        var representative: [Int64: ThreadKey] = [:]
        for thread in trace.threads.values.sorted(by: {
            ($0.sortIndex ?? .max, $0.key) < ($1.sortIndex ?? .max, $1.key)
        })
        where thread.key.threadID != 0 {
            let pid = thread.key.processID
            if thread.key.threadID == pid || representative[pid] == nil {
                if representative[pid]?.threadID != pid { representative[pid] = thread.key }
            }
        }
        guard !representative.isEmpty else { return }
        // The same thread 0 comes in runs: its answer is kept for the next event.
        var last: (key: ThreadKey, main: ThreadKey?)?
        let threads = trace.threads
        trace.events.withUnsafeMutableBufferPointer { events in
            for index in events.indices where events[index].thread.threadID == 0 {
                let key = events[index].thread
                let main: ThreadKey?
                if let last, last.key == key {
                    main = last.main
                } else {
                    main = threads[key] == nil ? representative[key.processID] : nil
                    last = (key, main)
                }
                if let main { events[index].thread = main }
            }
        }
    }

    mutating func appendCounter(_ value: JSONValue, uuid: UInt64, timestamp: Int64, offset: Int) {
        let track: (name: Symbol, owner: ThreadKey)
        if let known = interning.counterTracks[uuid] {
            track = known
        } else {
            guard case .counter(let name, let parent)? = interning.tracks[uuid] else {
                building.deferred.append(
                    PendingEvent(
                        uuid: uuid, type: PerfettoSchema.Event.counter, timestamp: timestamp, name: .empty,
                        category: .empty,
                        arguments: 0, flows: 0..<0, counter: value, offset: offset))
                return
            }
            track = (trace.symbols.intern(name), owner(of: parent))
            interning.counterTracks[uuid] = track
        }
        trace.events.append(
            TraceEvent(
                phase: .counter, name: track.name, thread: track.owner, timestamp: timestamp,
                arguments: addArguments([Argument("value", value)])))
    }

    /// Events read before their track's descriptor, placed now that every descriptor is read;
    /// those whose track is never described go to a track of their own in process 0, counted.
    mutating func placeDeferredEvents() {
        guard !building.deferred.isEmpty else { return }
        var undescribed = 0
        for event in building.deferred {
            if event.type == PerfettoSchema.Event.counter {
                if case .counter? = interning.tracks[event.uuid] {
                    appendCounter(
                        event.counter ?? .int(0), uuid: event.uuid, timestamp: event.timestamp, offset: event.offset)
                } else {
                    undescribed += 1
                    trace.events.append(
                        TraceEvent(
                            phase: .counter, name: trace.symbols.intern("track \(event.uuid)"),
                            thread: ThreadKey(processID: 0, threadID: 0),
                            timestamp: event.timestamp,
                            arguments: addArguments([Argument("value", event.counter ?? .int(0))])))
                }
                continue
            }
            if let lane = lane(forUUID: event.uuid) {
                place(event, on: lane)
                continue
            }
            undescribed += 1
            interning.tracks[event.uuid] = .other(name: nil, parent: nil)
            place(event, on: lane(forUUID: event.uuid)!)
        }
        building.deferred = []
        if undescribed > 0 {
            trace.log.addSummary(
                .invalidEvent, nil,
                "\(undescribed) event\(undescribed == 1 ? " is" : "s are") on interning.tracks no descriptor describes; kept as async slices of process 0",
                count: undescribed)
        }
    }

    func quoted(_ name: String) -> String { TraceAssembly.quotedName(name) }
}
