import FrameSupport
import FrameTrace

extension FrameReport {
    /// The report as one self-contained HTML page: no network, no external script or font.
    ///
    /// The page states where the frames came from, draws a frame timeline on a `<canvas>` (one
    /// bar per frame, its main-thread cost stacked by category, the budget line at `P`, late
    /// frames and missed vsyncs marked under the axis; frames are grouped into one bar per
    /// several only beyond ``HTMLPage/maximumBars``), shows a frame's figures and top spans on
    /// hover or keyboard focus, and lists the same tables as the text report (see
    /// ``tables(wide:)``), every column kept.
    /// - Parameter source: What was analysed, for the heading.
    /// - Returns: The page.
    /// - Complexity: O(frames + spans in the tables); one bar per frame, never one DOM node per span.
    package func html(source: String) -> String {
        HTMLPage.document(title: "framescope report: \(source)", sections: [htmlSection(heading: source, id: "report")])
    }

    /// One report as a `<section>` of an HTML page made by ``HTMLPage/document(title:sections:)``:
    /// the demo puts one per run on its page.
    /// - Parameters:
    ///   - heading: The section's heading.
    ///   - id: An identifier unique on the page (letters, digits, `-`).
    package func htmlSection(heading: String, id: String) -> String {
        typealias H = HTMLPage
        var html = "<section class=\"run\" id=\"\(UntrustedText.html(id))\">\n<h2>\(UntrustedText.html(heading))</h2>\n"
        html += "<p class=\"source\"><strong>Frames from: \(UntrustedText.html(method.frameSource.phrase))</strong>"
        if method.frameSourceDetail != .unspecified {
            html += " — \(UntrustedText.html(method.frameSourceDetail.description))"
        }
        html +=
            "<br>Frame interval P = \(UntrustedText.html(ReportFormat.milliseconds(method.frameRate.intervalNanoseconds))) "
        html +=
            "(\(UntrustedText.html(method.frameIntervalSource.description))); main thread: \(UntrustedText.html(mainThreadDescription)).</p>\n"
        let s = summary
        // A recording of unknown length (Apple's hitches alone) has no ratio: say so, never 0.
        let ratio =
            s.isMeasuredTimeKnown
            ? "\(ReportFormat.fixed(s.hitchTimeRatio, decimals: 2)) ms/s hitch time ratio (\(s.hitchBand?.phrase ?? HitchBand.noFramesPhrase))"
            : "hitch time ratio unknown (the recording's length is unknown: not divided by a guess)"
        html +=
            "<p class=\"headline\"><span class=\"band \(s.hitchBand?.identifier ?? "none")\">\(UntrustedText.html(ratio))</span> "
        html +=
            "· \(s.frameCount) frames · \(s.slowFrames) slow · \(s.frozenFrames) frozen · \(s.lateFrames) late · \(s.missedVsyncs) missed vsyncs"
        if s.stuffedFrames != nil {
            html += " · \(UntrustedText.html(ReportFormat.percent(s.jankyShare))) janky frames ("
            html += UntrustedText.html(s.jankyPhrase) + ")"
            if let start = s.appStartPhrase { html += " · app start: " + UntrustedText.html(start) }
        }
        if let stuffed = s.stuffedFrames {
            let latency = s.stuffingLatency.map { " (added latency p95 \(ReportFormat.milliseconds($0.p95)))" } ?? ""
            html += " · \(stuffed) buffer-stuffed: latency, not hitches" + UntrustedText.html(latency)
        }
        html += "</p>\n"
        html += "<div class=\"timeline\" data-frames=\"\(frames.count)\" data-bars=\"\" data-drawn=\"false\">\n"
        html += "<div class=\"legend\" aria-hidden=\"true\"></div>\n"
        html +=
            "<div class=\"scroller\"><canvas tabindex=\"0\" role=\"img\" aria-label=\"Frame timeline of \(frames.count) frames: "
        html +=
            "main-thread cost per frame stacked by category, budget line at P. Arrow keys move between frames, N jumps to the next late frame.\"></canvas></div>\n"
        html += "<div class=\"tooltip\" role=\"status\" aria-live=\"polite\" hidden></div>\n"
        html += laneRowsHTML
        html += "<script type=\"application/json\" class=\"frame-data\">\(timelineJSON())</script>\n</div>\n"
        for table in tables(wide: true) where !table.rows.isEmpty || table.title == "Summary" {
            html += H.table(table)
        }
        return html + "</section>\n"
    }

    /// The worker threads drawn as background rows, in order: those that ran a job a frame applied.
    var laneWorkers: [ThreadKey] {
        var seen: Set<ThreadKey> = []
        return backgroundJobs.map(\.thread).filter { seen.insert($0).inserted }.sorted()
    }

    /// The lane view under the bars: one row element per lane (`data-lane`), labels beside a
    /// canvas the script draws on a time axis.
    var laneRowsHTML: String {
        typealias H = HTMLPage
        var html =
            "<div class=\"lanes\" aria-label=\"Frame lanes on a time axis\">\n<div class=\"lane-legend\" aria-hidden=\"true\"></div>\n"
        html += "<div class=\"lane-body\"><div class=\"lane-labels\">"
        for lane in timedLanes {
            html += "<div class=\"lane-row\" data-lane=\"\(lane.identifier)\">\(lane.identifier)</div>"
        }
        for worker in laneWorkers {
            let name = threads.first { $0.key == worker }?.name ?? worker.description
            html +=
                "<div class=\"lane-row\" data-lane=\"background\" data-thread=\"\(UntrustedText.html(name))\">\(UntrustedText.html(name))</div>"
        }
        html += "</div><div class=\"lane-scroller\"><canvas class=\"lane-canvas\"></canvas></div></div>\n</div>\n"
        return html
    }

    /// The lanes drawn as rows of their own, in lane order: main always, then every other lane
    /// some frame has with a start and an end (render; Chrome's compositor, raster and gpu).
    /// Background work is drawn per worker instead.
    var timedLanes: [Lane] {
        let timed = Set(frames.flatMap { frame in frame.lanes.filter { $0.start != nil && $0.end != nil }.map(\.lane) })
        return Lane.allCases.filter { $0 == .main || ($0 != .background && timed.contains($0)) }
    }

    /// The lane view's data: times relative to the first vsync; `lanes` the timed lanes' names
    /// (one row each, in order), `causes` the hitch causes and `causeLane` each cause's lane
    /// (`null` for none and unknown); per frame `[vsync, wake-up end, presentation, cause,
    /// [[start, end, deadline] or null per timed lane]]` (`null` where unknown, cause an index
    /// into `causes`); per applied job `[worker row, start, end, applied at, applied frame]`.
    func laneJSON(start: Int64) -> String {
        func time(_ value: Int64?) -> String { value.map { String($0.subtractingSaturating(start)) } ?? "null" }
        let causes = HitchCause.allCases
        let drawn = timedLanes
        let workers = laneWorkers
        let rowOf = Dictionary(uniqueKeysWithValues: workers.enumerated().map { ($1, $0) })
        var json =
            "{\"lanes\":[" + drawn.map { HTMLPage.jsonString($0.identifier) }.joined(separator: ",") + "],\"causes\":["
        json += causes.map { HTMLPage.jsonString($0.identifier) }.joined(separator: ",") + "],\"causeLane\":["
        json += causes.map { $0.lane.map { HTMLPage.jsonString($0.identifier) } ?? "null" }.joined(separator: ",")
        json += "],\"workers\":\(workers.count),\"f\":["
        json += frames.map { frame in
            let timings = drawn.map { lane -> String in
                guard let timing = frame.lane(lane), let laneStart = timing.start, let laneEnd = timing.end else {
                    return "null"
                }
                return "[\(time(laneStart)),\(time(laneEnd)),\(time(timing.deadline))]"
            }
            // The wake-up is the loop's lateness: from the vsync to the start of the main lane when
            // that lane is the frame's own work (a Chrome stage starts when it was sent, not woken).
            let wake = frame.lane(.main)?.start == frame.workStart ? frame.workStart : nil
            return
                "[\(time(frame.vsync)),\(time(wake)),\(time(frame.presentation)),\(causes.firstIndex(of: frame.hitchCause) ?? 0),"
                + "[\(timings.joined(separator: ","))]]"
        }.joined(separator: ",")
        json += "],\"jobs\":["
        json += backgroundJobs.compactMap { job in
            guard let row = rowOf[job.thread] else { return nil }
            return "[\(row),\(time(job.start)),\(time(job.end)),\(time(job.appliedAt)),\(job.appliedFrame)]"
        }.joined(separator: ",")
        return json + "]}"
    }

    /// The categories drawn in their own colour: the largest main-thread ones.
    static let timelineCategoryCount = 8

    /// The timeline's data: P, the categories, and per frame `[vsync offset, main, overrun,
    /// missed vsyncs, outcome, [category index, ns, ...], [[span, ns], ...], duration, cause,
    /// wake-up, hold]` (hold: `[holding frame or -1, what held it]` or `null`), and for an Android
    /// frame its vsync id, jank and present types as a twelfth element; times in integer
    /// nanoseconds so the page formats them exactly as the text report does.
    func timelineJSON() -> String {
        let interval = method.frameRate.intervalNanoseconds
        var names = categories.filter { $0.mainNanoseconds > 0 }.prefix(Self.timelineCategoryCount).map(\.name)
        let known = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let other = names.count
        names.append(FrameReport.otherCategoriesLabel)
        let outcomes = ["measured", "presented", "partial", "dropped", "estimated"]
        let start = frames.first?.vsync ?? 0
        var json = "{\"p\":\(interval),\"categories\":["
        json += names.map { HTMLPage.jsonString(FrameAnalyzer.categoryLabel($0)) }.joined(separator: ",")
        json += "],\"outcomes\":[" + outcomes.map { HTMLPage.jsonString($0) }.joined(separator: ",") + "],\"frames\":["
        for (position, frame) in frames.enumerated() {
            if position > 0 { json += "," }
            let overrun = frame.overrun
            let missed = frame.missedVsyncs(interval: interval)
            var byIndex: [Int: Int64] = [:]
            for (name, nanoseconds) in frame.mainByCategory where nanoseconds > 0 {
                byIndex[known[name] ?? other, default: 0] = byIndex[known[name] ?? other, default: 0].addingSaturating(
                    nanoseconds)
            }
            let stack = byIndex.sorted { $0.key < $1.key }.map { "\($0.key),\($0.value)" }.joined(separator: ",")
            let spans = frame.topSpans.map { "[\(HTMLPage.jsonString($0.name)),\($0.nanoseconds)]" }.joined(
                separator: ",")
            json += "[\(frame.vsync.subtractingSaturating(start)),\(frame.mainThreadNanoseconds),\(overrun),\(missed),"
            json += "\(outcomes.firstIndex(of: frame.outcome.rawValue) ?? 0),[\(stack)],[\(spans)],\(frame.duration),"
            json +=
                "\(HitchCause.allCases.firstIndex(of: frame.hitchCause) ?? 0),\(frame.workStart.subtractingSaturating(frame.vsync)),"
            // What held a late frame: the holding frame (-1 for none) and the work, for the detail line.
            if let hold = frame.hitchHold {
                let what =
                    (hold.stage ?? "\(hold.lane.identifier) work") + " " + ReportFormat.milliseconds(hold.duration)
                    + (hold.workPhrase.isEmpty ? "" : ": " + hold.workPhrase)
                json += "[\(hold.frame ?? -1),\(HTMLPage.jsonString(what))]"
            } else {
                json += "null"
            }
            // Android's names for the frame, only where it has them: other reports' data is unchanged.
            if let android = frame.android {
                json += "," + HTMLPage.jsonString("vsync id \(android.token) · " + android.verdictPhrase)
            }
            json += "]"
        }
        return json + "],\"lanes\":\(laneJSON(start: start))}"
    }
}

/// The page around one or more HTML report sections: style and the timeline script, inline.
package enum HTMLPage {
    /// Beyond this many frames a bar stands for several frames (the worst of them), so a canvas
    /// stays within what browsers draw; below it, one bar per frame.
    package static let maximumBars = 15_000

    /// A complete page holding `sections` (from ``FrameReport/htmlSection(heading:id:)``).
    /// - Parameters:
    ///   - title: The page title and top heading.
    ///   - sections: The sections, in order.
    ///   - preamble: HTML placed under the heading, e.g. a table of every run.
    package static func document(title: String, sections: [String], preamble: String = "") -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n"
        html +=
            "<title>\(UntrustedText.html(title))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n<h1>\(UntrustedText.html(title))</h1>\n"
        html += preamble
        html += sections.joined()
        html += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return html
    }

    /// The page's Content-Security-Policy: its own inline script and style, named by their
    /// SHA-256, and nothing else — no other script (an injected `<script>` or `onerror` does not
    /// run), no inline style attribute, no network (no fetch, image, font, frame or form target).
    /// Escaping keeps untrusted names from becoming markup; this is the wall behind it.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'sha256-\(SHA256.base64Digest(of: "\n" + script))'; "
        + "style-src 'sha256-\(SHA256.base64Digest(of: "\n" + style))'; img-src 'none'; base-uri 'none'; form-action 'none'"

    /// A ``ReportTable`` as an HTML table with its title as caption: the same cells as the text report.
    package static func table(_ table: ReportTable) -> String {
        var html = "<div class=\"table\"><table>\n<caption>\(UntrustedText.html(table.title))</caption>\n<thead><tr>"
        for column in table.columns {
            // A heading of two lines (`late\nframes`) keeps its break: each line is escaped alone.
            let name = column.name.split(separator: "\n", omittingEmptySubsequences: false).map {
                UntrustedText.html(String($0))
            }
            .joined(separator: "<br>")
            html += column.alignment == .right ? "<th class=\"num\">\(name)</th>" : "<th>\(name)</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        let alignments = table.columns.map(\.alignment)
        for row in table.rows {
            html += "<tr>"
            for (index, cell) in row.enumerated() {
                html +=
                    index < alignments.count && alignments[index] == .right
                    ? "<td class=\"num\">\(UntrustedText.html(cell))</td>" : "<td>\(UntrustedText.html(cell))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    /// `text` as a JSON string literal that is also safe inside a `<script>` element.
    static func jsonString(_ text: String) -> String {
        JSONValue.string(text).description.replacingAll("<", with: "\\u003c")
    }

    /// The page's style: Rendering/Page/report.css, embedded at build time.
    static let style = String(decoding: PackageResources.report_css, as: UTF8.self)

    /// Colours of the categories the techniques move, and of the rows a report always has.
    static let categoryColors: [(String, String)] = [
        (TraceCategory.layout.name, "#0a84ff"), (TraceCategory.imageDecode.name, "#ff9f0a"),
        (TraceCategory.cornerRounding.name, "#bf5af2"), (TraceCategory.diffApply.name, "#30d158"),
        (FrameAnalyzer.unattributedCategory, "#aeaeb2"), (TraceCategory.input.name, "#ff375f"),
        (TraceCategory.other.name, "#8e8e93"),
        (FrameReport.otherCategoriesLabel, "#c7c7cc"),
    ]
    /// Colours of late work by hitch cause.
    static let causeColors: [(HitchCause, String)] = [
        (.commit, "#d70015"), (.render, "#af52de"), (.compositor, "#ff9500"), (.raster, "#a2845e"), (.gpu, "#0071e3"),
        (.displayHAL, "#30b0c7"), (.bufferStuffing, "#a2a2a7"), (.predictionError, "#ff2d92"),
        (.appDeadlineMissed, "#ff6482"), (.unknown, "#48484a"),
    ]
    /// Colours of the timed lanes.
    static let laneColors: [(Lane, String)] = [
        (.main, "#0a84ff"), (.render, "#64d2ff"), (.compositor, "#ffcc00"), (.raster, "#c7a17a"), (.gpu, "#5e5ce6"),
    ]

    /// A JavaScript object literal of string keys and values: their JSON object.
    static func javaScriptObject(_ pairs: [(String, String)]) -> String {
        JSONValue.object(pairs.map { ($0.0, .string($0.1)) }).description
    }

    /// Draws every `.timeline` from its JSON, then records what it drew in `data-bars`,
    /// `data-frames-per-bar`, `data-bar-width` and `data-drawn` for tests and tools:
    /// Rendering/Page/report.js, embedded at build time, with its placeholders filled in.
    static let script = fillPlaceholders(
        in: String(decoding: PackageResources.report_js, as: UTF8.self),
        [
            ("palette", "{}", javaScriptObject(categoryColors)),
            ("maxBars", "0", "\(maximumBars)"),
            ("causeColors", "{}", javaScriptObject(causeColors.map { ($0.identifier, $1) })),
            ("laneColors", "{}", javaScriptObject(laneColors.map { ($0.identifier, $1) })),
        ])

    /// `text` with each `/*@NAME*/DEFAULT` replaced by its value. Each placeholder is in the file
    /// once; a missing one is a build's mistake, caught by the first page any test renders.
    static func fillPlaceholders(in text: String, _ values: [(name: String, default: String, value: String)]) -> String
    {
        var text = text
        for (name, fallback, value) in values {
            let placeholder = "/*@\(name)*/\(fallback)"
            precondition(text.contains(placeholder), "report.js has no \(placeholder)")
            text = text.replacing(placeholder, with: value)
        }
        return text
    }
}
