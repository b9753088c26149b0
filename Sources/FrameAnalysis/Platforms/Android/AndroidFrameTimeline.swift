import FrameTrace

/// Android's frames from SurfaceFlinger's FrameTimeline, as the Perfetto reader gives them:
/// `Actual Timeline` and `Expected Timeline` async slices in category `frame-timeline` whose
/// arguments carry trace processor's fields (`Surface frame token`, `Display frame token`,
/// `Present type`, `Jank type`; see `PerfettoImporter.FrameTimeline`), with the figures
/// trace processor's standard library gives each frame (``AndroidFrame``).
///
/// One frame per vsync id (surface frame token) of the analysed app process:
/// - its figures are its first actual surface frame's (the one `android_frames_overrun` reads),
///   with every layer counted; its vsync and deadline are its expected surface frame's start and
///   end, and its overrun is Android's: the actual frame's end minus the expected frame's end;
/// - the **main** lane is the `Choreographer#doFrame <id>` slice, the **render** lane every
///   `DrawFrame(s) <id>` slice of the app (their durations summed, as `android_cpu_time_per_frame`
///   sums them), both due at the deadline; the **compositor** lane is SurfaceFlinger's actual
///   display frame for the surface frame's display token, due at its expected display frame's
///   end (the expected present);
/// - it is late exactly when Android calls it janky (``AndroidFrame/isJanky``); a buffer-stuffed
///   frame is not late, and is counted as latency (``FrameReport/Summary/stuffedFrames``);
/// - a late frame's hitch cause is its jank type, read the way Perfetto's jank detection reads
///   it: `App Deadline Missed` and `App Resynced Jitter` are the app's lane that ended past the
///   deadline, main before render; `SurfaceFlinger CPU/GPU Deadline Missed` and `SurfaceFlinger
///   Scheduling` are the compositor; `Display HAL` and `Prediction Error` are causes of their own;
///   a `Dropped Frame` (outcome dropped) is unknown.
enum AndroidFrameTimeline {
    /// The argument keys this reads (the reader's names; declared in `FrameAnalyzer.argumentKeys`).
    static let surfaceTokenKey = "Surface frame token"
    static let displayTokenKey = "Display frame token"
    static let presentTypeKey = "Present type"
    static let jankTypeKey = "Jank type"
    static let jankTagKey = "Jank tag"
    static let onTimeFinishKey = "On time finish"
    static let layerKey = "Layer name"

    /// The app lanes' slice names, with the frame's token after a space.
    static let mainSliceName = AndroidApp.doFramePrefix

    private struct Slice {
        var start: Int64
        var end: Int64?
        var arguments: [Argument]
        var process: Int64
        var isActual: Bool
    }

    /// FrameTimeline's slices, in the order trace processor parses them (the events' order).
    private static func slices(trace: Trace) -> [Slice] {
        let symbols = trace.symbols
        guard let category = symbols.lookup(FrameContract.Timeline.category),
            let actualName = symbols.lookup(String(describing: FrameContract.Timeline.actualTrack))
        else { return [] }
        let expectedName = symbols.lookup(String(describing: FrameContract.Timeline.expectedTrack))
        // The timeline slices, begun and ended by (name, id).
        struct Key: Hashable {
            var name: Symbol
            var id: UInt64
            var process: Int64
        }
        var open: [Key: [Int]] = [:]
        var slices: [Slice] = []
        for event in trace.events
        where event.category == category && (event.name == actualName || event.name == expectedName) {
            let key = Key(name: event.name, id: event.id, process: event.thread.processID)
            if event.phase == .asyncBegin {
                let arguments = trace.arguments(of: event)
                guard arguments[AndroidFrameTimeline.displayTokenKey] != nil else { continue }  // not FrameTimeline's
                open[key, default: []].append(slices.count)
                slices.append(
                    Slice(
                        start: event.timestamp, end: nil, arguments: arguments, process: event.thread.processID,
                        isActual: event.name == actualName))
            } else if event.phase == .asyncEnd, let index = open[key]?.popLast() {
                slices[index].end = max(slices[index].start, event.timestamp)
            }
        }
        return slices
    }

    /// The app process: `preferred` when it has actual surface frames, else the process with the
    /// most of them; `nil` without FrameTimeline surface frames.
    static func appProcess(trace: Trace, preferred: Int64?) -> Int64? {
        appProcess(slices(trace: trace), preferred: preferred)
    }

    private static func appProcess(_ slices: [Slice], preferred: Int64?) -> Int64? {
        var surfaceFrames: [Int64: Int] = [:]
        for slice in slices where slice.isActual && slice.arguments[AndroidFrameTimeline.surfaceTokenKey] != nil {
            surfaceFrames[slice.process, default: 0] += 1
        }
        return preferred.flatMap { surfaceFrames[$0] == nil ? nil : $0 }
            ?? surfaceFrames.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key
    }

    /// The app's package as FrameTimeline's layer names it: `TX - com.example.app/com.example.app.
    /// MainActivity#50010` gives `com.example.app` (SurfaceFlinger names a window's layer after
    /// its activity component, `package/class`); `nil` when the layer names no component.
    static func packageName(layer: String) -> String? {
        var name = Substring(layer)
        if name.hasPrefix("TX - ") { name = name.dropFirst(5) }  // a transaction's layer
        guard let slash = name.firstIndex(of: "/") else { return nil }
        let package = name[..<slash]
        guard package.contains("."), !package.contains(" "), !package.isEmpty else { return nil }
        return String(package)
    }

    /// Names the app's process and its UI thread (tid = pid, which Android names after the
    /// process) from FrameTimeline's layer when the trace names neither: a recording without a
    /// process tree still says, in every surface frame, whose frames they are.
    static func nameApp(in trace: inout Trace) {
        guard trace.symbols.lookup(FrameContract.Timeline.category) != nil else { return }
        let slices = slices(trace: trace)
        guard let processID = appProcess(slices, preferred: nil),
            let layer = slices.first(where: {
                $0.isActual && $0.process == processID && $0.arguments[AndroidFrameTimeline.surfaceTokenKey] != nil
            })?.arguments[AndroidFrameTimeline.layerKey]?.stringValue,
            let package = packageName(layer: layer)
        else { return }
        if trace.processes[processID]?.name == nil {
            trace.processes[processID, default: TraceProcess(processID: processID)].name = package
        }
        let ui = ThreadKey(processID: processID, threadID: processID)
        if trace.threads[ui]?.name == nil { trace.threads[ui, default: TraceThread(key: ui)].name = package }
    }

    /// The display's frame interval as the trace records it: the median spacing of the app's
    /// expected surface frame starts and of SurfaceFlinger's expected display frame starts, each
    /// series apart (vsync ids are not used: they step by several per period), with how many
    /// spacings were measured and how many lie within an eighth of the median. `nil` without
    /// FrameTimeline, when the median is not a display's (2-100 ms), or when fewer than half the
    /// spacings lie near it (frames at irregular times give no period to trust).
    ///
    /// One interval for the trace: a phone that switches between 60 and 120 Hz shows as gaps away
    /// from the median, which the report counts (``FrameReport/FrameIntervalSource``).
    static func displayInterval(trace: Trace, processID preferred: Int64?) -> (
        interval: Int64, gaps: Int, atMedian: Int
    )? {
        let slices = slices(trace: trace)
        guard let processID = appProcess(slices, preferred: preferred) else { return nil }
        var app: [Int64] = []
        var display: [Int64] = []
        for slice in slices where !slice.isActual {
            if slice.arguments[AndroidFrameTimeline.surfaceTokenKey] != nil {
                if slice.process == processID { app.append(slice.start) }
            } else {
                display.append(slice.start)
            }
        }
        var gaps: [Int64] = []
        for var starts in [app, display] {
            starts.sort()
            for (earlier, later) in zip(starts, starts.dropFirst()) where later > earlier {
                gaps.append(later.subtractingSaturating(earlier))
            }
        }
        guard !gaps.isEmpty else { return nil }
        gaps.sort()
        let median = gaps[(gaps.count - 1) / 2]
        guard (2_000_000...100_000_000).contains(median) else { return nil }
        let tolerance = median / 8
        let atMedian = gaps.reduce(0) { $0 + (abs($1.subtractingSaturating(median)) <= tolerance ? 1 : 0) }
        // Frames drawn at irregular times (a test's hand-made trace) have no one spacing to trust.
        guard atMedian.multipliedReportingOverflow(by: 2).partialValue >= gaps.count else { return nil }
        return (median, gaps.count, atMedian)
    }

    /// - Parameters:
    ///   - processID: The analysed app's process (the main thread's); when it has no surface
    ///     frames (or the trace has no main thread), the process with the most.
    static func frames(trace: Trace, spans: SpanIndex, processID preferred: Int64?, interval: Int64) -> FrameAnalyzer
        .FoundFrames?
    {
        let slices = slices(trace: trace)
        guard let processID = appProcess(slices, preferred: preferred) else { return nil }
        // Surface frames of the app by token, in parse order; display frames by token.
        var expectedSurface: [Int64: Slice] = [:]
        var expectedDisplay: [Int64: Slice] = [:]
        var actualDisplay: [Int64: Slice] = [:]
        var actualSurface: [Int64: [Slice]] = [:]
        var tokens: [Int64] = []
        for slice in slices {
            let display = slice.arguments[AndroidFrameTimeline.displayTokenKey]?.integerValue ?? 0
            if let token = slice.arguments[AndroidFrameTimeline.surfaceTokenKey]?.integerValue {
                guard slice.process == processID else { continue }
                if slice.isActual {
                    if actualSurface[token] == nil { tokens.append(token) }
                    actualSurface[token, default: []].append(slice)
                } else if expectedSurface[token] == nil {
                    expectedSurface[token] = slice
                }
            } else if slice.isActual {
                if actualDisplay[display] == nil { actualDisplay[display] = slice }
            } else if expectedDisplay[display] == nil {
                expectedDisplay[display] = slice
            }
        }
        guard !tokens.isEmpty else { return nil }
        let doFrames = AndroidApp.slicesByFrameID(
            prefix: AndroidApp.doFramePrefix, trace: trace, spans: spans, processID: processID)
        let drawFrames = AndroidApp.slicesByFrameID(
            prefix: AndroidApp.drawFramePrefix, trace: trace, spans: spans, processID: processID)

        var built: [(frame: FrameReport.Frame, hold: FrameReport.HitchHold?)] = []
        built.reserveCapacity(tokens.count)
        for token in tokens {
            let layers = actualSurface[token] ?? []
            guard let actual = layers.first else { continue }
            let expected = expectedSurface[token]
            let doFrame = doFrames[token]?.first
            let draws = drawFrames[token] ?? []
            let displayToken = actual.arguments[AndroidFrameTimeline.displayTokenKey]?.integerValue ?? 0
            let expectedPresent = expectedDisplay[displayToken].flatMap(\.end)
            let display = actualDisplay[displayToken]
            // SurfaceFlinger's own verdict on its display frame: on time, it held nothing, whatever
            // a few microseconds past the expected present say.
            let displayOnTime = display.map(Self.isOnTime) ?? false
            var presentDelay: Int64?
            if let end = display?.end, let expectedPresent {
                presentDelay = end.subtractingSaturating(expectedPresent)
                if displayOnTime { presentDelay = min(0, presentDelay ?? 0) }
            }
            var android = AndroidFrame(
                token: token, layer: actual.arguments[AndroidFrameTimeline.layerKey]?.stringValue, layers: layers.count,
                expectedStart: expected?.start,
                expectedEnd: expected.map { $0.end ?? $0.start.subtractingSaturating(1) }, actualStart: actual.start,
                actualEnd: actual.end ?? actual.start.subtractingSaturating(1),
                jankType: actual.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "",
                presentType: actual.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue ?? "",
                jankTag: actual.arguments[AndroidFrameTimeline.jankTagKey]?.stringValue ?? "",
                onTimeFinish: (actual.arguments[AndroidFrameTimeline.onTimeFinishKey]?.integerValue ?? 0) != 0,
                doFrameNanoseconds: doFrame.map { $0.end.subtractingSaturating($0.start) },
                drawFrameNanoseconds: draws.isEmpty
                    ? nil : draws.reduce(0) { $0.addingSaturating($1.end.subtractingSaturating($1.start)) },
                drawFrames: draws.count, presentDelay: presentDelay)

            // A later slice of the token that was janky when the first was not (trace processor's
            // jank metrics count the frame by any slice).
            if !android.isJanky,
                let later = layers.dropFirst().first(where: {
                    AndroidFrame.isJanky(jankType: $0.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "")
                })
            {
                android.laterJank = (
                    later.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "",
                    later.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue ?? "",
                    later.end ?? later.start.subtractingSaturating(1)
                )
            }
            let vsync = expected?.start ?? actual.start
            // An expected frame that never ended (a torn trace) has no deadline to judge by: one
            // interval, as without one. Its overrun stays trace processor's (its end read as start - 1).
            let deadline = expected?.end ?? vsync.addingSaturating(interval)
            let workStart = doFrame?.start ?? actual.start
            let commitEnd = doFrame?.end ?? android.actualEnd
            // A lane only for work the trace shows: without `Choreographer#doFrame`, no main lane.
            var lanes: [FrameReport.LaneTiming] = []
            if let doFrame {
                lanes.append(
                    FrameReport.LaneTiming(
                        lane: .main, costNanoseconds: doFrame.end.subtractingSaturating(doFrame.start),
                        start: workStart, end: commitEnd, deadline: deadline))
            }
            if let first = draws.first, let cost = android.drawFrameNanoseconds {
                lanes.append(
                    FrameReport.LaneTiming(
                        lane: .render, costNanoseconds: cost, start: first.start,
                        end: draws.map(\.end).max() ?? first.end, deadline: deadline))
            }
            if let display, let end = display.end {
                lanes.append(
                    FrameReport.LaneTiming(
                        lane: .compositor, costNanoseconds: end.subtractingSaturating(display.start),
                        start: display.start, end: end,
                        deadline: displayOnTime ? max(end, expectedPresent ?? end) : expectedPresent))
            }
            let reasons = Set(android.jankingReasons.map(String.init))
            let isDropped = reasons.contains("Dropped Frame")
            let outcome: FrameReport.Frame.Outcome =
                isDropped
                ? .dropped
                : (["On-time Present", "Late Present", "Early Present"].contains(android.presentType)
                    ? .presented : .measured)
            var frame = FrameReport.Frame(
                index: 0, vsync: vsync, deadline: deadline, workStart: workStart, commitEnd: commitEnd, outcome: outcome
            )
            frame.lanes = lanes
            frame.presentation = isDropped ? nil : display?.end
            frame.sourceIndex = token
            frame.android = android
            var hold: FrameReport.HitchHold?
            if android.isJanky {
                let (cause, lane) = cause(reasons: reasons, frame: frame)
                frame.hitchCause = cause
                if let lane {
                    let work =
                        lane == .main
                        ? doFrame.map { ($0.start, $0.end, mainSliceName) }
                        : draws.first.map { ($0.start, draws.map(\.end).max() ?? $0.end, String($0.name)) }
                    if let (start, end, stage) = work {
                        hold = FrameReport.HitchHold(
                            lane: lane, stage: stage, frame: nil, start: start, end: end, wasPending: false)
                    }
                }
            }
            built.append((frame, hold))
        }
        built.sort { ($0.frame.workStart, $0.frame.vsync) < ($1.frame.workStart, $1.frame.vsync) }
        let startFrames = AndroidAppStart.frameCount(
            frames: built.map { ($0.frame.workStart, $0.frame.commitEnd) }, trace: trace, spans: spans,
            processID: processID)
        for position in built.indices.prefix(startFrames) { built[position].frame.android?.isAppStart = true }
        var frames: [FrameReport.Frame] = []
        frames.reserveCapacity(built.count)
        var fallback: [Int: FrameReport.HitchHold] = [:]
        for (position, entry) in built.enumerated() {
            var frame = entry.frame
            frame.index = position
            frames.append(frame)
            if var hold = entry.hold {
                hold.frame = position
                fallback[position] = hold
            }
        }
        let layer = frames.first?.android?.layer
        let detail = FrameReport.SourceDetail.androidFrameTimeline(
            frames: frames.count, processID: processID, layer: layer, mainSliceName: mainSliceName,
            mainSlices: tokens.reduce(0) { $0 + (doFrames[$1] == nil ? 0 : 1) },
            renderSlices: tokens.reduce(0) { $0 + (drawFrames[$1]?.count ?? 0) })
        var found = FrameAnalyzer.FoundFrames(source: .frameTimeline, detail: detail, frames: frames)
        found.fallbackHolds = fallback
        return found
    }

    /// Whether SurfaceFlinger judged its display frame on time: it finished on time (`On time
    /// finish`) and did not present late.
    private static func isOnTime(_ display: Slice) -> Bool {
        (display.arguments[AndroidFrameTimeline.onTimeFinishKey]?.integerValue ?? 0) != 0
            && display.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue != "Late Present"
    }

    /// A janky frame's hitch cause and the app lane that held it: the app's lane for `App
    /// Deadline Missed` and `App Resynced Jitter` (the main lane when `Choreographer#doFrame`
    /// ended past the deadline, else the render lane when there is one; `app-deadline-missed`
    /// when the trace has neither slice for the frame), the compositor for
    /// SurfaceFlinger's misses, then `display-hal`, `prediction-error`, else unknown (a dropped
    /// frame).
    static func cause(reasons: Set<String>, frame: FrameReport.Frame) -> (cause: HitchCause, lane: Lane?) {
        if reasons.contains("App Deadline Missed") || reasons.contains("App Resynced Jitter") {
            // Without the app's own slices nothing measured says which of its lanes it was: the
            // cause is Android's, in its words.
            guard frame.lane(.main) != nil || frame.lane(.render) != nil else { return (.appDeadlineMissed, nil) }
            let mainLate = (frame.lane(.main)?.overrun ?? 0) > 0
            let lane: Lane = mainLate || frame.lane(.render) == nil ? .main : .render
            return (lane.hitchCause ?? .commit, lane)
        }
        if reasons.contains("SurfaceFlinger CPU Deadline Missed")
            || reasons.contains("SurfaceFlinger GPU Deadline Missed")
            || reasons.contains("SurfaceFlinger Scheduling")
        {
            return (.compositor, nil)
        }
        if reasons.contains("Display HAL") { return (.displayHAL, nil) }
        if reasons.contains("Prediction Error") { return (.predictionError, nil) }
        return (.unknown, nil)
    }
}
