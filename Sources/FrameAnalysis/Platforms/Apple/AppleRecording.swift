import FrameSupport
@_spi(FramescopeInternals) import FrameTrace

/// What an Instruments recording (`xcrun xctrace export`, as the reader turns its tables into
/// instants under Apple's own column names) says about frames: Apple's hitches and the stage that
/// held each, the frames it displayed, its displays' rates and vsyncs, its hangs, and the run's
/// length from its table of contents.
///
/// Apple's rule (the project's DOMAIN.md): each `hitches` row is a hitch, its duration the hitch
/// time; `is-system` rows are the system's, apart from the app's; the stage tables break frames
/// into stages and are never summed into hitch time; hangs are not hitches.
struct AppleRecording {
    /// The reader's categories (the tables' schema names) and argument keys (the columns' names
    /// for people), as `InstrumentsImporter` writes them; the keys are declared in
    /// `FrameAnalyzer.argumentKeys`.
    enum Names {
        static let hitches = "hitches"
        static let updates = "hitches-updates"
        static let renders = "hitches-renders"
        static let gpu = "hitches-gpu"
        static let surfaces = "displayed-surfaces-interval"
        static let vsyncs = "display-vsyncs-interval"
        static let displays = "device-display-info"
        static let hangs = "potential-hangs"
        static let durationKey = "Duration"
        static let isSystemKey = "Is System"
        static let issueKey = "Potential Issue"
        static let displayKey = "Display"
        static let displayNameKey = "Display Name"
        static let refreshRateKey = "Max Refresh Rate"
        static let mainDisplayKey = "Main Display"
        static let hangTypeKey = "Hang Type"
        static let deviceNameKey = "Device Name"
        static let recordingDurationKey = "instruments-duration-ns"
    }

    /// One of Apple's hitches.
    struct Hitch {
        var start: Int64
        var duration: Int64
        /// Apple's "Potential Issue" text; `nil` when the row leaves it empty.
        var issue: String?
        var display: String?
    }

    /// An interval of one of Apple's tables: a stage or a displayed surface.
    struct Interval {
        var start: Int64
        var duration: Int64
        var display: String?
        var end: Int64 { start.addingSaturating(duration) }
    }

    var hitches: [Hitch] = []
    var systemHitches = 0
    /// The app's commits (`hitches-updates`) and the render server's work (`hitches-renders`, `hitches-gpu`).
    var updates: [Interval] = []
    var renders: [Interval] = []
    var surfaces: [Interval] = []
    var vsyncs: [String: [Int64]] = [:]
    var displays: [(name: String?, hertz: Int64, isMain: Bool)] = []
    var hangs: [FrameReport.Hang] = []
    /// The run's length from its table of contents.
    var recordingNanoseconds: Int64?

    /// Whether the trace holds anything of Apple's.
    var isEmpty: Bool {
        hitches.isEmpty && systemHitches == 0 && surfaces.isEmpty && vsyncs.isEmpty && displays.isEmpty
            && hangs.isEmpty && updates.isEmpty && renders.isEmpty
    }

    /// Reads Apple's instants from a trace; empty for a trace from elsewhere.
    init(trace: Trace) {
        let symbols = trace.symbols
        if case .int(let duration)? = trace.metadata.extra.first(where: { $0.key == Names.recordingDurationKey })?.value,
            duration > 0
        {
            recordingNanoseconds = duration
        }
        let tables = [
            Names.hitches, Names.updates, Names.renders, Names.gpu, Names.surfaces, Names.vsyncs, Names.displays,
            Names.hangs,
        ]
        var tableOf: [Symbol: String] = [:]
        for table in tables { if let symbol = symbols.lookup(table) { tableOf[symbol] = table } }
        guard !tableOf.isEmpty else { return }
        for event in trace.events where event.phase == .instant {
            guard let table = tableOf[event.category] else { continue }
            read(event, table: table, arguments: trace.arguments(of: event), thread: event.thread, trace: trace)
        }
    }

    private mutating func read(
        _ event: TraceEvent, table: String, arguments: [Argument], thread: ThreadKey, trace: Trace
    ) {
        let duration = max(0, arguments[AppleRecording.Names.durationKey]?.integerValue ?? 0)
        let display =
            arguments[AppleRecording.Names.displayKey]?.stringValue
            ?? arguments[AppleRecording.Names.displayNameKey]?.stringValue
        let interval = Interval(start: event.timestamp, duration: duration, display: display)
        switch table {
        case Names.hitches:
            if arguments[AppleRecording.Names.isSystemKey]?.integerValue ?? 0 != 0 {
                systemHitches += 1
                return
            }
            let issue = arguments[AppleRecording.Names.issueKey]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            hitches.append(Hitch(start: event.timestamp, duration: duration, issue: issue, display: display))
        case Names.updates: updates.append(interval)
        case Names.renders, Names.gpu: renders.append(interval)
        case Names.surfaces: surfaces.append(interval)
        case Names.vsyncs: vsyncs[display ?? "", default: []].append(event.timestamp)
        case Names.displays:
            let hertz = arguments[AppleRecording.Names.refreshRateKey]?.integerValue ?? 0
            guard hertz > 0, hertz <= 1000 else { return }
            let name = arguments[AppleRecording.Names.deviceNameKey]?.stringValue
            displays.append((name, hertz, arguments[AppleRecording.Names.mainDisplayKey]?.integerValue ?? 0 != 0))
        case Names.hangs:
            let type = arguments[AppleRecording.Names.hangTypeKey]?.stringValue ?? "Hang"
            hangs.append(
                FrameReport.Hang(
                    start: event.timestamp, duration: duration, type: type, thread: thread,
                    threadName: trace.threadName(thread)))
        default: break
        }
    }
}

extension AppleRecording {
    // MARK: - The display's rate

    /// The display's frame interval, from what decides it best: framescope's frame budgets in the
    /// recording (the median), the app's display's vsync spacing (the median), else the refresh
    /// rate of the main display in `device-display-info` (a ProMotion display's 120 Hz).
    static func frameRate(of trace: Trace, recording: AppleRecording) -> (FrameRate, FrameReport.AppleRateSource)? {
        if let budget = frameBudget(of: trace), let rate = FrameRate(intervalNanoseconds: budget) {
            return (rate, .frameBudgets)
        }
        let display = recording.hitches.first?.display ?? recording.surfaces.first?.display
        let ticks = display.flatMap { recording.vsyncs[$0] } ?? recording.vsyncs.values.max { $0.count < $1.count }
        if let ticks, ticks.count >= 2 {
            var gaps = zip(ticks.dropFirst(), ticks).map { $0.subtractingSaturating($1) }.filter { $0 > 0 }
            gaps.sort()
            if !gaps.isEmpty, let rate = FrameRate(intervalNanoseconds: gaps[gaps.count / 2]) { return (rate, .vsyncs) }
        }
        let main = recording.displays.first { $0.isMain } ?? recording.displays.max { $0.hertz < $1.hertz }
        if let main { return (FrameRate(hertz: Double(main.hertz)), .displayInfo) }
        return nil
    }

    /// The median `budget-ns` of the frame spans, when the trace has some from a signpost export.
    private static func frameBudget(of trace: Trace) -> Int64? {
        guard let category = trace.symbols.lookup(FrameContract.frameCategory) else { return nil }
        var budgets: [Int64] = []
        for event in trace.events where event.category == category && event.phase == .complete {
            if let budget = trace.arguments(of: event)[FrameContract.Key.budget]?.integerValue, budget > 0 {
                budgets.append(budget)
            }
        }
        guard !budgets.isEmpty else { return nil }
        budgets.sort()
        return budgets[budgets.count / 2]
    }
}

extension AppleRecording {
    /// The summary as Apple counts it: over the run's length when the TOC gives it; with hitches
    /// and no frame table and no TOC, the recording's length is unknown (no ratio, no band,
    /// rather than a ratio over a guess); the system's hitches counted apart.
    func adjust(_ summary: inout FrameReport.Summary, frames: [FrameReport.Frame]) {
        if !hitches.isEmpty || systemHitches > 0 { summary.systemHitches = systemHitches }
        if let recordingNanoseconds {
            summary.measuredNanoseconds = recordingNanoseconds
        } else if surfaces.isEmpty, !frames.indices.contains(where: { frames[$0].apple?.hitchNanoseconds == 0 }) {
            summary.measuredNanoseconds = 0
            summary.isMeasuredTimeKnown = false
        }
        let measured = summary.measuredNanoseconds
        summary.hitchTimeRatio = measured > 0 ? (Double(summary.hitchNanoseconds) / 1e6) / (Double(measured) / 1e9) : 0
        summary.hitchBand =
            summary.isMeasuredTimeKnown && !frames.isEmpty ? HitchBand(hitchTimeRatio: summary.hitchTimeRatio) : nil
    }
}
