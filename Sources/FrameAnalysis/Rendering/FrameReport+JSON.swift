import FrameJSON
package import FrameTrace

extension FrameReport {
    /// The report as JSON, schema `framescope.report` version ``schemaVersion``.
    ///
    /// Times are integer nanoseconds on the trace's clock (keys end in `-ns`); the hitch time
    /// ratio is in ms/s. Percentile objects (`p50`, `p90`, `p95`, `p99`, `max`, `mean`, `total`)
    /// are `null` when there were no frames. The FrameScope catalog's trace format article
    /// (`TraceFormat.md`, "The JSON report") documents every field.
    ///
    /// When the trace has input events (see ``FrameAnalyzer/inputFigures(of:frames:)``), an
    /// `input` object follows `summary` (an addition within version 1; absent otherwise):
    /// `inputs` (input events, ignored ones included), `ignored` (inputs the app dropped),
    /// `unreflected` (inputs after the last frame) and `latency-ns` (a percentile object over the
    /// reflected inputs' latency, from input time to the reflecting frame's commit end; `null`
    /// when no input was reflected).
    /// - Parameter source: What was analysed (a path, or `-`).
    package func jsonValue(source: String) -> JSONValue {
        var bytes: [UInt8] = []
        writeJSON(source: source) { bytes += $0 }
        return JSONStream.parsed(bytes)
    }

    /// Writes the report's JSON (``jsonValue(source:)``'s text) and a line feed to `write`, in
    /// pieces of about 1 MiB, straight to bytes: a value tree per frame took several times as
    /// long, and held a large report's memory twice over.
    package func writeJSON(source: String, _ write: ([UInt8]) -> Void) {
        var json = JSONStream(capacity: 1 << 16)
        json.openObject()
        json.member("schema", "framescope.report")
        json.member("version", FrameReport.schemaVersion)
        json.member("source", source)
        json.object("method") { writeMethod(into: &$0) }
        json.object("summary") { writeSummary(into: &$0) }
        if let input {
            json.object("input") { json in
                json.member("inputs", input.inputs)
                json.member("ignored", input.ignored)
                json.member("unreflected", input.unreflected)
                json.key("latency-ns")
                json.percentiles(input.latency)
            }
        }
        writeInstruments(into: &json)
        json.array("categories") { json in for category in categories { category.write(into: &json) } }
        json.array("worst-frames") { json in
            for worst in worstFrames {
                json.openObject()
                worst.frame.writeMembers(into: &json)
                json.array("top-spans") { json in json.contributors(worst.topSpans) }
                json.closeObject()
            }
        }
        json.array("lanes") { json in for lane in lanes { lane.write(into: &json) } }
        json.array("threads") { json in for thread in threads { thread.write(into: &json) } }
        json.array("frames") { json in
            for frame in frames {
                json.object { frame.writeMembers(into: &$0) }
                if json.count >= 1 << 20 { json.flush(write) }
            }
        }
        json.array("diagnostics") { json in for diagnostic in diagnostics { diagnostic.write(into: &json) } }
        json.closeObject()
        json.raw(UInt8(ascii: "\n"))
        json.flush(write)
    }

    private func writeMethod(into json: inout JSONStream) {
        json.key(text: FrameContract.Metadata.frameInterval)
        json.value(method.frameRate.intervalNanoseconds)
        let intervalSource = method.frameIntervalSource
        json.member("frame-interval-source", intervalSource.identifier)
        json.member("frame-interval-requested-fps", intervalSource.requestedFrameRate?.hertz)
        json.member("frame-interval-overridden-ns", intervalSource.overriddenNanoseconds)
        json.array("frame-interval-stretches") { json in
            for stretch in intervalSource.stretches {
                json.object { json in
                    json.member("start-ns", stretch.start)
                    json.member("interval-ns", stretch.intervalNanoseconds)
                    json.member("frames", stretch.frames)
                }
            }
        }
        json.key(text: FrameContract.Metadata.mainThread)
        json.thread(method.mainThread, name: method.mainThreadName)
        json.member("main-thread-rule", method.mainThreadRule.identifier)
        json.member("frame-boundaries", method.frameSource.identifier)
        json.key("frame-boundaries-detail")
        method.frameSourceDetail.write(into: &json)
        json.key(text: FrameContract.Metadata.clock)
        json.value(method.clock?.rawValue)
        json.array("other-renderers") { json in
            for renderer in method.otherRenderers {
                json.object { json in
                    json.member("pid", renderer.processID)
                    json.member("frames", renderer.frames)
                    json.member("dropped-frames", renderer.droppedFrames)
                }
            }
        }
        json.key("render-thread")
        json.thread(method.renderThread, name: method.renderThreadName)
    }

    /// An Instruments recording's additions (absent for other traces): `instruments`, with
    /// `measured-time-known` (`false` when the recording's length is unknown: no frame table, no
    /// TOC), `system-hitches`, and `hangs` (`start-ns`, `duration-ns`, `type`, `pid`, `tid`,
    /// `thread-name`).
    private func writeInstruments(into json: inout JSONStream) {
        guard summary.systemHitches != nil || !hangs.isEmpty || !summary.isMeasuredTimeKnown else { return }
        json.object("instruments") { json in
            json.member("measured-time-known", summary.isMeasuredTimeKnown)
            json.member("system-hitches", summary.systemHitches)
            json.array("hangs") { json in
                for hang in hangs {
                    json.object { json in
                        json.member("start-ns", hang.start)
                        json.member("duration-ns", hang.duration)
                        json.member("type", hang.type)
                        json.member("pid", hang.thread.processID)
                        json.member("tid", hang.thread.threadID)
                        json.member("thread-name", hang.threadName)
                    }
                }
            }
        }
    }

    private func writeSummary(into json: inout JSONStream) {
        json.member("frames", summary.frameCount)
        json.member("slow-frames", summary.slowFrames)
        json.member("frozen-frames", summary.frozenFrames)
        json.member("late-frames", summary.lateFrames)
        json.member("missed-vsyncs", summary.missedVsyncs)
        json.member("hitch-ns", summary.hitchNanoseconds)
        json.member("measured-ns", summary.measuredNanoseconds)
        json.member("hitch-time-ratio-ms-per-s", summary.hitchTimeRatio)
        json.member("hitch-band", summary.hitchBand?.identifier)
        json.member("frame-delay-s", summary.frameDelaySeconds)
        json.key("main-thread-cost-ns")
        json.percentiles(summary.mainThreadCost)
        json.key("overrun-ns")
        json.percentiles(summary.overrun)
        json.member("main-outside-frames-ns", summary.mainOutsideFramesNanoseconds)
        json.member("dropped-frames", summary.droppedFrames)
        json.member("partial-frames", summary.partialFrames)
        json.member("dropped-frames-affecting-smoothness", summary.droppedFramesAffectingSmoothness)
        json.member("chrome-dropped-frame-events", summary.chromeDroppedFrameEvents)
        json.member("stuffed-frames", summary.stuffedFrames)
        json.key("stuffing-latency-ns")
        json.percentiles(summary.stuffingLatency)
        json.member("app-start-frames", summary.appStartFrames)
        json.member("app-start-janky-frames", summary.appStartJankyFrames)
        json.member("app-start-hitch-ns", summary.appStartHitchNanoseconds)
        json.key("app-start-mark")
        if let mark = summary.appStartMark {
            json.object { json in
                json.member("name", mark.name)
                json.member("ts-ns", mark.time)
                json.member("last-frame", mark.lastFrame)
            }
        } else {
            json.null()
        }
        json.member("background-in-frames-ns", summary.backgroundInFramesNanoseconds)
        json.member("background-outside-frames-ns", summary.backgroundOutsideFramesNanoseconds)
        json.object("hitch-ns-by-cause") { json in
            for (cause, nanoseconds) in summary.hitchNanosecondsByCause.sorted(by: { $0.key < $1.key }) {
                json.key(text: cause.identifier)
                json.value(nanoseconds)
            }
        }
        json.object("lane-cost-ns") { json in
            for lane in lanes {
                json.key(text: lane.lane.identifier)
                json.percentiles(lane.cost)
            }
        }
    }
}

extension FrameReport.Frame {
    /// The frame's members, in the schema's order, into an open object.
    func writeMembers(into json: inout JSONStream) {
        json.member("index", index)
        json.member("vsync-ns", vsync)
        json.member("deadline-ns", deadline)
        json.member("work-start-ns", workStart)
        json.member("commit-end-ns", commitEnd)
        json.member("main-ns", mainThreadNanoseconds)
        json.member("overrun-ns", overrun)
        json.member("outcome", outcome.rawValue)
        json.object("main-by-category-ns") { $0.categoryTimes(mainByCategory) }
        json.object("background-by-category-ns") { $0.categoryTimes(backgroundByCategory) }
        json.object("lanes") { json in
            for timing in lanes {
                json.key(text: timing.lane.identifier)
                json.object { json in
                    json.member("cost-ns", timing.costNanoseconds)
                    if let start = timing.start { json.member("start-ns", start) }
                    if let end = timing.end { json.member("end-ns", end) }
                    if let deadline = timing.deadline { json.member("deadline-ns", deadline) }
                }
            }
        }
        json.key(text: FrameContract.Timeline.causeKey)
        json.value(hitchCause.identifier)
        writeOptionalMembers(into: &json)
    }

    /// The members that are `null` for most frames: the hitch's stage and hold, the platforms'
    /// additions and the background feed.
    private func writeOptionalMembers(into json: inout JSONStream) {
        json.member("hitch-stage", hitchStage)
        json.key("hitch-hold")
        if let hitchHold { hitchHold.write(into: &json) } else { json.null() }
        json.member("affects-smoothness", affectsSmoothness)
        json.member("presented-ns", presentation)
        json.key("android")
        if let android { android.write(into: &json) } else { json.null() }
        json.key("background-feed")
        if let feed {
            json.object { json in
                json.member("jobs", feed.jobs)
                json.member("cost-ns", feed.costNanoseconds)
                json.array("latency-frames") { json in for frames in feed.latencyFrames { json.value(frames) } }
            }
        } else {
            json.null()
        }
    }
}

extension AndroidFrame {
    /// Trace processor's figures under its own column names.
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("frame_id", token)
        json.member("layer_name", layer)
        json.member("layers", layers)
        json.member("expected_ts", expectedStart)
        json.member("expected_end", expectedEnd)
        json.member("actual_ts", actualStart)
        json.member("actual_end", actualEnd)
        json.member("overrun", overrun)
        json.member("app_vsync_delay", appVsyncDelay)
        json.member("do_frame_dur", doFrameNanoseconds)
        json.member("draw_frame_dur", drawFrameNanoseconds)
        json.member("draw_frame_count", drawFrames)
        json.member("cpu_time", cpuTime)
        json.member("jank_type", jankType)
        json.member("jank_tag", jankTag)
        json.member("present_type", presentType)
        json.member("on_time_finish", onTimeFinish)
        json.member("present_delay", presentDelay)
        json.member("is_janky", isJanky)
        json.member("is_stuffed", isStuffed)
        json.closeObject()
    }
}

extension FrameReport.HitchHold {
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("lane", lane.identifier)
        json.member("stage", stage)
        json.member("frame", frame)
        json.member("start-ns", start)
        json.member("end-ns", end)
        json.member("pending", wasPending)
        json.array("work") { $0.contributors(work) }
        json.array("spans") { $0.contributors(spans) }
        json.closeObject()
    }
}

extension FrameReport.LaneFigures {
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("lane", lane.identifier)
        json.member("frames-with-work", framesWithWork)
        json.key("cost-ns")
        json.percentiles(cost)
        json.member("late-frames", lateFrames)
        json.array("categories") { json in
            for category in categories {
                json.object { json in
                    json.member("name", category.name)
                    json.member("total-ns", category.totalNanoseconds)
                    json.key("per-frame-ns")
                    json.percentiles(category.perFrame)
                }
            }
        }
        if let jobs { json.member("jobs", jobs) }
        if lane == .background {
            json.key("delivery-latency-frames")
            json.percentiles(deliveryLatencyFrames)
        }
        json.closeObject()
    }
}

extension FrameReport.CategoryFigures {
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("name", name)
        json.member("spans", spanCount)
        json.member("main-ns", mainNanoseconds)
        json.member("background-ns", backgroundNanoseconds)
        json.member("budget-share", budgetShare)
        json.key("per-frame-main-ns")
        json.percentiles(perFrameMain)
        json.closeObject()
    }
}

extension FrameReport.ThreadFigures {
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("pid", key.processID)
        json.member("tid", key.threadID)
        json.member("name", name)
        json.member("main", isMain)
        json.member("spans", spanCount)
        json.member("busy-ns", busyNanoseconds)
        json.member("top-category", topCategory)
        json.closeObject()
    }
}

extension TraceDiagnostic {
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("kind", kind.rawValue)
        json.member("event", eventIndex)
        json.member("message", message)
        json.closeObject()
    }
}

extension FrameReport.SourceDetail {
    /// The fields as JSON: `kind` (``identifier``), the counts and names, and `text`
    /// (``description``).
    func write(into json: inout JSONStream) {
        json.openObject()
        json.member("kind", identifier)
        switch self {
        case .frameSpans(let frames, let nested):
            json.member("frames", frames)
            json.member("nested-frame-spans", nested)
        case .markerSpans(let name, let thread, let threadName, let isMain):
            json.member("name", name)
            json.member("pid", thread.processID)
            json.member("tid", thread.threadID)
            json.member("thread-name", threadName)
            json.member("is-main-thread", isMain)
        case .markerInstants(let name):
            json.member("name", name)
        case .chromeReporters(let noUpdate, let forked, let unknown, let partial):
            json.member("no-update-desired", noUpdate)
            json.member("forked-or-repeated", forked)
            json.member("unknown-state", unknown)
            json.member("partially-presented", partial)
        case .chromeBeginFrames(let idle):
            json.member("idle-begin-frames", idle)
        case .androidFrameTimeline(
            let frames, let processID, let layer, let mainSliceName, let mainSlices, let renderSlices):
            json.member("frames", frames)
            json.member("pid", processID)
            json.member("layer", layer)
            json.member("main-slice-name", mainSliceName)
            json.member("main-slices", mainSlices)
            json.member("render-slices", renderSlices)
        case .instrumentsHitches(let frames, let table, let hitches, let unmatched, let system):
            json.member("frames", frames)
            json.member("frame-table", table.rawValue)
            json.member("hitches", hitches)
            json.member("unmatched-hitches", unmatched)
            json.member("system-hitches", system)
        case .estimated, .unspecified:
            break
        }
        json.member("text", description)
        json.closeObject()
    }
}

extension JSONStream {
    /// A document this module's stream wrote, parsed back into a value tree (for tests that look
    /// into a report, a check or a comparison). Their writers write well-formed JSON (the tests
    /// parse every report's); a failure here is a bug in them.
    static func parsed(_ text: some Collection<UInt8>) -> JSONValue {
        guard let value = try? JSONValue.parse(text) else { preconditionFailure("a JSON writer wrote malformed JSON") }
        return value
    }

    /// ``parsed(_:)`` of text.
    static func parsed(_ text: String) -> JSONValue { parsed(Array(text.utf8)) }

    /// A percentile object (`p50` ... `max`, `mean`, `total`), or `null` when there were no values.
    mutating func percentiles(_ summary: PercentileSummary<Int64>?) {
        guard let summary else { return null() }
        openObject()
        member("p50", summary.p50)
        member("p90", summary.p90)
        member("p95", summary.p95)
        member("p99", summary.p99)
        member("max", summary.max)
        member("mean", summary.mean)
        member("total", summary.total)
        closeObject()
    }

    /// A thread as `{"pid", "tid", "name"}`, or `null`.
    mutating func thread(_ key: ThreadKey?, name: String?) {
        guard let key else { return null() }
        openObject()
        member("pid", key.processID)
        member("tid", key.threadID)
        member("name", name)
        closeObject()
    }

    /// Named times as `{"name": ns, ...}` members of an open object, sorted by name.
    mutating func categoryTimes(_ times: CategoryTimes) {
        for (name, nanoseconds) in times.sorted(by: { $0.key < $1.key }) {
            key(text: name)
            value(nanoseconds)
        }
    }

    /// Contributors as `{"name", "ns"}` elements of an open array.
    mutating func contributors(_ list: some Sequence<FrameReport.Contributor>) {
        for contributor in list {
            openObject()
            member("name", contributor.name)
            member("ns", contributor.nanoseconds)
            closeObject()
        }
    }
}
