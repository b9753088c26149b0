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

    /// The display's periods as the trace records them (``displayPeriods(trace:processID:)``).
    struct DisplayPeriods {
        /// The period of the stretch with the most of the app's frames: the report's `P`.
        var interval: Int64
        /// The spacings measured, and those within an eighth of their stretch's period.
        var gaps: Int
        var atPeriod: Int
        /// The stretches at one rate, in time order (their `frames` are 0: the analysis counts them).
        var stretches: [FrameReport.DisplayStretch]
    }

    /// How many consecutive spacings show a new display rate: `stretchGaps` for a rate the old
    /// period cannot make (shorter spacings, or not whole multiples of it); four times as many for
    /// a slower rate whose period is a whole multiple of the old one, which an app that skips
    /// vsyncs shows the same way.
    static let stretchGaps = 8

    /// The display's periods as the trace records them: the spacing of the app's expected surface
    /// frame starts and of SurfaceFlinger's expected display frame starts (each series apart, then
    /// together in time order; vsync ids are not used: they step by several per period), per
    /// stretch at one rate (``stretchStarts(_:)``). A stretch's period is the median of its
    /// spacings, or of those within an eighth of its unit (the shortest spacing that recurs) when
    /// the median lies further from it (an app that drew on fewer than half the vsyncs). `nil` without
    /// FrameTimeline, when the median spacing is not a display's (2-100 ms), or when fewer than
    /// half the spacings lie within an eighth of their stretch's period (frames at irregular times
    /// give no period to trust).
    static func displayPeriods(trace: Trace, processID preferred: Int64?) -> DisplayPeriods? {
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
        // Each spacing at the start it follows, the app's and the display's in one time line.
        var gaps: [(at: Int64, length: Int64, isApp: Bool)] = []
        for (isApp, var starts) in [(true, app), (false, display)] {
            starts.sort()
            for (earlier, later) in zip(starts, starts.dropFirst()) where later > earlier {
                gaps.append((earlier, later.subtractingSaturating(earlier), isApp))
            }
        }
        guard !gaps.isEmpty else { return nil }
        gaps.sort { ($0.at, $0.length) < ($1.at, $1.length) }
        let sorted = gaps.map(\.length).sorted()
        guard (2_000_000...100_000_000).contains(sorted[(sorted.count - 1) / 2]) else { return nil }
        var starts = stretchStarts(gaps.map(\.length))
        if starts.isEmpty { starts = [(0, sorted[(sorted.count - 1) / 2])] }
        var stretches: [FrameReport.DisplayStretch] = []
        var appGaps: [Int] = []
        var atPeriod = 0
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1].first : gaps.count
            let part = gaps[start.first..<end]
            // The median spacing, as one rate for the whole trace was; where vsyncs nobody drew
            // outnumber the drawn ones, the median of the spacings at the unit.
            let lengths = part.map(\.length).sorted()
            let near = lengths.filter { abs($0.subtractingSaturating(start.unit)) <= start.unit / 8 }
            var period = lengths.isEmpty ? start.unit : lengths[(lengths.count - 1) / 2]
            if abs(period.subtractingSaturating(start.unit)) > start.unit / 8 {
                period = near.isEmpty ? start.unit : near[(near.count - 1) / 2]
            }
            atPeriod += part.reduce(0) { $0 + (abs($1.length.subtractingSaturating(period)) <= period / 8 ? 1 : 0) }
            stretches.append(
                FrameReport.DisplayStretch(
                    start: number == 0 ? (gaps.first?.at ?? 0) : part.first?.at ?? 0, intervalNanoseconds: period,
                    frames: 0))
            appGaps.append(part.reduce(0) { $0 + ($1.isApp ? 1 : 0) })
        }
        // Frames drawn at irregular times (a test's hand-made trace) have no one spacing to trust.
        guard atPeriod.multipliedReportingOverflow(by: 2).partialValue >= gaps.count else { return nil }
        let dominant = stretches.indices.max { (appGaps[$0], $1) < (appGaps[$1], $0) } ?? 0
        return DisplayPeriods(
            interval: stretches[dominant].intervalNanoseconds, gaps: gaps.count, atPeriod: atPeriod,
            stretches: stretches)
    }

    /// Counts each stretch's frames (a frame is in the last stretch that starts at or before its
    /// vsync; the first also holds the frames before it) and, when the rate changed, gives every
    /// frame its stretch's period (``FrameReport/Frame/displayInterval``): one stretch leaves the
    /// frames on the report's `P`, which is its period.
    static func assign(_ stretches: inout [FrameReport.DisplayStretch], to frames: inout [FrameReport.Frame]) {
        guard !stretches.isEmpty else { return }
        for index in frames.indices {
            let vsync = frames[index].vsync
            let stretch = stretches.lastIndex { $0.start <= vsync } ?? 0
            stretches[stretch].frames += 1
            if stretches.count > 1 { frames[index].displayInterval = stretches[stretch].intervalNanoseconds }
        }
    }

    /// Whether `length` lies within an eighth of `unit` of a whole multiple (1 or more) of it: a
    /// spacing a display at period `unit` can make.
    static func isNear(_ length: Int64, multipleOf unit: Int64) -> Bool {
        guard unit > 0, length >= unit - unit / 8 else { return false }
        let multiple = max(1, length.addingSaturating(unit / 2) / unit)
        return abs(length.subtractingSaturating(multiple.multipliedReportingOverflow(by: unit).partialValue))
            <= unit / 8
    }

    /// Where the display's rate changes in a series of spacings in time order, as (the index of
    /// the stretch's first spacing, its unit); empty when no ``stretchGaps`` consecutive spacings
    /// agree on a unit. A window of spacings has a unit when every one of them lies within an
    /// eighth of a whole multiple of the shortest spacing that recurs in it (a display at that
    /// period, the app drawing on some of its vsyncs). The first such window sets the first stretch's unit; a later one with
    /// another unit starts a stretch at its first spacing, when it is ``stretchGaps`` long and its
    /// unit is one the old period cannot make, or four times as long when its unit is a whole
    /// multiple of the old period (120 Hz to 60 Hz looks like an app drawing every second vsync
    /// until it lasts).
    static func stretchStarts(_ lengths: [Int64]) -> [(first: Int, unit: Int64)] {
        // The shortest spacing that recurs (twice or more) in the window, when every spacing
        // of the window is a whole multiple of it.
        func unit(_ window: ArraySlice<Int64>) -> Int64? {
            let sorted = window.sorted()
            guard
                let shortest = sorted.indices.dropLast().first(where: {
                    sorted[$0 + 1].subtractingSaturating(sorted[$0]) <= sorted[$0] / 8
                }).map({ sorted[$0] }),
                window.allSatisfy({ isNear($0, multipleOf: shortest) })
            else { return nil }
            return shortest
        }
        var starts: [(first: Int, unit: Int64)] = []
        var index = 0
        while index + stretchGaps <= lengths.count {
            guard let found = unit(lengths[index..<(index + stretchGaps)]) else {
                index += 1
                continue
            }
            guard let current = starts.last?.unit else {
                starts.append((0, found))
                index += 1
                continue
            }
            // A stretch begins with a spacing its predecessor's period cannot make.
            if abs(found.subtractingSaturating(current)) <= current / 8
                || abs(lengths[index].subtractingSaturating(current)) <= current / 8
            {
                index += 1
                continue
            }
            // A slower unit that is a whole multiple of the current one needs a longer run.
            let needed = isNear(found, multipleOf: current) ? 4 * stretchGaps : stretchGaps
            if index + needed <= lengths.count, let long = unit(lengths[index..<(index + needed)]),
                abs(long.subtractingSaturating(found)) <= found / 8
            {
                starts.append((index, found))
                index += needed
            } else {
                index += 1
            }
        }
        return starts
    }

    /// - Parameters:
    ///   - processID: The analysed app's process (the main thread's); when it has no surface
    ///     frames (or the trace has no main thread), the process with the most.
    static func frames(trace: Trace, spans: SpanIndex, processID preferred: Int64?, interval: Int64) -> FrameAnalyzer
        .FoundFrames?
    {
        let slices = slices(trace: trace)
        guard let processID = appProcess(slices, preferred: preferred) else { return nil }
        let timeline = TimelineFrames(slices, processID: processID)
        guard !timeline.tokens.isEmpty else { return nil }
        let doFrames = AndroidApp.slicesByFrameID(
            prefix: AndroidApp.doFramePrefix, trace: trace, spans: spans, processID: processID)
        let drawFrames = AndroidApp.slicesByFrameID(
            prefix: AndroidApp.drawFramePrefix, trace: trace, spans: spans, processID: processID)

        var built: [(frame: FrameReport.Frame, hold: FrameReport.HitchHold?)] = []
        built.reserveCapacity(timeline.tokens.count)
        for token in timeline.tokens {
            guard
                let entry = frame(
                    token: token, timeline: timeline, doFrame: doFrames[token]?.first, draws: drawFrames[token] ?? [],
                    interval: interval)
            else { continue }
            built.append(entry)
        }
        built.sort { ($0.frame.workStart, $0.frame.vsync) < ($1.frame.workStart, $1.frame.vsync) }
        let start = AndroidAppStart.window(
            frames: built.map { ($0.frame.workStart, $0.frame.commitEnd) }, trace: trace, spans: spans,
            processID: processID)
        for position in built.indices.prefix(start?.frames ?? 0) { built[position].frame.android?.isAppStart = true }
        let (frames, fallback) = numbered(built)
        let layer = frames.first?.android?.layer
        let detail = FrameReport.SourceDetail.androidFrameTimeline(
            frames: frames.count, processID: processID, layer: layer, mainSliceName: mainSliceName,
            mainSlices: timeline.tokens.reduce(0) { $0 + (doFrames[$1] == nil ? 0 : 1) },
            renderSlices: timeline.tokens.reduce(0) { $0 + (drawFrames[$1]?.count ?? 0) })
        var found = FrameAnalyzer.FoundFrames(source: .frameTimeline, detail: detail, frames: frames)
        found.fallbackHolds = fallback
        if let start, let first = frames.first {
            found.appStartMark = FrameReport.AppStartMark(
                name: start.mark, time: start.time, afterFirstVsync: start.time.subtractingSaturating(first.vsync),
                lastFrame: start.frames - 1)
        }
        return found
    }

    /// The app's FrameTimeline slices by token: its surface frames (in parse order) and the
    /// display frames they were composited in.
    private struct TimelineFrames {
        var expectedSurface: [Int64: Slice] = [:]
        var expectedDisplay: [Int64: Slice] = [:]
        var actualDisplay: [Int64: Slice] = [:]
        var actualSurface: [Int64: [Slice]] = [:]
        /// The app's surface frame tokens, in the order of their first actual slice.
        var tokens: [Int64] = []

        init(_ slices: [Slice], processID: Int64) {
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
        }
    }

    /// The display frame a surface frame was composited in, as far as the trace shows it.
    private struct DisplayFrame {
        /// SurfaceFlinger's actual display frame slice.
        var actual: Slice?
        /// The end of its expected display frame slice.
        var expectedPresent: Int64?
        /// SurfaceFlinger's own verdict on its display frame: on time, it held nothing, whatever
        /// a few microseconds past the expected present say.
        var isOnTime: Bool
        /// How late it presented, past its expected present; at most 0 when on time.
        var presentDelay: Int64?

        init(token: Int64, timeline: TimelineFrames) {
            actual = timeline.actualDisplay[token]
            expectedPresent = timeline.expectedDisplay[token].flatMap(\.end)
            isOnTime = actual.map(AndroidFrameTimeline.isOnTime) ?? false
            if let end = actual?.end, let expectedPresent {
                presentDelay = end.subtractingSaturating(expectedPresent)
                if isOnTime { presentDelay = min(0, presentDelay ?? 0) }
            }
        }
    }

    /// One surface frame of the app and, when it is janky, the work that held it; `nil` when its
    /// token has no actual slice.
    private static func frame(
        token: Int64, timeline: TimelineFrames, doFrame: AndroidApp.FrameSlice?, draws: [AndroidApp.FrameSlice],
        interval: Int64
    ) -> (frame: FrameReport.Frame, hold: FrameReport.HitchHold?)? {
        let layers = timeline.actualSurface[token] ?? []
        guard let actual = layers.first else { return nil }
        let expected = timeline.expectedSurface[token]
        let display = DisplayFrame(
            token: actual.arguments[AndroidFrameTimeline.displayTokenKey]?.integerValue ?? 0, timeline: timeline)
        let android = androidFrame(
            token: token, layers: layers, expected: expected, doFrame: doFrame, draws: draws,
            presentDelay: display.presentDelay)
        let vsync = expected?.start ?? actual.start
        // An expected frame that never ended (a torn trace) has no deadline to judge by: one
        // interval, as without one. Its overrun stays trace processor's (its end read as start - 1).
        let deadline = expected?.end ?? vsync.addingSaturating(interval)
        let workStart = doFrame?.start ?? actual.start
        let commitEnd = doFrame?.end ?? android.actualEnd
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
        frame.lanes = lanes(
            doFrame: doFrame, draws: draws, drawCost: android.drawFrameNanoseconds, display: display,
            deadline: deadline)
        frame.presentation = isDropped ? nil : display.actual?.end
        frame.sourceIndex = token
        frame.android = android
        guard android.isJanky else { return (frame, nil) }
        let (cause, lane) = cause(reasons: reasons, frame: frame)
        frame.hitchCause = cause
        return (frame, lane.flatMap { hold(on: $0, doFrame: doFrame, draws: draws) })
    }

    /// FrameTimeline's account of a surface frame (its first actual slice's, and the jank of
    /// the later ones) beside the app's own slices of it.
    private static func androidFrame(
        token: Int64, layers: [Slice], expected: Slice?, doFrame: AndroidApp.FrameSlice?,
        draws: [AndroidApp.FrameSlice], presentDelay: Int64?
    ) -> AndroidFrame {
        let actual = layers[0]
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

        // Each slice judged once. A later janky slice when the first was not: the frame is janky
        // by it (trace processor's jank metrics count the frame by any slice).
        let jankySlices = layers.filter {
            AndroidFrame.isJanky(jankType: $0.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "")
        }
        if !android.isJanky, let later = jankySlices.first {
            android.laterJank = (
                later.arguments[AndroidFrameTimeline.jankTypeKey]?.stringValue ?? "",
                later.arguments[AndroidFrameTimeline.presentTypeKey]?.stringValue ?? "",
                later.end ?? later.start.subtractingSaturating(1)
            )
        }
        for slice in jankySlices {
            let layer = slice.arguments[AndroidFrameTimeline.layerKey]?.stringValue ?? ""
            if !android.jankyLayers.contains(layer) { android.jankyLayers.append(layer) }
        }
        return android
    }

    /// A surface frame's lanes: a lane only for work the trace shows (without
    /// `Choreographer#doFrame`, no main lane).
    private static func lanes(
        doFrame: AndroidApp.FrameSlice?, draws: [AndroidApp.FrameSlice], drawCost: Int64?, display: DisplayFrame,
        deadline: Int64
    ) -> [FrameReport.LaneTiming] {
        var lanes: [FrameReport.LaneTiming] = []
        if let doFrame {
            lanes.append(
                FrameReport.LaneTiming(
                    lane: .main, costNanoseconds: doFrame.end.subtractingSaturating(doFrame.start),
                    start: doFrame.start, end: doFrame.end, deadline: deadline))
        }
        if let first = draws.first, let drawCost {
            lanes.append(
                FrameReport.LaneTiming(
                    lane: .render, costNanoseconds: drawCost, start: first.start,
                    end: draws.map(\.end).max() ?? first.end, deadline: deadline))
        }
        if let actual = display.actual, let end = actual.end {
            let expectedPresent = display.expectedPresent
            lanes.append(
                FrameReport.LaneTiming(
                    lane: .compositor, costNanoseconds: end.subtractingSaturating(actual.start),
                    start: actual.start, end: end,
                    deadline: display.isOnTime ? max(end, expectedPresent ?? end) : expectedPresent))
        }
        return lanes
    }

    /// The app's work on `lane` that held a janky frame, when the trace has it (not yet numbered).
    private static func hold(
        on lane: Lane, doFrame: AndroidApp.FrameSlice?, draws: [AndroidApp.FrameSlice]
    ) -> FrameReport.HitchHold? {
        let work =
            lane == .main
            ? doFrame.map { ($0.start, $0.end, mainSliceName) }
            : draws.first.map { ($0.start, draws.map(\.end).max() ?? $0.end, String($0.name)) }
        guard let (start, end, stage) = work else { return nil }
        return FrameReport.HitchHold(lane: lane, stage: stage, frame: nil, start: start, end: end, wasPending: false)
    }

    /// The frames in order, numbered, and the holds of the janky ones by their number.
    private static func numbered(
        _ built: [(frame: FrameReport.Frame, hold: FrameReport.HitchHold?)]
    ) -> ([FrameReport.Frame], [Int: FrameReport.HitchHold]) {
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
        return (frames, fallback)
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
