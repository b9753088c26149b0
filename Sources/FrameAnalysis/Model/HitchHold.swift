@_spi(FramescopeInternals) package import FrameTrace

extension FrameReport {
    /// What held a late frame: the lane that was not done when the frame needed it, the work in
    /// that lane (which frame's stage, from when to when) and what filled it.
    ///
    /// A pipeline is a queue: a frame whose own stage looks long may only have been waiting for
    /// an earlier frame still in a lane (see the project's DOMAIN.md, "Lanes"). The hold is the
    /// oldest work still running in a lane at the moment the frame needed that lane done: its
    /// commit deadline for the main lane (checked first), its render deadline for the render
    /// lane, its vsync plus one interval for every one of Chrome's lanes at once, where the work
    /// that began first wins (the head of the queue; pipeline order breaks ties). Only when no
    /// lane was busy does a Chrome frame's own stage that overran most name it (`wasPending` is
    /// then `false`).
    ///
    /// ```swift
    /// if let hold = report.frames[4].hitchHold {
    ///     print(hold.lane, hold.frame ?? -1, hold.work.first?.name ?? "")   // main 1 style
    /// }
    /// ```
    package struct HitchHold: Sendable, Hashable {
        /// The lane that held the frame.
        package var lane: Lane
        /// The work that held it: a Chrome stage (`SendBeginMainFrameToCommit`), a main-thread
        /// task (`RunTask`), or `nil` for a frame's own main-thread or render work in framescope's
        /// and Android's traces.
        package var stage: String?
        /// The report position of the frame whose work held the lane: the late frame itself when
        /// its own work overran, an earlier frame when the late one waited for it; `nil` when the
        /// holding work belongs to no frame of the report (a long task, a reporter that was not a
        /// frame).
        package var frame: Int?
        /// The holding work's start and end, on the trace clock.
        package var start: Int64
        package var end: Int64
        /// Whether the lane was found still busy when the frame needed it (`true`), or named only
        /// because the frame's own stage ran longer than usual (`false`: no lane was held).
        package var wasPending: Bool
        /// The kinds (categories) of the self time on the lane's threads inside the holding
        /// window, largest first, at most three.
        package var work: [Contributor] = []
        /// The span names with the most self time on the lane's threads inside the holding
        /// window, largest first, at most three.
        package var spans: [Contributor] = []

        /// Creates a hold.
        package init(lane: Lane, stage: String?, frame: Int?, start: Int64, end: Int64, wasPending: Bool) {
            self.lane = lane
            self.stage = stage
            self.frame = frame
            self.start = start
            self.end = end
            self.wasPending = wasPending
        }

        /// The holding work's duration.
        package var duration: Int64 { end.subtractingSaturating(start) }
    }
}

/// Work that occupied one lane of the pipeline for a while: a Chrome stage of some reporter, a
/// long main-thread task, a frame's main-thread or render work. The input of the hold rule.
struct LaneWork {
    var lane: Lane
    var stage: String?
    /// The report position of the frame the work was for, if it was for one.
    var frame: Int?
    var start: Int64
    var end: Int64
    /// A long main-thread task rather than a stage of the pipeline.
    var isTask = false
}

/// The threads whose self time names the work of a hold, per lane.
typealias LaneThreads = [Lane: [ThreadKey]]

extension FrameAnalyzer {
    /// A late frame and the moments at which it needed each lane done, in pipeline order.
    struct LaneNeed {
        var frame: Int
        /// Per lane, in pipeline order, when the frame needed that lane's work finished.
        var needs: [(lane: Lane, at: Int64)]
    }

    /// The hold of each late frame (see ``FrameReport/HitchHold``).
    ///
    /// A frame's needs are taken in order, those at the same moment together (Chrome's lanes all
    /// at the frame's deadline). For each, every lane's work that began by that moment and had
    /// not ended then is pending; in one lane a stage of the pipeline comes before a long task
    /// (`isTask`), else the work that began first. Of the lanes needed at one moment, the pending
    /// work that began first holds the frame (the head of the queue: later stages wait behind
    /// it), pipeline order breaking ties. Frames with nothing pending are absent.
    /// - Complexity: O((*w* + *n*) log *w*) for *w* pieces of work and *n* needs, plus the
    ///   pieces that overlap each need.
    static func holds(needs: [LaneNeed], work: [LaneWork]) -> [Int: FrameReport.HitchHold] {
        // Per lane, sorted by start, with the running maximum of ends for the backward scan.
        var byLane: [Lane: (work: [LaneWork], maxEnd: [Int64])] = [:]
        for (lane, list) in Dictionary(grouping: work, by: \.lane) {
            let sorted = list.sorted { ($0.start, $0.frame ?? .max, $0.end) < ($1.start, $1.frame ?? .max, $1.end) }
            var maxEnd: [Int64] = []
            maxEnd.reserveCapacity(sorted.count)
            for item in sorted { maxEnd.append(max(maxEnd.last ?? .min, item.end)) }
            byLane[lane] = (sorted, maxEnd)
        }
        /// The lane's pending work at `at`: a stage before a task, then the earliest start.
        func pending(_ lane: Lane, at: Int64) -> LaneWork? {
            guard let lane = byLane[lane] else { return nil }
            var index = lane.work.partitioningIndex { $0.start > at } - 1
            var found: LaneWork?
            while index >= 0, lane.maxEnd[index] > at {
                let item = lane.work[index]
                if item.end > at, found.map({ !item.isTask || $0.isTask }) ?? true { found = item }
                index -= 1
            }
            return found
        }
        var result: [Int: FrameReport.HitchHold] = [:]
        for need in needs {
            var position = 0
            while position < need.needs.count {
                let at = need.needs[position].at
                var best: LaneWork?
                while position < need.needs.count, need.needs[position].at == at {
                    if let candidate = pending(need.needs[position].lane, at: at),
                        best.map({ candidate.start < $0.start }) ?? true
                    {
                        best = candidate
                    }
                    position += 1
                }
                if let best {
                    result[need.frame] = FrameReport.HitchHold(
                        lane: best.lane, stage: best.stage, frame: best.frame, start: best.start, end: best.end,
                        wasPending: true)
                    break
                }
            }
        }
        return result
    }

    /// Names the work inside each hold's window: per hold, the self time of the lane's threads
    /// (`threads`) in the window, by kind and by span name, the three largest of each. Each
    /// thread's spans are swept once, whatever the number of holds.
    static func nameHoldWork(
        _ holds: inout [Int: FrameReport.HitchHold], threads: LaneThreads, spans: SpanIndex, names: CategoryNames,
        symbols: SymbolTable
    ) {
        guard !holds.isEmpty else { return }
        // Distinct windows per lane: frames held by the same work share one.
        struct Window: Hashable {
            var lane: Lane
            var start: Int64
            var end: Int64
        }
        let windows = Array(Set(holds.values.map { Window(lane: $0.lane, start: $0.start, end: $0.end) }))
        var byKind = Array(repeating: [Int: Int64](), count: windows.count)
        var bySpan = Array(repeating: [Symbol: Int64](), count: windows.count)
        var lanesOfThread: [ThreadKey: [Lane]] = [:]
        for (lane, keys) in threads { for key in keys { lanesOfThread[key, default: []].append(lane) } }
        for (thread, lanes) in lanesOfThread {
            guard let slot = spans.slot(of: thread) else { continue }
            let mine = windows.indices.filter { lanes.contains(windows[$0].lane) }.sorted {
                (windows[$0].start, windows[$0].end) < (windows[$1].start, windows[$1].end)
            }
            guard !mine.isEmpty else { continue }
            var maxEnd: [Int64] = []
            for position in mine { maxEnd.append(max(maxEnd.last ?? .min, windows[position].end)) }
            SelfTime.sweep(spans.spans(inSlot: slot)) { segment in
                var index = mine.partitioningIndex { windows[$0].start >= segment.end } - 1
                while index >= 0, maxEnd[index] > segment.start {
                    let window = windows[mine[index]]
                    let overlap = min(segment.end, window.end).subtractingSaturating(max(segment.start, window.start))
                    if overlap > 0 {
                        let kind = names.nameOfCategory[spans.categories.number(of: segment.category)]
                        byKind[mine[index]][kind, default: 0] = byKind[mine[index]][kind, default: 0].addingSaturating(
                            overlap)
                        bySpan[mine[index]][segment.name, default: 0] = bySpan[mine[index]][segment.name, default: 0]
                            .addingSaturating(overlap)
                    }
                    index -= 1
                }
            }
        }
        var named: [Window: (work: [FrameReport.Contributor], spans: [FrameReport.Contributor])] = [:]
        for (position, window) in windows.enumerated() {
            let work = byKind[position].map {
                FrameReport.Contributor(name: names.names[$0.key], nanoseconds: $0.value)
            }
            let spanList = bySpan[position].map {
                FrameReport.Contributor(name: symbols[$0.key], nanoseconds: $0.value)
            }
            func top(_ list: [FrameReport.Contributor]) -> [FrameReport.Contributor] {
                Array(list.sorted { ($0.nanoseconds, $1.name) > ($1.nanoseconds, $0.name) }.prefix(3))
            }
            named[window] = (top(work), top(spanList))
        }
        for key in holds.keys {
            let hold = holds[key]!
            guard let found = named[Window(lane: hold.lane, start: hold.start, end: hold.end)] else { continue }
            holds[key]!.work = found.work
            holds[key]!.spans = found.spans
        }
    }
}

extension FrameAnalyzer {
    /// The render deadline of a frame with render work: the one the work states, else one
    /// interval after the commit deadline (commit by vsync N+1, render by N+2).
    static func renderDeadline(of works: [RenderWork], commitDeadline: Int64, interval: Int64) -> Int64 {
        works.lazy.compactMap(\.deadline).first ?? commitDeadline.addingSaturating(interval)
    }

    /// Every late frame's hold (``FrameReport/HitchHold``), with the work that filled it named.
    ///
    /// - Chrome's frames: the lanes' work is every reporter's holding stages (``ChromeFrameEvents``)
    ///   and the main thread's long tasks (top-level spans longer than `P`); a dropped frame needs
    ///   each lane done by its deadline; with no lane busy then, the source's fallback (the stage
    ///   that overran most) names it.
    /// - Every other source: the main lane's work is each frame's own main-thread work (its work
    ///   start to its commit), the render lane's each frame's render work; a frame whose commit or
    ///   render ended past its deadline needs the main lane done by its commit deadline and the
    ///   render lane by its render deadline. A render hitch whose commit came late is so a commit
    ///   hitch, and one that waited for an earlier frame's render names that frame.
    static func findHolds(
        found: FoundFrames, render: [RenderWork], spans: SpanIndex, mainSpans: [Span], main: ThreadKey?,
        renderThread: ThreadKey?, threads: [TraceThread],
        interval: Int64, names: CategoryNames, symbols: SymbolTable
    ) -> [Int: FrameReport.HitchHold] {
        var work = found.laneWork
        var needs = found.needs
        var laneThreads: LaneThreads = [:]
        if let main { laneThreads[.main] = [main] }
        // FrameTimeline says why each frame was late; its holds are the app slices it names, and
        // what filled them is the UI thread's and the RenderThread's work in them.
        if found.source == .frameTimeline || found.holdsDecided {
            var result = found.fallbackHolds
            if main != nil {
                if let renderThread { laneThreads[.render] = [renderThread] }
                nameHoldWork(&result, threads: laneThreads, spans: spans, names: names, symbols: symbols)
            }
            return result
        }
        if found.source == .chromeFrames {
            guard !needs.isEmpty else { return [:] }
            addChromeLaneWork(
                to: &work, threads: &laneThreads, mainSpans: mainSpans, allThreads: threads, main: main,
                interval: interval, symbols: symbols)
        } else {
            needs += lateFrameNeeds(found.frames, render: render, interval: interval)
            // The lanes' work is every frame's, but only a trace with a late frame needs it.
            guard !needs.isEmpty else { return [:] }
            addFrameLaneWork(to: &work, threads: &laneThreads, frames: found.frames, render: render)
        }
        var result = holds(needs: needs, work: work)
        for (frame, hold) in found.fallbackHolds where result[frame] == nil { result[frame] = hold }
        nameHoldWork(&result, threads: laneThreads, spans: spans, names: names, symbols: symbols)
        return result
    }

    /// Chrome's lanes: the main thread's long tasks hold the main lane too; the renderer's
    /// compositor and raster threads and the GPU process's threads fill theirs.
    private static func addChromeLaneWork(
        to work: inout [LaneWork], threads laneThreads: inout LaneThreads, mainSpans: [Span],
        allThreads threads: [TraceThread], main: ThreadKey?, interval: Int64, symbols: SymbolTable
    ) {
        var coveredUntil = Int64.min
        for span in mainSpans where span.start >= coveredUntil {
            coveredUntil = span.end
            if span.end.subtractingSaturating(span.start) > interval {
                work.append(
                    LaneWork(
                        lane: .main, stage: symbols[span.name], frame: nil, start: span.start, end: span.end,
                        isTask: true))
            }
        }
        for thread in threads {
            guard let name = thread.name else { continue }
            if thread.key.processID == main?.processID,
                name == "Compositor" || name.hasPrefix("CompositorTileWorker")
            {
                laneThreads[.raster, default: []].append(thread.key)
                if name == "Compositor" { laneThreads[.compositor, default: []].append(thread.key) }
            } else if name == "CrGpuMain" || name == "VizCompositorThread" {
                laneThreads[.gpu, default: []].append(thread.key)
            }
        }
    }

    /// The needs of each frame whose commit or render ended past its deadline: the main lane
    /// done by its commit deadline, the render lane by its render deadline.
    private static func lateFrameNeeds(_ frames: [FrameReport.Frame], render: [RenderWork], interval: Int64)
        -> [LaneNeed]
    {
        var needs: [LaneNeed] = []
        let renderByFrame = Dictionary(grouping: render, by: \.frame)
        for index in frames.indices {
            let deadline = frames[index].deadline
            var need = LaneNeed(frame: index, needs: [(.main, deadline)])
            var isLate = frames[index].commitEnd > deadline
            if let works = renderByFrame[index] {
                let renderDeadline = renderDeadline(of: works, commitDeadline: deadline, interval: interval)
                need.needs.append((.render, renderDeadline))
                if works.contains(where: { $0.end > renderDeadline }) { isLate = true }
            }
            if isLate { needs.append(need) }
        }
        return needs
    }

    /// Each frame's own work: its main-thread work on the main lane, its render work (and the
    /// threads that did it) on the render lane.
    private static func addFrameLaneWork(
        to work: inout [LaneWork], threads laneThreads: inout LaneThreads, frames: [FrameReport.Frame],
        render: [RenderWork]
    ) {
        for index in frames.indices {
            work.append(
                LaneWork(
                    lane: .main, stage: nil, frame: index, start: frames[index].workStart,
                    end: frames[index].commitEnd))
        }
        for item in render {
            work.append(LaneWork(lane: .render, stage: nil, frame: item.frame, start: item.start, end: item.end))
            if !(laneThreads[.render]?.contains(item.thread) ?? false) {
                laneThreads[.render, default: []].append(item.thread)
            }
        }
    }
}
