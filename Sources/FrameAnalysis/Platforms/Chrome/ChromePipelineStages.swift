import FrameTrace

/// One stage of a frame in Chrome's compositor pipeline: an async slice with the same id as its
/// `PipelineReporter`, inside the reporter's time range.
struct ChromeStage: Hashable {
    /// The stage's event name (`SendBeginMainFrameToCommit`).
    var name: String
    /// The lane the stage's work runs in.
    var lane: Lane
    var start: Int64
    var end: Int64
    var duration: Int64 { end.subtractingSaturating(start) }
}

/// The stages of Chrome's `PipelineReporter` slices and the lanes they run in (see the project's
/// DOMAIN.md, "Lanes").
///
/// Current Chrome writes, per frame and reporter, one `PipelineReporter` async slice (`b`/`e`,
/// `id2.local`) and, with the same id and inside its time range, one async slice per stage the
/// frame went through:
///
/// | stage | lane |
/// |---|---|
/// | `BeginImplFrameToSendBeginMainFrame` | compositor |
/// | `SendBeginMainFrameToCommit` | main |
/// | `Commit`, `EndCommitToActivation`, `Activation` | raster |
/// | `EndActivateToSubmitCompositorFrame` | compositor |
/// | `SubmitCompositorFrameToPresentationCompositorFrame` | gpu |
///
/// The last one holds its own breakdown (`SubmitToReceiveCompositorFrame`,
/// `ReceiveCompositorFrameToStartDraw`, `StartDrawToSwapStart`, `Swap`, ...): those count only in
/// a reporter that lacks their parent stage, so no time is counted twice. Other async slices with
/// the reporter's id are not stages. Ids are reused across reporters, so a stage belongs to the
/// reporter of its process and id whose time range holds it; a slice whose end is missing has no
/// known duration and is left out (a reporter without an end holds every stage after its begin).
enum ChromePipeline {
    /// The top-level stages and their lanes.
    static let stageLanes: [String: Lane] = [
        "BeginImplFrameToSendBeginMainFrame": .compositor,
        "SendBeginMainFrameToCommit": .main,
        "Commit": .raster,
        "EndCommitToActivation": .raster,
        "Activation": .raster,
        "EndActivateToSubmitCompositorFrame": .compositor,
        presentationStage: .gpu,
    ]

    /// The lanes whose work can hold a later frame, in the order a frame needs them done: the
    /// main thread's update, its commit and activation, the compositor's submit, the GPU's
    /// presentation. The compositor's first stage (`BeginImplFrameToSendBeginMainFrame`) is not
    /// among the holders: it lasts until the next vsync whenever the main thread is busy, so it
    /// shows waiting, not work.
    static let heldLanes: [Lane] = [.main, .raster, .compositor, .gpu]

    /// The stages whose work can hold a later frame (see ``heldLanes``).
    static let holdingStages: Set<String> = [
        "SendBeginMainFrameToCommit", "Commit", "EndCommitToActivation", "Activation",
        "EndActivateToSubmitCompositorFrame",
        presentationStage,
    ]

    /// The stage from submitting the compositor frame to its presentation (the GPU/viz process).
    static let presentationStage = "SubmitCompositorFrameToPresentationCompositorFrame"

    /// The breakdown of ``presentationStage`` that Chrome writes as its child slices.
    static let presentationBreakdown: Set<String> = [
        "SubmitToReceiveCompositorFrame", "ReceiveCompositorFrameToStartDraw", "StartDrawToSwapStart", "Swap",
        "SwapStartToSwapEnd", "SwapStartToBufferAvailable", "BufferAvailableToBufferReady", "BufferReadyToLatch",
        "LatchToSwapEnd", "SwapEndToPresentationCompositorFrame",
    ]

    /// The counted stages of each `PipelineReporter` of one process, keyed by the position of the
    /// reporter's begin event in `trace.events`, each list in time order.
    /// - Complexity: O(*n* log *n*) in the process's async events.
    static func stagesByReporter(trace: Trace, processID: Int64, reporterName: Symbol) -> [Int: [ChromeStage]] {
        var stageNames: [Symbol: (name: String, lane: Lane)] = [:]
        for (name, lane) in stageLanes {
            if let symbol = trace.symbols.lookup(name) { stageNames[symbol] = (name, lane) }
        }
        for name in presentationBreakdown {
            if let symbol = trace.symbols.lookup(name) { stageNames[symbol] = (name, .gpu) }
        }
        guard !stageNames.isEmpty else { return [:] }
        let paired = pairStages(trace: trace, processID: processID, reporterName: reporterName, stageNames: stageNames)
        var result: [Int: [ChromeStage]] = [:]
        for (id, stage) in paired.stages {
            // The latest reporter of this id that began by the stage's start and holds its end.
            guard let owner = paired.reporters[id]?.last(where: { $0.start <= stage.start && stage.end <= $0.end })
            else { continue }
            result[owner.begin, default: []].append(stage)
        }
        for (reporter, list) in result {
            let hasPresentation = list.contains { $0.name == presentationStage }
            result[reporter] = list.filter { !(hasPresentation && presentationBreakdown.contains($0.name)) }
                .sorted { ($0.start, $0.end, $0.name) < ($1.start, $1.end, $1.name) }
        }
        return result
    }

    /// The process's reporters (by id, each list in start order: its begin's position, start and
    /// end) and its stages (by reporter id), begins and ends paired by (id, name) in time order,
    /// file order breaking ties.
    private static func pairStages(
        trace: Trace, processID: Int64, reporterName: Symbol, stageNames: [Symbol: (name: String, lane: Lane)]
    ) -> (reporters: [UInt64: [(begin: Int, start: Int64, end: Int64)]], stages: [(id: UInt64, stage: ChromeStage)]) {
        struct Key: Hashable {
            var id: UInt64
            var name: Symbol
        }
        var asyncEvents: [(timestamp: Int64, order: Int)] = []
        for (order, event) in trace.events.enumerated()
        where event.thread.processID == processID && (event.phase == .asyncBegin || event.phase == .asyncEnd)
            && (event.name == reporterName || stageNames[event.name] != nil)
        {
            asyncEvents.append((event.timestamp, order))
        }
        asyncEvents.sort { ($0.timestamp, $0.order) < ($1.timestamp, $1.order) }
        var open: [Key: [Int]] = [:]
        var reporters: [UInt64: [(begin: Int, start: Int64, end: Int64)]] = [:]
        var stages: [(id: UInt64, stage: ChromeStage)] = []
        var reporterBegins: [Int] = []
        var reporterEnd: [Int: Int64] = [:]
        for (_, order) in asyncEvents {
            let event = trace.events[order]
            let key = Key(id: event.id, name: event.name)
            if event.phase == .asyncBegin {
                open[key, default: []].append(order)
                if event.name == reporterName { reporterBegins.append(order) }
                continue
            }
            guard let begin = open[key]?.popLast() else { continue }
            let start = trace.events[begin].timestamp
            if event.name == reporterName {
                reporterEnd[begin] = event.timestamp
            } else if let stage = stageNames[event.name] {
                stages.append(
                    (
                        event.id,
                        ChromeStage(name: stage.name, lane: stage.lane, start: start, end: max(start, event.timestamp))
                    ))
            }
        }
        for order in reporterBegins {
            let event = trace.events[order]
            reporters[event.id, default: []].append((order, event.timestamp, reporterEnd[order] ?? .max))
        }
        for id in reporters.keys { reporters[id]!.sort { ($0.start, $0.begin) < ($1.start, $1.begin) } }
        return (reporters, stages)
    }

    /// The frame's lanes from its stages, in lane order: per lane, the stages' summed durations,
    /// from the first stage's start to the last stage's end. Chrome states no per-stage deadline,
    /// so none is set.
    static func lanes(of stages: [ChromeStage]) -> [FrameReport.LaneTiming] {
        var byLane: [Lane: FrameReport.LaneTiming] = [:]
        for stage in stages {
            var timing =
                byLane[stage.lane]
                ?? FrameReport.LaneTiming(lane: stage.lane, costNanoseconds: 0, start: stage.start, end: stage.end)
            timing.costNanoseconds = timing.costNanoseconds.addingSaturating(stage.duration)
            timing.start = min(timing.start ?? stage.start, stage.start)
            timing.end = max(timing.end ?? stage.end, stage.end)
            byLane[stage.lane] = timing
        }
        return byLane.values.sorted { $0.lane < $1.lane }
    }

    /// Each stage's summed duration in one frame.
    static func durations(of stages: [ChromeStage]) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for stage in stages { result[stage.name] = (result[stage.name] ?? 0).addingSaturating(stage.duration) }
        return result
    }

    /// The typical duration of each stage: the lower median of its per-frame durations over the
    /// frames given (the presented ones).
    static func typicalDurations(_ frames: [[ChromeStage]]) -> [String: Int64] {
        var samples: [String: [Int64]] = [:]
        for stages in frames {
            for (name, duration) in durations(of: stages) { samples[name, default: []].append(duration) }
        }
        return samples.mapValues { values in
            let sorted = values.sorted()
            return sorted[(sorted.count - 1) / 2]
        }
    }

    /// The stage of a dropped frame that overran most: the one whose duration exceeds its typical
    /// duration by the most (a stage with no typical duration, seen in no presented frame, exceeds
    /// it by its whole duration); ties go to the earlier stage. `nil` when no stage ran longer than
    /// its typical duration, or the frame has no stages.
    static func overrunStage(_ stages: [ChromeStage], typical: [String: Int64]) -> ChromeStage? {
        let durations = durations(of: stages)
        var best: (excess: Int64, stage: ChromeStage)?
        for stage in stages {
            guard let duration = durations[stage.name] else { continue }
            let excess = duration.subtractingSaturating(typical[stage.name] ?? 0)
            if excess > 0, best.map({ excess > $0.excess }) ?? true { best = (excess, stage) }
        }
        return best?.stage
    }
}
