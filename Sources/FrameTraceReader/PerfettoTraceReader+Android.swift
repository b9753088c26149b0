@_spi(FramescopeInternals) import FrameTrace

extension PerfettoTraceReader {
    /// How SurfaceFlinger's FrameTimeline reads: each expected and actual frame, display (in
    /// SurfaceFlinger's process) or surface (in the app's), becomes a slice named after its
    /// timeline, `Expected Timeline` or `Actual Timeline` (``FrameTrace/FrameContract/Timeline``'s
    /// names, the ones Perfetto's UI gives these tracks), with a child slice named by the frame's
    /// token, as trace processor names it. A `FrameEnd` with the same cookie ends both. The
    /// outer slice carries the frame's fields as arguments under the names and with the strings
    /// trace processor uses (``Key``), so `Jank type` reads `App Deadline Missed, Buffer Stuffing`.
    public enum FrameTimeline {
        /// Argument keys of FrameTimeline slices.
        public enum Key {
            public static let surfaceFrameToken = "Surface frame token"
            public static let displayFrameToken = "Display frame token"
            public static let layerName = "Layer name"
            public static let presentType = "Present type"
            public static let onTimeFinish = "On time finish"
            public static let gpuComposition = "GPU composition"
            public static let jankType = "Jank type"
            public static let jankSeverityType = "Jank severity type"
            public static let predictionType = "Prediction type"
            public static let isBuffer = "Is Buffer?"
        }

        /// `JankType` bits and trace processor's string for each, in the order it joins them.
        public static let jankTypes: [(bit: UInt64, name: String)] = [
            (1, "None"),
            (2, "SurfaceFlinger Scheduling"),
            (4, "Prediction Error"),
            (8, "Display HAL"),
            (16, "SurfaceFlinger CPU Deadline Missed"),
            (32, "SurfaceFlinger GPU Deadline Missed"),
            (64, "App Deadline Missed"),
            (128, "Buffer Stuffing"),
            (256, "Unknown Jank"),
            (512, "SurfaceFlinger Stuffing"),
            (1024, "Dropped Frame"),
        ]

        /// `PresentType` by value.
        public static let presentTypes = ["Unspecified Present", "On-time Present", "Late Present", "Early Present", "Dropped Frame", "Unknown Present"]
        /// `PredictionType` by value.
        public static let predictionTypes = ["Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction"]
        /// `JankSeverityType` by value.
        public static let jankSeverityTypes = ["Unknown", "None", "Partial", "Full"]

        /// The `Jank type` string for a bit set: the names of its bits joined by `, `.
        public static func jankTypeName(_ bits: UInt64) -> String {
            if bits == 0 { return "Unspecified" }
            let names = jankTypes.filter { bits & $0.bit != 0 }.map(\.name)
            let unknown = bits & ~jankTypes.reduce(0) { $0 | $1.bit }
            return (names + (unknown != 0 ? ["0x" + String(unknown, radix: 16)] : [])).joined(separator: ", ")
        }
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
                    if innerType == .lengthDelimited { skippedFields["ftrace event \(inner)", default: 0] += 1 }
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
            skippedFields["atrace line that is not B/E/C/S/F/I/N/G/H", default: 0] += 1
            return
        }
        let pid = parts.count > 1 ? Int64(parts[1].trimmingSpaces) : nil
        let process = pid ?? threadProcess[tid] ?? tid
        let thread = ThreadKey(processID: process, threadID: tid)
        if threads[thread] == nil { threads[thread] = TraceThread(key: thread) }
        if processes[process] == nil { processes[process] = TraceProcess(processID: process) }
        func rest(from index: Int) -> String { parts.count > index ? parts[index...].joined(separator: "|") : "" }
        switch kind {
        case "B":
            let lane = atraceLane(tid: tid, thread: thread)
            place(PendingEvent(uuid: 0, type: PerfettoSchema.Event.sliceBegin, timestamp: timestamp, name: symbols.intern(rest(from: 2)),
                               category: .empty, arguments: 0, flows: [], counter: nil, offset: 0), on: lane)
        case "E":
            let lane = atraceLane(tid: tid, thread: thread)
            place(PendingEvent(uuid: 0, type: PerfettoSchema.Event.sliceEnd, timestamp: timestamp, name: .empty, category: .empty,
                               arguments: 0, flows: [], counter: nil, offset: 0), on: lane)
        case "I":
            events.append(TraceEvent(phase: .instant, name: symbols.intern(rest(from: 2)), thread: thread, timestamp: timestamp))
        case "N":
            guard parts.count >= 4 else { return skipAtrace() }
            events.append(
                TraceEvent(phase: .instant, name: symbols.intern(rest(from: 3)), category: symbols.intern(String(parts[2])),
                           thread: ThreadKey(processID: process, threadID: 0), timestamp: timestamp, scope: .process))
        case "C":
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
            events.append(
                TraceEvent(phase: .counter, name: symbols.intern(String(parts[2])), thread: ThreadKey(processID: process, threadID: 0),
                           timestamp: timestamp, arguments: addArguments([Argument("value", value)])))
        case "S", "F", "G", "H":
            // S/F: name and cookie; G/H: a named track, then name and cookie.
            let named = kind == "G" || kind == "H"
            guard parts.count >= (named ? 5 : 4) else { return skipAtrace() }
            let name = String(parts[named ? 3 : 2])
            let cookie = String(parts[named ? 4 : 3])
            let key = AtraceAsyncKey(process: process, track: named ? String(parts[2]) : "", name: name, cookie: cookie)
            let isBegin = kind == "S" || kind == "G"
            let symbol = symbols.intern(name)
            let owner = ThreadKey(processID: process, threadID: 0)
            if isBegin {
                let id = nextAsyncID
                nextAsyncID += 1
                atraceAsync[key, default: []].append(id)
                events.append(TraceEvent(phase: .asyncBegin, name: symbol, thread: owner, timestamp: timestamp, id: id))
            } else if let id = atraceAsync[key]?.popLast() {
                events.append(TraceEvent(phase: .asyncEnd, name: symbol, thread: owner, timestamp: timestamp, id: id))
            } else {
                log.add(.unmatchedAsync, nil, "atrace async end \(quoted(name)) (cookie \(cookie)) in process \(process) has no begin")
            }
        default:
            skipAtrace()
        }
    }

    private mutating func skipAtrace() { skippedFields["atrace line that is not B/E/C/S/F/I/N/G/H", default: 0] += 1 }

    /// atrace's begins and ends pair per thread id (an `E` may not name its process).
    private mutating func atraceLane(tid: Int64, thread: ThreadKey) -> Int {
        if let lane = atraceLanes[tid] { return lane }
        let lane = lane(forThread: thread)
        atraceLanes[tid] = lane
        return lane
    }

    // MARK: - FrameTimeline

    mutating func parseFrameTimeline(_ input: ProtobufInput, timestamp: Int64, offset: Int) throws(TraceReadError) {
        var input = input
        typealias Keys = PerfettoTraceReader.FrameTimeline.Key
        while let (field, type) = try input.nextField() {
            guard type == .lengthDelimited, (1...5).contains(field) else {
                try input.skip(type)
                skippedFields["FrameTimelineEvent field \(field)", default: 0] += 1
                continue
            }
            var message = try input.message()
            var values: [Int: UInt64] = [:]
            var layer: String?
            while let (inner, innerType) = try message.nextField() {
                if innerType == .varint {
                    values[inner] = try message.varint()
                } else if innerType == .lengthDelimited, inner == 5, field == PerfettoSchema.FrameTimeline.expectedSurfaceFrameStart
                    || field == PerfettoSchema.FrameTimeline.actualSurfaceFrameStart
                {
                    layer = try message.string()
                } else {
                    try message.skip(innerType)
                }
            }
            let cookie = Int64(bitPattern: values[PerfettoSchema.FrameTimeline.cookie] ?? 0)
            if field == PerfettoSchema.FrameTimeline.frameEnd {
                guard let open = frameTimelineOpen.removeValue(forKey: cookie) else {
                    log.add(.unmatchedAsync, nil, "packet at byte \(offset): FrameTimeline end for cookie \(cookie) ends no frame")
                    continue
                }
                let end = max(timestamp, events[open.begin].timestamp)
                for position in [open.inner, open.begin] {
                    var event = events[position]
                    event.phase = .asyncEnd
                    event.timestamp = end
                    event.arguments = 0
                    events.append(event)
                }
                continue
            }
            let token = Int64(bitPattern: values[PerfettoSchema.FrameTimeline.token] ?? 0)
            let isSurface = field == PerfettoSchema.FrameTimeline.expectedSurfaceFrameStart || field == PerfettoSchema.FrameTimeline.actualSurfaceFrameStart
            let isActual = field == PerfettoSchema.FrameTimeline.actualDisplayFrameStart || field == PerfettoSchema.FrameTimeline.actualSurfaceFrameStart
            let pid = Int64(Int32(truncatingIfNeeded: values[isSurface ? 4 : 3] ?? 0))
            // Field numbers of the actual frames' outcome fields: display frames, then surface frames.
            let (present, onTime, gpu, jank, prediction, severity) = isSurface ? (6, 7, 8, 9, 10, 12) : (4, 5, 6, 7, 8, 9)
            var arguments: [Argument] = []
            if isSurface {
                arguments.append(Argument(Keys.surfaceFrameToken, .int(token)))
                arguments.append(Argument(Keys.displayFrameToken, .int(Int64(bitPattern: values[3] ?? 0))))
                if let layer { arguments.append(Argument(Keys.layerName, .string(layer))) }
            } else {
                arguments.append(Argument(Keys.displayFrameToken, .int(token)))
            }
            if isActual {
                func name(_ table: [String], _ raw: UInt64?) -> String {
                    guard let raw else { return table[0] }
                    return raw < UInt64(table.count) ? table[Int(raw)] : "\(raw)"
                }
                arguments.append(Argument(Keys.presentType, .string(name(PerfettoTraceReader.FrameTimeline.presentTypes, values[present]))))
                arguments.append(Argument(Keys.onTimeFinish, .int((values[onTime] ?? 0) != 0 ? 1 : 0)))
                arguments.append(Argument(Keys.gpuComposition, .int((values[gpu] ?? 0) != 0 ? 1 : 0)))
                arguments.append(Argument(Keys.jankType, .string(PerfettoTraceReader.FrameTimeline.jankTypeName(values[jank] ?? 0))))
                if let raw = values[severity] {
                    arguments.append(Argument(Keys.jankSeverityType, .string(name(PerfettoTraceReader.FrameTimeline.jankSeverityTypes, raw))))
                }
                arguments.append(Argument(Keys.predictionType, .string(name(PerfettoTraceReader.FrameTimeline.predictionTypes, values[prediction]))))
                if isSurface, let raw = values[11] { arguments.append(Argument(Keys.isBuffer, .int(raw != 0 ? 1 : 0))) }
            }
            arguments = arguments.filter { keeps($0.key) }
            let owner = ThreadKey(processID: pid, threadID: 0)
            if processes[pid] == nil { processes[pid] = TraceProcess(processID: pid) }
            let id = nextAsyncID
            nextAsyncID += 1
            let category = symbols.intern(FrameContract.Timeline.category)
            let trackName = symbols.intern(String(describing: isActual ? FrameContract.Timeline.actualTrack : FrameContract.Timeline.expectedTrack))
            let begin = events.count
            events.append(
                TraceEvent(phase: .asyncBegin, name: trackName, category: category, thread: owner, timestamp: timestamp, id: id,
                           arguments: addArguments(arguments)))
            events.append(
                TraceEvent(phase: .asyncBegin, name: symbols.intern(String(token)), category: category, thread: owner, timestamp: timestamp, id: id))
            if let earlier = frameTimelineOpen[cookie] {
                log.add(.unmatchedAsync, nil, "packet at byte \(offset): FrameTimeline cookie \(cookie) starts a frame while one is open; the earlier frame has no end")
                _ = earlier
            }
            frameTimelineOpen[cookie] = (begin, begin + 1)
        }
    }

    private func keeps(_ key: String) -> Bool { argumentKeys?.matches(key) ?? true }
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
