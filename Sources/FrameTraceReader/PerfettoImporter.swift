import FrameJSON
import FrameSupport
import FrameTrace

/// Reads Perfetto's native trace format (a protobuf `Trace`: length-delimited `TracePacket`s) into
/// the same ``FrameTrace/Trace`` values the Chrome JSON reader makes, so every command reads both.
///
/// ``ChromeJSONImporter`` hands a file to this reader when its content is protobuf
/// (``looksLikePerfetto(_:)``), whatever its name. What it reads:
/// - **TrackEvent**: track descriptors become processes and threads; slices on a thread's track
///   become `complete` spans (a `TYPE_SLICE_END` closes the innermost open slice of its track);
///   slices on other tracks (process-scoped async tracks, Chrome's `PipelineReporter`) become
///   async pairs in their process, one id per top-level slice; instants, counters (on counter
///   tracks, named by the track), flows (flow ids and terminating flow ids, as `s`/`t`/`f` at the
///   slice they bind to), debug annotations (as arguments; a dictionary's members become
///   `outer.inner` keys, as the JSON reader flattens objects) and Chrome's typed
///   `chrome_frame_reporter` (as `chrome_frame_reporter.state` and so on, the names Chrome's JSON
///   uses). Interned names, categories and annotation names follow each packet sequence's
///   incremental state: a packet that needs state its sequence never set is dropped and counted,
///   as Perfetto does.
/// - **Android**: atrace slices from ftrace `print` events (`B|pid|name`, `E|pid`, `C|pid|name|value`,
///   `S`/`F` async, `I` instants) with process and thread names from `process_tree`, and
///   SurfaceFlinger's FrameTimeline (see ``PerfettoImporter/FrameTimeline``).
/// - **framescope's metadata**, from the `ChromeMetadata` entry named `framescope`.
///
/// A file of 4 MiB or more has its packets found and decoded on a worker thread ahead of the
/// parser, which applies them in order (``PacketFramer``, as the JSON reader tokenizes events
/// ahead); events whose annotation bytes repeat a recent event's share its argument list. Neither
/// changes the trace.
///
/// A file cut off inside its last packet, after at least one whole packet (what a writer killed
/// mid-packet leaves), loads its whole packets with a ``FrameTrace/TraceDiagnostic/Kind/truncated``
/// diagnostic naming the torn packet's byte and how many of its bytes are missing. An input that
/// holds no whole packet (one byte, or a first packet whose length passes the end of the input),
/// a packet length of 2 GiB or more (past protobuf's limit for a message, so corrupt, not cut
/// off) and anything that breaks the wire format inside a whole packet (a varint over ten bytes,
/// a length past its message, a group, a field number of 0) throw a ``TraceReadError`` with the
/// byte offset (``TornPacket`` holds the rule). Inconsistent content loads with diagnostics, as in
/// the JSON reader: undefined interned ids (the event keeps a placeholder name), times beyond
/// ``FrameTrace/TraceEvent/timeLimitNanoseconds`` (the event is dropped), unknown packet fields
/// and types (skipped), annotations nested deeper than ``TraceReader/keptNestingDepth``.
package enum PerfettoImporter {
    /// Whether `bytes` look like a Perfetto protobuf trace rather than JSON: the first byte is the
    /// key of `Trace.packet` (field 1, length-delimited: `0x0A`) and the text is not a JSON
    /// document (which starts, after white space, with `{` and a key or `}`, or with `[`).
    package static func looksLikePerfetto(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first == 0x0A else { return false }
        var index = 0
        while index < bytes.count,
            [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[index])
        { index += 1 }
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "["):
            return false
        case UInt8(ascii: "{"):
            var next = index + 1
            while next < bytes.count,
                [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[next])
            { next += 1 }
            return !(next >= bytes.count || bytes[next] == UInt8(ascii: "\"") || bytes[next] == UInt8(ascii: "}"))
        default:
            return true
        }
    }

    /// Reads a whole buffer.
    /// - Parameter pipelining: Whether packets are framed and decoded on a worker thread ahead
    ///   of the parser (``PacketFramer``); `.automatic` does it for a file of 4 MiB or more when
    ///   the process may use two cores.
    /// - Parameter releasesInput: Whether `buffer` is a private file mapping whose pages may be
    ///   handed back once read (``ReadPageRelease``).
    static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, arguments: TraceReader.ArgumentSelection,
        pipelining: TraceReader.Pipelining = .automatic,
        releasesInput: Bool = false
    ) -> Result<Trace, TraceReadError> {
        guard !buffer.isEmpty else { return .failure(TornPacket.emptyInputError) }
        let pipelined = pipelining.usesWorker(for: buffer.count)
        // Thread slices pair as they are read, which needs each thread's slices in time order
        // (as every producer writes them). A file where one thread's are not is read again,
        // keeping every begin and end for BeginEndPairer: rare, and the result is the same.
        var parser = PerfettoParser(buffer, arguments: arguments, pairsAsItReads: true, releasesInput: releasesInput)
        do throws(TraceReadError) {
            try parser.parseTrace(pipelined: pipelined)
            if !parser.needsSecondPass { parser.placeDeferredEvents() }
            if parser.needsSecondPass {
                parser = PerfettoParser(
                    buffer, arguments: arguments, pairsAsItReads: false, releasesInput: releasesInput)
                try parser.parseTrace(pipelined: pipelined)
            }
        } catch {
            return .failure(error)
        }
        return .success(parser.finish())
    }
}

/// The state of one read, grouped by the stage that owns it; each group is a type in the file
/// with the code that changes it, as in the JSON reader:
/// - ``Framing`` (`+Framing`): finding and decoding packets, and the pages handed back;
/// - ``Interning`` (`+Interning`): each packet sequence's interned strings and defaults, and the
///   described tracks;
/// - ``EventBuilding`` (`+Events`): which arguments are kept, argument lists, flow ids, events
///   waiting for their track;
/// - ``Pairing`` (`+Pairing`): slice lanes, their begins and ends, flows and async ids;
/// - ``AndroidState`` (`+Android`): atrace lanes and SurfaceFlinger's FrameTimeline;
/// - ``SkipSummary`` (`+Finish`): what was skipped or dropped, reported when reading ends.
///
/// The input and the trace being built (``TraceAssembly``, shared with the JSON importer) are
/// every stage's.
struct PerfettoParser {
    let buffer: UnsafeBufferPointer<UInt8>
    /// The trace being built, as the JSON importer builds it.
    var trace = TraceAssembly()
    var framing: Framing
    var interning = Interning()
    var building: EventBuilding
    var pairing: Pairing
    var android = AndroidState()
    var skipped = SkipSummary()

    /// Set when a thread's slices turn out not to be in time order while pairing as they are
    /// read (``Pairing/needsSecondPass``): the caller reads again with records.
    var needsSecondPass: Bool { pairing.needsSecondPass }

    /// A track event read before its track was described.
    struct PendingEvent {
        var uuid: UInt64
        var type: UInt64
        var timestamp: Int64
        var name: Symbol
        var category: Symbol
        var arguments: UInt32
        /// Its flow ids, in ``EventBuilding/flowArena``.
        var flows: Range<Int>
        var counter: JSONValue?
        var offset: Int
    }

    init(
        _ buffer: UnsafeBufferPointer<UInt8>, arguments: TraceReader.ArgumentSelection, pairsAsItReads: Bool = true,
        releasesInput: Bool = false
    ) {
        self.buffer = buffer
        framing = Framing(readPages: ReadPageRelease(buffer, isFileMapping: releasesInput))
        building = EventBuilding(arguments: arguments)
        pairing = Pairing(pairsAsItReads: pairsAsItReads)
    }

    // MARK: - Packets

    /// The fields of one packet, found before any is interpreted: the incremental-state flags
    /// and interned data apply to the whole packet wherever they sit in it.
    private struct PacketFields {
        var timestamp: UInt64?
        var sequence: UInt64 = 0
        var flags: UInt64 = 0
        var cleared = false
        var interned: Range<Int>?
        /// A second and later `interned_data` (producers write one).
        var moreInterned: [Range<Int>] = []
        var trackEvent: Range<Int>?
        var trackDescriptor: Range<Int>?
        var processTree: Range<Int>?
        var ftrace: Range<Int>?
        var frameTimeline: Range<Int>?
        var chromeEvents: Range<Int>?
        var defaults: Range<Int>?
        var processDescriptor: Range<Int>?
        var threadDescriptor: Range<Int>?
    }

    mutating func parsePacket(_ input: inout ProtobufInput, offset: Int) throws(TraceReadError) {
        let fields = try readPacketFields(&input)
        let slot = interning.slot(of: fields.sequence)
        let flags = fields.flags | (fields.cleared ? PerfettoSchema.Packet.incrementalStateClearedFlag : 0)
        guard applySequenceFlags(flags, slot: slot, sequence: fields.sequence, offset: offset) else { return }
        if let range = fields.interned { try parseInternedData(input.input(over: range), slot: slot) }
        for range in fields.moreInterned { try parseInternedData(input.input(over: range), slot: slot) }
        if let range = fields.defaults { try parseDefaults(input.input(over: range), slot: slot) }
        if let range = fields.trackDescriptor { try parseTrackDescriptor(input.input(over: range)) }
        if let range = fields.processDescriptor { try parseLegacyProcessDescriptor(input.input(over: range)) }
        if let range = fields.threadDescriptor { try parseLegacyThreadDescriptor(input.input(over: range), slot: slot) }
        if let range = fields.processTree { try parseProcessTree(input.input(over: range)) }
        if let range = fields.chromeEvents { try parseChromeEvents(input.input(over: range)) }
        if let range = fields.ftrace { try parseFtrace(input.input(over: range)) }
        if let range = fields.frameTimeline {
            guard let time = checkedTime(fields.timestamp, offset: offset) else { return }
            try parseFrameTimeline(input.input(over: range), timestamp: time, offset: offset)
        }
        if let range = fields.trackEvent {
            try parseTrackEvent(
                input.input(over: range), timestamp: fields.timestamp, sequence: fields.sequence, slot: slot,
                offset: offset)
        }
    }

    /// Reads a packet's fields; those the reader does not use are skipped (and counted, but for
    /// the recording's metadata and flags it has no use for).
    private mutating func readPacketFields(_ input: inout ProtobufInput) throws(TraceReadError) -> PacketFields {
        var fields = PacketFields()
        while let (field, type) = try input.nextField() {
            switch (field, type) {
            case (PerfettoSchema.Packet.timestamp, .varint): fields.timestamp = try input.varint()
            case (PerfettoSchema.Packet.trustedPacketSequenceID, .varint): fields.sequence = try input.varint()
            case (PerfettoSchema.Packet.sequenceFlags, .varint): fields.flags = try input.varint()
            case (PerfettoSchema.Packet.incrementalStateCleared, .varint): fields.cleared = try input.varint() != 0
            case (PerfettoSchema.Packet.internedData, .lengthDelimited):
                let range = try input.lengthDelimited()
                if fields.interned == nil { fields.interned = range } else { fields.moreInterned.append(range) }
            case (PerfettoSchema.Packet.trackEvent, .lengthDelimited): fields.trackEvent = try input.lengthDelimited()
            case (PerfettoSchema.Packet.trackDescriptor, .lengthDelimited):
                fields.trackDescriptor = try input.lengthDelimited()
            case (PerfettoSchema.Packet.processTree, .lengthDelimited): fields.processTree = try input.lengthDelimited()
            case (PerfettoSchema.Packet.ftraceEvents, .lengthDelimited): fields.ftrace = try input.lengthDelimited()
            case (PerfettoSchema.Packet.frameTimelineEvent, .lengthDelimited):
                fields.frameTimeline = try input.lengthDelimited()
            case (PerfettoSchema.Packet.chromeEvents, .lengthDelimited):
                fields.chromeEvents = try input.lengthDelimited()
            case (PerfettoSchema.Packet.defaults, .lengthDelimited): fields.defaults = try input.lengthDelimited()
            case (PerfettoSchema.Packet.processDescriptor, .lengthDelimited):
                fields.processDescriptor = try input.lengthDelimited()
            case (PerfettoSchema.Packet.threadDescriptor, .lengthDelimited):
                fields.threadDescriptor = try input.lengthDelimited()
            case (PerfettoSchema.Packet.firstPacketOnSequence, .varint),
                (PerfettoSchema.Packet.previousPacketDropped, .varint),
                (PerfettoSchema.Packet.timestampClockID, .varint):
                try input.skip(type)
            case _ where PerfettoSchema.Packet.isRecordingMetadata(field):
                try input.skip(type)
            default:
                try input.skip(type)
                skipped.skippedFields["TracePacket field \(field)", default: 0] += 1
            }
        }
        return fields
    }

    /// A packet's time in nanoseconds, or `nil` (the event dropped and counted) beyond the limit.
    mutating func checkedTime(_ timestamp: UInt64?, offset: Int) -> Int64? {
        guard let timestamp else {
            skipped.droppedTimes += 1
            if trace.log.lists(.invalidEvent) {
                trace.log.add(.invalidEvent, nil, "packet at byte \(offset) has an event but no timestamp; dropped")
            }
            return nil
        }
        guard timestamp <= UInt64(TraceEvent.timeLimitNanoseconds) else {
            skipped.droppedTimes += 1
            if trace.log.lists(.invalidEvent) {
                trace.log.add(
                    .invalidEvent, nil,
                    "packet at byte \(offset): timestamp \(timestamp) ns is beyond 2^60 ns (about 36.5 years); dropped")
            }
            return nil
        }
        let time = Int64(timestamp)
        building.lastTimestamp = max(building.lastTimestamp, time)
        return time
    }

    /// Reserves room for the events, argument lists and lane records the rest of the input
    /// probably holds, judged from the density so far (as the JSON reader does), so the arrays
    /// grow once instead of doubling and copying. Untouched capacity costs address space only;
    /// each lane's and the list reservation stop at 4 Mi elements so a misleading start costs little.
    mutating func reserveCapacity(readSoFar: Int) {
        guard readSoFar > 0 else { return }
        let scale = Double(buffer.count) / Double(readSoFar) * 1.125
        func estimate(_ count: Int, cap: Int = .max) -> Int {
            min(cap, Int(min(Double(count) * scale + 1024, Double(buffer.count))))
        }
        // The events appended once reading ends count too: flow events and async ends (one per
        // end record of a track that is not a thread's). Growing the array then would copy every
        // event and touch twice its memory.
        var asyncEnds = 0
        for lane in pairing.lanes where lane.thread == nil {
            for record in lane.records where record.isEnd { asyncEnds += 1 }
        }
        trace.events.reserveCapacity(estimate(trace.events.count + pairing.flowEvents.count + asyncEnds))
        trace.events.adviseHugePages()
        trace.argumentLists.reserveCapacity(estimate(trace.argumentLists.count, cap: 1 << 22))
        pairing.flowEvents.reserveCapacity(estimate(pairing.flowEvents.count, cap: 1 << 22))
        building.flowArena.reserveCapacity(estimate(building.flowArena.count, cap: 1 << 22))
        for index in pairing.lanes.indices where !pairing.lanes[index].records.isEmpty {
            pairing.lanes[index].records.reserveCapacity(estimate(pairing.lanes[index].records.count, cap: 1 << 22))
        }
    }

    // MARK: - Interning and tracks

    mutating func parseInternedData(_ input: ProtobufInput, slot: Int) throws(TraceReadError) {
        var input = input
        var changesAnnotations = false
        defer {
            if changesAnnotations { interning.sequences[slot].generation = interning.newGeneration() }
        }
        while let (field, type) = try input.nextField() {
            guard type == .lengthDelimited else {
                try input.skip(type)
                continue
            }
            var entry = try input.message()
            var iid: UInt64 = 0
            var value: Range<Int>?
            while let (entryField, entryType) = try entry.nextField() {
                if entryField == PerfettoSchema.Interned.iid, entryType == .varint {
                    iid = try entry.varint()
                } else if entryField == PerfettoSchema.Interned.string, entryType == .lengthDelimited {
                    value = try entry.lengthDelimited()
                } else {
                    try entry.skip(entryType)
                }
            }
            guard let value else { continue }
            let string = input.string(value)
            switch field {
            case PerfettoSchema.Interned.eventNames:
                interning.sequences[slot].names[iid] = trace.symbols.intern(string).rawValue
            case PerfettoSchema.Interned.eventCategories:
                interning.sequences[slot].categories[iid] = trace.symbols.intern(string).rawValue
            case PerfettoSchema.Interned.debugAnnotationNames:
                interning.sequences[slot].annotationNames[iid] = trace.symbols.intern(string).rawValue
                changesAnnotations = true
            case PerfettoSchema.Interned.debugAnnotationStringValues:
                interning.sequences[slot].stringValues[iid] = trace.symbols.intern(string).rawValue
                changesAnnotations = true
            default: skipped.skippedFields["InternedData field \(field)", default: 0] += 1
            }
        }
    }

    private mutating func parseDefaults(_ input: ProtobufInput, slot: Int) throws(TraceReadError) {
        var input = input
        while let (field, type) = try input.nextField() {
            guard field == PerfettoSchema.Defaults.trackEventDefaults, type == .lengthDelimited else {
                try input.skip(type)
                continue
            }
            var defaults = try input.message()
            while let (inner, innerType) = try defaults.nextField() {
                if inner == PerfettoSchema.Defaults.trackUUID, innerType == .varint {
                    interning.sequences[slot].defaultTrack = try defaults.varint()
                } else {
                    try defaults.skip(innerType)
                }
            }
        }
    }

    private mutating func parseTrackDescriptor(_ input: ProtobufInput) throws(TraceReadError) {
        var input = input
        var uuid: UInt64 = 0
        var parent: UInt64?
        var name: String?
        var process: (pid: Int64, name: String?, sortIndex: Int64?)?
        var thread: (key: ThreadKey, name: String?, sortIndex: Int64?)?
        var isCounter = false
        while let (field, type) = try input.nextField() {
            switch (field, type) {
            case (PerfettoSchema.Track.uuid, .varint): uuid = try input.varint()
            case (PerfettoSchema.Track.parentUUID, .varint): parent = try input.varint()
            case (PerfettoSchema.Track.name, .lengthDelimited), (PerfettoSchema.Track.staticName, .lengthDelimited),
                (PerfettoSchema.Track.atraceName, .lengthDelimited):
                name = try input.string()
            case (PerfettoSchema.Track.counter, .lengthDelimited):
                _ = try input.lengthDelimited()
                isCounter = true
            case (PerfettoSchema.Track.process, .lengthDelimited):
                process = try Self.readProcessDescriptor(try input.message())
            case (PerfettoSchema.Track.thread, .lengthDelimited):
                thread = try Self.readThreadDescriptor(try input.message())
            default:
                try input.skip(type)
            }
        }
        describeTrack(uuid, parent: parent, name: name, process: process, thread: thread, isCounter: isCounter)
    }

    /// A track descriptor's `process`: its pid, name (else its command line) and sort index.
    private static func readProcessDescriptor(_ descriptor: ProtobufInput) throws(TraceReadError) -> (
        pid: Int64, name: String?, sortIndex: Int64?
    ) {
        var descriptor = descriptor
        var pid: Int64 = 0
        var processName: String?
        var sortIndex: Int64?
        while let (inner, innerType) = try descriptor.nextField() {
            switch (inner, innerType) {
            case (PerfettoSchema.Process.pid, .varint): pid = Int64(bitPattern: try descriptor.varint())
            case (PerfettoSchema.Process.processName, .lengthDelimited): processName = try descriptor.string()
            case (PerfettoSchema.Process.legacySortIndex, .varint):
                sortIndex = Int64(bitPattern: try descriptor.varint())
            case (PerfettoSchema.Process.cmdline, .lengthDelimited):
                let line = try descriptor.string()
                if processName == nil { processName = line }
            default: try descriptor.skip(innerType)
            }
        }
        return (pid, processName, sortIndex)
    }

    /// A track descriptor's `thread`: its pid and tid, name and sort index.
    private static func readThreadDescriptor(_ descriptor: ProtobufInput) throws(TraceReadError) -> (
        key: ThreadKey, name: String?, sortIndex: Int64?
    ) {
        var descriptor = descriptor
        var pid: Int64 = 0
        var tid: Int64 = 0
        var threadName: String?
        var sortIndex: Int64?
        while let (inner, innerType) = try descriptor.nextField() {
            switch (inner, innerType) {
            case (PerfettoSchema.Thread.pid, .varint): pid = Int64(bitPattern: try descriptor.varint())
            case (PerfettoSchema.Thread.tid, .varint): tid = Int64(bitPattern: try descriptor.varint())
            case (PerfettoSchema.Thread.threadName, .lengthDelimited): threadName = try descriptor.string()
            case (PerfettoSchema.Thread.legacySortIndex, .varint):
                sortIndex = Int64(bitPattern: try descriptor.varint())
            default: try descriptor.skip(innerType)
            }
        }
        return (ThreadKey(processID: pid, threadID: tid), threadName, sortIndex)
    }

    /// Records what a track descriptor says: a thread's or process's track (and its name and
    /// sort index), a counter track, or another track under its parent.
    private mutating func describeTrack(
        _ uuid: UInt64, parent: UInt64?, name: String?, process: (pid: Int64, name: String?, sortIndex: Int64?)?,
        thread: (key: ThreadKey, name: String?, sortIndex: Int64?)?, isCounter: Bool
    ) {
        if let thread {
            interning.tracks[uuid] = .thread(thread.key)
            var described = trace.threads[thread.key] ?? TraceThread(key: thread.key)
            if let name = thread.name ?? name { described.name = name }
            if let sortIndex = thread.sortIndex { described.sortIndex = sortIndex }
            trace.threads[thread.key] = described
            if trace.processes[thread.key.processID] == nil {
                trace.processes[thread.key.processID] = TraceProcess(processID: thread.key.processID)
            }
        } else if let process {
            interning.tracks[uuid] = .process(process.pid)
            var described = trace.processes[process.pid] ?? TraceProcess(processID: process.pid)
            if let name = process.name ?? name { described.name = name }
            if let sortIndex = process.sortIndex { described.sortIndex = sortIndex }
            trace.processes[process.pid] = described
        } else if isCounter {
            interning.tracks[uuid] = .counter(name: name ?? "counter \(uuid)", parent: parent)
        } else {
            interning.tracks[uuid] = .other(name: name, parent: parent)
        }
    }

    private mutating func parseLegacyProcessDescriptor(_ input: ProtobufInput) throws(TraceReadError) {
        var input = input
        var pid: Int64?
        var name: String?
        while let (field, type) = try input.nextField() {
            switch (field, type) {
            case (PerfettoSchema.Process.pid, .varint): pid = Int64(bitPattern: try input.varint())
            case (PerfettoSchema.Process.processName, .lengthDelimited): name = try input.string()
            default: try input.skip(type)
            }
        }
        guard let pid else { return }
        if let name { trace.processes[pid, default: TraceProcess(processID: pid)].name = name }
    }

    private mutating func parseLegacyThreadDescriptor(_ input: ProtobufInput, slot: Int) throws(TraceReadError) {
        var input = input
        var pid: Int64 = 0
        var tid: Int64 = 0
        var name: String?
        while let (field, type) = try input.nextField() {
            switch (field, type) {
            case (PerfettoSchema.Thread.pid, .varint): pid = Int64(bitPattern: try input.varint())
            case (PerfettoSchema.Thread.tid, .varint): tid = Int64(bitPattern: try input.varint())
            case (PerfettoSchema.Thread.threadName, .lengthDelimited): name = try input.string()
            default: try input.skip(type)
            }
        }
        let key = ThreadKey(processID: pid, threadID: tid)
        interning.sequences[slot].legacyThread = key
        if let name { trace.threads[key, default: TraceThread(key: key)].name = name }
    }

    private mutating func parseProcessTree(_ input: ProtobufInput) throws(TraceReadError) {
        var input = input
        while let (field, type) = try input.nextField() {
            guard type == .lengthDelimited,
                field == PerfettoSchema.ProcessTree.processes || field == PerfettoSchema.ProcessTree.threads
            else {
                try input.skip(type)
                continue
            }
            var entry = try input.message()
            var id: Int64 = 0
            var tgid: Int64?
            var name: String?
            while let (inner, innerType) = try entry.nextField() {
                switch (field, inner, innerType) {
                case (PerfettoSchema.ProcessTree.processes, PerfettoSchema.ProcessTree.processPID, .varint),
                    (PerfettoSchema.ProcessTree.threads, PerfettoSchema.ProcessTree.threadTID, .varint):
                    id = Int64(Int32(truncatingIfNeeded: try entry.varint()))
                case (PerfettoSchema.ProcessTree.processes, PerfettoSchema.ProcessTree.processCmdline, .lengthDelimited):
                    let line = try entry.string()
                    if name == nil { name = line }
                case (PerfettoSchema.ProcessTree.threads, PerfettoSchema.ProcessTree.threadName, .lengthDelimited):
                    name = try entry.string()
                case (PerfettoSchema.ProcessTree.threads, PerfettoSchema.ProcessTree.threadTGID, .varint):
                    tgid = Int64(Int32(truncatingIfNeeded: try entry.varint()))
                default:
                    try entry.skip(innerType)
                }
            }
            if field == PerfettoSchema.ProcessTree.processes {
                if let name { trace.processes[id, default: TraceProcess(processID: id)].name = name }
                // A process's main thread has the process's id.
                android.threadProcess[id] = id
            } else {
                let process = tgid ?? id
                android.threadProcess[id] = process
                let key = ThreadKey(processID: process, threadID: id)
                if let name { trace.threads[key, default: TraceThread(key: key)].name = name }
                if trace.processes[process] == nil { trace.processes[process] = TraceProcess(processID: process) }
            }
        }
    }

    private mutating func parseChromeEvents(_ input: ProtobufInput) throws(TraceReadError) {
        var input = input
        while let (field, type) = try input.nextField() {
            guard field == PerfettoSchema.ChromeEvents.metadata, type == .lengthDelimited else {
                try input.skip(type)
                continue
            }
            var entry = try input.message()
            var name: String?
            var json: Range<Int>?
            while let (inner, innerType) = try entry.nextField() {
                switch (inner, innerType) {
                case (PerfettoSchema.ChromeEvents.metadataName, .lengthDelimited): name = try entry.string()
                case (PerfettoSchema.ChromeEvents.metadataJSONValue, .lengthDelimited):
                    json = try entry.lengthDelimited()
                default: try entry.skip(innerType)
                }
            }
            guard name == PerfettoSchema.ChromeEvents.framescopeMetadataName, let json else { continue }
            let bytes = UnsafeBufferPointer(rebasing: buffer[json])
            guard let value = try? JSONValue.parse(bytes, maxDepth: TraceReader.keptNestingDepth),
                let adopted = TraceAssembly.framescopeMetadata(from: value)
            else {
                trace.log.add(
                    .invalidEvent, nil,
                    "framescope's metadata at byte \(json.lowerBound) is not the JSON object framescope writes; ignored"
                )
                continue
            }
            trace.metadata = adopted
        }
    }

}
