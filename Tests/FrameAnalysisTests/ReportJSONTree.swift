import FrameTrace

@testable import FrameAnalysis

// The report's JSON as a value tree, as FrameAnalysis built it before it wrote the text straight to
// bytes (JSONStream): kept here as the oracle ReportJSONStreamTests compares the stream with, byte
// for byte, over every trace in the repository and the third-party corpus.

extension FrameReport {
    /// The report as a value tree, members in the order the stream writes them.
    func treeJSON(source: String) -> JSONValue {
        .object(treeMembers(source: source, includesFrames: true))
    }

    /// The report's members in order; `frames` is an empty array unless `includesFrames`.
    private func treeMembers(source: String, includesFrames: Bool) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("schema", .string("framescope.report")),
            ("version", .int(Int64(FrameReport.schemaVersion))),
            ("source", .string(source)),
            ("method", methodTree),
            ("summary", summaryTree),
        ]
        if let input {
            members.append(
                (
                    "input",
                    .object([
                        ("inputs", .int(Int64(input.inputs))), ("ignored", .int(Int64(input.ignored))),
                        ("unreflected", .int(Int64(input.unreflected))), ("latency-ns", input.latency.treeValue),
                    ])
                ))
        }
        members += instrumentsTree
        members += [
            ("categories", .array(categories.map(\.treeValue))),
            (
                "worst-frames",
                .array(
                    worstFrames.map { worst in
                        var object = worst.frame.treeMembers
                        object.append(
                            (
                                "top-spans",
                                .array(
                                    worst.topSpans.map {
                                        .object([("name", .string($0.name)), ("ns", .int($0.nanoseconds))])
                                    })
                            ))
                        return .object(object)
                    })
            ),
            ("lanes", .array(lanes.map(\.treeValue))),
            ("threads", .array(threads.map(\.treeValue))),
            ("frames", .array(includesFrames ? frames.map { .object($0.treeMembers) } : [])),
            ("diagnostics", .array(diagnostics.map(\.treeValue))),
        ]
        return members
    }

    // The member lists below are annotated and built in steps: as one untyped literal inside
    // `.object(...)`, the type checker spent 0.3-0.7 s on each (`-warn-long-expression-type-checking`).
    private var methodTree: JSONValue {
        let mainThread: JSONValue =
            method.mainThread.map { key in
                let members: [(String, JSONValue)] = [
                    ("pid", .int(key.processID)), ("tid", .int(key.threadID)),
                    ("name", method.mainThreadName.map(JSONValue.string) ?? .null),
                ]
                return .object(members)
            } ?? .null
        let renderThread: JSONValue =
            method.renderThread.map { key in
                let members: [(String, JSONValue)] = [
                    ("pid", .int(key.processID)), ("tid", .int(key.threadID)),
                    ("name", method.renderThreadName.map(JSONValue.string) ?? .null),
                ]
                return .object(members)
            } ?? .null
        let otherRenderers: [JSONValue] = method.otherRenderers.map { renderer in
            let members: [(String, JSONValue)] = [
                ("pid", .int(renderer.processID)), ("frames", .int(Int64(renderer.frames))),
                ("dropped-frames", .int(Int64(renderer.droppedFrames))),
            ]
            return .object(members)
        }
        let stretches: [JSONValue] = method.frameIntervalSource.stretches.map { stretch in
            let members: [(String, JSONValue)] = [
                ("start-ns", .int(stretch.start)), ("interval-ns", .int(stretch.intervalNanoseconds)),
                ("frames", .int(Int64(stretch.frames))),
            ]
            return .object(members)
        }
        let members: [(String, JSONValue)] = [
            (FrameContract.Metadata.frameInterval, .int(method.frameRate.intervalNanoseconds)),
            ("frame-interval-source", .string(method.frameIntervalSource.identifier)),
            (
                "frame-interval-requested-fps",
                (method.frameIntervalSource.requestedFrameRate?.hertz).map(JSONValue.double) ?? .null
            ),
            (
                "frame-interval-overridden-ns",
                method.frameIntervalSource.overriddenNanoseconds.map(JSONValue.int) ?? .null
            ),
            ("frame-interval-stretches", .array(stretches)),
            (FrameContract.Metadata.mainThread, mainThread),
            ("main-thread-rule", .string(method.mainThreadRule.identifier)),
            ("frame-boundaries", .string(method.frameSource.identifier)),
            ("frame-boundaries-detail", method.frameSourceDetail.treeJSON),
            (FrameContract.Metadata.clock, method.clock.map { JSONValue.string($0.rawValue) } ?? .null),
            ("other-renderers", .array(otherRenderers)),
            ("render-thread", renderThread),
        ]
        return .object(members)
    }

    /// An Instruments recording's additions (absent for other traces): `instruments`, with
    /// `measured-time-known` (`false` when the recording's length is unknown: no frame table, no
    /// TOC), `system-hitches`, and `hangs` (`start-ns`, `duration-ns`, `type`, `pid`, `tid`,
    /// `thread-name`).
    private var instrumentsTree: [(String, JSONValue)] {
        guard summary.systemHitches != nil || !hangs.isEmpty || !summary.isMeasuredTimeKnown else { return [] }
        let hangs = hangs.map { hang -> JSONValue in
            .object([
                ("start-ns", .int(hang.start)), ("duration-ns", .int(hang.duration)), ("type", .string(hang.type)),
                ("pid", .int(hang.thread.processID)), ("tid", .int(hang.thread.threadID)),
                ("thread-name", hang.threadName.map(JSONValue.string) ?? .null),
            ])
        }
        return [
            (
                "instruments",
                .object([
                    ("measured-time-known", .bool(summary.isMeasuredTimeKnown)),
                    ("system-hitches", summary.systemHitches.map { .int(Int64($0)) } ?? .null),
                    ("hangs", .array(hangs)),
                ])
            )
        ]
    }

    private var summaryTree: JSONValue {
        let members: [(String, JSONValue)] = [
            ("frames", .int(Int64(summary.frameCount))),
            ("slow-frames", .int(Int64(summary.slowFrames))),
            ("frozen-frames", .int(Int64(summary.frozenFrames))),
            ("late-frames", .int(Int64(summary.lateFrames))),
            ("missed-vsyncs", .int(summary.missedVsyncs)),
            ("hitch-ns", .int(summary.hitchNanoseconds)),
            ("measured-ns", .int(summary.measuredNanoseconds)),
            ("hitch-time-ratio-ms-per-s", .double(summary.hitchTimeRatio)),
            ("hitch-band", summary.hitchBand.map { .string($0.identifier) } ?? .null),
            ("frame-delay-s", .double(summary.frameDelaySeconds)),
            ("main-thread-cost-ns", summary.mainThreadCost.treeValue),
            ("overrun-ns", summary.overrun.treeValue),
            ("main-outside-frames-ns", .int(summary.mainOutsideFramesNanoseconds)),
            ("dropped-frames", .int(Int64(summary.droppedFrames))),
            ("partial-frames", .int(Int64(summary.partialFrames))),
            (
                "dropped-frames-affecting-smoothness",
                summary.droppedFramesAffectingSmoothness.map { .int(Int64($0)) } ?? .null
            ),
            ("chrome-dropped-frame-events", summary.chromeDroppedFrameEvents.map { .int(Int64($0)) } ?? .null),
            ("stuffed-frames", summary.stuffedFrames.map { .int(Int64($0)) } ?? .null),
            ("stuffing-latency-ns", summary.stuffingLatency.treeValue),
            ("app-start-frames", summary.appStartFrames.map { .int(Int64($0)) } ?? .null),
            ("app-start-janky-frames", summary.appStartJankyFrames.map { .int(Int64($0)) } ?? .null),
            ("app-start-hitch-ns", summary.appStartHitchNanoseconds.map(JSONValue.int) ?? .null),
            (
                "app-start-mark",
                summary.appStartMark.map { mark in
                    let members: [(String, JSONValue)] = [
                        ("name", .string(mark.name)), ("ts-ns", .int(mark.time)),
                        ("last-frame", .int(Int64(mark.lastFrame))),
                    ]
                    return JSONValue.object(members)
                } ?? .null
            ),
            ("background-in-frames-ns", .int(summary.backgroundInFramesNanoseconds)),
            ("background-outside-frames-ns", .int(summary.backgroundOutsideFramesNanoseconds)),
            (
                "hitch-ns-by-cause",
                .object(
                    summary.hitchNanosecondsByCause.sorted { $0.key < $1.key }.map {
                        ($0.key.identifier, .int($0.value))
                    })
            ),
            ("lane-cost-ns", .object(lanes.map { ($0.lane.identifier, $0.cost.treeValue) })),
        ]
        return .object(members)
    }
}

extension FrameReport.Frame {
    var treeMembers: [(String, JSONValue)] {
        [
            ("index", .int(Int64(index))), ("vsync-ns", .int(vsync)), ("deadline-ns", .int(deadline)),
            ("work-start-ns", .int(workStart)), ("commit-end-ns", .int(commitEnd)),
            ("main-ns", .int(mainThreadNanoseconds)), ("overrun-ns", .int(overrun)),
            ("outcome", .string(outcome.rawValue)),
            (
                "main-by-category-ns",
                .object(mainByCategory.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
            ),
            (
                "background-by-category-ns",
                .object(backgroundByCategory.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
            ),
            (
                "lanes",
                .object(
                    lanes.map { timing in
                        var members: [(String, JSONValue)] = [("cost-ns", .int(timing.costNanoseconds))]
                        if let start = timing.start { members.append(("start-ns", .int(start))) }
                        if let end = timing.end { members.append(("end-ns", .int(end))) }
                        if let deadline = timing.deadline { members.append(("deadline-ns", .int(deadline))) }
                        return (timing.lane.identifier, .object(members))
                    })
            ),
            (FrameContract.Timeline.causeKey, .string(hitchCause.identifier)),
            ("hitch-stage", hitchStage.map(JSONValue.string) ?? .null),
            ("hitch-hold", hitchHold.map(\.treeValue) ?? .null),
            ("affects-smoothness", affectsSmoothness.map(JSONValue.bool) ?? .null),
            ("presented-ns", presentation.map(JSONValue.int) ?? .null),
            ("android", android.map(\.treeValue) ?? .null),
            (
                "background-feed",
                feed.map { feed in
                    .object([
                        ("jobs", .int(Int64(feed.jobs))), ("cost-ns", .int(feed.costNanoseconds)),
                        ("latency-frames", .array(feed.latencyFrames.map { .int(Int64($0)) })),
                    ])
                } ?? .null
            ),
        ]
    }
}

extension AndroidFrame {
    /// Trace processor's figures under its own column names.
    var treeValue: JSONValue {
        func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }
        return .object([
            ("frame_id", .int(token)), ("layer_name", layer.map(JSONValue.string) ?? .null),
            ("layers", .int(Int64(layers))),
            ("expected_ts", optional(expectedStart)), ("expected_end", optional(expectedEnd)),
            ("actual_ts", .int(actualStart)),
            ("actual_end", .int(actualEnd)), ("overrun", optional(overrun)),
            ("app_vsync_delay", optional(appVsyncDelay)),
            ("do_frame_dur", optional(doFrameNanoseconds)), ("draw_frame_dur", optional(drawFrameNanoseconds)),
            ("draw_frame_count", .int(Int64(drawFrames))), ("cpu_time", optional(cpuTime)),
            ("jank_type", .string(jankType)),
            ("jank_tag", .string(jankTag)), ("present_type", .string(presentType)),
            ("on_time_finish", .bool(onTimeFinish)),
            ("present_delay", optional(presentDelay)), ("is_janky", .bool(isJanky)), ("is_stuffed", .bool(isStuffed)),
        ])
    }
}

extension FrameReport.HitchHold {
    var treeValue: JSONValue {
        func contributors(_ list: [FrameReport.Contributor]) -> JSONValue {
            .array(list.map { .object([("name", .string($0.name)), ("ns", .int($0.nanoseconds))]) })
        }
        return .object([
            ("lane", .string(lane.identifier)), ("stage", stage.map(JSONValue.string) ?? .null),
            ("frame", frame.map { .int(Int64($0)) } ?? .null), ("start-ns", .int(start)), ("end-ns", .int(end)),
            ("pending", .bool(wasPending)), ("work", contributors(work)), ("spans", contributors(spans)),
        ])
    }
}

extension FrameReport.LaneFigures {
    var treeValue: JSONValue {
        var members: [(String, JSONValue)] = [
            ("lane", .string(lane.identifier)), ("frames-with-work", .int(Int64(framesWithWork))),
            ("cost-ns", cost.treeValue),
            ("late-frames", .int(Int64(lateFrames))),
            (
                "categories",
                .array(
                    categories.map { category in
                        .object([
                            ("name", .string(category.name)), ("total-ns", .int(category.totalNanoseconds)),
                            ("per-frame-ns", category.perFrame.treeValue),
                        ])
                    })
            ),
        ]
        if let jobs { members.append(("jobs", .int(Int64(jobs)))) }
        if lane == .background { members.append(("delivery-latency-frames", deliveryLatencyFrames.treeValue)) }
        return .object(members)
    }
}

extension FrameReport.CategoryFigures {
    var treeValue: JSONValue {
        .object([
            ("name", .string(name)), ("spans", .int(Int64(spanCount))), ("main-ns", .int(mainNanoseconds)),
            ("background-ns", .int(backgroundNanoseconds)),
            ("budget-share", budgetShare.map(JSONValue.double) ?? .null),
            ("per-frame-main-ns", perFrameMain.treeValue),
        ])
    }
}

extension FrameReport.ThreadFigures {
    var treeValue: JSONValue {
        .object([
            ("pid", .int(key.processID)), ("tid", .int(key.threadID)), ("name", name.map(JSONValue.string) ?? .null),
            ("main", .bool(isMain)), ("spans", .int(Int64(spanCount))), ("busy-ns", .int(busyNanoseconds)),
            ("top-category", topCategory.map(JSONValue.string) ?? .null),
        ])
    }
}

extension TraceDiagnostic {
    var treeValue: JSONValue {
        .object([
            ("kind", .string(kind.rawValue)), ("event", eventIndex.map { .int(Int64($0)) } ?? .null),
            ("message", .string(message)),
        ])
    }
}

extension Optional where Wrapped == PercentileSummary<Int64> {
    var treeValue: JSONValue {
        guard let summary = self else { return .null }
        return .object([
            ("p50", .int(summary.p50)), ("p90", .int(summary.p90)), ("p95", .int(summary.p95)),
            ("p99", .int(summary.p99)), ("max", .int(summary.max)), ("mean", .double(summary.mean)),
            ("total", .int(summary.total)),
        ])
    }
}

extension FrameReport.SourceDetail {
    /// The fields as JSON: `kind` (``identifier``), the counts and names, and `text`
    /// (``description``).
    var treeJSON: JSONValue {
        var fields: [(String, JSONValue)] = [("kind", .string(identifier))]
        switch self {
        case .frameSpans(let frames, let nested):
            fields += [("frames", .int(Int64(frames))), ("nested-frame-spans", .int(Int64(nested)))]
        case .markerSpans(let name, let thread, let threadName, let isMain):
            fields += [
                ("name", .string(name)), ("pid", .int(thread.processID)), ("tid", .int(thread.threadID)),
                ("thread-name", .string(threadName)), ("is-main-thread", .bool(isMain)),
            ]
        case .markerInstants(let name):
            fields += [("name", .string(name))]
        case .chromeReporters(let noUpdate, let forked, let unknown, let partial):
            fields += [
                ("no-update-desired", .int(Int64(noUpdate))), ("forked-or-repeated", .int(Int64(forked))),
                ("unknown-state", .int(Int64(unknown))), ("partially-presented", .int(Int64(partial))),
            ]
        case .chromeBeginFrames(let idle):
            fields += [("idle-begin-frames", .int(Int64(idle)))]
        case .androidFrameTimeline(
            let frames, let processID, let layer, let mainSliceName, let mainSlices, let renderSlices):
            fields += [
                ("frames", .int(Int64(frames))), ("pid", .int(processID)),
                ("layer", layer.map(JSONValue.string) ?? .null),
                ("main-slice-name", .string(mainSliceName)), ("main-slices", .int(Int64(mainSlices))),
                ("render-slices", .int(Int64(renderSlices))),
            ]
        case .instrumentsHitches(let frames, let table, let hitches, let unmatched, let system):
            fields += [
                ("frames", .int(Int64(frames))), ("frame-table", .string(table.rawValue)),
                ("hitches", .int(Int64(hitches))),
                ("unmatched-hitches", .int(Int64(unmatched))), ("system-hitches", .int(Int64(system))),
            ]
        case .estimated, .unspecified:
            break
        }
        fields.append(("text", .string(description)))
        return .object(fields)
    }
}
