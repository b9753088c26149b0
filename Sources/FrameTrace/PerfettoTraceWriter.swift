/// Writes traces in Perfetto's native format: a protobuf `Trace`, that is a run of
/// length-delimited `TracePacket`s, in pieces, so a long recording can be written as it is drained.
///
/// The same trace values the Chrome JSON writer takes (``ChromeTraceWriter``), mapped onto
/// Perfetto's TrackEvent model so that ui.perfetto.dev shows them natively:
/// - **Tracks.** A track descriptor for each process and thread (in the trace's thread order, so
///   the main thread comes first), for each counter series, and for each async track, written
///   before the track's first event.
/// - **Slices.** A `complete` span is a `TYPE_SLICE_BEGIN` and a `TYPE_SLICE_END` on its thread's
///   track, in nesting order; instants are `TYPE_INSTANT`; counters are `TYPE_COUNTER` on a counter
///   track per process, name and series key (named `name` for the key `value`, `name key`
///   otherwise). Spans that partially overlap on one thread, which a thread track cannot hold, go
///   to an async track, as the JSON writer makes them async pairs.
/// - **Async slices** (`b`/`n`/`e`, grouped by process and id) go to tracks under their process
///   named after their outermost slice; groups are packed onto as few same-named tracks as keep
///   slices from overlapping, and the tracks are marked to merge by name, so Perfetto shows one
///   track with rows. framescope's frame timeline (``FrameContract/Timeline``) is such a pair of
///   tracks: `Expected Timeline` and `Actual Timeline`, each frame one slice.
/// - **Flows** become flow ids on the slice they bind to (the innermost slice enclosing the flow
///   point on its thread; for an `f` without `bp`, the next slice to start), with the finishing
///   id among the slice's terminating flow ids. A flow point with no slice to bind to is an
///   instant that carries the id.
/// - **Arguments** are debug annotations; objects and arrays nest.
/// - **Strings** (names, categories, annotation names) are interned: each is defined in the
///   packet that first uses it, on one packet sequence whose first packet clears the incremental
///   state. Every packet is self-contained, so a writer killed mid-run leaves a file whose
///   complete packets all read (`framescope repair` cuts a torn last one).
/// - **Times** are integer nanoseconds, rebased like the JSON writer's: exact, not rounded
///   through microseconds.
/// - **Metadata** (producer, clock, frame interval, main thread, dropped events) is the last
///   packet: a `ChromeMetadata` entry named `framescope` whose JSON value is the object the JSON
///   writer writes under `metadata`.
///
/// ```swift
/// var writer = PerfettoTraceWriter(baseTimestamp: 0)
/// var bytes = writer.begin()
/// bytes += writer.append(trace)
/// bytes += writer.finish(metadata: trace.metadata)
/// ```
public struct PerfettoTraceWriter: Sendable {
    /// Nanoseconds subtracted from every timestamp so the trace starts near zero.
    public let baseTimestamp: Int64

    /// The packet sequence every packet belongs to.
    static let sequenceID: UInt64 = 1

    /// Track uuids, given out in order from 1 so that they take one or two bytes each (a third
    /// of a file's bytes were 64-bit hashed uuids); every chunk of a stream uses the same ones.
    private var processTracks: [Int64: UInt64] = [:]
    private var threadTracks: [ThreadKey: UInt64] = [:]
    private var counterTracks: [CounterKey: UInt64] = [:]
    private var asyncTracks: [AsyncKey: [(uuid: UInt64, busyUntil: Int64)]] = [:]
    private var nextTrackUUID: UInt64 = 1
    private var names = Interner()
    private var categories = Interner()
    private var annotationNames = Interner()

    /// Creates a writer.
    /// - Parameter baseTimestamp: The timestamp, in nanoseconds, that becomes 0. Events before it
    ///   are clamped to 0.
    public init(baseTimestamp: Int64) {
        self.baseTimestamp = baseTimestamp
    }

    /// The first packet: it opens the packet sequence with its incremental state cleared.
    /// - Returns: The packet's bytes, length-delimited as a `Trace`'s field 1.
    public func begin() -> [UInt8] {
        var out = ProtobufOutput(capacity: 16)
        out.message(PerfettoSchema.Trace.packet) { packet in
            packet.varint(PerfettoSchema.Packet.trustedPacketSequenceID, Self.sequenceID)
            packet.varint(PerfettoSchema.Packet.sequenceFlags, PerfettoSchema.Packet.incrementalStateClearedFlag)
            packet.bool(PerfettoSchema.Packet.firstPacketOnSequence, true)
        }
        return out.bytes
    }

    /// Returns the packets for a chunk of events, preceded by descriptors for tracks not
    /// described before.
    /// - Parameter trace: The chunk. Its thread and process tables describe its threads.
    /// - Returns: The chunk's packets, each length-delimited, ready to append after the packets
    ///   written before.
    /// - Complexity: O(*n* log *n*) in the chunk's events, for the nesting order.
    public mutating func append(_ trace: Trace) -> [UInt8] {
        var out = ProtobufOutput(capacity: trace.events.count * 48 + 256)
        names.startChunk(symbols: trace.symbols.count)
        categories.startChunk(symbols: trace.symbols.count)
        let threads = trace.allThreads
        for thread in threads { describe(thread, of: trace, into: &out) }
        for pid in trace.processes.keys.sorted() { describeProcess(pid, of: trace, into: &out) }

        let overlapping = ChromeTraceWriter.partiallyOverlappingSpans(in: trace.events)
        var spansByThread: [ThreadKey: [Int]] = [:]
        var flowsByThread: [ThreadKey: [Int]] = [:]
        var otherByThread: [ThreadKey: [Int]] = [:]
        var asyncEvents: [Int] = []
        for (index, event) in trace.events.enumerated() {
            switch event.phase {
            case .complete where overlapping.contains(index): asyncEvents.append(index)
            case .complete: spansByThread[event.thread, default: []].append(index)
            case .flowStart, .flowStep, .flowEnd: flowsByThread[event.thread, default: []].append(index)
            case .asyncBegin, .asyncInstant, .asyncEnd: asyncEvents.append(index)
            case .begin, .end, .instant, .counter: otherByThread[event.thread, default: []].append(index)
            case .metadata: continue
            }
        }
        for thread in threads {
            let key = thread.key
            writeThread(
                key, spans: spansByThread[key] ?? [], flows: flowsByThread[key] ?? [], others: otherByThread[key] ?? [],
                of: trace, into: &out)
        }
        writeAsync(asyncEvents, overlapping: overlapping, of: trace, into: &out)
        return out.bytes
    }

    /// The last packet: the trace's metadata.
    /// - Parameter metadata: What to record about the trace; dropped-event counts belong here.
    /// - Returns: One `ChromeMetadata` packet named `framescope` holding the metadata as JSON.
    public func finish(metadata: TraceMetadata) -> [UInt8] {
        var json = JSONOutput(capacity: 256)
        ChromeTraceWriter.writeMetadata(metadata, into: &json)
        var out = ProtobufOutput(capacity: json.bytes.count + 32)
        out.message(PerfettoSchema.Trace.packet) { packet in
            packet.varint(PerfettoSchema.Packet.trustedPacketSequenceID, Self.sequenceID)
            packet.message(PerfettoSchema.Packet.chromeEvents) { bundle in
                bundle.message(PerfettoSchema.ChromeEvents.metadata) { entry in
                    entry.string(
                        PerfettoSchema.ChromeEvents.metadataName, PerfettoSchema.ChromeEvents.framescopeMetadataName)
                    entry.bytes(PerfettoSchema.ChromeEvents.metadataJSONValue, json.bytes)
                }
            }
        }
        return out.bytes
    }

    /// Writes a whole trace in one file.
    ///
    /// Timestamps are rebased so the earliest event that is not metadata is at 0.
    /// - Parameter trace: The trace to write.
    /// - Returns: The bytes of a Perfetto `Trace`.
    public static func document(for trace: Trace) -> [UInt8] {
        document(for: trace, baseTimestamp: trace.earliestTimestamp ?? 0)
    }

    /// Writes a whole trace in one file, its times less `baseTimestamp`.
    /// - Parameters:
    ///   - trace: The trace to write.
    ///   - baseTimestamp: The time that becomes 0, in nanoseconds; 0 keeps times as they are.
    /// - Returns: The bytes of a Perfetto `Trace`.
    public static func document(for trace: Trace, baseTimestamp: Int64) -> [UInt8] {
        var writer = PerfettoTraceWriter(baseTimestamp: baseTimestamp)
        var bytes = writer.begin()
        bytes += writer.append(trace)
        bytes += writer.finish(metadata: trace.metadata)
        return bytes
    }

    // MARK: - Tracks

    /// A new track's uuid.
    private mutating func newTrackUUID() -> UInt64 {
        defer { nextTrackUUID += 1 }
        return nextTrackUUID
    }

    /// The uuid of a process's track, described first if new.
    private mutating func processTrack(_ pid: Int64, of trace: Trace, into out: inout ProtobufOutput) -> UInt64 {
        if let uuid = processTracks[pid] { return uuid }
        describeProcess(pid, of: trace, into: &out)
        return processTracks[pid]!
    }

    /// The uuid of a thread's track, described first (with its process) if new.
    private mutating func threadTrack(_ key: ThreadKey, of trace: Trace, into out: inout ProtobufOutput) -> UInt64 {
        if let uuid = threadTracks[key] { return uuid }
        describe(trace.threads[key] ?? TraceThread(key: key), of: trace, into: &out)
        return threadTracks[key]!
    }

    private mutating func describeProcess(_ pid: Int64, of trace: Trace, into out: inout ProtobufOutput) {
        guard processTracks[pid] == nil else { return }
        let uuid = newTrackUUID()
        processTracks[pid] = uuid
        let process = trace.processes[pid]
        packet(into: &out) { packet in
            packet.message(PerfettoSchema.Packet.trackDescriptor) { track in
                track.varint(PerfettoSchema.Track.uuid, uuid)
                track.message(PerfettoSchema.Track.process) { descriptor in
                    // `pid` is an int32 in the schema; a wider id keeps all its bits in the varint
                    // (framescope reads it back whole; a strict reader keeps the low 32).
                    descriptor.int(PerfettoSchema.Process.pid, pid)
                    if let sortIndex = process?.sortIndex {
                        descriptor.int(PerfettoSchema.Process.legacySortIndex, sortIndex)
                    }
                    if let name = process?.name { descriptor.string(PerfettoSchema.Process.processName, name) }
                }
            }
        }
    }

    private mutating func describe(_ thread: TraceThread, of trace: Trace, into out: inout ProtobufOutput) {
        let parent = processTrack(thread.key.processID, of: trace, into: &out)
        guard threadTracks[thread.key] == nil else { return }
        let uuid = newTrackUUID()
        threadTracks[thread.key] = uuid
        packet(into: &out) { packet in
            packet.message(PerfettoSchema.Packet.trackDescriptor) { track in
                track.varint(PerfettoSchema.Track.uuid, uuid)
                track.varint(PerfettoSchema.Track.parentUUID, parent)
                track.message(PerfettoSchema.Track.thread) { descriptor in
                    descriptor.int(PerfettoSchema.Thread.pid, thread.key.processID)
                    descriptor.int(PerfettoSchema.Thread.tid, thread.key.threadID)
                    if let sortIndex = thread.sortIndex {
                        descriptor.int(PerfettoSchema.Thread.legacySortIndex, sortIndex)
                    }
                    if let name = thread.name { descriptor.string(PerfettoSchema.Thread.threadName, name) }
                }
            }
        }
    }

    private struct CounterKey: Hashable {
        var processID: Int64
        var name: String
        var series: String
    }

    private mutating func counterTrack(_ key: CounterKey, into out: inout ProtobufOutput) -> UInt64 {
        if let uuid = counterTracks[key] { return uuid }
        let parent = processTracks[key.processID] ?? 0
        let uuid = newTrackUUID()
        counterTracks[key] = uuid
        packet(into: &out) { packet in
            packet.message(PerfettoSchema.Packet.trackDescriptor) { track in
                track.varint(PerfettoSchema.Track.uuid, uuid)
                track.varint(PerfettoSchema.Track.parentUUID, parent)
                track.string(
                    PerfettoSchema.Track.name,
                    key.series == Self.counterValueKey ? key.name : "\(key.name) \(key.series)")
                track.message(PerfettoSchema.Track.counter) { _ in }
            }
        }
        return uuid
    }

    /// The series key a counter track's name leaves out.
    static let counterValueKey = "value"

    private struct AsyncKey: Hashable {
        var parent: UInt64
        var name: String
    }

    /// A track named `name` under `parent` (a process's track, or a thread's for its spans that
    /// do not nest) that is free from `start` on, described if new.
    private mutating func asyncTrack(
        parent: UInt64, name: Symbol, from start: Int64, until end: Int64, of trace: Trace,
        into out: inout ProtobufOutput
    ) -> UInt64 {
        let key = AsyncKey(parent: parent, name: trace.symbols[name])
        var pool = asyncTracks[key] ?? []
        // The first free track among the first 64 of the name: a trace with thousands of
        // same-named slices open at once gets more tracks instead of a scan per slice.
        if let free = pool.prefix(64).firstIndex(where: { $0.busyUntil <= start }) {
            pool[free].busyUntil = end
            asyncTracks[key] = pool
            return pool[free].uuid
        }
        let uuid = newTrackUUID()
        pool.append((uuid, end))
        asyncTracks[key] = pool
        packet(into: &out) { packet in
            packet.message(PerfettoSchema.Packet.trackDescriptor) { track in
                track.varint(PerfettoSchema.Track.uuid, uuid)
                track.varint(PerfettoSchema.Track.parentUUID, parent)
                track.string(PerfettoSchema.Track.name, trace.symbols[name])
                track.varint(PerfettoSchema.Track.siblingMergeBehavior, PerfettoSchema.Track.mergeByName)
            }
        }
        return uuid
    }

    // MARK: - Events

    /// One thread's events: its spans in nesting order with the flows bound to them, then its
    /// instants, counters and unpaired begins and ends.
    private mutating func writeThread(
        _ thread: ThreadKey, spans: [Int], flows: [Int], others: [Int], of trace: Trace, into out: inout ProtobufOutput
    ) {
        let track = threadTracks[thread] ?? 0
        var spans = spans
        NestingStack.sort(&spans, of: trace.events)
        let bound = bindFlows(flows, to: spans, of: trace)
        var open: [Int] = []  // positions in trace.events, innermost last
        func closeSpans(before start: Int64?, into out: inout ProtobufOutput) {
            while let top = open.last, start.map({ trace.events[top].endTimestamp <= $0 }) ?? true {
                open.removeLast()
                // The end is the rebased start plus the duration, as the JSON writer writes
                // `ts` and `dur`: a span that began before the base keeps its length.
                let span = trace.events[top]
                let end = rebased(span.timestamp).addingReportingOverflow(UInt64(max(0, span.duration)))
                writeEvent(
                    type: PerfettoSchema.Event.sliceEnd, track: track,
                    rebasedTimestamp: end.overflow ? .max : end.partialValue, into: &out)
            }
        }
        // Instants, counters and unbound flow points go between the slices in time order (the
        // spans open at their time stay open around them), so each track is in time order.
        var others = others + bound.unbound
        others.sort { (trace.events[$0].timestamp, $0) < (trace.events[$1].timestamp, $1) }
        let unbound = Set(bound.unbound)
        var next = 0
        func writeOthers(before limit: Int64?, into out: inout ProtobufOutput) {
            while next < others.count, limit.map({ trace.events[others[next]].timestamp < $0 }) ?? true {
                let index = others[next]
                next += 1
                let event = trace.events[index]
                closeSpans(before: event.timestamp, into: &out)
                if unbound.contains(index) {
                    writeEvent(
                        type: PerfettoSchema.Event.instant, track: track, event: event, flows: [flowID(of: event)],
                        of: trace, into: &out)
                    continue
                }
                writeOther(event, track: track, thread: thread, of: trace, into: &out)
            }
        }
        for index in spans {
            let event = trace.events[index]
            writeOthers(before: event.timestamp, into: &out)
            closeSpans(before: event.timestamp, into: &out)
            writeEvent(
                type: PerfettoSchema.Event.sliceBegin, track: track, event: event, flows: bound.slices[index] ?? [],
                of: trace,
                into: &out)
            open.append(index)
        }
        writeOthers(before: nil, into: &out)
        closeSpans(before: nil, into: &out)
    }

    /// An instant, counter or unpaired begin or end of a thread whose track is `track`.
    private mutating func writeOther(
        _ event: TraceEvent, track: UInt64, thread: ThreadKey, of trace: Trace, into out: inout ProtobufOutput
    ) {
        switch event.phase {
        case .begin:
            writeEvent(type: PerfettoSchema.Event.sliceBegin, track: track, event: event, of: trace, into: &out)
        case .end:
            writeEvent(type: PerfettoSchema.Event.sliceEnd, track: track, timestamp: event.timestamp, into: &out)
        case .instant:
            let scoped: UInt64
            switch event.scope {
            case .thread: scoped = track
            // A global instant goes to its process's track too: Perfetto has no global scope
            // for track events, and a track of its own would be a process of its own.
            case .process, .global: scoped = processTracks[thread.processID] ?? track
            }
            writeEvent(type: PerfettoSchema.Event.instant, track: scoped, event: event, of: trace, into: &out)
        case .counter:
            for argument in trace.arguments(of: event) {
                // Counters are doubles, as JSON's numbers are (a JSON writer prints 38.0 as 38):
                // an integer a double holds exactly is one, so a JSON round trip writes the
                // same field; a larger one keeps every digit in the integer field.
                let value: CounterValue
                switch argument.value {
                case .int(let integer) where integer.magnitude <= 1 << 53: value = .double(Double(integer))
                case .int(let integer): value = .integer(integer)
                case .double(let double) where double.isFinite: value = .double(double)
                default: continue  // not a number a viewer can plot, as in the JSON writer
                }
                let uuid = counterTrack(
                    CounterKey(processID: thread.processID, name: trace.name(of: event), series: argument.key),
                    into: &out)
                writeCounter(value, track: uuid, timestamp: event.timestamp, into: &out)
            }
        default:
            break
        }
    }

    /// A flow id as it goes to the slice: terminating for a flow's finish.
    struct BoundFlow {
        var id: UInt64
        var terminating: Bool
    }

    private func flowID(of event: TraceEvent) -> BoundFlow {
        BoundFlow(id: event.id, terminating: event.phase == .flowEnd)
    }

    /// Which slice each flow point binds to: for `s`, `t` and an `f` with `bp: e`, the innermost
    /// span enclosing it (the last one, in nesting order, that starts by it and ends at or after
    /// it); for an `f` without `bp`, the first span that starts at or after it.
    private func bindFlows(_ flows: [Int], to spans: [Int], of trace: Trace) -> (
        slices: [Int: [BoundFlow]], unbound: [Int]
    ) {
        guard !flows.isEmpty else { return ([:], []) }
        var slices: [Int: [BoundFlow]] = [:]
        var unbound: [Int] = []
        let starts = spans.map { trace.events[$0].timestamp }
        for index in flows {
            let event = trace.events[index]
            let bindsNext = event.phase == .flowEnd && event.bindingPoint != .enclosing
            // The spans that start at or before the point: nesting order is start order.
            let low = starts.partitioningIndex { $0 > event.timestamp }
            var chosen: Int?
            if bindsNext {
                let next = starts.partitioningIndex { $0 >= event.timestamp }
                if next < spans.count { chosen = spans[next] }
            } else {
                // Walk back from the last span starting by the point to the first that still
                // holds it; a bounded walk keeps a pathological thread linear enough.
                var position = low - 1
                var steps = 0
                while position >= 0, steps < 4096 {
                    let span = trace.events[spans[position]]
                    if span.endTimestamp >= event.timestamp {
                        chosen = spans[position]
                        break
                    }
                    position -= 1
                    steps += 1
                }
            }
            if let chosen {
                slices[chosen, default: []].append(flowID(of: event))
            } else {
                unbound.append(index)
            }
        }
        return (slices, unbound)
    }

    /// Async events: grouped by process and id, paired by name within a group, and each nested
    /// tree placed on a free track named after its root.
    private mutating func writeAsync(
        _ indexes: [Int], overlapping: Set<Int>, of trace: Trace, into out: inout ProtobufOutput
    ) {
        guard !indexes.isEmpty else { return }
        let (groups, groupOrder) = asyncGroups(indexes, of: trace, into: &out)
        var units = Self.nestedUnits(groups, order: groupOrder)
        units.sort { ($0.slices[0].start, $0.slices[0].begin) < ($1.slices[0].start, $1.slices[0].begin) }
        for unit in units { writeUnit(unit, of: trace, into: &out) }
    }

    /// An async slice (or instant) as grouped: its begin's position, its start and end.
    private struct AsyncSlice {
        var begin: Int
        var start: Int64
        var end: Int64?
    }

    /// A group of async events: an id under a parent track.
    private struct AsyncGroupKey: Hashable {
        /// The track the group's tracks go under: its process's, or for a span that does
        /// not nest, its thread's.
        var parent: UInt64
        var id: UInt64
    }

    /// A maximal nested tree of a group's slices, the end of its root, and the track it goes under.
    private typealias AsyncUnit = (parent: UInt64, slices: [AsyncSlice], end: Int64)

    /// The async events grouped, each begin paired with its end by name within its group, and
    /// the groups in the order they first appear.
    private mutating func asyncGroups(_ indexes: [Int], of trace: Trace, into out: inout ProtobufOutput) -> (
        [AsyncGroupKey: [AsyncSlice]], [AsyncGroupKey]
    ) {
        var groups: [AsyncGroupKey: [AsyncSlice]] = [:]
        var groupOrder: [AsyncGroupKey] = []
        var open: [AsyncGroupKey: [Symbol: [Int]]] = [:]  // per group and name: positions in its slices
        var spanID: UInt64 = 0
        for index in indexes {
            let event = trace.events[index]
            var key = AsyncGroupKey(parent: processTrack(event.thread.processID, of: trace, into: &out), id: event.id)
            if event.phase == .complete {
                // A partially overlapping span: a group of its own under its thread, so it stays
                // that thread's work (the reader reads a thread's child tracks as its spans).
                spanID += 1
                key = AsyncGroupKey(parent: threadTrack(event.thread, of: trace, into: &out), id: spanID)
            }
            if event.phase == .asyncEnd {
                // An end with no open begin of its name has nothing to close; the reader that
                // made the trace reported it.
                guard let position = open[key]?[event.name]?.popLast() else { continue }
                groups[key]![position].end = max(groups[key]![position].start, event.timestamp)
                continue
            }
            if groups[key] == nil { groupOrder.append(key) }
            switch event.phase {
            case .complete:
                groups[key, default: []].append(
                    AsyncSlice(begin: index, start: event.timestamp, end: event.endTimestamp))
            case .asyncBegin:
                groups[key, default: []].append(AsyncSlice(begin: index, start: event.timestamp, end: nil))
                open[key, default: [:]][event.name, default: []].append(groups[key]!.count - 1)
            default:  // asyncInstant
                groups[key, default: []].append(
                    AsyncSlice(begin: index, start: event.timestamp, end: event.timestamp))
            }
        }
        return (groups, groupOrder)
    }

    /// Units: maximal nested trees of each group, in start order (longer first). A slice that
    /// does not nest in the tree so far starts a tree of its own.
    private static func nestedUnits(_ groups: [AsyncGroupKey: [AsyncSlice]], order: [AsyncGroupKey]) -> [AsyncUnit] {
        var units: [AsyncUnit] = []
        for key in order {
            guard var slices = groups[key], !slices.isEmpty else { continue }
            slices.sort { a, b in
                if a.start != b.start { return a.start < b.start }
                let (endA, endB) = (a.end ?? .max, b.end ?? .max)
                if endA != endB { return endA > endB }
                return a.begin < b.begin
            }
            var stack = NestingStack()
            var current: [AsyncSlice] = []
            var currentEnd = Int64.min
            for slice in slices {
                let end = slice.end ?? .max
                if current.isEmpty || slice.start >= currentEnd || !stack.push(start: slice.start, end: end) {
                    if !current.isEmpty { units.append((key.parent, current, currentEnd)) }
                    current = []
                    stack.removeAll()
                    _ = stack.push(start: slice.start, end: end)
                    currentEnd = end
                }
                current.append(slice)
            }
            if !current.isEmpty { units.append((key.parent, current, currentEnd)) }
        }
        return units
    }

    /// One nested tree on a free track named after its root.
    private mutating func writeUnit(_ unit: AsyncUnit, of trace: Trace, into out: inout ProtobufOutput) {
        let root = trace.events[unit.slices[0].begin]
        let track = asyncTrack(
            parent: unit.parent, name: root.name, from: unit.slices[0].start, until: unit.end, of: trace, into: &out
        )
        var ends: [Int64] = []
        for slice in unit.slices {
            while let top = ends.last, top <= slice.start {
                ends.removeLast()
                writeEvent(type: PerfettoSchema.Event.sliceEnd, track: track, timestamp: top, into: &out)
            }
            let event = trace.events[slice.begin]
            if event.phase == .asyncInstant {
                writeEvent(type: PerfettoSchema.Event.instant, track: track, event: event, of: trace, into: &out)
                continue
            }
            writeEvent(type: PerfettoSchema.Event.sliceBegin, track: track, event: event, of: trace, into: &out)
            if let sliceEnd = slice.end { ends.append(sliceEnd) }
        }
        while let top = ends.popLast() {
            writeEvent(type: PerfettoSchema.Event.sliceEnd, track: track, timestamp: top, into: &out)
        }
    }

    // MARK: - Packets

    /// Writes one packet on framescope's sequence; `body` fills the packet after the sequence id.
    @inline(__always)
    private func packet(into out: inout ProtobufOutput, _ body: (inout ProtobufOutput) -> Void) {
        out.message(PerfettoSchema.Trace.packet) { packet in
            packet.varint(PerfettoSchema.Packet.trustedPacketSequenceID, Self.sequenceID)
            body(&packet)
        }
    }

    private func rebased(_ timestamp: Int64) -> UInt64 {
        UInt64(max(0, timestamp.subtractingSaturatingForWriter(baseTimestamp)))
    }

    /// A slice end (no name, no arguments).
    private func writeEvent(type: UInt64, track: UInt64, timestamp: Int64, into out: inout ProtobufOutput) {
        writeEvent(type: type, track: track, rebasedTimestamp: rebased(timestamp), into: &out)
    }

    /// A slice end at a time already rebased.
    private func writeEvent(type: UInt64, track: UInt64, rebasedTimestamp: UInt64, into out: inout ProtobufOutput) {
        packet(into: &out) { packet in
            packet.varint(PerfettoSchema.Packet.timestamp, rebasedTimestamp)
            packet.message(PerfettoSchema.Packet.trackEvent) { event in
                event.varint(PerfettoSchema.Event.type, type)
                event.varint(PerfettoSchema.Event.trackUUID, track)
            }
        }
    }

    private enum CounterValue {
        case integer(Int64)
        case double(Double)
    }

    private func writeCounter(_ value: CounterValue, track: UInt64, timestamp: Int64, into out: inout ProtobufOutput) {
        packet(into: &out) { packet in
            packet.varint(PerfettoSchema.Packet.timestamp, rebased(timestamp))
            packet.message(PerfettoSchema.Packet.trackEvent) { event in
                event.varint(PerfettoSchema.Event.type, PerfettoSchema.Event.counter)
                event.varint(PerfettoSchema.Event.trackUUID, track)
                switch value {
                case .integer(let integer): event.int(PerfettoSchema.Event.counterValue, integer)
                case .double(let double): event.double(PerfettoSchema.Event.doubleCounterValue, double)
                }
            }
        }
    }

    /// A slice begin or an instant with its name, category, arguments and flows; strings new to
    /// the sequence are defined in the same packet.
    private mutating func writeEvent(
        type: UInt64, track: UInt64, event: TraceEvent, flows: [BoundFlow] = [], of trace: Trace,
        into out: inout ProtobufOutput
    ) {
        let (nameID, newName) = names.id(for: event.name, in: trace.symbols)
        let category = event.category == .empty ? nil : categories.id(for: event.category, in: trace.symbols)
        let arguments = trace.arguments(of: event)
        var newAnnotationNames: [(UInt64, String)] = []
        var annotationIDs: [UInt64] = []
        annotationIDs.reserveCapacity(arguments.count)
        for argument in arguments {
            let (id, isNew) = annotationNames.id(forKey: argument.key)
            annotationIDs.append(id)
            if isNew { newAnnotationNames.append((id, argument.key)) }
        }
        let needsInterning = newName || (category?.isNew ?? false) || !newAnnotationNames.isEmpty
        packet(into: &out) { packet in
            packet.varint(PerfettoSchema.Packet.timestamp, rebased(event.timestamp))
            packet.varint(PerfettoSchema.Packet.sequenceFlags, PerfettoSchema.Packet.needsIncrementalStateFlag)
            if needsInterning {
                packet.message(PerfettoSchema.Packet.internedData) { interned in
                    if let category, category.isNew {
                        interned.message(PerfettoSchema.Interned.eventCategories) { entry in
                            entry.varint(PerfettoSchema.Interned.iid, category.id)
                            entry.string(PerfettoSchema.Interned.string, trace.symbols[event.category])
                        }
                    }
                    if newName {
                        interned.message(PerfettoSchema.Interned.eventNames) { entry in
                            entry.varint(PerfettoSchema.Interned.iid, nameID)
                            entry.string(PerfettoSchema.Interned.string, trace.symbols[event.name])
                        }
                    }
                    for (id, key) in newAnnotationNames {
                        interned.message(PerfettoSchema.Interned.debugAnnotationNames) { entry in
                            entry.varint(PerfettoSchema.Interned.iid, id)
                            entry.string(PerfettoSchema.Interned.string, key)
                        }
                    }
                }
            }
            packet.message(PerfettoSchema.Packet.trackEvent) { out in
                out.varint(PerfettoSchema.Event.type, type)
                out.varint(PerfettoSchema.Event.trackUUID, track)
                out.varint(PerfettoSchema.Event.nameIID, nameID)
                if let category { out.varint(PerfettoSchema.Event.categoryIIDs, category.id) }
                for (position, argument) in arguments.enumerated() {
                    out.message(PerfettoSchema.Event.debugAnnotations) { annotation in
                        annotation.varint(PerfettoSchema.Annotation.nameIID, annotationIDs[position])
                        Self.writeAnnotationValue(argument.value, into: &annotation)
                    }
                }
                for flow in flows {
                    out.fixed64(
                        flow.terminating ? PerfettoSchema.Event.terminatingFlowIDs : PerfettoSchema.Event.flowIDs,
                        flow.id)
                }
            }
        }
    }

    /// A debug annotation's value; nested entries carry their names as plain strings.
    static func writeAnnotationValue(_ value: JSONValue, into out: inout ProtobufOutput, depth: Int = 0) {
        switch value {
        case .int(let integer): out.int(PerfettoSchema.Annotation.intValue, integer)
        case .double(let double): out.double(PerfettoSchema.Annotation.doubleValue, double)
        case .bool(let bool): out.bool(PerfettoSchema.Annotation.boolValue, bool)
        case .string(let string): out.string(PerfettoSchema.Annotation.stringValue, string)
        case .null: out.string(PerfettoSchema.Annotation.legacyJSONValue, "null")
        case .array(let elements):
            if elements.isEmpty {
                out.string(PerfettoSchema.Annotation.legacyJSONValue, "[]")
            }
            for element in elements {
                out.message(PerfettoSchema.Annotation.arrayValues) {
                    writeAnnotationValue(element, into: &$0, depth: depth + 1)
                }
            }
        case .object(let members):
            if members.isEmpty {
                out.string(PerfettoSchema.Annotation.legacyJSONValue, "{}")
            }
            for (key, member) in members {
                out.message(PerfettoSchema.Annotation.dictEntries) { entry in
                    entry.string(PerfettoSchema.Annotation.name, key)
                    writeAnnotationValue(member, into: &entry, depth: depth + 1)
                }
            }
        }
    }
}

/// Interned ids for the strings of one kind on framescope's packet sequence, from 1.
///
/// Ids are kept by string, since every chunk of a stream is a trace with a symbol table of its
/// own; a per-chunk cache by symbol spares hashing the string for every event.
private struct Interner: Sendable {
    private var byString: [String: UInt64] = [:]
    private var chunk: [UInt64] = []
    private var next: UInt64 = 1

    /// Starts a chunk whose symbol table has `count` symbols.
    mutating func startChunk(symbols count: Int) {
        chunk = Array(repeating: 0, count: count)
    }

    /// The id of a symbol of the current chunk, and whether this is the string's first use.
    mutating func id(for symbol: Symbol, in table: SymbolTable) -> (id: UInt64, isNew: Bool) {
        let index = Int(symbol.rawValue)
        if index < chunk.count, chunk[index] != 0 { return (chunk[index], false) }
        let result = id(forKey: table[symbol])
        if index < chunk.count { chunk[index] = result.id }
        return result
    }

    /// The id of a string, and whether this is its first use.
    mutating func id(forKey key: String) -> (id: UInt64, isNew: Bool) {
        if let id = byString[key] { return (id, false) }
        let id = next
        next += 1
        byString[key] = id
        return (id, true)
    }
}

extension Int64 {
    /// `self - other`, clamped to the representable range instead of trapping.
    fileprivate func subtractingSaturatingForWriter(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }
}

extension Trace {
    /// The trace as one Perfetto protobuf `Trace` (see ``PerfettoTraceWriter``).
    ///
    /// Timestamps are rebased so the earliest event is at 0.
    /// - Returns: The file's bytes.
    public func perfettoProtobuf() -> [UInt8] { PerfettoTraceWriter.document(for: self) }
}
