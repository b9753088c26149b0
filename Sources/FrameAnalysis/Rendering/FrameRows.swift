package import FrameTrace

/// One row per frame, for engines that aggregate thousands of traces (DuckDB, ClickHouse):
/// schema `framescope.frames`, version ``version``.
///
/// Columns, in order: `schema`, `version`, `trace`, one `label_KEY` per label given
/// (`--label branch=main`), one `meta_KEY` per scalar in the trace's metadata (framescope's
/// scenario, strategy, seed, refresh-rate), `frame_source`, `frame_interval_ms`, `index`,
/// `vsync_ns` and `deadline_ns` (integer nanoseconds on the trace's clock), `main_ms`,
/// `overrun_ms` (negative is headroom), `missed_vsyncs`, `outcome`, `hitch_cause`,
/// `held_by_frame` (the index of the frame whose work held a late frame: itself, an earlier
/// one, or empty/`null` when none of the report's frames), `hitch_stage` (the holding work: a
/// Chrome stage or a long task's name; empty/`null` otherwise), one `LANE_ms`
/// per lane other than main (`render_ms` and `background_ms` always, empty or `null` when the
/// trace has no such lane; Chrome's `compositor_ms`, `raster_ms`, `gpu_ms` when present), then the main-thread
/// milliseconds per category: in JSON Lines one object `main_by_category_ms`, in CSV one column
/// `category:NAME` per category of the report (`category:(none)` for the empty name; 0 where a
/// frame had none). Milliseconds are
/// exact: the nanoseconds with six decimals.
///
/// Rows are produced one at a time, so writing them holds nothing beyond the report.
package enum FrameRows {
    /// The schema name in every row.
    package static let schema = "framescope.frames"
    /// The schema version in every row.
    package static let version = 1

    /// How rows are written.
    package enum Format: Sendable {
        /// One JSON object per line.
        case jsonLines
        /// RFC 4180 CSV with a header line.
        case csv
    }

    /// Writes one row per frame of `report`, each line handed to `emit` with its newline.
    /// - Parameters:
    ///   - report: The report.
    ///   - trace: What was analysed (a path).
    ///   - labels: Run labels (`branch`, `commit`, ...), as given on the command line.
    ///   - metadata: The trace's metadata; its scalar `extra` entries become `meta_` columns.
    ///   - format: JSON Lines or CSV.
    ///   - emit: Receives each line.
    /// - Complexity: O(frames × categories); one row in memory at a time.
    package static func write(
        _ report: FrameReport, trace: String, labels: [(key: String, value: String)], metadata: TraceMetadata, format: Format,
        to emit: (String) -> Void
    ) {
        var fixed: [(String, Cell)] = [("schema", .text(schema)), ("version", .integer(Int64(version))), ("trace", .text(trace))]
        fixed += labels.map { ("label_\($0.key)", .text($0.value)) }
        for argument in metadata.extra {
            switch argument.value {
            case .int(let value): fixed.append(("meta_\(argument.key)", .integer(value)))
            case .string(let value): fixed.append(("meta_\(argument.key)", .text(value)))
            case .double(let value): fixed.append(("meta_\(argument.key)", value.isFinite ? .decimal(String(value)) : .text(String(value))))
            case .bool(let value): fixed.append(("meta_\(argument.key)", .text(value ? "true" : "false")))
            case .null, .array, .object: continue
            }
        }
        // A trace can repeat a metadata key: one column per name, the last value winning (as a
        // JSON reader takes a repeated member), never two columns of one name.
        var columnOfName: [String: Int] = [:]
        fixed = fixed.reduce(into: []) { columns, column in
            if let index = columnOfName[column.0] {
                columns[index] = column
            } else {
                columnOfName[column.0] = columns.count
                columns.append(column)
            }
        }
        fixed.append(("frame_source", .text(report.method.frameSource.identifier)))
        fixed.append(("frame_interval_ms", .milliseconds(report.method.frameRate.intervalNanoseconds)))
        let categories = report.categories.filter { $0.mainNanoseconds > 0 }.map(\.name).sorted()
        let interval = report.method.frameRate.intervalNanoseconds
        // render_ms and background_ms always (empty where the trace has no such lane), then any
        // other lane the report has (Chrome's compositor, raster, gpu).
        let reportLanes = Set(report.lanes.map(\.lane))
        let laneColumns = Lane.allCases.filter { $0 != .main && ($0 == .render || $0 == .background || reportLanes.contains($0)) }
        // Android's own strings and a stuffed frame's added latency, for traces with FrameTimeline.
        let isAndroid = report.summary.stuffedFrames != nil
        let androidColumns = isAndroid ? ["jank_type", "jank_tag", "present_type", "stuffing_latency_ms"] : []
        if format == .csv {
            let header = fixed.map(\.0) + ["index", "vsync_ns", "deadline_ns", "main_ms", "overrun_ms", "missed_vsyncs", "outcome", "hitch_cause", "held_by_frame", "hitch_stage"]
                + androidColumns + laneColumns.map { "\($0.identifier)_ms" } + categories.map { "category:\(FrameAnalyzer.categoryLabel($0))" }
            emit(header.map(UntrustedText.csvField).joined(separator: ",") + "\n")
        }
        for frame in report.frames {
            let overrun = frame.overrun
            let missed = frame.missedVsyncs(interval: interval)
            let row: [(String, Cell)] = fixed + [
                ("index", .integer(Int64(frame.index))), ("vsync_ns", .integer(frame.vsync)), ("deadline_ns", .integer(frame.deadline)),
                ("main_ms", .milliseconds(frame.mainThreadNanoseconds)), ("overrun_ms", .milliseconds(overrun)),
                ("missed_vsyncs", .integer(missed)), ("outcome", .text(frame.outcome.rawValue)),
                ("hitch_cause", .text(frame.hitchCause.identifier)),
                ("held_by_frame", frame.hitchHold?.frame.map { .integer(Int64($0)) } ?? .null),
                ("hitch_stage", frame.hitchStage.map(Cell.text) ?? .null),
            ] + (isAndroid ? Self.androidCells(frame.android) : []) + laneColumns.map { lane in
                ("\(lane.identifier)_ms", reportLanes.contains(lane) ? .milliseconds(frame.lane(lane)?.costNanoseconds ?? 0) : .null)
            }
            switch format {
            case .jsonLines:
                var line = "{" + row.map { "\(JSONValue.string($0.0).description):\($0.1.json)" }.joined(separator: ",")
                line += ",\"main_by_category_ms\":{"
                line += frame.mainByCategory.filter { $0.value > 0 }.sorted { $0.key < $1.key }
                    .map { "\(JSONValue.string($0.key).description):\(Cell.milliseconds($0.value).json)" }.joined(separator: ",")
                emit(line + "}}\n")
            case .csv:
                let cells = row.map(\.1.text) + categories.map { Cell.milliseconds(frame.mainByCategory[$0] ?? 0).text }
                emit(cells.map(UntrustedText.csvField).joined(separator: ",") + "\n")
            }
        }
    }

    enum Cell {
        case text(String)
        case integer(Int64)
        case decimal(String)
        case milliseconds(Int64)
        /// No value: an empty CSV field, JSON `null`.
        case null

        var text: String {
            switch self {
            case .null: ""
            case .text(let value): value
            case .integer(let value): String(value)
            case .decimal(let value): value
            case .milliseconds(let nanoseconds): FrameRows.exactMilliseconds(nanoseconds)
            }
        }

        var json: String {
            if case .text(let value) = self { return JSONValue.string(value).description }
            if case .null = self { return "null" }
            return text
        }
    }

    /// Nanoseconds as milliseconds with six decimals, exactly (no floating point): `-1.500000`.
    static func exactMilliseconds(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        var fraction = String(magnitude % 1_000_000)
        while fraction.count < 6 { fraction = "0" + fraction }
        return (nanoseconds < 0 ? "-" : "") + String(magnitude / 1_000_000) + "." + fraction
    }

    /// The Android columns of one frame: trace processor's strings, and the added latency of a
    /// stuffed frame (`null` for any other).
    private static func androidCells(_ android: AndroidFrame?) -> [(String, Cell)] {
        [
            ("jank_type", android.map { .text($0.jankType) } ?? .null), ("jank_tag", android.map { .text($0.jankTag) } ?? .null),
            ("present_type", android.map { .text($0.presentType) } ?? .null),
            ("stuffing_latency_ms", android.flatMap { $0.isStuffed ? .milliseconds($0.lateness) : nil } ?? .null),
        ]
    }
}
