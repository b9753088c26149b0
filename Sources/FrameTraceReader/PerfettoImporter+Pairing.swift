@_spi(FramescopeInternals) import FrameTrace

/// Stage four of reading a Perfetto trace, pairing: each track's slices on a lane (a thread's,
/// paired as they are read while they come in time order, else by ``BeginEndPairer``; an async
/// track's, as async pairs with one id per top-level slice), and flows, settled in time order
/// once every event is read. The event builder (`+Events`) places events on lanes; reading ends
/// with ``PerfettoParser/pairLanes()`` and ``PerfettoParser/settleFlows()`` (below).
extension PerfettoParser {
    /// The pairing stage's state.
    struct Pairing {
        /// Whether a thread's slices are paired as they are read (a stack per lane, no records),
        /// which holds while each thread's begins and ends come in time order.
        let pairsAsItReads: Bool
        /// Set when a thread's slices turn out not to be in time order while pairing as they are
        /// read: the read stops, and the caller reads again with `pairsAsItReads` off.
        var needsSecondPass = false
        /// Slice tracks: TrackEvent tracks by uuid, atrace threads by key.
        var lanes: [SliceLane] = []
        var laneByUUID: [UInt64: Int] = [:]
        var laneByThread: [ThreadKey: Int] = [:]
        /// The last uuid looked up and its lane: a thread's events come in runs.
        var lastLane: (uuid: UInt64, lane: Int) = (.max, -1)
        /// Flow events, appended to the trace in time order once every event is read.
        var flowEvents: [TraceEvent] = []
        var nextAsyncID: UInt64 = 1
    }

    /// One track's slices, paired once every event is read.
    struct SliceLane {
        /// The thread its spans belong to; `nil` for an async track, whose slices are async pairs.
        var thread: ThreadKey?
        /// For an async track: the process and thread its events carry.
        var owner: ThreadKey
        /// Begins and ends for BeginEndPairer: every slice of an async track, and of a thread
        /// when the reader does not pair as it reads.
        var records: [BeginEndPairer.Record] = []
        /// A thread paired as it is read: its open begins (event indices), innermost last, and
        /// the ends that closed nothing.
        var open: [Int] = []
        var unmatched = 0
        var lastTimestamp = Int64.min
        var isOrdered = true
    }

    /// What placing a slice begin, end or instant records on its lane, in one access to it:
    /// `closed`, the event index of the begin an end closes as it is read (else -1), and
    /// `outOfOrder` when a lane paired as it is read goes back in time (nothing recorded).
    @inline(__always)
    static func record(
        type: UInt64, timestamp: Int64, name: Symbol, event: Int, pairsNow: Bool, on lane: inout SliceLane
    ) -> (closed: Int, outOfOrder: Bool) {
        // Begins and ends in time order pair with a stack; out of order, the lane is sorted first.
        if type != PerfettoSchema.Event.instant {
            if timestamp < lane.lastTimestamp {
                lane.isOrdered = false
                if pairsNow { return (-1, true) }
            }
            lane.lastTimestamp = timestamp
        }
        switch type {
        case PerfettoSchema.Event.sliceEnd:
            if pairsNow {
                // As pairLanes pairs an ordered lane: the innermost open begin, whatever its name.
                if !lane.open.isEmpty { return (lane.open.removeLast(), false) }
                lane.unmatched += 1
            } else {
                lane.records.append(
                    BeginEndPairer.Record(timestamp: timestamp, inputIndex: event, name: nil, isEnd: true, payload: -1))
            }
        case PerfettoSchema.Event.sliceBegin:
            if pairsNow {
                lane.open.append(event)
            } else {
                lane.records.append(
                    BeginEndPairer.Record(
                        timestamp: timestamp, inputIndex: event, name: name, isEnd: false, payload: event))
            }
        default:
            break
        }
        return (-1, false)
    }

    /// Appends the flow events in time order: each id's earliest occurrence that does not end
    /// it is its start. Flows that start and never end, or end without starting, are counted.
    mutating func settleFlows() {
        guard !pairing.flowEvents.isEmpty else { return }
        var ordered: [(timestamp: Int64, index: Int)] = []
        ordered.reserveCapacity(pairing.flowEvents.count)
        for (index, event) in pairing.flowEvents.enumerated() { ordered.append((event.timestamp, index)) }
        if zip(ordered, ordered.dropFirst()).contains(where: { $0.timestamp > $1.timestamp }) {
            ordered.sort { ($0.timestamp, $0.index) < ($1.timestamp, $1.index) }
        }
        // Per id, one lookup: bit 0 once it started, bit 1 once it ended.
        var states = FlowIDStates(ids: pairing.flowEvents)
        trace.events.reserveCapacity(trace.events.count + pairing.flowEvents.count)
        for (_, index) in ordered {
            var event = pairing.flowEvents[index]
            if event.phase == .flowEnd {
                states[event.id] |= 2
            } else {
                let seen = states[event.id]
                if seen & 1 == 0 {
                    states[event.id] = seen | 1
                    event.phase = .flowStart
                }
            }
            trace.events.append(event)
        }
        pairing.flowEvents = []
        var unfinished = 0
        var unstarted = 0
        states.forEachState { state in
            if state == 1 { unfinished += 1 } else if state == 2 { unstarted += 1 }
        }
        if unfinished > 0 {
            trace.log.addSummary(
                .unmatchedFlow, nil, "\(unfinished) flow\(unfinished == 1 ? "" : "s") start but never end",
                count: unfinished)
        }
        if unstarted > 0 {
            trace.log.addSummary(
                .unmatchedFlow, nil, "\(unstarted) flow\(unstarted == 1 ? "" : "s") end but never start",
                count: unstarted)
        }
    }

    /// Pairs every lane's begins and ends: spans on thread lanes, async pairs (one id per
    /// top-level slice) elsewhere.
    mutating func pairLanes() {
        for index in pairing.lanes.indices {
            let lane = pairing.lanes[index]
            guard !lane.records.isEmpty || !lane.open.isEmpty || lane.unmatched > 0 else { continue }
            let (closed, open, unmatched) = Self.pairRecords(of: lane)
            if unmatched > 0 {
                trace.log.addSummary(
                    .unmatchedEnd, nil,
                    "\(unmatched) slice end\(unmatched == 1 ? "" : "s") on \(describe(lane)) close\(unmatched == 1 ? "s" : "") nothing",
                    count: unmatched)
            }
            if lane.thread != nil {
                closeSpans(closed, open: open, on: lane)
            } else {
                pairAsyncSlices(closed, open: open, on: lane)
            }
        }
    }

    /// A lane's begins paired with their ends: those closed (the begin's event and the end's
    /// time), those left open, and how many ends closed nothing.
    private static func pairRecords(of lane: SliceLane) -> (
        closed: [(begin: Int, end: Int64)], open: [Int], unmatched: Int
    ) {
        var closed: [(begin: Int, end: Int64)] = []
        var unmatched = lane.unmatched
        if lane.records.isEmpty {
            // Paired as it was read (``place(_:on:)``): only what stayed open or closed nothing.
            return (closed, lane.open, unmatched)
        }
        if lane.isOrdered {
            var stack: [Int] = []
            for record in lane.records {
                if !record.isEnd {
                    stack.append(record.payload)
                } else if let begin = stack.popLast() {
                    closed.append((begin, record.timestamp))
                } else {
                    unmatched += 1
                }
            }
            return (closed, stack, unmatched)
        }
        let (outcomes, left) = BeginEndPairer.pair(lane.records)
        for outcome in outcomes {
            switch outcome {
            case .closed(let begin, let end): closed.append((begin.payload, end.timestamp))
            case .unmatched: unmatched += 1
            }
        }
        return (closed, left.map(\.payload), unmatched)
    }

    /// A thread lane's spans: each closed one lasts to its end, each open one to the trace's
    /// last time (logged).
    private mutating func closeSpans(_ closed: [(begin: Int, end: Int64)], open: [Int], on lane: SliceLane) {
        for (begin, end) in closed {
            trace.events[begin].duration = max(0, end &- trace.events[begin].timestamp)
        }
        for begin in open {
            trace.events[begin].duration = max(0, building.lastTimestamp &- trace.events[begin].timestamp)
            trace.log.add(
                .unclosedBegin, nil,
                "slice \(quoted(trace.symbols[trace.events[begin].name])) on \(describe(lane)) is never closed; it is closed at the trace's end"
            )
        }
    }

    /// Another lane's slices as async pairs, one id per top-level slice: begins in time order
    /// against a stack of ends; an open slice gets no end (logged).
    private mutating func pairAsyncSlices(_ closed: [(begin: Int, end: Int64)], open: [Int], on lane: SliceLane) {
        var pairs = closed.map { (begin: $0.begin, end: Optional($0.end)) } + open.map { (begin: $0, end: Int64?.none) }
        pairs.sort {
            (trace.events[$0.begin].timestamp, $0.begin) < (trace.events[$1.begin].timestamp, $1.begin)
        }
        var ends: [Int64] = []
        var id: UInt64 = 0
        for pair in pairs {
            let start = trace.events[pair.begin].timestamp
            while let top = ends.last, top <= start { ends.removeLast() }
            if ends.isEmpty {
                id = pairing.nextAsyncID
                pairing.nextAsyncID += 1
            }
            trace.events[pair.begin].id = id
            guard let end = pair.end else {
                trace.log.add(
                    .unmatchedAsync, nil,
                    "slice \(quoted(trace.symbols[trace.events[pair.begin].name])) on \(describe(lane)) is never closed"
                )
                ends.append(.max)
                continue
            }
            ends.append(max(start, end))
            var endEvent = trace.events[pair.begin]
            endEvent.phase = .asyncEnd
            endEvent.timestamp = max(start, end)
            endEvent.arguments = 0
            trace.events.append(endEvent)
        }
    }

    func describe(_ lane: SliceLane) -> String {
        if let thread = lane.thread { return "thread \(thread)" }
        return "a track of process \(lane.owner.processID)"
    }

}

/// A few bits of state per flow id, 0 for an id not seen. Flow ids are mostly small counters
/// (Chrome's and framescope's writers number flows from 1): then the states are an array indexed
/// by id, with no hashing; ids spread wider than a few per flow event (pointers, random ids) go
/// to a dictionary, whose seeded hash keeps any set of ids a file can choose linear.
struct FlowIDStates {
    private var dense: [UInt8] = []
    private var sparse: [UInt64: UInt8] = [:]
    private let isDense: Bool

    /// States for the ids of `events`, all 0.
    init(ids events: [TraceEvent]) {
        let largest = events.reduce(UInt64(0)) { max($0, $1.id) }
        // At most four bytes per flow event (or 4 KiB), and never more than 64 MiB.
        let limit = min(max(4_096, events.count.multipliedReportingOverflow(by: 4).partialValue), 1 << 26)
        isDense = largest < UInt64(limit)
        if isDense {
            dense = Array(repeating: 0, count: Int(largest) + 1)
        } else {
            sparse.reserveCapacity(events.count / 2)
        }
    }

    subscript(id: UInt64) -> UInt8 {
        get { isDense ? dense[Int(id)] : sparse[id, default: 0] }
        set {
            if isDense { dense[Int(id)] = newValue } else { sparse[id] = newValue }
        }
    }

    /// Calls `body` with the state of every id that has one other than 0.
    func forEachState(_ body: (UInt8) -> Void) {
        if isDense {
            for state in dense where state != 0 { body(state) }
        } else {
            for state in sparse.values where state != 0 { body(state) }
        }
    }
}
