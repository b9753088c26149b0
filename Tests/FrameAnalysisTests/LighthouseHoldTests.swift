import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// The hold rule on real Chrome recordings: for every dropped frame of the page's renderer, the
/// test works out from the raw JSON (with Foundation's parser, none of framescope's reading or
/// pairing) which stage or long task was still running at the frame's deadline, and what ran on
/// that lane's threads in its window, and the report must say the same.
@Suite("Hitch holds on Lighthouse's Chrome recordings")
struct LighthouseHoldTests {
    /// What the raw events say held one dropped frame.
    struct Expected: Equatable, CustomStringConvertible {
        var vsync: Int64
        var lane: Lane
        var stage: String
        var start: Int64
        var end: Int64
        var topSpan: String?
        var description: String { "\(vsync): \(lane) \(stage) \(start)-\(end) \(topSpan ?? "-")" }
    }

    static let stageLanes: [String: Lane] = [
        "SendBeginMainFrameToCommit": .main, "Commit": .raster, "EndCommitToActivation": .raster, "Activation": .raster,
        "EndActivateToSubmitCompositorFrame": .compositor, "SubmitCompositorFrameToPresentationCompositorFrame": .gpu,
    ]
    static let laneOrder: [Lane] = [.main, .raster, .compositor, .gpu]

    /// Times in nanoseconds, as the report keeps them (these recordings use whole microseconds).
    static func expectedHolds(file: String, interval: Int64) throws -> (pid: Int64, holds: [Expected]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: LighthouseCorpus.path(file)))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        func int(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }
        func ns(_ event: [String: Any]) -> Int64 { Int64(((event["ts"] as? NSNumber)?.doubleValue ?? 0) * 1000) }
        // The page's renderer: the process of the latest main frame that the browser names, in
        // the list of frames when tracing started or in a commit.
        var pid: Int64 = -1
        var lastCommit = Int64.min
        for event in events {
            let data = (event["args"] as? [String: Any])?["data"] as? [String: Any] ?? [:]
            let frames: [[String: Any]]
            switch event["name"] as? String {
            case "FrameCommittedInBrowser": frames = [data]
            case "TracingStartedInBrowser": frames = data["frames"] as? [[String: Any]] ?? []
            default: continue
            }
            let main = frames.first {
                $0["parent"] == nil && ($0["isOutermostMainFrame"] as? Bool ?? true) && int($0["processId"]) != nil
            }
            if let main, ns(event) >= lastCommit {
                pid = int(main["processId"])!
                lastCommit = ns(event)
            }
        }
        // Thread names.
        var names: [[Int64]: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            names[[int(event["pid"]) ?? 0, int(event["tid"]) ?? 0]] =
                (event["args"] as? [String: Any])?["name"] as? String
        }
        // Reporters and stages of the page's renderer, paired by (id, name) in time order.
        var asyncEvents = events.enumerated().filter { _, event in
            int(event["pid"]) == pid && ["b", "e"].contains(event["ph"] as? String ?? "")
                && (event["name"] as? String == "PipelineReporter" || stageLanes[event["name"] as? String ?? ""] != nil)
        }
        asyncEvents.sort { (ns($0.element), $0.offset) < (ns($1.element), $1.offset) }
        var open: [String: [[String: Any]]] = [:]
        var stages: [(lane: Lane, name: String, start: Int64, end: Int64)] = []
        var frames: [String: (vsync: Int64, main: String?, forked: String?)] = [:]
        for (_, event) in asyncEvents {
            let name = event["name"] as! String
            let key = "\((event["id2"] as? [String: Any])?["local"] ?? event["id"] ?? "")|\(name)"
            if event["ph"] as? String == "b" {
                open[key, default: []].append(event)
                if name == "PipelineReporter" {
                    let reporter = (event["args"] as? [String: Any])?["chrome_frame_reporter"] as? [String: Any] ?? [:]
                    let frameKey =
                        "\(int(reporter["layer_tree_host_id"]) ?? -1)/\(int(reporter["frame_sequence"]) ?? -1)"
                    var entry = frames[frameKey] ?? (ns(event), nil, nil)
                    if reporter["frame_type"] as? String == "FORKED" {
                        entry.forked = reporter["state"] as? String
                    } else {
                        entry.main = reporter["state"] as? String
                    }
                    frames[frameKey] = entry
                }
                continue
            }
            guard let begin = open[key]?.popLast(), name != "PipelineReporter" else { continue }
            let stage = (stageLanes[name]!, name, ns(begin), ns(event))
            if !stages.contains(where: { $0 == stage }) { stages.append(stage) }
        }
        // The renderer main thread's long tasks: top-level X events longer than the interval.
        let mainThread = names.first { $0.key[0] == pid && $0.value == "CrRendererMain" }?.key ?? []
        func completes(on threads: [[Int64]]) -> [(name: String, start: Int64, end: Int64)] {
            events.filter {
                $0["ph"] as? String == "X" && threads.contains([int($0["pid"]) ?? 0, int($0["tid"]) ?? 0])
            }
            .map {
                (
                    $0["name"] as? String ?? "", ns($0),
                    ns($0) + Int64(((($0["dur"] as? NSNumber)?.doubleValue) ?? 0) * 1000)
                )
            }
            .sorted { ($0.start, $1.end) < ($1.start, $0.end) }
        }
        var tasks: [(name: String, start: Int64, end: Int64)] = []
        var coveredUntil = Int64.min
        for span in completes(on: [mainThread]) where span.start >= coveredUntil {
            coveredUntil = span.end
            if span.end - span.start > interval { tasks.append(span) }
        }
        // Self time by span name inside a window, on some threads.
        func topSpan(_ threads: [[Int64]], from start: Int64, to end: Int64) -> String? {
            var byName: [String: Int64] = [:]
            for thread in threads {
                var stack: [(name: String, end: Int64, cursor: Int64)] = []
                func add(_ name: String, _ from: Int64, _ to: Int64) {
                    let overlap = min(to, end) - max(from, start)
                    if overlap > 0 { byName[name, default: 0] += overlap }
                }
                func close(until time: Int64) {
                    while let top = stack.last, top.end <= time {
                        add(top.name, top.cursor, top.end)
                        stack.removeLast()
                        if !stack.isEmpty {
                            stack[stack.count - 1].cursor = max(stack[stack.count - 1].cursor, top.end)
                        }
                    }
                }
                for span in completes(on: [thread]) {
                    close(until: span.start)
                    var spanEnd = span.end
                    if let top = stack.last {
                        spanEnd = min(spanEnd, top.end)
                        add(top.name, top.cursor, span.start)
                        stack[stack.count - 1].cursor = max(top.cursor, spanEnd)
                    }
                    if spanEnd > span.start || stack.isEmpty { stack.append((span.name, spanEnd, span.start)) }
                }
                close(until: .max)
            }
            return byName.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        let laneThreads: [Lane: [[Int64]]] = [
            .main: [mainThread],
            .raster: names.filter {
                $0.key[0] == pid && ($0.value == "Compositor" || $0.value.hasPrefix("CompositorTileWorker"))
            }.map(\.key),
            .compositor: names.filter { $0.key[0] == pid && $0.value == "Compositor" }.map(\.key),
            .gpu: names.filter { $0.value == "CrGpuMain" || $0.value == "VizCompositorThread" }.map(\.key),
        ]
        var holds: [Expected] = []
        for frame in frames.values where (frame.main ?? frame.forked) == "STATE_DROPPED" {
            let deadline = frame.vsync + interval
            var best: Expected?
            for lane in laneOrder {
                let pendingStages = stages.filter { $0.lane == lane && $0.start <= deadline && deadline < $0.end }
                var candidate = pendingStages.min { $0.start < $1.start }.map {
                    Expected(vsync: frame.vsync, lane: lane, stage: $0.name, start: $0.start, end: $0.end)
                }
                if candidate == nil, lane == .main,
                    let task = tasks.first(where: { $0.start <= deadline && deadline < $0.end })
                {
                    candidate = Expected(
                        vsync: frame.vsync, lane: .main, stage: task.name, start: task.start, end: task.end)
                }
                if let candidate, best.map({ candidate.start < $0.start }) ?? true { best = candidate }
            }
            if var best {
                best.topSpan = topSpan(laneThreads[best.lane] ?? [], from: best.start, to: best.end)
                holds.append(best)
            }
        }
        return (pid, holds.sorted { $0.vsync < $1.vsync })
    }

    @Test(
        "Every dropped frame is held by the stage or task the raw events show running at its deadline",
        arguments: [
            "lighthouse__frames-blocking-time.json", "lighthouse__frames-intercom-widget.json",
            "lighthouse__frames-user-timing.json",
            "lighthouse__frames-user-flow-step0.json", "lighthouse__frames-render-blocking.json",
        ])
    func holdsMatchRawEvents(file: String) throws {
        try #require(LighthouseCorpus.isAvailable, "needs ../shared/traces/third-party beside the clone")
        let report = FrameAnalyzer.analyze(try TraceReader.read(contentsOf: LighthouseCorpus.path(file)))
        let (pid, expected) = try Self.expectedHolds(file: file, interval: report.method.frameRate.intervalNanoseconds)
        #expect(report.method.mainThread?.processID == pid && report.method.mainThreadRule == .pageRenderer)
        let dropped = report.frames.filter { $0.outcome == .dropped }
        #expect(!expected.isEmpty)
        // Every dropped frame the raw events find held is held the same way in the report.
        let actual = dropped.compactMap { frame -> Expected? in
            guard let hold = frame.hitchHold, hold.wasPending else { return nil }
            return Expected(
                vsync: frame.vsync, lane: hold.lane, stage: hold.stage ?? "", start: hold.start, end: hold.end,
                topSpan: hold.spans.first?.name)
        }
        #expect(actual == expected)
        for frame in dropped where frame.hitchHold?.wasPending == true {
            #expect(frame.hitchCause == frame.hitchHold?.lane.hitchCause)
        }
    }

    @Test("On the blocking-time and intercom recordings no dropped frame is blamed on the compositor waiting for main")
    func notTheCompositor() throws {
        try #require(LighthouseCorpus.isAvailable, "needs ../shared/traces/third-party beside the clone")
        for (file, droppedCount, commit) in [
            ("lighthouse__frames-blocking-time.json", 5, 5), ("lighthouse__frames-intercom-widget.json", 38, 11),
        ] {
            let report = FrameAnalyzer.analyze(try TraceReader.read(contentsOf: LighthouseCorpus.path(file)))
            let dropped = report.frames.filter { $0.outcome == .dropped }
            #expect(dropped.count == droppedCount)
            #expect(dropped.filter { $0.hitchCause == .commit }.count == commit)
            #expect(
                dropped.allSatisfy {
                    $0.hitchCause != .compositor || $0.hitchStage != "BeginImplFrameToSendBeginMainFrame"
                })
        }
    }
}
