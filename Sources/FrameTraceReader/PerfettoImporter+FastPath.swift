@_spi(FramescopeInternals) import FrameTrace

// The common packet, read in one pass over raw bytes: a TrackEvent slice or instant (or a
// counter) with a timestamp, a sequence id, sequence flags and perhaps interned data, which is
// what Perfetto's SDK and framescope's writer emit for nearly every packet.
//
// `CommonPacketDecoder` reads a packet's fields only when every field is one it knows, in the
// wire type it expects, and every varint and length is well formed; anything else (another
// field, a malformed byte, a legacy event) leaves it to the general reader
// (`PerfettoParser.parsePacket`), which reads the packet and reports any error with
// its byte. `PerfettoParser.applyCommon` then applies what it read, or hands the
// packet to the general reader as well before changing anything but interned state. So this
// path only decides how fast a packet is read, never what it reads as.
//
// Decoding depends on the packet's bytes alone, so a worker thread can run it ahead of the
// parser (`PacketFramer`); applying needs the state of every packet before.

/// A packet of the common shape, its fields read: plain values without references, so that a
/// worker thread can decode packets ahead of the parser and hand them over in batches.
struct CommonPacket {
    var timestamp: UInt64 = 0
    var sequence: UInt64 = 0
    var flags: UInt64 = 0
    var interned: Range<Int>?
    var type: UInt64 = 0
    var track: UInt64 = 0
    var nameIID: UInt64?
    var categoryIID: UInt64?
    /// 0: no counter value; 1: `counterBits` is an integer's; 2: a double's.
    var counterKind: UInt8 = 0
    var counterBits: UInt64 = 0
    /// From the first annotation's key to the end of the last
    /// (``PerfettoParser/annotationList(_:slot:frameReporter:)``).
    var annotations: Range<Int>?
    var flows = InlineFlows()
}

/// Reads packets of the common shape from raw bytes. It changes nothing, so it runs on either
/// thread.
struct CommonPacketDecoder {
    let buffer: UnsafeBufferPointer<UInt8>
    /// ``FrameTrace/TraceEvent/timeLimitNanoseconds``, held here rather than read from the
    /// global for every packet.
    private let timeLimit = UInt64(TraceEvent.timeLimitNanoseconds)

    init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    /// A varint at `position` before `end`: its value and the position after it, or `nil` when
    /// it is malformed or cut off (the general reader then says which).
    @inline(__always)
    func rawVarint(_ position: inout Int, _ end: Int) -> UInt64? {
        guard position < end else { return nil }
        let first = buffer[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        // Up to eight bytes at once (timestamps and track uuids take five to eight): the first
        // byte without its continuation bit ends it, and the 7-bit groups are packed together.
        if end - position >= 8 {
            let word = UnsafeRawPointer(buffer.baseAddress! + position).loadUnaligned(as: UInt64.self).littleEndian
            let stops = ~word & 0x8080_8080_8080_8080
            if stops != 0 {
                let length = stops.trailingZeroBitCount / 8 + 1
                var value = word & 0x7F7F_7F7F_7F7F_7F7F
                if length < 8 { value &= (1 << (8 * UInt64(length))) - 1 }
                value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) >> 1)
                value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) >> 2)
                value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) >> 4)
                position += length
                return value
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        while index < end, shift <= 63 {
            let byte = buffer[index]
            if shift == 63, byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            index += 1
            if byte < 0x80 {
                position = index
                return result
            }
            shift += 7
        }
        return nil
    }

    /// A length-delimited value's bounds, or `nil` when its length is malformed or runs past `end`.
    @inline(__always)
    private func rawLength(_ position: inout Int, _ end: Int) -> Range<Int>? {
        guard let length = rawVarint(&position, end), length <= UInt64(end - position) else { return nil }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// Reads the fields of the packet in `range` into `packet`, overwriting all of them; `false`
    /// (and `packet` is not to be read) when the packet is not of the common shape.
    func decode(_ range: Range<Int>, into packet: inout CommonPacket) -> Bool {
        packet.flows = InlineFlows()
        packet.counterKind = 0
        guard let fields = packetFields(range),
            fields.flags
                & ~(PerfettoSchema.Packet.incrementalStateClearedFlag | PerfettoSchema.Packet.needsIncrementalStateFlag)
                == 0,
            let trackEvent = fields.trackEvent, let timestamp = fields.timestamp, timestamp <= timeLimit,
            decodeTrackEvent(trackEvent, into: &packet)
        else { return false }
        packet.timestamp = timestamp
        packet.sequence = fields.sequence
        packet.flags = fields.flags
        packet.interned = fields.interned
        return true
    }

    /// The packet fields of the common shape, as read.
    private struct PacketFields {
        var timestamp: UInt64?
        var sequence: UInt64 = 0
        var flags: UInt64 = 0
        var trackEvent: Range<Int>?
        var interned: Range<Int>?
    }

    /// The fields of the packet in `range`; `nil` when one is not of the common shape.
    @inline(__always)
    private func packetFields(_ range: Range<Int>) -> PacketFields? {
        var fields = PacketFields()
        var position = range.lowerBound
        let end = range.upperBound
        while position < end {
            guard let key = rawVarint(&position, end) else { return nil }
            switch key {
            case 0x40:
                guard let value = rawVarint(&position, end) else { return nil }
                fields.timestamp = value  // 8, varint
            case 0x50:
                guard let value = rawVarint(&position, end) else { return nil }
                fields.sequence = value  // 10, varint
            case 0x68:
                guard let value = rawVarint(&position, end) else { return nil }
                fields.flags = value  // 13, varint
            case 0x5A:
                guard fields.trackEvent == nil, let value = rawLength(&position, end) else { return nil }
                fields.trackEvent = value  // 11
            case 0x62:
                guard fields.interned == nil, let value = rawLength(&position, end) else { return nil }
                fields.interned = value  // 12
            default: return nil
            }
        }
        return fields
    }

    /// Reads the TrackEvent in `trackEvent` into `packet`; `false` when it is not of the common
    /// shape (a slice, instant or counter on a track, with the fields the common shape has).
    @inline(__always)
    private func decodeTrackEvent(_ trackEvent: Range<Int>, into packet: inout CommonPacket) -> Bool {
        var type: UInt64 = 0
        var track: UInt64?
        var nameIID: UInt64?
        var categoryIID: UInt64?
        var annotations: Range<Int>?
        var position = trackEvent.lowerBound
        let end = trackEvent.upperBound
        while position < end {
            let fieldStart = position
            guard let key = rawVarint(&position, end) else { return false }
            switch key {
            case 0x48:
                guard let value = rawVarint(&position, end) else { return false }
                type = value  // 9
            case 0x58:
                guard let value = rawVarint(&position, end) else { return false }
                track = value  // 11
            case 0x50:
                guard let value = rawVarint(&position, end) else { return false }
                nameIID = value  // 10
            case 0x18:  // 3, category_iids: one
                guard categoryIID == nil, let value = rawVarint(&position, end) else { return false }
                categoryIID = value
            case 0x22:  // 4, debug_annotations
                guard let value = rawLength(&position, end) else { return false }
                annotations = (annotations?.lowerBound ?? fieldStart)..<value.upperBound
            case 0x179, 0x181, 0xF0, 0x161:
                guard readFlowOrCounter(key, &position, end, into: &packet) else { return false }
            default:
                return false
            }
        }
        guard let track,
            type == PerfettoSchema.Event.sliceBegin || type == PerfettoSchema.Event.sliceEnd
                || type == PerfettoSchema.Event.instant || type == PerfettoSchema.Event.counter
        else { return false }
        packet.type = type
        packet.track = track
        packet.nameIID = nameIID
        packet.categoryIID = categoryIID
        packet.annotations = annotations
        return true
    }

    /// A flow id (47 and 48, `flow_ids` and `terminating_flow_ids`: fixed64, not packed) or a
    /// counter value (30, `counter_value`; 44, `double_counter_value`) at `position`, by its key.
    @inline(__always)
    private func readFlowOrCounter(_ key: UInt64, _ position: inout Int, _ end: Int, into packet: inout CommonPacket)
        -> Bool
    {
        switch key {
        case 0xF0:  // 30, counter_value
            guard let value = rawVarint(&position, end) else { return false }
            packet.counterKind = 1
            packet.counterBits = value
            return true
        case 0x161:  // 44, double_counter_value
            guard end - position >= 8 else { return false }
            packet.counterKind = 2
            packet.counterBits = fixed64(at: position)
        default:  // 0x179, 0x181: flow ids, 0x181 terminating
            guard end - position >= 8, packet.flows.count < InlineFlows.capacity else { return false }
            packet.flows.append(fixed64(at: position), terminating: key == 0x181)
        }
        position += 8
        return true
    }

    /// The eight little-endian bytes at `position` (the caller checked they are there).
    @inline(__always)
    private func fixed64(at position: Int) -> UInt64 {
        UnsafeRawPointer(buffer.baseAddress! + position).loadUnaligned(as: UInt64.self).littleEndian
    }
}

extension PerfettoParser {
    /// Reads the packet in `range` if it has the common shape; `false` (nothing changed) otherwise.
    mutating func fastPacket(_ range: Range<Int>, offset: Int) -> Bool {
        var packet = CommonPacket()
        guard CommonPacketDecoder(buffer: buffer).decode(range, into: &packet) else { return false }
        return withUnsafePointer(to: packet) { applyCommon($0, offset: offset) }
    }

    /// Applies a decoded packet as the general path would; `false` when the general path must
    /// read it after all (an annotation or interned data malformed inside), before anything but
    /// interned state changed.
    mutating func applyCommon(_ packet: UnsafePointer<CommonPacket>, offset: Int) -> Bool {
        let sequence = packet.pointee.sequence
        let type = packet.pointee.type
        let track = packet.pointee.track
        let slot = interning.slot(of: sequence)
        guard applySequenceFlags(packet.pointee.flags, slot: slot, sequence: sequence, offset: offset) else {
            return true  // dropped
        }
        if let interned = packet.pointee.interned {
            let input = ProtobufInput(buffer).input(over: interned)
            guard (try? parseInternedData(input, slot: slot)) != nil else { return false }
        }
        let time = Int64(packet.pointee.timestamp)
        if time > building.lastTimestamp { building.lastTimestamp = time }
        if type == PerfettoSchema.Event.counter {
            switch packet.pointee.counterKind {
            case 1:
                appendCounter(
                    .int(Int64(bitPattern: packet.pointee.counterBits)), uuid: track, timestamp: time, offset: offset)
            case 2:
                appendCounter(
                    .double(Double(bitPattern: packet.pointee.counterBits)), uuid: track, timestamp: time,
                    offset: offset)
            default: break
            }
            return true
        }
        if type == PerfettoSchema.Event.sliceEnd {
            appendToTrack(
                uuid: track, type: type, timestamp: time, name: .empty, category: .empty, arguments: 0, flows: 0..<0,
                offset: offset)
            return true
        }
        let name = internedName(packet.pointee.nameIID, slot: slot, sequence: sequence, offset: offset)
        let category = internedCategory(packet.pointee.categoryIID, slot: slot, sequence: sequence, offset: offset)
        // Malformed inside an annotation: the general path reports it. Nothing of this packet has
        // been placed yet, but the state above was: re-reading it is harmless (interning again
        // gives the same symbols; a cleared sequence clears again).
        guard let arguments = try? annotationList(packet.pointee.annotations, slot: slot) else { return false }
        let flowStart = building.flowArena.count
        if packet.pointee.flows.count > 0 { packet.pointee.flows.appendOrdered(to: &building.flowArena) }
        appendToTrack(
            uuid: track, type: type, timestamp: time, name: name, category: category, arguments: arguments,
            flows: flowStart..<building.flowArena.count,
            offset: offset)
        return true
    }

    /// Applies a packet's sequence flags: a cleared incremental state starts the sequence's
    /// anew; `false` (dropped, counted and logged) when the packet needs state its sequence
    /// never set.
    @inline(__always)
    mutating func applySequenceFlags(_ flags: UInt64, slot: Int, sequence: UInt64, offset: Int) -> Bool {
        if flags & PerfettoSchema.Packet.incrementalStateClearedFlag != 0 {
            interning.sequences[slot] = interning.makeSequence(isValid: true)
        }
        guard flags & PerfettoSchema.Packet.needsIncrementalStateFlag != 0, !interning.sequences[slot].isValid else {
            return true
        }
        skipped.droppedPackets += 1
        if trace.log.lists(.invalidEvent) {
            trace.log.add(
                .invalidEvent, nil,
                "packet at byte \(offset) needs incremental state that sequence \(sequence) never set; dropped, as Perfetto drops it"
            )
        }
        return false
    }

    /// An event's interned name, a placeholder (logged) for an iid its sequence never defined,
    /// or the empty name for none.
    @inline(__always)
    mutating func internedName(_ iid: UInt64?, slot: Int, sequence: UInt64, offset: Int) -> Symbol {
        guard let iid else { return .empty }
        if let raw = interning.sequences[slot].names[iid] { return Symbol(rawValue: raw) }
        let placeholder = trace.symbols.intern("(undefined name iid \(iid))")
        trace.log.add(
            .invalidEvent, nil,
            "packet at byte \(offset): event name iid \(iid) is never defined on sequence \(sequence); the event is kept under a placeholder name"
        )
        return placeholder
    }

    /// An event's one interned category, a placeholder (logged) for an iid its sequence never
    /// defined, or the empty category for none.
    @inline(__always)
    private mutating func internedCategory(_ iid: UInt64?, slot: Int, sequence: UInt64, offset: Int) -> Symbol {
        guard let iid else { return .empty }
        if let raw = interning.sequences[slot].categories[iid] { return Symbol(rawValue: raw) }
        let placeholder = trace.symbols.intern("(undefined category iid \(iid))")
        trace.log.add(
            .invalidEvent, nil,
            "packet at byte \(offset): category iid \(iid) is never defined on sequence \(sequence)")
        return placeholder
    }

    /// ``appendToTrack(uuid:legacyThread:_:)`` for an event on a track, without making a
    /// ``PendingEvent`` unless the track is not described yet.
    @inline(__always)
    private mutating func appendToTrack(
        uuid: UInt64, type: UInt64, timestamp: Int64, name: Symbol, category: Symbol, arguments: UInt32,
        flows: Range<Int>, offset: Int
    ) {
        guard let lane = lane(forUUID: uuid) else {
            building.deferred.append(
                PendingEvent(
                    uuid: uuid, type: type, timestamp: timestamp, name: name, category: category, arguments: arguments,
                    flows: flows,
                    counter: nil, offset: offset))
            return
        }
        place(
            type: type, timestamp: timestamp, name: name, category: category, arguments: arguments, flows: flows,
            on: lane)
    }

}

/// Up to four flow ids of one event, held without an array until the event is placed.
struct InlineFlows {
    static let capacity = 4
    private var ids: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// Bit `n` set: the `n`th id terminates its flow.
    private var terminating: UInt8 = 0
    private(set) var count = 0

    /// Adds an id; the caller checked that there is room.
    mutating func append(_ id: UInt64, terminating isTerminating: Bool) {
        switch count {
        case 0: ids.0 = id
        case 1: ids.1 = id
        case 2: ids.2 = id
        default: ids.3 = id
        }
        if isTerminating { terminating |= 1 << count }
        count += 1
    }

    /// Appends the ids as the general reader orders them: flow ids, then terminating flow ids,
    /// each in the order they were read.
    func appendOrdered(to arena: inout [(id: UInt64, terminating: Bool)]) {
        guard count > 0 else { return }
        for pass: UInt8 in 0...1 {  // flow ids, then terminating ones
            for index in 0..<count where (terminating >> index) & 1 == pass {
                let id =
                    switch index {
                    case 0: ids.0
                    case 1: ids.1
                    case 2: ids.2
                    default: ids.3
                    }
                arena.append((id, pass == 1))
            }
        }
    }
}
