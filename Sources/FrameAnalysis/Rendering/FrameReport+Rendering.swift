import FrameSupport
import FrameTrace

extension FrameReport {
    /// The width of a terminal the text report fits by default.
    package static let terminalWidth = 100

    /// The sections of the report as tables, shared by the text and Markdown renderers.
    /// - Parameter wide: Every column (`true`, for Markdown and `--wide`), or the columns a
    ///   100-column terminal has room for: the categories table without span counts, p50 and
    ///   max per frame, the worst frames without top categories.
    package func tables(wide: Bool = true) -> [ReportTable] {
        let interval = method.frameRate.intervalNanoseconds
        let fps = 1e9 / Double(interval)  // the rate of the interval as rounded, not the rate asked for
        var tables = [howTable(interval: interval, fps: fps), summaryTable(interval: interval), distributionTable]
        tables += [lanesTable, holdsTable, hangsTable, inputTable].compactMap { $0 }
        tables += [categoriesTable(wide: wide), worstFramesTable(wide: wide, interval: interval), threadsTable]
        if let diagnosticsTable { tables.append(diagnosticsTable) }
        return tables
    }

    /// The main-thread cost's and the overrun's percentiles per frame.
    private var distributionTable: ReportTable {
        var distribution = ReportTable(
            title: "Per-frame distribution",
            columns: [
                ("per frame", .left), ("p50", .right), ("p90", .right), ("p95", .right), ("p99", .right),
                ("max", .right),
            ])
        for (label, p) in [
            ("main-thread cost", summary.mainThreadCost), ("overrun (negative = headroom)", summary.overrun),
        ] {
            distribution.rows.append([label] + ReportFormat.percentiles(p))
        }
        return distribution
    }

    /// Input latency, when the trace has input events.
    private var inputTable: ReportTable? {
        guard let input else { return nil }
        var table = ReportTable(
            title: "Input (latency: from the input to the end of the frame that reflects it)",
            columns: [
                ("inputs", .right), ("ignored", .right), ("unreflected", .right), ("latency p50", .right),
                ("p90", .right),
                ("p95", .right), ("p99", .right), ("max", .right),
            ])
        table.rows = [
            ["\(input.inputs)", "\(input.ignored)", "\(input.unreflected)"] + ReportFormat.percentiles(input.latency)
        ]
        return table
    }

    /// Self time by category, with each category's share of the budget and its per-frame figures.
    private func categoriesTable(wide: Bool) -> ReportTable {
        typealias F = ReportFormat
        var byCategory = ReportTable(
            title: "Categories (self time: each moment counts for the innermost span; budget share: of measured time)",
            columns: [
                ("category", .left), ("spans", .right), ("main", .right), ("background", .right),
                ("budget share", .right),
                ("main p50/frame", .right), ("main p95/frame", .right), ("main max/frame", .right),
            ])
        for category in categories {
            byCategory.rows.append([
                FrameAnalyzer.categoryLabel(category.name), "\(category.spanCount)",
                F.milliseconds(category.mainNanoseconds),
                F.milliseconds(category.backgroundNanoseconds), F.optionalPercent(category.budgetShare),
                F.optionalMilliseconds(category.perFrameMain?.p50), F.optionalMilliseconds(category.perFrameMain?.p95),
                F.optionalMilliseconds(category.perFrameMain?.max),
            ])
        }
        if !wide { byCategory.keepColumns([0, 2, 3, 4, 6]) }
        return byCategory
    }

    /// The worst frames, with their cause, top categories and spans, and each platform's columns.
    private func worstFramesTable(wide: Bool, interval: Int64) -> ReportTable {
        typealias F = ReportFormat
        var worst = ReportTable(
            title: "Worst frames",
            columns: [
                ("frame", .right), ("vsync at", .right), ("main", .right), ("overrun", .right), ("missed", .right),
                ("cause", .left), ("top categories", .left), ("top spans", .left),
            ])
        for entry in worstFrames {
            let frame = entry.frame
            let missed = frame.missedVsyncs(interval: interval)
            let topCategories = frame.mainByCategory.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3)
                .map { "\(FrameAnalyzer.categoryLabel($0.key)) \(F.milliseconds($0.value))" }.joined(separator: ", ")
            let topSpans = entry.topSpans.map { "\($0.name) \(F.milliseconds($0.nanoseconds))" }.joined(separator: ", ")
            worst.rows.append([
                "#\(frame.index)", F.milliseconds(frame.vsync.subtractingSaturating(frames.first?.vsync ?? 0)),
                F.milliseconds(frame.mainThreadNanoseconds),
                F.milliseconds(frame.overrun), "\(missed)", frame.causePhrase, topCategories, topSpans,
            ])
        }
        if !wide { worst.keepColumns([0, 1, 2, 3, 4, 5, 7]) }
        if worstFrames.contains(where: { $0.frame.android != nil }) {
            worst.addPlatformColumns(worstFrames, wide: wide)
        }
        return worst
    }

    /// Every thread: its spans, busy time and top category.
    private var threadsTable: ReportTable {
        var threadTable = ReportTable(
            title: "Threads",
            columns: [
                ("thread", .left), ("pid:tid", .left), ("spans", .right), ("busy", .right), ("top category", .left),
            ])
        for thread in threads {
            threadTable.rows.append([
                (thread.name ?? "(unnamed)") + (thread.isMain ? " [main]" : ""), thread.key.description,
                "\(thread.spanCount)",
                ReportFormat.milliseconds(thread.busyNanoseconds),
                thread.topCategory.map(FrameAnalyzer.categoryLabel) ?? "-",
            ])
        }
        return threadTable
    }

    /// What the reader and the analysis noticed, when they noticed anything.
    private var diagnosticsTable: ReportTable? {
        guard !diagnostics.isEmpty else { return nil }
        var table = ReportTable(
            title: "Diagnostics", columns: [("kind", .left), ("event", .right), ("message", .left)])
        table.rows = diagnostics.map { [$0.kind.rawValue, $0.eventIndex.map { "#\($0)" } ?? "-", $0.message] }
        return table
    }

    /// "How this trace was read": the frame interval and its source, the main thread, where the
    /// frames came from.
    private func howTable(interval: Int64, fps: Double) -> ReportTable {
        typealias F = ReportFormat
        var how = ReportTable(title: "How this trace was read", columns: [("what", .left), ("value", .left)])
        how.rows = [
            [
                "frame interval",
                "\(F.milliseconds(interval)) (\(F.fixed(fps, decimals: 1)) fps, \(method.frameIntervalSource))",
            ],
            ["main thread", mainThreadDescription],
            ["frames from", method.frameSource.phrase],
        ]
        if let render = method.renderThread {
            how.rows.insert(
                ["render thread", "\(method.renderThreadName ?? "(unnamed)") (pid:tid \(render)): the render lane"],
                at: 2)
        }
        if method.frameSourceDetail != .unspecified { how.rows.append(["", method.frameSourceDetail.description]) }
        for (position, renderer) in method.otherRenderers.enumerated() {
            how.rows.append([
                position == 0 ? "other renderers" : "",
                "pid \(renderer.processID): \(renderer.frames) frames, \(renderer.droppedFrames) dropped (--process \(renderer.processID))",
            ])
        }
        if method.clock == .virtual {
            how.rows.append(["time", "virtual: each piece of work priced from what it counted, on a simulated device"])
        } else if method.clock == .cpuTime {
            how.rows.append(["time", "CPU time: each piece of work took its thread's CPU time, on a simulated device"])
        }
        return how
    }

    /// The summary: frames, slow, frozen and late frames, hitch time and its ratio, and each
    /// platform's own counts (Android's janky share, Chrome's dropped frames).
    private func summaryTable(interval: Int64) -> ReportTable {
        typealias F = ReportFormat
        let s = summary
        var overview = ReportTable(title: "Summary", columns: [("metric", .left), ("value", .right), ("note", .left)])
        let frameCount = max(1, s.frameCount)
        overview.rows = [
            [
                "frames", "\(s.frameCount)",
                method.frameSource == .estimated ? "estimated: one per stretch of main-thread work" : "",
            ],
            [
                "slow frames (> \(displayStretches.count > 1 ? "one period" : F.milliseconds(interval)))",
                "\(s.slowFrames)",
                F.percent(Double(s.slowFrames) / Double(frameCount)) + " of frames",
            ],
            [
                "frozen frames (> \(F.trimmed(Double(FrameAnalyzer.frozenThreshold) / 1e6)) ms)", "\(s.frozenFrames)",
                F.percent(Double(s.frozenFrames) / Double(frameCount)) + " of frames",
            ],
            ["late frames", "\(s.lateFrames)", "\(s.missedVsyncs) missed vsyncs"],
            [
                "hitch time", F.milliseconds(s.hitchNanoseconds),
                "over " + F.fixed(Double(s.measuredNanoseconds) / 1e9, decimals: 3) + " s measured",
            ],
            [
                "hitch time ratio", F.fixed(s.hitchTimeRatio, decimals: 2) + " ms/s",
                (s.hitchBand?.phrase ?? HitchBand.noFramesPhrase) + " (\(HitchBand.legend))",
            ],
            [
                "frame delay", F.fixed(s.frameDelaySeconds, decimals: 3) + " s",
                "sum of (actual - expected) over late frames",
            ],
        ]
        if !s.isMeasuredTimeKnown {
            overview.rows[4][2] = "recording length unknown: no frame table and no --toc export"
            overview.rows[5][1] = "-"
            overview.rows[5][2] = "unknown: not divided by a guess (\(HitchBand.legend))"
        }
        if let system = s.systemHitches, system > 0 {
            overview.rows[3][2] += "; \(system) system hitches left out"
        }
        if let stuffed = s.stuffedFrames { insertAndroidRows(into: &overview, stuffed: stuffed) }
        if method.frameSource == .chromeFrames { insertChromeRows(into: &overview) }
        appendOutsideFrameRows(to: &overview, interval: interval)
        return overview
    }

    /// Android's rows: janky frames and app start, buffer stuffing and dropped frames, by
    /// FrameTimeline's rules (late means janky; buffer stuffing is latency, not a hitch).
    private func insertAndroidRows(into overview: inout ReportTable, stuffed: Int) {
        typealias F = ReportFormat
        let s = summary
        // Android: late means janky by Android's rule; buffer stuffing is latency, not a hitch.
        overview.rows[3][2] += "; janky by Android's FrameTimeline"
        var note = "smooth, shown a vsync late: latency, no hitch"
        if let latency = s.stuffingLatency {
            note = "added latency p50 \(F.milliseconds(latency.p50)), p95 \(F.milliseconds(latency.p95)); " + note
        }
        overview.rows.insert(["buffer-stuffed frames", "\(stuffed)", note], at: 4)
        overview.rows.insert(
            ["dropped frames", "\(s.droppedFrames)", "FrameTimeline's Dropped Frame; also late frames"], at: 5)
        overview.rows[1][2] +=
            displayStretches.count > 1
            ? "; framescope's: longer than its stretch's period" : "; framescope's: longer than one P"
        overview.rows.insert(["janky frames", F.percent(s.jankyShare), s.jankyPhrase], at: 1)
        if let start = s.appStartFrames, let phrase = s.appStartPhrase {
            overview.rows.insert(["app start", "\(start)", phrase], at: 2)
        }
    }

    /// Chrome's rows: its dropped and partially presented frames, and its own DroppedFrame events.
    private func insertChromeRows(into overview: inout ReportTable) {
        let s = summary
        var dropped = "each shown one vsync late"
        if let smooth = s.droppedFramesAffectingSmoothness { dropped += "; \(smooth) affect smoothness" }
        overview.rows.insert(["dropped by Chrome", "\(s.droppedFrames)", dropped], at: 4)
        if let events = s.chromeDroppedFrameEvents {
            overview.rows.insert(
                [
                    "Chrome's DroppedFrame events", "\(events)",
                    "Chrome counts only dropped frames that affect smoothness (animating or scrolling)",
                ], at: 5)
        }
        overview.rows.insert(
            [
                "partially presented", "\(s.partialFrames)",
                "shown on time with some updates missing, affecting smoothness",
            ],
            at: s.chromeDroppedFrameEvents == nil ? 5 : 6)
    }

    /// Work outside the frames: the main thread's, and other threads' before, inside and after.
    private func appendOutsideFrameRows(to overview: inout ReportTable, interval: Int64) {
        typealias F = ReportFormat
        let s = summary
        if s.mainOutsideFramesNanoseconds > 0 {
            overview.rows.append([
                "main-thread work outside frames", F.milliseconds(s.mainOutsideFramesNanoseconds), "",
            ])
        }
        if s.backgroundInFramesNanoseconds > 0, let perInterval = s.backgroundPerInterval(interval) {
            overview.rows.append([
                "background per frame interval", F.milliseconds(perInterval),
                "other threads' busy time inside the frames, per P",
            ])
        }
        if s.backgroundOutsideFramesNanoseconds > 0 {
            overview.rows.append([
                "background outside frames", F.milliseconds(s.backgroundOutsideFramesNanoseconds),
                "before the first frame or after the last",
            ])
        }
    }

    /// Per lane: cost per frame, frames that missed the lane's deadline and the hitch time of
    /// the late frames it held (``HitchHold``); the background lane adds its jobs and delivery latency. `nil` when the
    /// frames have only a main lane and none was late.
    var lanesTable: ReportTable? {
        typealias F = ReportFormat
        guard lanes.count > 1 || !summary.hitchNanosecondsByCause.isEmpty else { return nil }
        var table = ReportTable(
            title: "Lanes (cost per frame; hitch time by the lane that held the late frames)",
            columns: [
                ("lane", .left), ("with\nwork", .right), ("p50", .right), ("p95", .right), ("max", .right),
                ("late", .right),
                ("hitch", .right), ("note", .left),
            ])
        for figures in lanes {
            let cause = figures.lane.hitchCause
            let hitch = cause.flatMap { summary.hitchNanosecondsByCause[$0] } ?? 0
            let hasDeadline = frames.contains { $0.lane(figures.lane)?.deadline != nil }
            var note = ""
            let isAndroid = method.frameSource == .frameTimeline
            switch figures.lane {
            case .main where isAndroid: note = "doFrame, due at app deadline"
            case .render where isAndroid: note = "DrawFrames, due at app deadline"
            case .compositor where isAndroid: note = "SurfaceFlinger, due at present"
            case .main: note = hasDeadline ? "due at the next vsync" : "Chrome stage, no deadline of its own"
            case .render: note = "due at the commit deadline + P"
            case .background:
                note = (figures.jobs ?? 0) == 1 ? "1 job" : "\(figures.jobs ?? 0) jobs"
            case .compositor, .raster, .gpu: note = "Chrome stages, no deadline of their own"
            }
            table.rows.append([
                figures.lane.identifier, "\(figures.framesWithWork)", F.optionalMilliseconds(figures.cost?.p50),
                F.optionalMilliseconds(figures.cost?.p95), F.optionalMilliseconds(figures.cost?.max),
                hasDeadline ? "\(figures.lateFrames)" : "-", cause == nil ? "-" : F.milliseconds(hitch), note,
            ])
            // The background jobs' delivery latency gets a row of its own, in frames, under the
            // percentile columns: as a note it wrapped at 100 columns.
            if figures.lane == .background, let latency = figures.deliveryLatencyFrames {
                func frames(_ count: Int64) -> String { count == 1 ? "1 frame" : "\(count) frames" }
                table.rows.append([
                    "  delivery", "-", frames(latency.p50), frames(latency.p95), frames(latency.max), "-", "-",
                    "latency from request to apply",
                ])
            }
        }
        for (cause, nanoseconds) in summary.hitchNanosecondsByCause.sorted(by: { $0.key < $1.key })
        where cause.lane.map({ lane in !lanes.contains { $0.lane == lane } }) ?? true {
            table.rows.append([
                cause.identifier, "-", "-", "-", "-", "-", F.milliseconds(nanoseconds), "a cause, not a lane",
            ])
        }
        return table
    }

    /// Late frames grouped by the work that held them (``HitchHold``), in time order: the lane
    /// and the work, when it ran, the frames it held and what filled it. At most
    /// ``holdRowLimit`` holds, those that held the most frames (the longest among equals), and a
    /// row saying how many more there are. `nil` without late frames that have a hold.
    var holdsTable: ReportTable? {
        typealias F = ReportFormat
        struct Key: Hashable {
            var lane: Lane
            var stage: String?
            var frame: Int?
            var start: Int64
            var end: Int64
        }
        var groups: [Key: (hold: HitchHold, frames: [Int])] = [:]
        for frame in frames {
            guard let hold = frame.hitchHold else { continue }
            let key = Key(lane: hold.lane, stage: hold.stage, frame: hold.frame, start: hold.start, end: hold.end)
            groups[key, default: (hold, [])].frames.append(frame.index)
        }
        guard !groups.isEmpty else { return nil }
        let origin = frames.first?.vsync ?? 0
        var table = ReportTable(
            title:
                "Why late frames were late (the first lane still busy when each frame needed it, and what filled it)",
            columns: [
                ("cause", .left), ("late\nframes", .left), ("held\nfrom", .right), ("for", .right),
                ("held by: work in the window", .left),
            ])
        // The holds that held the most frames, the longest first among equals, shown in time order.
        let shown = groups.sorted {
            ($0.value.frames.count, $0.key.end.subtractingSaturating($0.key.start), $1.key.start)
                > ($1.value.frames.count, $1.key.end.subtractingSaturating($1.key.start), $0.key.start)
        }.prefix(Self.holdRowLimit)
        for (_, group) in shown.sorted(by: {
            ($0.key.start, $0.key.end, $0.value.frames[0]) < ($1.key.start, $1.key.end, $1.value.frames[0])
        }) {
            let hold = group.hold
            let late =
                group.frames.count == 1
                ? "#\(group.frames[0])"
                : "\(group.frames.count): #\(group.frames.first!)-#\(group.frames.last!)"
            let holder = Self.holder(of: hold, holding: group.frames)
            table.rows.append([
                (hold.lane.hitchCause ?? .unknown).identifier, late,
                F.milliseconds(hold.start.subtractingSaturating(origin)),
                F.milliseconds(hold.duration), holder + ": " + (hold.workPhrase.isEmpty ? "no spans" : hold.workPhrase),
            ])
        }
        if groups.count > shown.count {
            let rest = groups.count - shown.count
            table.rows.append([
                "", "", "", "",
                "\(rest) more \(rest == 1 ? "hold" : "holds"), none holding more frames or for longer; every frame's hold: --format json (hitch-hold), frames-csv (held_by_frame)",
            ])
        }
        return table
    }

    /// What held the frames, as the holds table names it: the stage or lane's work, whose frame
    /// it was (`own` when it held only its own frame), and whether it overran.
    private static func holder(of hold: HitchHold, holding frames: [Int]) -> String {
        let isOwn = hold.frame.map { frames == [$0] } ?? false
        var holder: String
        if let stage = hold.stage {
            holder = stage + (isOwn ? " (own)" : hold.frame.map { " of #\($0)" } ?? "")
        } else {
            holder =
                isOwn
                ? "its own \(hold.lane.identifier) work"
                : "\(hold.lane.identifier) work" + (hold.frame.map { " of #\($0)" } ?? "")
        }
        if !hold.wasPending { holder += ", overran" }
        return holder
    }

    /// The most rows "Why late frames were late" shows: the holds that held the most frames.
    static let holdRowLimit = 5

    var mainThreadDescription: String {
        guard let main = method.mainThread else { return "none (the trace has no spans)" }
        return "\(method.mainThreadName ?? "(unnamed)") (pid:tid \(main), chosen by \(method.mainThreadRule))"
    }

    /// The report as plain text with aligned tables and a unit on every number.
    /// - Parameters:
    ///   - source: What was analysed, for the heading (a path, or `-` for stdin).
    ///   - wide: Every column, whole (`true`); by default the tables fit ``terminalWidth``
    ///     columns: fewer columns, long names cut with `…`, notes wrapped.
    package func text(source: String, wide: Bool = false) -> String {
        "framescope report: \(UntrustedText.terminal(source))\n\n"
            + tables(wide: wide).map { $0.text(maxWidth: wide ? nil : FrameReport.terminalWidth) }.joined(
                separator: "\n")
    }

    /// The report as Markdown, for a pull-request comment or a CI step summary.
    /// - Parameter source: What was analysed, for the heading.
    package func markdown(source: String) -> String {
        MarkdownLimit.fit(
            "## framescope report: \(UntrustedText.markdownCode(source))\n\n"
                + FrameChart(report: self).mermaid(title: source)
                + (frames.isEmpty ? "" : "\n") + tables().map { $0.markdown() }.joined(separator: "\n"))
    }
}
