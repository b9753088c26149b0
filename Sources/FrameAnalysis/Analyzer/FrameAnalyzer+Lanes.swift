@_spi(FramescopeInternals) import FrameTrace

/// The lanes of each frame (see the project's DOMAIN.md, "Lanes"): the main lane every frame
/// has, the render lane where the trace records render work per frame, the background jobs whose
/// results the frame applied, and each late frame's hitch cause.
extension FrameAnalyzer {
    /// One piece of render-lane work for one frame.
    struct RenderWork {
        /// Position of the frame in the report.
        var frame: Int
        var thread: ThreadKey
        var start: Int64
        var end: Int64
        /// The render deadline, when the trace states it.
        var deadline: Int64?
        /// The presentation, when the trace states it.
        var presentation: Int64?
    }

    /// Render-lane work per frame.
    ///
    /// - framescope's traces (and any app using the contract): spans in category `render` that
    ///   carry ``FrameTrace/FrameContract/Key/renderedFrame``, matched to the frame span with that
    ///   `index`; their `until-deadline-ns` and `until-present-ns` place the render deadline and
    ///   the presentation.
    /// - Android markers: `DrawFrame`/`DrawFrames` spans on a thread of the main thread's process
    ///   other than the main thread (the RenderThread): `DrawFrame(s) <id>` belongs to the frame of
    ///   `Choreographer#doFrame <id>`, a name without an id to the last frame that began before it.
    /// Without a stated deadline, the render deadline is one interval after the commit deadline
    /// (Apple's render loop: commit by vsync N+1, render by N+2).
    static func renderWork(
        trace: Trace, spans: SpanIndex, main: ThreadKey?, frames: [FrameReport.Frame], source: FrameReport.FrameSource,
        interval: Int64
    ) -> [RenderWork] {
        guard !frames.isEmpty else { return [] }
        let result: [RenderWork]
        switch source {
        case .frameSpans:
            result = spanRenderWork(trace: trace, spans: spans, main: main, frames: frames)
        case .frameMarkers:
            result = markerRenderWork(trace: trace, spans: spans, main: main, frames: frames)
        case .chromeFrames, .frameTimeline, .instruments, .estimated:
            return []
        }
        return result.sorted { ($0.frame, $0.start) < ($1.frame, $1.start) }
    }

    /// framescope's render spans, each on the frame its `rendered-frame` argument names.
    private static func spanRenderWork(trace: Trace, spans: SpanIndex, main: ThreadKey?, frames: [FrameReport.Frame])
        -> [RenderWork]
    {
        guard let renderCategory = trace.symbols.lookup(FrameContract.renderCategory) else { return [] }
        var result: [RenderWork] = []
        var positionByIndex: [Int64: Int] = [:]
        for (position, frame) in frames.enumerated() {
            if let index = frame.sourceIndex, positionByIndex[index] == nil { positionByIndex[index] = position }
        }
        for (slot, thread) in spans.threads.enumerated() where thread != main {
            for span in spans.spans(inSlot: slot) where span.category == renderCategory {
                let arguments = trace.argumentLists[Int(span.arguments)]
                guard let index = arguments[FrameContract.Key.renderedFrame]?.integerValue,
                    let position = positionByIndex[index]
                else { continue }
                let deadline = arguments[FrameContract.Key.untilDeadline]?.integerValue.map {
                    span.start.addingSaturating($0)
                }
                let presentation = arguments[FrameContract.Key.untilPresent]?.integerValue.flatMap {
                    $0 >= 0 ? span.end.addingSaturating($0) : nil
                }
                result.append(
                    RenderWork(
                        frame: position, thread: thread, start: span.start, end: span.end, deadline: deadline,
                        presentation: presentation))
            }
        }
        return result
    }

    /// Android's `DrawFrame`/`DrawFrames` spans (either with the vsync id after a space) off the
    /// main thread, in its process; none when the markers themselves are the draws.
    private static func markerRenderWork(
        trace: Trace, spans: SpanIndex, main: ThreadKey?, frames: [FrameReport.Frame]
    ) -> [RenderWork] {
        var isDraw = [Bool](repeating: false, count: trace.symbols.count)
        var idOf: [Int64?] = Array(repeating: nil, count: trace.symbols.count)
        for (index, string) in trace.symbols.strings.enumerated() where string.hasPrefix(AndroidApp.drawFramePrefix) {
            let id = AndroidApp.frameID(in: Substring(string), prefix: AndroidApp.drawFramePrefix)
            if id != nil || string == "DrawFrame" || string == "DrawFrames" { isDraw[index] = true }
            idOf[index] = id
        }
        guard isDraw.contains(true) else { return [] }
        var positionByID: [Int64: Int] = [:]
        for (position, frame) in frames.enumerated() {
            if let id = frame.sourceIndex, positionByID[id] == nil { positionByID[id] = position }
        }
        var result: [RenderWork] = []
        for (slot, thread) in spans.threads.enumerated()
        where thread != main && (main == nil || thread.processID == main?.processID) {
            var coveredUntil = Int64.min
            for span in spans.spans(inSlot: slot) where isDraw[Int(span.name.rawValue)] && span.start >= coveredUntil {
                coveredUntil = span.end
                let frame: Int
                if let id = idOf[Int(span.name.rawValue)] {
                    // With a vsync id: the doFrame of the same id, as trace processor pairs them.
                    guard let position = positionByID[id] else { continue }
                    frame = position
                } else {
                    // Without one: the last frame that began at or before the draw (trace
                    // processor's timeline_maxsdk28: the draw starts between a doFrame and the next).
                    let low = frames.partitioningIndex { $0.workStart > span.start }
                    guard low > 0 else { continue }
                    frame = low - 1
                }
                result.append(
                    RenderWork(
                        frame: frame, thread: thread, start: span.start, end: span.end, deadline: nil,
                        presentation: nil))
            }
        }
        // The markers themselves may be the draws (a trace with only DrawFrame): then there
        // is no separate render lane.
        if result.contains(where: { frames[$0.frame].workStart == $0.start && frames[$0.frame].commitEnd == $0.end }) {
            return []
        }
        return result
    }

    /// A background job and the frame that applied its result.
    typealias FedJob = FrameReport.BackgroundJob

    /// Background jobs found through the trace's flows: a flow that starts inside a span on one
    /// thread and finishes on the main thread links that job (the outermost span on its thread
    /// that holds the flow's start) to the frame whose main-thread work holds the finish. The job
    /// was requested at its start minus its `since-request-ns` argument (at its start without
    /// one), in the frame whose window (its vsync to the next frame's vsync) holds that moment.
    static func fedJobs(
        trace: Trace, spans: SpanIndex, main: ThreadKey?, frames: [FrameReport.Frame], categoryName: (Symbol) -> String
    ) -> [FedJob] {
        guard let main, !frames.isEmpty else { return [] }
        var starts: [UInt64: TraceEvent] = [:]
        var finishes: [(id: UInt64, event: TraceEvent)] = []
        for event in trace.events {
            switch event.phase {
            case .flowStart where event.thread != main:
                if starts[event.id] == nil { starts[event.id] = event }
            case .flowEnd where event.thread == main:
                finishes.append((event.id, event))
            default:
                continue
            }
        }
        guard !starts.isEmpty, !finishes.isEmpty else { return [] }
        var jobs: [FedJob] = []
        for (id, finish) in finishes {
            guard let start = starts.removeValue(forKey: id) else { continue }
            let threadSpans = spans.spans(on: start.thread)
            // The outermost span holding the flow's start: spans are sorted by start, longer first.
            let low = threadSpans.partitioningIndex { $0.start > start.timestamp }
            var job: Span?
            var index = 0
            while index < low {
                let span = threadSpans[index]
                if span.start <= start.timestamp, span.end >= start.timestamp {
                    job = span
                    break
                }
                index += 1
            }
            guard let job, let applied = frame(holding: finish.timestamp, in: frames) else { continue }
            let since =
                trace.argumentLists[Int(job.arguments)][FrameContract.Key.sinceRequest]?.integerValue.flatMap {
                    $0 >= 0 ? $0 : nil
                } ?? 0
            let requestTime = job.start.subtractingSaturating(since)
            let requested = frameWindow(holding: requestTime, in: frames) ?? 0
            jobs.append(
                FedJob(
                    thread: start.thread, start: job.start, end: job.end, requestedAt: requestTime,
                    appliedAt: finish.timestamp,
                    requestFrame: min(requested, applied), appliedFrame: applied, category: categoryName(job.category)))
        }
        return jobs
    }

    /// The frame whose main-thread work (its start to its commit) holds `time`, else the last
    /// frame that began before it.
    static func frame(holding time: Int64, in frames: [FrameReport.Frame]) -> Int? {
        let low = frames.partitioningIndex { $0.workStart > time }
        return low > 0 ? low - 1 : nil
    }

    /// The frame whose window (its vsync to the next frame's vsync) holds `time`.
    static func frameWindow(holding time: Int64, in frames: [FrameReport.Frame]) -> Int? {
        let low = frames.partitioningIndex { $0.vsync > time }
        return low > 0 ? low - 1 : nil
    }

    /// Fills each frame's lanes, feed and hitch cause.
    ///
    /// A frame whose source gave its lanes (Chrome's stages) keeps them; every other frame gets a
    /// main lane (its main-thread cost, work start to commit, due at its deadline) and, where the
    /// trace has them, a render lane (the sum of its render work, due at the render deadline).
    /// The background lane is the jobs the frame applied. A frame is late when any lane with a
    /// deadline missed it; its cause is the lane that missed first (a source's own cause wins).
    /// - Parameters:
    ///   - renderByCategory: The render lane's cost per frame by category name number
    ///     (``renderCategories(_:spans:frameCount:names:)``), `nil` without render work.
    ///   - categoryNames: The names of those numbers.
    static func assignLanes(
        _ frames: inout [FrameReport.Frame], render: [RenderWork], renderByCategory: Tally.Sums?,
        categoryNames: [String], jobs: [FedJob],
        interval: Int64
    ) {
        var renderByFrame: [Int: [RenderWork]] = [:]
        for work in render { renderByFrame[work.frame, default: []].append(work) }
        var jobsByFrame: [Int: [FedJob]] = [:]
        for job in jobs { jobsByFrame[job.appliedFrame, default: []].append(job) }
        // Each frame is filled in place: a copy would retain every dictionary it holds.
        func fill(_ frame: inout FrameReport.Frame, at index: Int) {
            if frame.lanes.isEmpty {
                frame.lanes.append(
                    FrameReport.LaneTiming(
                        lane: .main, costNanoseconds: frame.mainThreadNanoseconds, start: frame.workStart,
                        end: frame.commitEnd,
                        deadline: frame.deadline, byCategory: frame.mainByCategory))
                if !renderByFrame.isEmpty, let works = renderByFrame[index] {
                    var cost: Int64 = 0
                    for work in works { cost = cost.addingSaturating(work.end.subtractingSaturating(work.start)) }
                    let deadline = renderDeadline(of: works, commitDeadline: frame.deadline, interval: interval)
                    frame.lanes.append(
                        FrameReport.LaneTiming(
                            lane: .render, costNanoseconds: cost, start: works.map(\.start).min(),
                            end: works.map(\.end).max(),
                            deadline: deadline,
                            byCategory: renderByCategory?.times(group: index, names: categoryNames) ?? [:]))
                    frame.presentation = works.compactMap(\.presentation).max()
                }
            }
            if !jobsByFrame.isEmpty, let fed = jobsByFrame[index] {
                var cost: Int64 = 0
                var byCategory: [String: Int64] = [:]
                for job in fed {
                    cost = cost.addingSaturating(job.cost)
                    byCategory[job.category] = (byCategory[job.category] ?? 0).addingSaturating(job.cost)
                }
                let times = CategoryTimes(byCategory)
                frame.feed = FrameReport.BackgroundFeed(
                    jobs: fed.count, costNanoseconds: cost, byCategory: times,
                    latencyFrames: fed.map { $0.appliedFrame - $0.requestFrame })
                frame.lanes.append(
                    FrameReport.LaneTiming(lane: .background, costNanoseconds: cost, byCategory: times))
            }
            frame.lanes.sort { $0.lane < $1.lane }
            if frame.hitchCause == .none, frame.isLate(interval: interval) {
                frame.hitchCause = firstMissedLane(of: frame)?.hitchCause ?? .commit
            }
        }
        for index in frames.indices { fill(&frames[index], at: index) }
    }

    /// The lane that missed its deadline first: the earliest deadline among the lanes that ended
    /// past theirs; the main lane (the commit) when the commit itself was late.
    static func firstMissedLane(of frame: FrameReport.Frame) -> Lane? {
        if frame.commitEnd > frame.deadline { return .main }
        return frame.lanes.filter { ($0.overrun ?? 0) > 0 }.min {
            ($0.deadline ?? .max, $0.lane) < ($1.deadline ?? .max, $1.lane)
        }?.lane
    }

    /// Render-lane self time by category name number (``CategoryNames``) per frame: the render
    /// threads' self-time segments inside each frame's render work; `nil` without render work.
    static func renderCategories(_ render: [RenderWork], spans: SpanIndex, frameCount: Int, names: CategoryNames)
        -> Tally.Sums?
    {
        guard !render.isEmpty else { return nil }
        var result = Tally(keyCount: names.names.count)
        var byThread: [ThreadKey: [RenderWork]] = [:]
        for work in render { byThread[work.thread, default: []].append(work) }
        for (thread, works) in byThread {
            let sorted = works.sorted { $0.start < $1.start }
            SelfTime.sweep(spans.spans(on: thread)) { segment in
                // The last render work that began at or before the segment.
                let low = sorted.partitioningIndex { $0.start > segment.start }
                guard low > 0 else { return }
                let work = sorted[low - 1]
                let overlap = min(segment.end, work.end).subtractingSaturating(segment.start)
                guard overlap > 0 else { return }
                result.add(
                    overlap, key: names.nameOfCategory[spans.categories.number(of: segment.category)], group: work.frame
                )
            }
        }
        return result.finish(groupCount: frameCount)
    }

    /// Per-lane figures over all frames: a lane that some frame has counts 0 in the frames
    /// without it.
    static func laneFigures(_ frames: [FrameReport.Frame], interval: Int64, onAllCores: Bool = false) -> [FrameReport
        .LaneFigures]
    {
        // Per lane, by its position in pipeline order.
        let lanes = Lane.allCases
        var costs = Array(repeating: [Int64](), count: lanes.count)
        var late = Array(repeating: 0, count: lanes.count)
        var byCategory = Array(repeating: CategorySeries(), count: lanes.count)
        var latency: [Int64] = []
        var jobs = 0
        // By position, reading fields in place: binding a frame to a name would copy it.
        for index in frames.indices {
            for timing in frames[index].lanes {
                let lane = lanes.firstIndex(of: timing.lane)!
                costs[lane].append(timing.costNanoseconds)
                if (timing.overrun ?? 0) > 0 { late[lane] += 1 }
                byCategory[lane].append(timing.byCategory)
            }
            if let feed = frames[index].feed {
                jobs += feed.jobs
                latency += feed.latencyFrames.map(Int64.init)
            }
        }
        let positions = lanes.indices.filter { !costs[$0].isEmpty }
        // Per lane, its costs and then each category's values, all summarised at once: on all
        // cores when `onAllCores`.
        let series = positions.map { position in
            [(name: "", values: costs[position])]
                + zip(byCategory[position].names, byCategory[position].values).map { (name: $0, values: $1) }
        }
        let allSeries = Array(series.joined())
        let frameCount = frames.count
        let summaries = map(allSeries.count, onAllCores: onAllCores) {
            PercentileSummary(allSeries[$0].values, zeroCount: frameCount - allSeries[$0].values.count)
        }
        var first = 0
        return zip(positions, series).map { position, series in
            defer { first += series.count }
            let lane = lanes[position]
            let values = costs[position]
            let categories = series.indices.dropFirst().map { index in
                FrameReport.LaneCategory(
                    name: series[index].name,
                    totalNanoseconds: series[index].values.reduce(0) { $0.addingSaturating($1) },
                    perFrame: summaries[first + index])
            }.sorted { ($0.totalNanoseconds, $1.name) > ($1.totalNanoseconds, $0.name) }
            return FrameReport.LaneFigures(
                lane: lane, framesWithWork: values.count, cost: summaries[first],
                lateFrames: late[position], categories: categories, jobs: lane == .background ? jobs : nil,
                deliveryLatencyFrames: lane == .background ? PercentileSummary(latency) : nil)
        }
    }

    /// Hitch time split by cause: the union of late frames' spans past their deadlines, each
    /// moment counted once, for the cause of the frame that was late first then. The parts add up
    /// to ``FrameReport/Summary/hitchNanoseconds``.
    static func hitchByCause(_ lateSpans: [(start: Int64, end: Int64, cause: HitchCause)]) -> (
        total: Int64, byCause: [HitchCause: Int64]
    ) {
        let sorted = lateSpans.sorted { ($0.start, $0.cause) < ($1.start, $1.cause) }
        var total: Int64 = 0
        var byCause: [HitchCause: Int64] = [:]
        var coveredUntil = Int64.min
        for span in sorted where span.end > coveredUntil {
            let part = span.end.subtractingSaturating(max(span.start, coveredUntil))
            total = total.addingSaturating(part)
            byCause[span.cause] = (byCause[span.cause] ?? 0).addingSaturating(part)
            coveredUntil = span.end
        }
        return (total, byCause)
    }
}
