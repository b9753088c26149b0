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

    static let style = """
        :root { color-scheme: light; --fg: #1d1d1f; --muted: #6e6e73; --grid: #d2d2d7; --late: #d70015; --partial: #f5a623; }
        body { font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
               color: var(--fg); margin: 24px; max-width: 1400px; }
        h1 { font-size: 20px; margin: 0 0 12px; } h2 { font-size: 17px; margin: 28px 0 6px; word-break: break-all; }
        section.run { border-top: 1px solid var(--grid); padding-top: 4px; }
        p.source { margin: 4px 0; color: var(--muted); } p.source strong { color: var(--fg); }
        .band { font-weight: 600; } .band.good { color: #1a7f37; } .band.warning { color: #9a6700; } .band.critical { color: var(--late); }
        .timeline { position: relative; margin: 10px 0 16px; }
        .scroller { overflow-x: auto; border: 1px solid var(--grid); border-radius: 4px; }
        canvas { display: block; } canvas:focus { outline: 2px solid #0071e3; outline-offset: -2px; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; margin-bottom: 4px; color: var(--muted); }
        .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; }
        .tooltip { position: absolute; z-index: 2; background: #fff; border: 1px solid #86868b; border-radius: 6px; padding: 6px 9px;
                   font-size: 12px; box-shadow: 0 2px 10px rgba(0,0,0,.15); pointer-events: none; white-space: nowrap; }
        .tooltip b { font-size: 13px; } .tooltip .late { color: var(--late); font-weight: 600; }
        table { border-collapse: collapse; margin: 10px 0 14px; font-size: 13px; }
        caption { text-align: left; font-weight: 600; padding: 4px 0; }
        th, td { padding: 3px 10px; border-bottom: 1px solid #e8e8ed; text-align: left; vertical-align: top; }
        th { font-weight: 600; color: var(--muted); border-bottom-color: var(--grid); }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td { max-width: 520px; overflow-wrap: break-word; } div.table { overflow-x: auto; }
        .lanes { margin: 8px 0 0; } .lane-legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: var(--muted); margin-bottom: 4px; }
        .lane-legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; }
        .lane-body { display: flex; border: 1px solid var(--grid); border-radius: 4px; }
        .lane-labels { flex: none; width: 92px; border-right: 1px solid var(--grid); font-size: 12px; padding-top: 14px; }
        .lane-row { height: 24px; line-height: 24px; padding: 0 6px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .lane-scroller { overflow-x: auto; flex: 1; }
        .legend i.line { height: 2px; } .lane-legend i.bar { width: 2px; } .lane-legend i.wake { background: #f2f2f7; border: 1px solid #d2d2d7; }
        .outline { display: inline-block; width: 8px; height: 8px; border: 1px solid #3a3a3c; margin-right: 4px; vertical-align: -1px; }

        """

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
    /// `data-frames-per-bar`, `data-bar-width` and `data-drawn` for tests and tools.
    static let script = """
        "use strict";
        (function () {
          const palette = \(javaScriptObject(categoryColors));
          const spare = ["#64d2ff", "#5e5ce6", "#ac8e68", "#ffd60a", "#66d4cf", "#ff6482", "#32ade6", "#a2845e"];
          const maxBars = \(maximumBars);
          function ms(ns) {  // as the text report: two decimals, half away from zero
            const sign = ns < 0 ? "-" : "";
            const scaled = Math.round(Math.abs(ns) / 1e6 * 100);
            if (scaled === 0) return "0.00 ms";
            return sign + Math.floor(scaled / 100) + "." + String(scaled % 100).padStart(2, "0") + " ms";
          }
          const causeColors = \(javaScriptObject(causeColors.map { ($0.identifier, $1) }));
          function causeColor(cause) { return causeColors[cause] || "#d70015"; }
          // The page's policy allows no inline style attribute: swatches get their colour here.
          function paint(element) { for (const i of element.querySelectorAll("i[data-swatch]")) i.style.background = i.dataset.swatch; }
          function esc(text) { return String(text).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\\"": "&quot;" })[c]); }
          function setup(root) {
            const data = JSON.parse(root.querySelector("script.frame-data").textContent);
            const frames = data.frames, p = data.p, n = frames.length;
            const colors = data.categories.map((name, i) => palette[name] || spare[i % spare.length]);
            const legend = root.querySelector(".legend");
            // Only the causes this trace's late frames have: a simulated run never has Chrome's stages.
            const lateCauses = [...new Set(frames.filter(f => f[3] > 0).map(f => data.lanes.causes[f[8]]))];
            legend.innerHTML = data.categories.map((name, i) => "<span><i data-swatch=\\"" + esc(colors[i]) + "\\"></i>" + esc(name) + "</span>").join("")
              + "<span><i class=\\"line\\" data-swatch=\\"#000\\"></i>budget P = " + esc(ms(p)) + "</span>"
              + "<span><i class=\\"outline\\"></i>frame duration, vsync to commit</span>"
              + (lateCauses.length === 0 ? "" : "<span>late frame: one tile per missed vsync, coloured by cause: "
                + lateCauses.map(c => "<i data-swatch=\\"" + esc(causeColor(c)) + "\\"></i>" + esc(c)).join(" ") + "</span>");
            paint(legend);
            const canvas = root.querySelector("canvas"), scroller = root.querySelector(".scroller"), tip = root.querySelector(".tooltip");
            const perBar = Math.max(1, Math.ceil(n / maxBars));
            const bars = Math.ceil(n / perBar);
            const available = Math.max(300, scroller.clientWidth - 2);
            const barWidth = Math.min(24, Math.max(2, Math.floor(available / Math.max(1, bars))));
            // The bar for a group of frames shows its worst frame: the largest overrun, then cost.
            const shown = [];
            for (let b = 0; b < bars; b++) {
              let best = b * perBar;
              for (let i = best + 1; i < Math.min(n, (b + 1) * perBar); i++) {
                if (frames[i][2] > frames[best][2] || (frames[i][2] === frames[best][2] && frames[i][1] > frames[best][1])) best = i;
              }
              shown.push(best);
            }
            let maxMain = 0;
            for (const f of frames) maxMain = Math.max(maxMain, f[1]);
            const yMax = Math.max(1.5 * p, Math.min(maxMain, 4 * p)) * 1.05;
            const plot = 190, lane = 26, top = 8, height = top + plot + lane, width = Math.max(available, bars * barWidth);
            const ratio = window.devicePixelRatio || 1;
            canvas.width = Math.ceil(width * ratio); canvas.height = Math.ceil(height * ratio);
            canvas.style.width = width + "px"; canvas.style.height = height + "px";
            const y = v => top + plot - Math.min(v, yMax) / yMax * plot;
            let selected = -1;
            function draw() {
              const g = canvas.getContext("2d");
              g.setTransform(ratio, 0, 0, ratio, 0, 0);
              g.clearRect(0, 0, width, height);
              g.fillStyle = "#fff"; g.fillRect(0, 0, width, height);
              const gap = barWidth >= 4 ? 1 : 0;
              for (let b = 0; b < bars; b++) {
                const f = frames[shown[b]], x = b * barWidth;
                let base = 0;
                const stack = f[5];
                for (let k = 0; k < stack.length; k += 2) {
                  const y0 = y(base), y1 = y(base + stack[k + 1]);
                  g.fillStyle = colors[stack[k]];
                  g.fillRect(x, y1, barWidth - gap, Math.max(0, y0 - y1));
                  base += stack[k + 1];
                }
                if (f[1] > yMax) { g.fillStyle = "#000"; g.fillRect(x, top - 6, barWidth - gap, 3); }  // clipped: cost beyond the scale
                if (barWidth >= 4 && f[7] > f[1]) {  // the frame's duration, when longer than its main-thread work
                  g.strokeStyle = "#3a3a3c"; g.lineWidth = 1;
                  g.strokeRect(x + 0.5, Math.round(y(f[7])) + 0.5, barWidth - gap - 1, Math.max(0, top + plot - Math.round(y(f[7])) - 1));
                }
                const late = f[3] > 0, outcome = data.outcomes[f[4]];
                if (late || outcome === "partial") {
                  g.fillStyle = outcome === "partial" && !late ? "#f5a623" : causeColor(data.lanes.causes[f[8]]);
                  const tiles = Math.min(f[3], 5);
                  for (let t = 0; t < Math.max(1, tiles); t++) g.fillRect(x, top + plot + 3 + t * 4, barWidth - gap, 3);
                  if (f[3] > 5) g.fillRect(x, top + plot + 23, barWidth - gap, 1);
                }
              }
              g.strokeStyle = "#000"; g.lineWidth = 1; g.setLineDash([5, 3]);
              g.beginPath(); g.moveTo(0, Math.round(y(p)) + 0.5); g.lineTo(width, Math.round(y(p)) + 0.5); g.stroke();
              g.setLineDash([]); g.strokeStyle = "#d2d2d7";
              g.beginPath(); g.moveTo(0, top + plot + 0.5); g.lineTo(width, top + plot + 0.5); g.stroke();
              g.font = "11px sans-serif";
              const label = "budget P " + ms(p), labelX = scroller.scrollLeft + 4, labelY = Math.round(y(p)) - 4;
              g.fillStyle = "rgba(255,255,255,0.85)"; g.fillRect(labelX - 2, labelY - 11, g.measureText(label).width + 4, 14);
              g.fillStyle = "#000"; g.fillText(label, labelX, labelY);
              g.fillStyle = "#6e6e73"; g.fillText("top of scale " + ms(yMax), labelX, top + 10);
              if (selected >= 0) {
                g.strokeStyle = "#0071e3"; g.lineWidth = 2;
                g.strokeRect(selected * barWidth + 1, top, Math.max(1, barWidth - 2), plot + lane - 2);
              }
            }
            function describe(i) {
              const f = frames[i];
              const late = f[3] > 0;
              let html = "<b>Frame #" + i + "</b> · vsync at " + esc(ms(f[0])) + " · " + esc(data.outcomes[f[4]]) + "<br>"
                + "main thread " + esc(ms(f[1])) + " of " + esc(ms(p)) + " budget · duration " + esc(ms(f[7])) + " (vsync to commit)<br>"
                + (f[9] > 0 ? "wake-up " + esc(ms(f[9])) + " from vsync to the work's start (the loop's, not the app's work)<br>" : "")
                + (late ? "<span class=\\"late\\">late (" + esc(data.lanes.causes[f[8]]) + "): overrun " + esc(ms(f[2])) + ", missed vsyncs " + f[3] + "</span>"
                        : "on time: overrun " + esc(ms(f[2])) + ", missed vsyncs 0");
              const stack = [];
              for (let k = 0; k < f[5].length; k += 2) stack.push([data.categories[f[5][k]], f[5][k + 1]]);
              stack.sort((a, b) => b[1] - a[1]);
              if (stack.length) html += "<br>categories: " + stack.slice(0, 4).map(s => esc(s[0]) + " " + esc(ms(s[1]))).join(", ");
              if (f[6].length) html += "<br>top spans: " + f[6].map(s => esc(s[0]) + " " + esc(ms(s[1]))).join(", ");
              if (late && f[10]) {
                html += "<br>held by " + (f[10][0] >= 0 && f[10][0] !== i
                    ? "<a href=\\"#\\" class=\\"held-by\\" data-frame=\\"" + f[10][0] + "\\">frame #" + f[10][0] + "</a>, "
                    : (f[10][0] === i ? "its own " : "")) + esc(f[10][1]);
              }
              if (f[11]) html += "<br>" + esc(f[11]);
              if (perBar > 1) html += "<br>(the worst of frames #" + (Math.floor(i / perBar) * perBar) + "–#" + Math.min(n - 1, (Math.floor(i / perBar) + 1) * perBar - 1) + ")";
              return html;
            }
            tip.addEventListener("click", event => {
              const link = event.target.closest && event.target.closest("a.held-by");
              if (!link) return;
              event.preventDefault();
              const j = Number(link.dataset.frame), at = shown.indexOf(j);
              show(at >= 0 ? at : Math.floor(j / perBar));
            });
            function show(bar) {
              if (bar < 0 || bar >= bars) { tip.hidden = true; return; }
              selected = bar; draw();
              const i = shown[bar];
              tip.innerHTML = describe(i);
              tip.dataset.frame = String(i);
              tip.hidden = false;
              const x = bar * barWidth - scroller.scrollLeft + scroller.offsetLeft + barWidth + 8;
              const maxX = root.clientWidth - tip.offsetWidth - 4;
              tip.style.left = Math.max(0, x > maxX ? x - tip.offsetWidth - barWidth - 16 : x) + "px";
              tip.style.top = (scroller.offsetTop + 12) + "px";
            }
            canvas.addEventListener("mousemove", e => {
              const rect = canvas.getBoundingClientRect();
              show(Math.floor((e.clientX - rect.left) / barWidth));
            });
            canvas.addEventListener("mouseleave", () => { if (document.activeElement !== canvas) { selected = -1; tip.hidden = true; draw(); } });
            canvas.addEventListener("focus", () => show(selected >= 0 ? selected : 0));
            canvas.addEventListener("blur", () => { selected = -1; tip.hidden = true; draw(); });
            canvas.addEventListener("keydown", e => {
              let next = selected;
              if (e.key === "ArrowRight") next = Math.min(bars - 1, selected + 1);
              else if (e.key === "ArrowLeft") next = Math.max(0, selected - 1);
              else if (e.key === "Home") next = 0;
              else if (e.key === "End") next = bars - 1;
              else if (e.key === "n" || e.key === "N") {
                for (let b = selected + 1; b < bars; b++) if (frames[shown[b]][2] > 0) { next = b; break; }
              } else return;
              e.preventDefault();
              const left = next * barWidth;
              if (left < scroller.scrollLeft || left + barWidth > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = left - scroller.clientWidth / 2;
              show(next);
            });
            scroller.addEventListener("scroll", () => draw());
            draw();
            drawLanes(root, data);
            root.dataset.bars = String(bars);
            root.dataset.framesPerBar = String(perBar);
            root.dataset.barWidth = String(barWidth);
            root.dataset.drawn = "true";
          }
          // The lanes on a time axis: main (wake-up hatched, work, commit deadline), render (work,
          // render deadline, presentation), one row per worker (jobs, with a line to the frame
          // that applied each result). Late work is coloured by its cause.
          function drawLanes(root, data) {
            const lanes = data.lanes, canvas = root.querySelector(".lane-canvas");
            if (!canvas) return;
            const f = lanes.f, drawn = lanes.lanes, rows = drawn.length + lanes.workers, rowH = 24, head = 14;
            const laneColors = \(javaScriptObject(laneColors.map { ($0.identifier, $1) }));
            let end = 0;
            for (const x of f) {
              end = Math.max(end, x[2] || 0);
              for (const t of x[4]) if (t) end = Math.max(end, t[1], t[2] === null ? 0 : t[2]);
            }
            for (const j of lanes.jobs) end = Math.max(end, j[2], j[3]);
            const scroller = root.querySelector(".lane-scroller");
            const available = Math.max(300, scroller.clientWidth - 2);
            const pxPerMs = Math.max(available / Math.max(1, end / 1e6), Math.min(8, 32000 / Math.max(1, end / 1e6)));
            const width = Math.ceil(Math.max(available, end / 1e6 * pxPerMs + 10)), height = head + rows * rowH;
            const ratio = window.devicePixelRatio || 1;
            canvas.width = Math.ceil(width * ratio); canvas.height = Math.ceil(height * ratio);
            canvas.style.width = width + "px"; canvas.style.height = height + "px";
            const g = canvas.getContext("2d");
            g.setTransform(ratio, 0, 0, ratio, 0, 0);
            g.fillStyle = "#fff"; g.fillRect(0, 0, width, height);
            const X = t => 4 + t / 1e6 * pxPerMs;
            const rowY = r => head + r * rowH;
            g.strokeStyle = "#e8e8ed"; g.lineWidth = 1;
            for (const x of f) { g.beginPath(); g.moveTo(Math.round(X(x[0])) + 0.5, head); g.lineTo(Math.round(X(x[0])) + 0.5, height); g.stroke(); }
            g.fillStyle = "#6e6e73"; g.font = "10px sans-serif";
            for (let i = 0; i < f.length; i += Math.max(1, Math.ceil(60 / Math.max(1, pxPerMs * data.p / 1e6)))) g.fillText("#" + i, X(f[i][0]) + 2, 10);
            function box(r, a, b, color) { g.fillStyle = color; g.fillRect(X(a), rowY(r) + 5, Math.max(1, X(b) - X(a)), rowH - 10); }
            function tick(r, t, color) { g.fillStyle = color; g.fillRect(Math.round(X(t)), rowY(r) + 2, 2, rowH - 4); }
            const renderRow = drawn.indexOf("\(Lane.render.identifier)"), presentRow = renderRow >= 0 ? renderRow : drawn.length - 1;
            for (const x of f) {
              const late = lanes.causeLane[x[3]];
              if (x[1] !== null && x[1] > x[0]) {  // wake-up: the loop's lateness, not the app's work
                g.fillStyle = "#f2f2f7"; g.fillRect(X(x[0]), rowY(0) + 8, Math.max(1, X(x[1]) - X(x[0])), rowH - 16);
              }
              x[4].forEach((t, r) => {
                if (!t) return;
                box(r, t[0], t[1], late === drawn[r] ? causeColor(lanes.causes[x[3]]) : (laneColors[drawn[r]] || "#8e8e93"));
                if (t[2] !== null) tick(r, t[2], "#1d1d1f");
              });
              if (x[2] !== null) {
                const y = rowY(presentRow) + rowH;
                g.fillStyle = "#1a7f37"; g.beginPath(); g.moveTo(X(x[2]), y - 3); g.lineTo(X(x[2]) - 4, y + 3); g.lineTo(X(x[2]) + 4, y + 3); g.fill();
              }
            }
            const first = drawn.length;
            for (const j of lanes.jobs) {
              const r = first + j[0];
              box(r, j[1], j[2], "#ff9f0a");
              g.strokeStyle = "rgba(60,60,67,0.55)"; g.lineWidth = 1;
              g.beginPath(); g.moveTo(X(j[2]), rowY(r) + rowH / 2); g.lineTo(X(j[3]), rowY(0) + rowH / 2); g.stroke();
            }
            root.querySelector(".lane-legend").innerHTML = (f.some(x => x[1] !== null && x[1] > x[0]) ? "<span><i class=\\"wake\\"></i>wake-up: vsync to work start</span>" : "")
              + drawn.map(l => "<span><i data-swatch=\\"" + esc(laneColors[l] || "#8e8e93") + "\\"></i>" + esc(l === "\(Lane.main.identifier)" ? "\(Lane.main.identifier): work to commit" : l) + "</span>").join("")
              + (f.some(x => x[2] !== null) ? "<span>▲ presented</span>" : "")
              + (lanes.workers ? "<span><i data-swatch=\\"#ff9f0a\\"></i>background job, line to the frame that applied it</span>" : "")
              + "<span><i class=\\"bar\\" data-swatch=\\"#1d1d1f\\"></i>deadline</span>"
              + "<span>late lane in its cause colour</span><span>" + esc(pxPerMs.toFixed(2)) + " px per ms</span>";
            paint(root.querySelector(".lane-legend"));
            root.dataset.laneRows = String(rows);
          }
          for (const root of document.querySelectorAll(".timeline")) setup(root);
          document.body.dataset.timelines = String(document.querySelectorAll(".timeline[data-drawn=true]").length);
        })();

        """
}
