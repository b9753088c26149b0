import FrameTrace

/// Chrome's own frame accounting in one renderer process: the compositor's `PipelineReporter`
/// slices where the trace has them, else the `BeginFrame`/`DrawFrame`/`DroppedFrame` instants
/// DevTools' Frames track was built from.
///
/// Two generations of events carry it, and the newer wins when both are present:
///
/// - **`PipelineReporter`** async slices (Chrome ~M90 on), one per frame and reporter; the
///   outcome is `args.chrome_frame_reporter.state`. `STATE_PRESENTED_ALL` is a frame shown on
///   time, `STATE_PRESENTED_PARTIAL` a frame shown with some of its updates missing,
///   `STATE_DROPPED` a frame Chrome dropped (a wanted update not shown at its vsync: late by one
///   vsync), and `STATE_NO_UPDATE_DESIRED` no frame at all: nothing needed drawing. Each
///   (`layer_tree_host_id`, `frame_sequence`) is one frame however many reporters it has. When
///   the main thread is still busy with a frame at the next vsync, Chrome forks its reporter:
///   the copy (`frame_type` `FORKED`) settles what the compositor showed at that vsync, and the
///   original keeps the main-thread stage and ends when that update is presented. The
///   original decides the outcome; when it presented the frame but its forked copy dropped or
///   partially presented it, the frame counts as partially presented (shown, the main thread's
///   update missing at that vsync). A frame with only a forked reporter takes that one's state.
///   A partial outcome counts only where a reporter of the frame says it affects smoothness
///   (`affects_smoothness`, absent in older traces: then it counts): Chrome's smoothness
///   metrics count no other, and nothing on screen was animating. A dropped frame is late
///   either way; how many of them affect smoothness is kept beside the count.
/// - **`BeginFrame` / `DrawFrame` / `DroppedFrame`** instants (`args.frameSeqId`,
///   `args.layerTreeId`), as DevTools' begin-frame queue reads them: every BeginFrame is
///   pending; a `DroppedFrame` marks its sequence dropped; a `DrawFrame` settles every pending
///   frame up to its sequence: the drawn one is a presented frame, earlier ones are frames only if
///   they were dropped (otherwise Chrome had nothing to draw: idle, not a frame). Current Chrome
///   writes `DroppedFrame` only for a dropped frame that affects smoothness.
///
/// Each frame starts at its vsync (the event's `ts`) and its deadline is one interval later.
/// Only events of the analysed renderer process count: a page's frames are its renderer's, not
/// the browser UI's.
///
/// **Lanes and hitch cause.** A frame from `PipelineReporter` carries the stages of the reporter
/// that decided its outcome as lanes (``ChromePipeline``). Why a dropped frame was late is
/// ``FrameReport/HitchHold``: the stages of *every* reporter of the process are the pipeline's
/// work (``laneWork``), and the first lane still busy at the frame's deadline held it (the main
/// thread still in an earlier frame's `SendBeginMainFrameToCommit`, raster or activation pending,
/// the GPU not done presenting). Only when no lane was busy then does the frame's own stage that
/// overran most name the cause: the stage whose duration exceeds its typical duration (the median
/// of that stage over this renderer's presented frames; with no presented sample, 0) by the most.
/// A dropped frame with neither gets `unknown`. Presented and partially presented frames were
/// shown at their vsync, so their cause is `none`.
struct ChromeFrameEvents {
    /// One frame as Chrome reported it.
    struct Reported {
        var vsync: Int64
        var outcome: FrameReport.Frame.Outcome
        /// The stages of the reporter that decided the outcome; empty for the older events.
        var stages: [ChromeStage] = []
        /// Whether a reporter of the frame says it affects smoothness; `nil` when none says.
        var affectsSmoothness: Bool? = nil
        /// The frame's key, for the reporters' stages to find it; `nil` for the older events.
        fileprivate var key: FrameKey? = nil
    }

    /// One frame of one layer tree; reporters without a sequence each get a key of their own.
    fileprivate struct FrameKey: Hashable {
        var layerTree: Int64
        var sequence: Int64
    }

    /// What one PipelineReporter said about its frame.
    private enum ReporterState {
        case frame(FrameReport.Frame.Outcome)
        /// Nothing needed drawing: not a frame.
        case noUpdate
        /// A state this reader does not know.
        case unknown
    }

    private var reporters: [Reported] = []
    private var reporterSkipped = (noUpdate: 0, forked: 0, unknown: 0, notSmooth: 0)
    private var beginFrames: [(timestamp: Int64, layerTree: Int64, sequence: Int64)] = []
    private var legacy: [Reported] = []
    private var legacyIdle = 0
    /// Every reporter's counted stages, with the frame each reporter was for.
    private var reporterStages: [(key: FrameKey, stages: [ChromeStage])] = []
    /// `DroppedFrame` instants in the process: Chrome's own count of dropped frames that affect
    /// smoothness.
    private(set) var droppedFrameEvents = 0

    static let pipelineReporter = "PipelineReporter"
    static let stateKey = "chrome_frame_reporter.state"
    static let frameTypeKey = "chrome_frame_reporter.frame_type"
    static let sequenceKey = "chrome_frame_reporter.frame_sequence"
    static let layerTreeHostKey = "chrome_frame_reporter.layer_tree_host_id"
    static let affectsSmoothnessKey = "chrome_frame_reporter.affects_smoothness"
    static let legacySequenceKey = "frameSeqId"
    static let legacyLayerTreeKey = "layerTreeId"

    /// One frame's reporters: the main one's and the forked one's states, with the positions in
    /// `trace.events` of the reporters whose states are kept.
    private typealias ReportedFrame = (
        vsync: Int64, main: ReporterState?, forked: ReporterState?, mainEvent: Int, forkedEvent: Int, smooth: Bool?
    )
    private typealias LegacyEvent = (timestamp: Int64, kind: UInt8, layerTree: Int64, sequence: Int64, order: Int)

    init(trace: Trace, processID: Int64) {
        let symbols = trace.symbols
        let reporterName = symbols.lookup(Self.pipelineReporter)
        let beginName = symbols.lookup("BeginFrame")
        let drawName = symbols.lookup("DrawFrame")
        let droppedName = symbols.lookup("DroppedFrame")
        guard reporterName != nil || beginName != nil else { return }
        // One frame per (layer tree, sequence): its main reporter's outcome, made partial when a
        // forked reporter of the same frame says its main-thread part missed it.
        var byFrame: [FrameKey: ReportedFrame] = [:]
        var keyOfReporter: [Int: FrameKey] = [:]
        var unkeyed = 0
        var legacyEvents: [LegacyEvent] = []
        for (order, event) in trace.events.enumerated() where event.thread.processID == processID {
            if event.phase == .asyncBegin, event.name == reporterName {
                let key = record(
                    reporter: event, arguments: trace.argumentLists[Int(event.arguments)], order: order,
                    unkeyed: &unkeyed, into: &byFrame)
                keyOfReporter[order] = key
            } else if event.phase == .instant, let kind = [beginName, drawName, droppedName].firstIndex(of: event.name)
            {
                if kind == 2 { droppedFrameEvents += 1 }
                let arguments = trace.argumentLists[Int(event.arguments)]
                guard let sequence = arguments[Self.legacySequenceKey]?.integerValue else { continue }
                let layerTree = arguments[Self.legacyLayerTreeKey]?.integerValue ?? -1
                legacyEvents.append((event.timestamp, UInt8(kind), layerTree, sequence, order))
            }
        }
        let stages =
            reporterName.map { ChromePipeline.stagesByReporter(trace: trace, processID: processID, reporterName: $0) }
            ?? [:]
        decide(byFrame, stages: stages)
        // Both orders end in the whole frame key: `byFrame` and `stages` are dictionaries, whose
        // order changes from process to process, so a tie left to it made two runs of one trace
        // number frames that share a vsync (two layer trees) differently.
        reporterStages = stages.compactMap { order, list in keyOfReporter[order].map { (key: $0, stages: list) } }
            .sorted {
                ($0.stages.first?.start ?? 0, $0.key.sequence, $0.key.layerTree)
                    < ($1.stages.first?.start ?? 0, $1.key.sequence, $1.key.layerTree)
            }
        reporters.sort {
            ($0.vsync, $0.outcome.rawValue, $0.key?.layerTree ?? .min, $0.key?.sequence ?? .min)
                < ($1.vsync, $1.outcome.rawValue, $1.key?.layerTree ?? .min, $1.key?.sequence ?? .min)
        }
        legacyEvents.sort { ($0.timestamp, $0.order) < ($1.timestamp, $1.order) }
        settleLegacy(legacyEvents)
    }

    /// Files one PipelineReporter under its frame: the main or the forked reporter's state, and
    /// whether the frame affects smoothness. Returns the frame's key (a reporter without a
    /// sequence gets a key of its own).
    private mutating func record(
        reporter event: TraceEvent, arguments: [Argument], order: Int, unkeyed: inout Int,
        into byFrame: inout [FrameKey: ReportedFrame]
    ) -> FrameKey {
        let isForked = arguments[Self.frameTypeKey]?.stringValue == "FORKED"
        let state: ReporterState =
            switch arguments[Self.stateKey]?.stringValue {
            case "STATE_PRESENTED_ALL": .frame(.presented)
            case "STATE_PRESENTED_PARTIAL": .frame(.partial)
            case "STATE_DROPPED": .frame(.dropped)
            case "STATE_NO_UPDATE_DESIRED": .noUpdate
            default: .unknown
            }
        let key: FrameKey
        if let sequence = arguments[Self.sequenceKey]?.integerValue {
            key = FrameKey(layerTree: arguments[Self.layerTreeHostKey]?.integerValue ?? -1, sequence: sequence)
        } else {
            key = FrameKey(layerTree: Int64.min, sequence: Int64(unkeyed))
            unkeyed += 1
        }
        var entry =
            byFrame[key] ?? (
                vsync: event.timestamp, main: nil, forked: nil, mainEvent: -1, forkedEvent: -1, smooth: nil
            )
        if case .bool(let smooth) = arguments[Self.affectsSmoothnessKey] {
            entry.smooth = (entry.smooth ?? false) || smooth
        }
        if isForked {
            if entry.forked != nil { reporterSkipped.forked += 1 }
            entry.forked = state
            entry.forkedEvent = order
        } else {
            if entry.main != nil { reporterSkipped.forked += 1 }
            entry.main = state
            entry.mainEvent = order
        }
        byFrame[key] = entry
        return key
    }

    /// Each frame's outcome from its reporters: the main reporter decides, a frame with only a
    /// forked reporter takes its state, and a presented frame whose forked reporter dropped or
    /// partly presented it is partial.
    private mutating func decide(_ byFrame: [FrameKey: ReportedFrame], stages: [Int: [ChromeStage]]) {
        for (frameKey, entry) in byFrame {
            if entry.main != nil, entry.forked != nil { reporterSkipped.forked += 1 }
            switch entry.main ?? entry.forked {
            case .noUpdate, nil:
                reporterSkipped.noUpdate += 1
            case .unknown:
                reporterSkipped.unknown += 1
            case .frame(var outcome):
                if outcome == .presented, entry.main != nil, case .frame(let forked) = entry.forked,
                    forked == .dropped || forked == .partial
                {
                    outcome = .partial
                }
                // Chrome's smoothness metrics count a partial frame only when it affects smoothness.
                if outcome == .partial, entry.smooth == false {
                    outcome = .presented
                    reporterSkipped.notSmooth += 1
                }
                let decidingReporter = entry.main != nil ? entry.mainEvent : entry.forkedEvent
                reporters.append(
                    Reported(
                        vsync: entry.vsync, outcome: outcome, stages: stages[decidingReporter] ?? [],
                        affectsSmoothness: entry.smooth, key: frameKey))
            }
        }
    }

    /// DevTools' begin-frame queue over BeginFrame / DroppedFrame / DrawFrame.
    private mutating func settleLegacy(
        _ events: [LegacyEvent]
    ) {
        struct Pending {
            var timestamp: Int64
            var sequence: Int64
            var isDropped = false
        }
        var queues: [Int64: [Pending]] = [:]
        for event in events {
            switch event.kind {
            case 0:  // BeginFrame
                beginFrames.append((event.timestamp, event.layerTree, event.sequence))
                if queues[event.layerTree]?.contains(where: { $0.sequence == event.sequence }) != true {
                    queues[event.layerTree, default: []].append(
                        Pending(timestamp: event.timestamp, sequence: event.sequence))
                }
            case 2:  // DroppedFrame
                if let index = queues[event.layerTree]?.firstIndex(where: { $0.sequence == event.sequence }) {
                    queues[event.layerTree]![index].isDropped = true
                }
            default:  // DrawFrame
                guard var queue = queues[event.layerTree],
                    let drawn = queue.firstIndex(where: { $0.sequence == event.sequence })
                else {
                    continue
                }
                for pending in queue[..<drawn] {
                    if pending.isDropped {
                        legacy.append(Reported(vsync: pending.timestamp, outcome: .dropped))
                    } else {
                        legacyIdle += 1
                    }
                }
                legacy.append(
                    Reported(vsync: queue[drawn].timestamp, outcome: queue[drawn].isDropped ? .dropped : .presented))
                queue.removeSubrange(...drawn)
                queues[event.layerTree] = queue
            }
        }
        // Frames still pending at the end were never settled; only a drop is a known outcome.
        for queue in queues.values {
            for pending in queue where pending.isDropped {
                legacy.append(Reported(vsync: pending.timestamp, outcome: .dropped))
            }
        }
        legacy.sort { $0.vsync < $1.vsync }
    }

    /// The display's frame interval as Chrome's BeginFrame sequence shows it: the median time per
    /// sequence step between consecutive BeginFrames of one layer tree, between 2 ms and 100 ms.
    var derivedInterval: Int64? {
        var steps: [Int64] = []
        var last: [Int64: (timestamp: Int64, sequence: Int64)] = [:]
        for begin in beginFrames.sorted(by: { ($0.layerTree, $0.sequence) < ($1.layerTree, $1.sequence) }) {
            if let previous = last[begin.layerTree] {
                let sequenceStep = begin.sequence.subtractingSaturating(previous.sequence)
                let elapsed = begin.timestamp.subtractingSaturating(previous.timestamp)
                if sequenceStep > 0, sequenceStep <= 4, elapsed > 0 { steps.append(elapsed / sequenceStep) }
            }
            last[begin.layerTree] = (begin.timestamp, begin.sequence)
        }
        guard !steps.isEmpty else { return nil }
        steps.sort()
        let median = steps[(steps.count - 1) / 2]
        return (2_000_000...100_000_000).contains(median) ? median : nil
    }

    /// The frames, or `nil` when this process recorded no Chrome frame outcome.
    ///
    /// With them come the pipeline's work for the hold rule (``laneWork``), each dropped frame's
    /// need (every lane done by its deadline) and, for a dropped frame whose lanes were all done
    /// then, its own stage that overran most as the hold to fall back on.
    func frames(interval: Int64) -> FrameAnalyzer.FoundFrames? {
        let usesReporters = !reporters.isEmpty
        let reported = usesReporters ? reporters : legacy
        guard !reported.isEmpty else { return nil }
        let typical = ChromePipeline.typicalDurations(reported.filter { $0.outcome == .presented }.map(\.stages))
        var needs: [FrameAnalyzer.LaneNeed] = []
        var fallback: [Int: FrameReport.HitchHold] = [:]
        let frames = reported.enumerated().map { index, reportedFrame in
            let deadline = reportedFrame.vsync.addingSaturating(interval)
            // A dropped frame was shown one vsync late; every other outcome was on time.
            let end = reportedFrame.outcome == .dropped ? deadline.addingSaturating(interval) : deadline
            var frame = FrameReport.Frame(
                index: index, vsync: reportedFrame.vsync, deadline: deadline, workStart: reportedFrame.vsync,
                commitEnd: end,
                outcome: reportedFrame.outcome)
            frame.lanes = ChromePipeline.lanes(of: reportedFrame.stages)
            frame.affectsSmoothness = reportedFrame.affectsSmoothness
            if reportedFrame.outcome == .dropped {
                frame.hitchCause = .unknown
                needs.append(
                    FrameAnalyzer.LaneNeed(frame: index, needs: ChromePipeline.heldLanes.map { ($0, deadline) }))
                if let stage = ChromePipeline.overrunStage(reportedFrame.stages, typical: typical) {
                    fallback[index] = FrameReport.HitchHold(
                        lane: stage.lane, stage: stage.name, frame: index, start: stage.start, end: stage.end,
                        wasPending: false)
                }
            }
            return frame
        }
        let detail: FrameReport.SourceDetail =
            usesReporters
            ? .chromeReporters(
                noUpdateDesired: reporterSkipped.noUpdate, forkedOrRepeated: reporterSkipped.forked,
                unknownState: reporterSkipped.unknown,
                partiallyPresented: reporterSkipped.notSmooth)
            : .chromeBeginFrames(idleBeginFrames: legacyIdle)
        var found = FrameAnalyzer.FoundFrames(source: .chromeFrames, detail: detail, frames: frames)
        found.needs = needs
        found.fallbackHolds = fallback
        found.chromeDroppedFrameEvents = droppedFrameEvents
        if usesReporters {
            var positionOfKey: [FrameKey: Int] = [:]
            for (index, frame) in reported.enumerated() { if let key = frame.key { positionOfKey[key] = index } }
            found.laneWork = laneWork(framePosition: { positionOfKey[$0] })
        }
        return found
    }

    /// The work of every reporter's stages that can hold a frame (``ChromePipeline/heldLanes``),
    /// each with the report position of the frame its reporter was for, when that is a frame.
    /// A stage two reporters of one frame both hold (the forked copy's) counts once.
    private func laneWork(framePosition: (FrameKey) -> Int?) -> [LaneWork] {
        var seen = Set<ChromeStage>()
        var result: [LaneWork] = []
        for (key, stages) in reporterStages {
            for stage in stages where ChromePipeline.holdingStages.contains(stage.name) {
                guard seen.insert(stage).inserted else { continue }
                result.append(
                    LaneWork(
                        lane: stage.lane, stage: stage.name, frame: framePosition(key), start: stage.start,
                        end: stage.end))
            }
        }
        return result
    }
}
