import FrameTrace

/// Android's frames from SurfaceFlinger's FrameTimeline, as the Perfetto reader gives them:
/// `Actual Timeline` and `Expected Timeline` async slices in category `frame-timeline` whose
/// arguments carry trace processor's fields (`Surface frame token`, `Display frame token`,
/// `Present type`, `Jank type`; see `PerfettoTraceReader.FrameTimeline`).
///
/// One frame per actual **surface** frame of the analysed app process:
/// - its vsync and deadline are its expected surface frame's start and end (the app's window);
/// - the **main** lane is the `Choreographer#doFrame <token>` slice on the app's threads, the
///   **render** lane the `DrawFrames <token>` (or `DrawFrame <token>`) slice, both due at the
///   deadline; the **compositor** lane is SurfaceFlinger's actual display frame for the surface
///   frame's display token, due at its expected display frame's end (the expected present);
/// - its outcome is the present type: `Dropped Frame` is dropped (late by one interval, as a
///   Chrome drop), a presented frame is late by how far its present passed the expected one;
/// - its hitch cause is the jank type, read the way Perfetto's jank detection reads it:
///   `App Deadline Missed` (and `Unknown Jank` or `App Resynced Jitter` with app lanes late) is
///   the app's lane that ended past the deadline, main before render; `SurfaceFlinger CPU/GPU
///   Deadline Missed` and `SurfaceFlinger Scheduling` are the compositor; `Display HAL`, `Buffer
///   Stuffing` and `Prediction Error` are causes of their own; anything else late is unknown.
enum AndroidFrameTimeline {
    /// The argument keys this reads (the reader's names; declared in `FrameAnalyzer.argumentKeys`).
    static let surfaceTokenKey = "Surface frame token"
    static let displayTokenKey = "Display frame token"
    static let presentTypeKey = "Present type"
    static let jankTypeKey = "Jank type"
    static let layerKey = "Layer name"

    /// The app lanes' slice names, with the frame's token after a space.
    static let mainSliceName = "Choreographer#doFrame"
    static let renderSliceNames = ["DrawFrames", "DrawFrame"]

    private struct Slice {
        var start: Int64
        var end: Int64?
        var arguments: [Argument]
    }

    /// - Parameter processID: The analysed app's process (the main thread's); when it has no
    ///   surface frames (or the trace has no main thread), the process with the most.
    static func frames(trace: Trace, spans: SpanIndex, processID preferred: Int64?, interval: Int64) -> FrameAnalyzer.FoundFrames? {
        let symbols = trace.symbols
        guard let category = symbols.lookup(FrameContract.Timeline.category),
            let actualName = symbols.lookup(String(describing: FrameContract.Timeline.actualTrack))
        else { return nil }
        let expectedName = symbols.lookup(String(describing: FrameContract.Timeline.expectedTrack))
        // The timeline slices, begun and ended by (name, id).
        struct Key: Hashable {
            var name: Symbol
            var id: UInt64
            var process: Int64
        }
        var open: [Key: [Int]] = [:]
        var slices: [Slice] = []
        var isActual: [Bool] = []
        var process: [Int64] = []
        for event in trace.events where event.category == category && (event.name == actualName || event.name == expectedName) {
            let key = Key(name: event.name, id: event.id, process: event.thread.processID)
            if event.phase == .asyncBegin {
                let arguments = trace.arguments(of: event)
                guard arguments[AndroidFrameTimeline.displayTokenKey] != nil else { continue }  // not FrameTimeline's
                open[key, default: []].append(slices.count)
                slices.append(Slice(start: event.timestamp, end: nil, arguments: arguments))
                isActual.append(event.name == actualName)
                process.append(event.thread.processID)
            } else if event.phase == .asyncEnd, let index = open[key]?.popLast() {
                slices[index].end = max(slices[index].start, event.timestamp)
            }
        }
        // Surface frames by (process, token); display frames by token.
        var expectedSurface: [[Int64]: Slice] = [:]
        var expectedDisplay: [Int64: Slice] = [:]
        var actualDisplay: [Int64: Slice] = [:]
        var actualSurface: [(token: Int64, slice: Slice)] = []
        var surfaceFrames: [Int64: Int] = [:]
        for index in slices.indices where isActual[index] && slices[index].arguments[AndroidFrameTimeline.surfaceTokenKey] != nil {
            surfaceFrames[process[index], default: 0] += 1
        }
        guard let processID = preferred.flatMap({ surfaceFrames[$0] == nil ? nil : $0 })
            ?? surfaceFrames.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key
        else { return nil }
        for index in slices.indices {
            let slice = slices[index]
            let display = slice.arguments[AndroidFrameTimeline.displayTokenKey]?.integerValue ?? 0
            if let token = slice.arguments[AndroidFrameTimeline.surfaceTokenKey]?.integerValue {
                if isActual[index] {
                    if process[index] == processID { actualSurface.append((token, slice)) }
                } else if expectedSurface[[process[index], token]] == nil {
                    expectedSurface[[process[index], token]] = slice
                }
            } else if isActual[index] {
                actualDisplay[display] = slice
            } else {
                expectedDisplay[display] = slice
            }
        }
        guard !actualSurface.isEmpty else { return nil }
        // One frame per token: surface frames of one vsync (two layers, or a buffer and its
        // retry) are one frame, as trace processor's metric counts distinct tokens. The merged
        // frame ends with the last of them, carries every jank type, and the worst present.
        var merged: [(token: Int64, slice: Slice)] = []
        var position: [Int64: Int] = [:]
        let presentRank = ["Dropped Frame": 3, "Late Present": 2]
        for entry in actualSurface {
            guard let at = position[entry.token] else {
                position[entry.token] = merged.count
                merged.append(entry)
                continue
            }
            var slice = merged[at].slice
            if let end = entry.slice.end { slice.end = max(slice.end ?? end, end) }
            let janks = (jankBits(slice.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "").union(jankBits(entry.slice.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "")))
                .subtracting(["None"]).sorted()
            slice.arguments.removeAll { $0.key == jankTypeKey }
            slice.arguments.append(Argument(jankTypeKey, .string(janks.isEmpty ? "None" : janks.joined(separator: ", "))))
            let (mine, theirs) = (slice.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue ?? "", entry.slice.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue ?? "")
            if presentRank[theirs, default: 0] > presentRank[mine, default: 0] {
                slice.arguments.removeAll { $0.key == presentTypeKey }
                slice.arguments.append(Argument(presentTypeKey, .string(theirs)))
            }
            merged[at].slice = slice
        }
        actualSurface = merged
        let mainSlices = tokenSlices(named: [mainSliceName], trace: trace, spans: spans, processID: processID)
        let renderSlices = tokenSlices(named: renderSliceNames, trace: trace, spans: spans, processID: processID)

        var frames: [FrameReport.Frame] = []
        var holds: [(frame: FrameReport.Frame, hold: FrameReport.HitchHold?)] = []
        frames.reserveCapacity(actualSurface.count)
        for (token, actual) in actualSurface {
            let expected = expectedSurface[[processID, token]]
            let vsync = expected?.start ?? actual.start
            let deadline = expected?.end ?? vsync.addingSaturating(interval)
            let main = mainSlices[token]
            let render = renderSlices[token]
            let actualEnd = actual.end ?? actual.start
            let workStart = main?.start ?? actual.start
            let commitEnd = main?.end ?? actualEnd
            var lanes = [
                FrameReport.LaneTiming(
                    lane: .main, costNanoseconds: main.map { $0.end.subtractingSaturating($0.start) } ?? 0, start: workStart,
                    end: commitEnd, deadline: deadline)
            ]
            if let render {
                lanes.append(
                    FrameReport.LaneTiming(
                        lane: .render, costNanoseconds: render.end.subtractingSaturating(render.start), start: render.start, end: render.end,
                        deadline: deadline))
            }
            let displayToken = actual.arguments[AndroidFrameTimeline.displayTokenKey]?.integerValue ?? 0
            let present = actual.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue ?? ""
            let janks = jankBits(actual.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "")
            // The compositor lane: SurfaceFlinger's display frame, due at the expected present.
            let expectedPresent = expectedDisplay[displayToken]?.end ?? deadline.addingSaturating(interval)
            var presentation: Int64?
            if let display = actualDisplay[displayToken], let end = display.end {
                presentation = end
                lanes.append(
                    FrameReport.LaneTiming(
                        lane: .compositor, costNanoseconds: end.subtractingSaturating(display.start), start: display.start, end: end,
                        deadline: expectedPresent))
            }
            let isDropped = janks.contains("Dropped Frame")
            let outcome: FrameReport.Frame.Outcome =
                isDropped ? .dropped : (["On-time Present", "Late Present", "Early Present"].contains(present) ? .presented : .measured)
            if isDropped { presentation = nil }
            var frame = FrameReport.Frame(
                index: 0, vsync: vsync, deadline: deadline, workStart: workStart, commitEnd: commitEnd, outcome: outcome)
            frame.lanes = lanes
            frame.presentation = presentation
            var hold: FrameReport.HitchHold?
            if let cause = cause(janks: janks, present: present, frame: frame) {
                frame.hitchCause = cause.cause
                if frame.overrun <= 0 {
                    // Late by SurfaceFlinger's account with no lane past its deadline in the
                    // trace: it missed its vsync, one interval, as a Chrome drop.
                    frame.lanes.removeAll { $0.lane == .compositor }
                    frame.lanes.append(
                        FrameReport.LaneTiming(
                            lane: .compositor, costNanoseconds: 0, start: nil, end: expectedPresent.addingSaturating(interval),
                            deadline: expectedPresent))
                }
                if let lane = cause.lane, let work = lane == .main ? main : render {
                    hold = FrameReport.HitchHold(
                        lane: lane, stage: lane == .main ? mainSliceName : work.name, frame: nil, start: work.start, end: work.end, wasPending: false)
                }
            } else {
                // On time by SurfaceFlinger's account: no lane counts as a miss.
                frame.deadline = max(frame.deadline, frame.commitEnd)
                for index in frame.lanes.indices {
                    if let end = frame.lanes[index].end, let due = frame.lanes[index].deadline, end > due { frame.lanes[index].deadline = end }
                }
                frame.lanes[0].deadline = frame.deadline
            }
            holds.append((frame, hold))
        }
        holds.sort { ($0.frame.workStart, $0.frame.vsync) < ($1.frame.workStart, $1.frame.vsync) }
        var fallback: [Int: FrameReport.HitchHold] = [:]
        for (position, entry) in holds.enumerated() {
            var frame = entry.frame
            frame.index = position
            frames.append(frame)
            if var hold = entry.hold {
                hold.frame = position
                fallback[position] = hold
            }
        }
        let layer = actualSurface.first?.slice.arguments[AndroidFrameTimeline.layerKey]?.stringValue
        let detail = FrameReport.SourceDetail.androidFrameTimeline(
            frames: frames.count, processID: processID, layer: layer, mainSliceName: mainSliceName, mainSlices: mainSlices.count,
            renderSlices: renderSlices.count)
        var found = FrameAnalyzer.FoundFrames(source: .frameTimeline, detail: detail, frames: frames)
        found.fallbackHolds = fallback
        return found
    }

    /// Slices on the process's threads named `NAME TOKEN`, by token (the longest when repeated).
    private static func tokenSlices(named names: [String], trace: Trace, spans: SpanIndex, processID: Int64)
        -> [Int64: (start: Int64, end: Int64, name: String)]
    {
        var tokenOf: [Symbol: (Int64, String)] = [:]
        for (index, string) in trace.symbols.strings.enumerated() {
            for name in names where string.hasPrefix(name + " ") {
                if let token = Int64(string.dropFirst(name.count + 1)) { tokenOf[Symbol(rawValue: UInt32(index))] = (token, name) }
            }
        }
        guard !tokenOf.isEmpty else { return [:] }
        var result: [Int64: (start: Int64, end: Int64, name: String)] = [:]
        for (slot, thread) in spans.threads.enumerated() where thread.processID == processID {
            for span in spans.spans(inSlot: slot) {
                guard let (token, name) = tokenOf[span.name] else { continue }
                if let existing = result[token], existing.end.subtractingSaturating(existing.start) >= span.end.subtractingSaturating(span.start) {
                    continue
                }
                result[token] = (span.start, span.end, name)
            }
        }
        return result
    }

    /// The jank type's bits from trace processor's string (`App Deadline Missed, Buffer Stuffing`).
    static func jankBits(_ text: String) -> Set<String> {
        Set(text.split(separator: ",").map { String($0.drop { $0 == " " }) })
    }

    /// Whether FrameTimeline says the frame was late, and why: `nil` when it was on time.
    ///
    /// Late is what trace processor's frame timeline metric counts as a missed frame: a jank
    /// type of `App Deadline Missed`, `SurfaceFlinger CPU/GPU Deadline Missed`, `SurfaceFlinger
    /// Scheduling`, `Prediction Error`, `Display HAL` or `Dropped Frame`; and also a `Late
    /// Present` whose jank is only `Buffer Stuffing` or `Unknown Jank`, which the metric leaves
    /// out (no deadline was missed) but the user saw late. `SurfaceFlinger Stuffing` alone is on
    /// time. The cause: the app's lane for `App Deadline Missed` (the main lane when
    /// `Choreographer#doFrame` ended past the deadline, else the render lane when there is one),
    /// the compositor for SurfaceFlinger's misses, then `display-hal`, `prediction-error`,
    /// `buffer-stuffing`, else unknown (a dropped frame).
    static func cause(janks: Set<String>, present: String, frame: FrameReport.Frame) -> (cause: HitchCause, lane: Lane?)? {
        if janks.contains("App Deadline Missed") {
            let mainLate = (frame.lane(.main)?.overrun ?? 0) > 0
            let lane: Lane = mainLate || frame.lane(.render) == nil ? .main : .render
            return (lane.hitchCause ?? .commit, lane)
        }
        if janks.contains("SurfaceFlinger CPU Deadline Missed") || janks.contains("SurfaceFlinger GPU Deadline Missed")
            || janks.contains("SurfaceFlinger Scheduling")
        {
            return (.compositor, nil)
        }
        if janks.contains("Display HAL") { return (.displayHAL, nil) }
        if janks.contains("Prediction Error") { return (.predictionError, nil) }
        if janks.contains("Dropped Frame") { return (.unknown, nil) }
        guard present == "Late Present" else { return nil }
        if janks.contains("Buffer Stuffing") { return (.bufferStuffing, nil) }
        if janks.contains("Unknown Jank") || janks.contains("App Resynced Jitter") { return (.unknown, nil) }
        return nil
    }
}
