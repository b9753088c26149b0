import FrameTrace
public import FrameTraceReader

extension FrameReport {
    /// The report as JSON, schema `framescope.report` version ``schemaVersion``.
    ///
    /// Times are integer nanoseconds on the trace's clock (keys end in `-ns`); the hitch time
    /// ratio is in ms/s. Percentile objects (`p50`, `p90`, `p95`, `p99`, `max`, `mean`, `total`)
    /// are `null` when there were no frames. The README documents every field.
    ///
    /// When the trace has input events (see ``FrameAnalyzer/inputFigures(of:frames:)``), an
    /// `input` object follows `summary` (an addition within version 1; absent otherwise):
    /// `inputs` (input events, ignored ones included), `ignored` (inputs the app dropped),
    /// `unreflected` (inputs after the last frame) and `latency-ns` (a percentile object over the
    /// reflected inputs' latency, from input time to the reflecting frame's commit end; `null`
    /// when no input was reflected).
    /// - Parameter source: What was analysed (a path, or `-`).
    public func jsonValue(source: String) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .string("framescope.report")),
            ("version", .integer(Int64(FrameReport.schemaVersion))),
            ("source", .string(source)),
            ("method", methodJSON),
            ("summary", summaryJSON),
        ]
        if let input {
            members.append(("input", .object([
                ("inputs", .integer(Int64(input.inputs))), ("ignored", .integer(Int64(input.ignored))),
                ("unreflected", .integer(Int64(input.unreflected))), ("latency-ns", input.latency.jsonValue),
            ])))
        }
        members += [
            ("categories", .array(categories.map(\.jsonValue))),
            ("worst-frames", .array(worstFrames.map { worst in
                var object = worst.frame.jsonMembers
                object.append(("top-spans", .array(worst.topSpans.map {
                    .object([("name", .string($0.name)), ("ns", .integer($0.nanoseconds))])
                })))
                return .object(object)
            })),
            ("lanes", .array(lanes.map(\.jsonValue))),
            ("threads", .array(threads.map(\.jsonValue))),
            ("frames", .array(frames.map { .object($0.jsonMembers) })),
            ("diagnostics", .array(diagnostics.map(\.jsonValue))),
        ]
        return .object(members)
    }

    private var methodJSON: JSONValue {
        .object([
            (FrameContract.Metadata.frameInterval, .integer(method.frameIntervalNanoseconds)),
            ("frame-interval-source", .string(method.frameIntervalSource.identifier)),
            ("frame-interval-requested-fps", method.frameIntervalSource.requestedFramesPerSecond.map(JSONValue.number) ?? .null),
            ("frame-interval-overridden-ns", method.frameIntervalSource.overriddenNanoseconds.map(JSONValue.integer) ?? .null),
            (FrameContract.Metadata.mainThread, method.mainThread.map { key in
                .object([("pid", .integer(key.processID)), ("tid", .integer(key.threadID)), ("name", method.mainThreadName.map(JSONValue.string) ?? .null)])
            } ?? .null),
            ("main-thread-rule", .string(method.mainThreadRule.identifier)),
            ("frame-boundaries", .string(method.frameSource.identifier)),
            ("frame-boundaries-detail", .string(method.frameSourceDetail)),
            (FrameContract.Metadata.clock, method.clock.map(JSONValue.string) ?? .null),
        ])
    }

    private var summaryJSON: JSONValue {
        .object([
            ("frames", .integer(Int64(summary.frameCount))),
            ("slow-frames", .integer(Int64(summary.slowFrames))),
            ("frozen-frames", .integer(Int64(summary.frozenFrames))),
            ("late-frames", .integer(Int64(summary.lateFrames))),
            ("missed-vsyncs", .integer(summary.missedVsyncs)),
            ("hitch-ns", .integer(summary.hitchNanoseconds)),
            ("measured-ns", .integer(summary.measuredNanoseconds)),
            ("hitch-time-ratio-ms-per-s", .number(summary.hitchTimeRatio)),
            ("hitch-band", summary.hitchBand.map { .string($0.identifier) } ?? .null),
            ("frame-delay-s", .number(summary.frameDelaySeconds)),
            ("main-thread-cost-ns", summary.mainThreadCost.jsonValue),
            ("overrun-ns", summary.overrun.jsonValue),
            ("main-outside-frames-ns", .integer(summary.mainOutsideFramesNanoseconds)),
            ("dropped-frames", .integer(Int64(summary.droppedFrames))),
            ("partial-frames", .integer(Int64(summary.partialFrames))),
            ("background-in-frames-ns", .integer(summary.backgroundInFramesNanoseconds)),
            ("background-outside-frames-ns", .integer(summary.backgroundOutsideFramesNanoseconds)),
            ("hitch-ns-by-cause", .object(summary.hitchNanosecondsByCause.sorted { $0.key < $1.key }.map { ($0.key.identifier, .integer($0.value)) })),
            ("lane-cost-ns", .object(lanes.map { ($0.lane.identifier, $0.cost.jsonValue) })),
        ])
    }
}

extension FrameReport.Frame {
    var jsonMembers: [(String, JSONValue)] {
        [
            ("index", .integer(Int64(index))), ("vsync-ns", .integer(vsync)), ("deadline-ns", .integer(deadline)),
            ("work-start-ns", .integer(workStart)), ("commit-end-ns", .integer(commitEnd)),
            ("main-ns", .integer(mainThreadNanoseconds)), ("overrun-ns", .integer(overrun)), ("outcome", .string(outcome.rawValue)),
            ("main-by-category-ns", .object(mainByCategory.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
            ("background-by-category-ns", .object(backgroundByCategory.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
            ("lanes", .object(lanes.map { timing in
                var members: [(String, JSONValue)] = [("cost-ns", .integer(timing.costNanoseconds))]
                if let start = timing.start { members.append(("start-ns", .integer(start))) }
                if let end = timing.end { members.append(("end-ns", .integer(end))) }
                if let deadline = timing.deadline { members.append(("deadline-ns", .integer(deadline))) }
                return (timing.lane.identifier, .object(members))
            })),
            (FrameContract.Timeline.causeKey, .string(hitchCause.identifier)),
            ("hitch-stage", hitchStage.map(JSONValue.string) ?? .null),
            ("presented-ns", presentation.map(JSONValue.integer) ?? .null),
            ("background-feed", feed.map { feed in
                .object([
                    ("jobs", .integer(Int64(feed.jobs))), ("cost-ns", .integer(feed.costNanoseconds)),
                    ("latency-frames", .array(feed.latencyFrames.map { .integer(Int64($0)) })),
                ])
            } ?? .null),
        ]
    }
}

extension FrameReport.LaneFigures {
    var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [
            ("lane", .string(lane.identifier)), ("frames-with-work", .integer(Int64(framesWithWork))), ("cost-ns", cost.jsonValue),
            ("late-frames", .integer(Int64(lateFrames))),
            ("categories", .array(categories.map { category in
                .object([("name", .string(category.name)), ("total-ns", .integer(category.totalNanoseconds)), ("per-frame-ns", category.perFrame.jsonValue)])
            })),
        ]
        if let jobs { members.append(("jobs", .integer(Int64(jobs)))) }
        if lane == .background { members.append(("delivery-latency-frames", deliveryLatencyFrames.jsonValue)) }
        return .object(members)
    }
}

extension FrameReport.CategoryFigures {
    var jsonValue: JSONValue {
        .object([
            ("name", .string(name)), ("spans", .integer(Int64(spanCount))), ("main-ns", .integer(mainNanoseconds)),
            ("background-ns", .integer(backgroundNanoseconds)), ("budget-share", budgetShare.map(JSONValue.number) ?? .null),
            ("per-frame-main-ns", perFrameMain.jsonValue),
        ])
    }
}

extension FrameReport.ThreadFigures {
    var jsonValue: JSONValue {
        .object([
            ("pid", .integer(key.processID)), ("tid", .integer(key.threadID)), ("name", name.map(JSONValue.string) ?? .null),
            ("main", .bool(isMain)), ("spans", .integer(Int64(spanCount))), ("busy-ns", .integer(busyNanoseconds)),
            ("top-category", topCategory.map(JSONValue.string) ?? .null),
        ])
    }
}

extension TraceDiagnostic {
    var jsonValue: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("event", eventIndex.map { .integer(Int64($0)) } ?? .null), ("message", .string(message))])
    }
}

extension Optional where Wrapped == PercentileSummary<Int64> {
    var jsonValue: JSONValue {
        guard let summary = self else { return .null }
        return .object([
            ("p50", .integer(summary.p50)), ("p90", .integer(summary.p90)), ("p95", .integer(summary.p95)),
            ("p99", .integer(summary.p99)), ("max", .integer(summary.max)), ("mean", .number(summary.mean)),
            ("total", .integer(summary.total)),
        ])
    }
}
