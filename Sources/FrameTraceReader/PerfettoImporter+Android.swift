@_spi(FramescopeInternals) import FrameTrace

extension PerfettoImporter {
    /// How SurfaceFlinger's FrameTimeline reads, as trace processor reads it (its
    /// `FrameTimelineEventParser`, whose diff tests the reader's tests reproduce): events are
    /// taken in time order; each expected and actual frame, display (in SurfaceFlinger's process)
    /// or surface (in the app's), becomes a slice named after its timeline, `Expected Timeline` or
    /// `Actual Timeline` (``FrameTrace/FrameContract/Timeline``'s names, the ones Perfetto's UI
    /// gives these tracks), holding a child slice named by the frame's token as trace processor
    /// names it; a `FrameEnd` with the frame's cookie ends both. A second expected surface frame
    /// for the same process and token is dropped, as trace processor drops it. The outer slice
    /// carries the frame's fields as arguments under trace processor's names, with its strings
    /// (``Key``): `Jank type` reads `App Deadline Missed, Buffer Stuffing`.
    package enum FrameTimeline {
        /// Argument keys of FrameTimeline slices.
        package enum Key {
            package static let surfaceFrameToken = "Surface frame token"
            package static let displayFrameToken = "Display frame token"
            package static let layerName = "Layer name"
            package static let presentType = "Present type"
            package static let onTimeFinish = "On time finish"
            package static let gpuComposition = "GPU composition"
            package static let jankType = "Jank type"
            package static let jankSeverityType = "Jank severity type"
            package static let predictionType = "Prediction type"
            package static let jankTag = "Jank tag"
            package static let isBuffer = "Is Buffer?"
        }

        /// `JankType` bits, named as trace processor names them, in the order it joins them.
        package static let jankBits: [(bit: UInt64, name: String)] = [
            (2, "SurfaceFlinger Scheduling"), (4, "Prediction Error"), (8, "Display HAL"),
            (16, "SurfaceFlinger CPU Deadline Missed"), (32, "SurfaceFlinger GPU Deadline Missed"),
            (64, "App Deadline Missed"), (4096, "App Resynced Jitter"), (128, "Buffer Stuffing"), (256, "Unknown Jank"),
            (512, "SurfaceFlinger Stuffing"), (1024, "Dropped Frame"), (2048, "Non Animating"),
            (8192, "Display not ON"),
            (16384, "ModeChange in progress"), (32768, "PowerModeChange in progress"),
        ]
        static let jankNone: UInt64 = 1
        static let appDeadlineMissed: UInt64 = 64
        static let bufferStuffing: UInt64 = 128
        static let unknownJank: UInt64 = 256
        static let surfaceFlingerStuffing: UInt64 = 512
        static let droppedFrame: UInt64 = 1024
        static let appResyncedJitter: UInt64 = 4096
        static let displayNotOn: UInt64 = 8192
        /// The bits of a frame Android does not count as jank because nobody could see it: the
        /// display was not animating, off, or changing mode or power mode. A jank type of only
        /// these is trace processor's `Non-perceivable Jank` tag.
        static let nonPerceivableBits: UInt64 = 2048 | 8192 | 16384 | 32768
        /// The bits that make a display frame janky: SurfaceFlinger's and the display's.
        static let displayJankBits: UInt64 = 2 | 4 | 8 | 16 | 32
        static let presentDropped: UInt64 = 4

        /// `PresentType` by value.
        package static let presentTypes = [
            "Unspecified Present", "On-time Present", "Late Present", "Early Present", "Dropped Frame",
            "Unknown Present",
        ]
        /// `PredictionType` by value.
        package static let predictionTypes = [
            "Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction",
        ]
        /// `JankSeverityType` by value.
        package static let jankSeverityTypes = ["Unknown", "None", "Partial", "Full"]

        /// The `Jank type` string: `Unspecified` for 0, `None` for exactly 1, else the names of
        /// the set bits joined by `, ` in trace processor's order (bits it does not name add
        /// nothing). The mode-change bits (16384, 32768) are named as SurfaceFlinger's
        /// `FrameTimeline` and Perfetto's UI name them, last.
        package static func jankTypeName(_ bits: UInt64) -> String {
            if bits == 0 { return "Unspecified" }
            if bits == jankNone { return "None" }
            return jankBits.filter { bits & $0.bit != 0 }.map(\.name).joined(separator: ", ")
        }

        /// Whether the bits are only non-perceivable ones (with `None` or not), at least one.
        static func isNonPerceivable(_ bits: UInt64) -> Bool {
            bits & nonPerceivableBits != 0 && bits & ~(nonPerceivableBits | jankNone) == 0
        }

        static func isDisplayJanky(_ bits: UInt64) -> Bool {
            guard bits != 0, bits != jankNone, !isNonPerceivable(bits) else { return false }
            return bits & displayJankBits != 0
        }

        static func isSurfaceJanky(_ bits: UInt64) -> Bool {
            guard bits != 0, bits != jankNone, !isNonPerceivable(bits) else { return false }
            return bits & (appDeadlineMissed | appResyncedJitter | unknownJank) != 0
        }

        /// trace processor's `Jank tag` of a display frame.
        static func displayJankTag(_ bits: UInt64) -> String {
            if bits == 0 { return "Unspecified" }
            if isDisplayJanky(bits) { return "Self Jank" }
            switch bits {
            case surfaceFlingerStuffing: return "SurfaceFlinger Stuffing"
            case droppedFrame: return "Dropped Frame"
            default: return isNonPerceivable(bits) ? "Non-perceivable Jank" : "No Jank"
            }
        }

        /// trace processor's `Jank tag` of a surface frame.
        static func surfaceJankTag(_ bits: UInt64, present: UInt64?) -> String {
            if bits == 0 { return "Unspecified" }
            if isSurfaceJanky(bits) { return "Self Jank" }
            if isDisplayJanky(bits) { return "Other Jank" }
            if bits == bufferStuffing { return "Buffer Stuffing" }
            if present == presentDropped { return "Dropped Frame" }
            return isNonPerceivable(bits) ? "Non-perceivable Jank" : "No Jank"
        }
    }
}

extension PerfettoParser {
    /// The Android stage's state: atrace's lanes and open async slices, and FrameTimeline's
    /// events until they are placed in time order (``PerfettoImporter/FrameTimeline``).
    struct AndroidState {
        /// The thread each tid belongs to, from `process_tree` (atrace lines may omit it).
        var threadProcess: [Int64: Int64] = [:]
        /// atrace begin/end lanes by thread id.
        var atraceLanes: [Int64: Int] = [:]
        /// Open atrace async slices by identity: their ids, innermost last.
        var atraceAsync: [AtraceAsyncKey: [UInt64]] = [:]
        /// FrameTimeline events, placed in time order once every packet is read.
        var frameTimelineEvents: [FrameTimelineEvent] = []
    }
}

extension PerfettoParser {
    // MARK: - ftrace (atrace)

    mutating func parseFtrace(_ input: ProtobufInput) throws(TraceReadError) {
        var input = input
        while let (field, type) = try input.nextField() {
            guard field == PerfettoSchema.Ftrace.event, type == .lengthDelimited else {
                try input.skip(type)
                continue
            }
            var event = try input.message()
            let eventStart = event.position
            var timestamp: UInt64?
            var tid: Int64 = 0
            var buffer: Range<Int>?
            while let (inner, innerType) = try event.nextField() {
                switch (inner, innerType) {
                case (PerfettoSchema.Ftrace.timestamp, .varint): timestamp = try event.varint()
                case (PerfettoSchema.Ftrace.pid, .varint): tid = Int64(UInt32(truncatingIfNeeded: try event.varint()))
                case (PerfettoSchema.Ftrace.print, .lengthDelimited):
                    var print = try event.message()
                    while let (printField, printType) = try print.nextField() {
                        if printField == PerfettoSchema.Ftrace.printBuffer, printType == .lengthDelimited {
                            buffer = try print.lengthDelimited()
                        } else {
                            try print.skip(printType)
                        }
                    }
                default:
                    try event.skip(innerType)
                    if innerType == .lengthDelimited { skipped.skippedFields["ftrace event \(inner)", default: 0] += 1 }
                }
            }
            guard let buffer else { continue }
            guard let time = checkedTime(timestamp, offset: eventStart) else { continue }
            parseAtrace(event.string(buffer), timestamp: time, tid: tid)
        }
    }

    /// One atrace line: `B|pid|name`, `E|pid`, `C|pid|name|value`, `S|pid|name|cookie`,
    /// `F|pid|name|cookie`, `I|pid|name`, `N|pid|track|name`, `G|pid|track|name|cookie`,
    /// `H|pid|track|name|cookie`.
    mutating func parseAtrace(_ line: String, timestamp: Int64, tid: Int64) {
        var text = Substring(line)
        while let last = text.last, last == "\n" || last == "\0" { text.removeLast() }
        let parts = text.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false)
        guard let kind = parts.first, kind.count == 1 else {
            skipped.skippedFields["atrace line that is not B/E/C/S/F/I/N/G/H", default: 0] += 1
            return
        }
        let pid = parts.count > 1 ? Int64(parts[1].trimmingSpaces) : nil
        let process = pid ?? android.threadProcess[tid] ?? tid
        let thread = ThreadKey(processID: process, threadID: tid)
        if trace.threads[thread] == nil { trace.threads[thread] = TraceThread(key: thread) }
        if trace.processes[process] == nil { trace.processes[process] = TraceProcess(processID: process) }
        switch kind {
        case "B", "E":
            placeAtraceSlice(isBegin: kind == "B", parts, thread: thread, timestamp: timestamp)
        case "I":
            trace.events.append(
                TraceEvent(
                    phase: .instant, name: trace.symbols.intern(Self.atraceRest(parts, from: 2)), thread: thread,
                    timestamp: timestamp))
        case "N":
            guard parts.count >= 4 else { return skipAtrace() }
            trace.events.append(
                TraceEvent(
                    phase: .instant, name: trace.symbols.intern(Self.atraceRest(parts, from: 3)),
                    category: trace.symbols.intern(String(parts[2])),
                    thread: ThreadKey(processID: process, threadID: 0), timestamp: timestamp, scope: .process))
        case "C":
            appendAtraceCounter(parts, process: process, timestamp: timestamp)
        case "S", "F", "G", "H":
            appendAtraceAsync(kind, parts, process: process, timestamp: timestamp)
        default:
            skipAtrace()
        }
    }

    /// The fields of an atrace line from `index` on, as written (a name may hold `|`).
    private static func atraceRest(_ parts: [Substring], from index: Int) -> String {
        parts.count > index ? parts[index...].joined(separator: "|") : ""
    }

    /// `B|pid|name` or `E|pid`: a slice's begin or end on its thread's lane.
    @inline(__always)
    private mutating func placeAtraceSlice(isBegin: Bool, _ parts: [Substring], thread: ThreadKey, timestamp: Int64) {
        let lane = atraceLane(tid: thread.threadID, thread: thread)
        place(
            PendingEvent(
                uuid: 0, type: isBegin ? PerfettoSchema.Event.sliceBegin : PerfettoSchema.Event.sliceEnd,
                timestamp: timestamp, name: isBegin ? trace.symbols.intern(Self.atraceRest(parts, from: 2)) : .empty,
                category: .empty, arguments: 0, flows: 0..<0, counter: nil, offset: 0), on: lane)
    }

    /// `C|pid|name|value`: a counter of the process; skipped and counted when the value is not a
    /// finite number.
    @inline(__always)
    private mutating func appendAtraceCounter(_ parts: [Substring], process: Int64, timestamp: Int64) {
        guard parts.count >= 4 else { return skipAtrace() }
        let valueText = parts[3].trimmingSpaces
        let value: JSONValue
        if let integer = Int64(valueText) {
            value = .int(integer)
        } else if let double = Double(valueText), double.isFinite {
            value = .double(double)
        } else {
            return skipAtrace()
        }
        trace.events.append(
            TraceEvent(
                phase: .counter, name: trace.symbols.intern(String(parts[2])),
                thread: ThreadKey(processID: process, threadID: 0),
                timestamp: timestamp, arguments: addArguments([Argument("value", value)])))
    }

    /// `S`/`F|pid|name|cookie` and `G`/`H|pid|track|name|cookie`: an async slice's begin or end
    /// in the process, paired by track, name and cookie.
    @inline(__always)
    private mutating func appendAtraceAsync(_ kind: Substring, _ parts: [Substring], process: Int64, timestamp: Int64) {
        // S/F: name and cookie; G/H: a named track, then name and cookie.
        let named = kind == "G" || kind == "H"
        guard parts.count >= (named ? 5 : 4) else { return skipAtrace() }
        let name = String(parts[named ? 3 : 2])
        let cookie = String(parts[named ? 4 : 3])
        let key = AtraceAsyncKey(process: process, track: named ? String(parts[2]) : "", name: name, cookie: cookie)
        let isBegin = kind == "S" || kind == "G"
        let symbol = trace.symbols.intern(name)
        let owner = ThreadKey(processID: process, threadID: 0)
        if isBegin {
            let id = pairing.nextAsyncID
            pairing.nextAsyncID += 1
            android.atraceAsync[key, default: []].append(id)
            trace.events.append(
                TraceEvent(phase: .asyncBegin, name: symbol, thread: owner, timestamp: timestamp, id: id))
        } else if let id = android.atraceAsync[key]?.popLast() {
            trace.events.append(
                TraceEvent(phase: .asyncEnd, name: symbol, thread: owner, timestamp: timestamp, id: id))
        } else {
            trace.log.add(
                .unmatchedAsync, nil,
                "atrace async end \(quoted(name)) (cookie \(cookie)) in process \(process) has no begin")
        }
    }

    private mutating func skipAtrace() {
        skipped.skippedFields["atrace line that is not B/E/C/S/F/I/N/G/H", default: 0] += 1
    }

    /// atrace's begins and ends pair per thread id (an `E` may not name its process).
    private mutating func atraceLane(tid: Int64, thread: ThreadKey) -> Int {
        if let lane = android.atraceLanes[tid] { return lane }
        let lane = lane(forThread: thread)
        android.atraceLanes[tid] = lane
        return lane
    }

    // MARK: - FrameTimeline

    /// Keeps a FrameTimeline event for ``placeFrameTimeline()``, which takes them in time order.
    mutating func parseFrameTimeline(_ input: ProtobufInput, timestamp: Int64, offset: Int) throws(TraceReadError) {
        var input = input
        while let (field, type) = try input.nextField() {
            guard type == .lengthDelimited, (1...5).contains(field) else {
                try input.skip(type)
                skipped.skippedFields["FrameTimelineEvent field \(field)", default: 0] += 1
                continue
            }
            var message = try input.message()
            var event = FrameTimelineEvent(kind: field, timestamp: timestamp, offset: offset)
            let isSurface =
                field == PerfettoSchema.FrameTimeline.expectedSurfaceFrameStart
                || field == PerfettoSchema.FrameTimeline.actualSurfaceFrameStart
            while let (inner, innerType) = try message.nextField() {
                if innerType == .varint {
                    event.values[inner] = try message.varint()
                } else if innerType == .lengthDelimited, inner == 5, isSurface {
                    event.layer = try message.string()
                } else {
                    try message.skip(innerType)
                }
            }
            android.frameTimelineEvents.append(event)
        }
    }

    /// The FrameTimeline events as slices, in time order (file order on ties), as trace
    /// processor's sorter hands them to its parser.
    mutating func placeFrameTimeline() {
        guard !android.frameTimelineEvents.isEmpty else { return }
        let ordered = android.frameTimelineEvents.indices.sorted {
            (android.frameTimelineEvents[$0].timestamp, $0) < (android.frameTimelineEvents[$1].timestamp, $1)
        }
        var placing = FrameTimelinePlacing(
            category: trace.symbols.intern(FrameContract.Timeline.category),
            expectedName: trace.symbols.intern(String(describing: FrameContract.Timeline.expectedTrack)),
            actualName: trace.symbols.intern(String(describing: FrameContract.Timeline.actualTrack)))
        for index in ordered {
            let event = android.frameTimelineEvents[index]
            let cookie = Int64(bitPattern: event.values[PerfettoSchema.FrameTimeline.cookie] ?? 0)
            if event.kind == PerfettoSchema.FrameTimeline.frameEnd {
                endFrameTimelineSlice(event, cookie: cookie, open: &placing.open)
            } else {
                beginFrameTimelineSlice(event, cookie: cookie, placing: &placing)
            }
        }
        android.frameTimelineEvents = []
        for (cookie, entry) in placing.open.sorted(by: { $0.key < $1.key }) {
            guard let slice = entry else { continue }
            trace.log.add(
                .unmatchedAsync, nil,
                "FrameTimeline frame \(quoted(trace.symbols[trace.events[slice.inner].name])) (cookie \(cookie)) never ends"
            )
        }
    }

    /// What ``placeFrameTimeline()`` keeps from one event to the next.
    struct FrameTimelinePlacing {
        let category: Symbol
        let expectedName: Symbol
        let actualName: Symbol
        /// The open frames by cookie: the events of their outer and inner begins; `nil` for a
        /// dropped duplicate's cookie.
        var open: [Int64: (begin: Int, inner: Int)?] = [:]
        /// The (process, token) of each expected surface frame placed.
        var expectedTokens: Set<[Int64]> = []
    }

    /// A `FrameEnd`: ends the outer and inner slices of the frame open under its cookie.
    @inline(__always)
    private mutating func endFrameTimelineSlice(
        _ event: FrameTimelineEvent, cookie: Int64, open: inout [Int64: (begin: Int, inner: Int)?]
    ) {
        guard let entry = open.removeValue(forKey: cookie) else {
            trace.log.add(
                .unmatchedAsync, nil,
                "packet at byte \(event.offset): FrameTimeline end for cookie \(cookie) ends no frame")
            return
        }
        guard let slice = entry else { return }
        let end = max(event.timestamp, trace.events[slice.begin].timestamp)
        for position in [slice.inner, slice.begin] {
            var ending = trace.events[position]
            ending.phase = .asyncEnd
            ending.timestamp = end
            ending.arguments = 0
            trace.events.append(ending)
        }
    }

    /// An expected or actual frame's start: its outer slice, with the frame's fields, and its
    /// inner one, named by its token; a second expected surface frame of a token is dropped.
    @inline(__always)
    private mutating func beginFrameTimelineSlice(
        _ event: FrameTimelineEvent, cookie: Int64, placing: inout FrameTimelinePlacing
    ) {
        typealias Keys = PerfettoImporter.FrameTimeline.Key
        let values = event.values
        let token = Int64(bitPattern: values[PerfettoSchema.FrameTimeline.token] ?? 0)
        let isSurface =
            event.kind == PerfettoSchema.FrameTimeline.expectedSurfaceFrameStart
            || event.kind == PerfettoSchema.FrameTimeline.actualSurfaceFrameStart
        let isActual =
            event.kind == PerfettoSchema.FrameTimeline.actualDisplayFrameStart
            || event.kind == PerfettoSchema.FrameTimeline.actualSurfaceFrameStart
        let pid = Int64(Int32(truncatingIfNeeded: values[isSurface ? 4 : 3] ?? 0))
        if event.kind == PerfettoSchema.FrameTimeline.expectedSurfaceFrameStart {
            placing.open[cookie] = .some(nil)
            guard placing.expectedTokens.insert([pid, token]).inserted else { return }
        }
        var arguments: [Argument] = []
        if isSurface { arguments.append(Argument(Keys.surfaceFrameToken, .int(token))) }
        arguments.append(Argument(Keys.displayFrameToken, .int(isSurface ? Int64(bitPattern: values[3] ?? 0) : token)))
        if isSurface, let layer = event.layer { arguments.append(Argument(Keys.layerName, .string(layer))) }
        if isActual { Self.appendOutcome(values, isSurface: isSurface, to: &arguments) }
        arguments = arguments.filter { keeps($0.key) }
        let owner = ThreadKey(processID: pid, threadID: 0)
        if trace.processes[pid] == nil { trace.processes[pid] = TraceProcess(processID: pid) }
        let id = pairing.nextAsyncID
        pairing.nextAsyncID += 1
        let begin = trace.events.count
        trace.events.append(
            TraceEvent(
                phase: .asyncBegin, name: isActual ? placing.actualName : placing.expectedName,
                category: placing.category, thread: owner, timestamp: event.timestamp, id: id,
                arguments: addArguments(arguments)))
        trace.events.append(
            TraceEvent(
                phase: .asyncBegin, name: trace.symbols.intern(String(token)), category: placing.category,
                thread: owner, timestamp: event.timestamp, id: id))
        if case .some(.some) = placing.open[cookie] {
            trace.log.add(
                .unmatchedAsync, nil,
                "packet at byte \(event.offset): FrameTimeline cookie \(cookie) starts a frame while another is open; the earlier one never ends"
            )
        }
        placing.open[cookie] = (begin, begin + 1)
    }

    /// An actual frame's outcome as arguments, under trace processor's names, with its strings.
    private static func appendOutcome(_ values: [Int: UInt64], isSurface: Bool, to arguments: inout [Argument]) {
        typealias Timeline = PerfettoImporter.FrameTimeline
        typealias Keys = Timeline.Key
        // Outcome fields: display frames number them 4-9, surface frames 6-12.
        let (present, onTime, gpu, jank, prediction, severity) = isSurface ? (6, 7, 8, 9, 10, 12) : (4, 5, 6, 7, 8, 9)
        func name(_ table: [String], _ raw: UInt64?) -> String {
            guard let raw, raw > 0, raw < UInt64(table.count) else { return table[0] }
            return table[Int(raw)]
        }
        let bits = values[jank] ?? 0
        let presentType = values[present].flatMap { (1...5).contains($0) ? $0 : nil }
        arguments.append(Argument(Keys.presentType, .string(name(Timeline.presentTypes, presentType))))
        arguments.append(Argument(Keys.onTimeFinish, .int((values[onTime] ?? 0) != 0 ? 1 : 0)))
        arguments.append(Argument(Keys.gpuComposition, .int((values[gpu] ?? 0) != 0 ? 1 : 0)))
        arguments.append(Argument(Keys.jankType, .string(Timeline.jankTypeName(bits))))
        let severityName = values[severity].map {
            $0 < UInt64(Timeline.jankSeverityTypes.count) ? Timeline.jankSeverityTypes[Int($0)] : "Unknown"
        }
        arguments.append(
            Argument(Keys.jankSeverityType, .string(severityName ?? (bits == Timeline.jankNone ? "None" : "Unknown"))))
        arguments.append(Argument(Keys.predictionType, .string(name(Timeline.predictionTypes, values[prediction]))))
        let tag = isSurface ? Timeline.surfaceJankTag(bits, present: presentType) : Timeline.displayJankTag(bits)
        arguments.append(Argument(Keys.jankTag, .string(tag)))
        if isSurface {
            arguments.append(
                Argument(Keys.isBuffer, .string(values[11].map { $0 != 0 ? "Yes" : "No" } ?? "Unspecified")))
        }
    }
}

/// One FrameTimeline event as read: its kind (the `FrameTimelineEvent` field), time, varint
/// fields by number, and layer name.
struct FrameTimelineEvent {
    var kind: Int
    var timestamp: Int64
    var offset: Int
    var values: [Int: UInt64] = [:]
    var layer: String?
}

/// An atrace async slice's identity: its process, named track (G/H), name and cookie.
struct AtraceAsyncKey: Hashable {
    var process: Int64
    var track: String
    var name: String
    var cookie: String
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
