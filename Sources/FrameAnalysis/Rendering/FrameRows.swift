package import FrameTrace

/// One row per frame, for engines that aggregate thousands of traces (DuckDB, ClickHouse):
/// schema `framescope.frames`, version ``version``.
///
/// Columns, in order: `schema`, `version`, `trace`, one `label_KEY` per label given
/// (`--label branch=main`), one `meta_KEY` per scalar in the trace's metadata (framescope's
/// scenario, strategy, seed, refresh-rate), `frame_source`, `frame_interval_ms` (the display period
/// the frame was judged at: its stretch's on a recording whose rate changed), `index`,
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
/// Rows are produced one at a time, so writing them holds nothing beyond the report. The table
/// (``table(_:trace:labels:metadata:)``) is one ``RowTable``; JSON Lines, CSV and Parquet render it.
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

    /// Writes one row per frame of `report`, each line handed to `emit` with its newline: the
    /// JSON Lines or CSV renderer of ``table(_:trace:labels:metadata:)``.
    /// - Parameters:
    ///   - report: The report.
    ///   - trace: What was analysed (a path).
    ///   - labels: Run labels (`branch`, `commit`, ...), as given on the command line.
    ///   - metadata: The trace's metadata; its scalar `extra` entries become `meta_` columns.
    ///   - format: JSON Lines or CSV.
    ///   - emit: Receives each line.
    /// - Complexity: O(frames × categories); one row in memory at a time.
    package static func write(
        _ report: FrameReport, trace: String, labels: [(key: String, value: String)], metadata: TraceMetadata,
        format: Format,
        to emit: (String) -> Void
    ) {
        let table = table(report, trace: trace, labels: labels, metadata: metadata)
        switch format {
        case .jsonLines: table.writeJSONLines(to: emit)
        case .csv: table.writeCSV(to: emit)
        }
    }

    /// The columns every table of one trace starts with: `trace`, one `label_KEY` per label,
    /// one `meta_KEY` per scalar of the trace's metadata (a repeated name is one column, the
    /// last value winning, as a JSON reader takes a repeated member, in the first one's place).
    /// - Parameter prefix: Columns before `trace` (`schema`, `version`).
    static func traceColumns(
        prefix: [(RowTable.Column, RowTable.Cell)], trace: String, labels: [(key: String, value: String)],
        metadata: TraceMetadata
    ) -> [(RowTable.Column, RowTable.Cell)] {
        var fixed = prefix + [(RowTable.Column("trace", .text), .text(trace))]
        fixed += labels.map { (RowTable.Column("label_\($0.key)", .text), .text($0.value)) }
        for argument in metadata.extra {
            let name = "meta_\(argument.key)"
            switch argument.value {
            case .int(let value): fixed.append((RowTable.Column(name, .integer), .integer(value)))
            case .string(let value): fixed.append((RowTable.Column(name, .text), .text(value)))
            case .double(let value):
                fixed.append(
                    value.isFinite
                        ? (RowTable.Column(name, .double), .double(value))
                        : (RowTable.Column(name, .text), .text(String(value))))
            case .bool(let value): fixed.append((RowTable.Column(name, .text), .text(value ? "true" : "false")))
            case .null, .array, .object: continue
            }
        }
        var columnOfName: [String: Int] = [:]
        return fixed.reduce(into: []) { columns, column in
            if let index = columnOfName[column.0.name] {
                columns[index] = column
            } else {
                columnOfName[column.0.name] = columns.count
                columns.append(column)
            }
        }
    }

    /// The frames table of `report`: its columns and one row per frame (see the type's
    /// discussion for the columns).
    /// - Parameters:
    ///   - report: The report.
    ///   - trace: What was analysed (a path).
    ///   - labels: Run labels, as given on the command line.
    ///   - metadata: The trace's metadata; its scalar `extra` entries become `meta_` columns.
    /// - Returns: The table, whose rows are built when a renderer asks for them.
    package static func table(
        _ report: FrameReport, trace: String, labels: [(key: String, value: String)], metadata: TraceMetadata
    ) -> RowTable {
        var fixed = traceColumns(
            prefix: [
                (RowTable.Column("schema", .text), .text(schema)),
                (RowTable.Column("version", .integer), .integer(Int64(version))),
            ],
            trace: trace, labels: labels, metadata: metadata)
        fixed.append((RowTable.Column("frame_source", .text), .text(report.method.frameSource.identifier)))
        fixed.append(
            (
                RowTable.Column("frame_interval_ms", .milliseconds),
                .milliseconds(report.method.frameRate.intervalNanoseconds)
            ))
        let categories = report.categories.filter { $0.mainNanoseconds > 0 }.map(\.name).sorted()
        let interval = report.method.frameRate.intervalNanoseconds
        // render_ms and background_ms always (empty where the trace has no such lane), then any
        // other lane the report has (Chrome's compositor, raster, gpu).
        let reportLanes = Set(report.lanes.map(\.lane))
        let laneColumns = Lane.allCases.filter {
            $0 != .main && ($0 == .render || $0 == .background || reportLanes.contains($0))
        }
        // Android's own strings and a stuffed frame's added latency, for traces with FrameTimeline.
        let isAndroid = report.summary.stuffedFrames != nil
        let columns =
            fixed.map(\.0) + frameColumns(isAndroid: isAndroid, laneColumns: laneColumns, categories: categories)
        let fixedCells = fixed.map(\.1)
        let intervalPosition = fixed.count - 1  // frame_interval_ms: the frame's own period where it has one
        let frames = report.frames
        return RowTable(
            schema: schema, version: version, description: columnsDescription, columns: columns, rowCount: frames.count
        ) { index in
            let frame = frames[index]
            var row = fixedCells
            if let period = frame.displayInterval { row[intervalPosition] = .milliseconds(period) }
            row += [
                .integer(Int64(frame.index)), .integer(frame.vsync), .integer(frame.deadline),
                .milliseconds(frame.mainThreadNanoseconds), .milliseconds(frame.overrun),
                .integer(frame.missedVsyncs(interval: interval)), .text(frame.outcome.rawValue),
                .text(frame.hitchCause.identifier),
                frame.hitchHold?.frame.map { .integer(Int64($0)) } ?? .null,
                frame.hitchStage.map(RowTable.Cell.text) ?? .null,
            ]
            if isAndroid { row += Self.androidCells(frame.android) }
            row += laneColumns.map { lane in
                reportLanes.contains(lane) ? .milliseconds(frame.lane(lane)?.costNanoseconds ?? 0) : .null
            }
            row.append(
                .millisecondsByName(
                    frame.mainByCategory.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map {
                        RowTable.MillisecondsEntry($0.key, $0.value)
                    }))
            return row
        }
    }

    /// The columns after the trace's: the frame's own, Android's where the trace has FrameTimeline,
    /// a lane's cost per lane, and main-thread time by category.
    private static func frameColumns(isAndroid: Bool, laneColumns: [Lane], categories: [String]) -> [RowTable.Column] {
        var columns = [
            RowTable.Column("index", .integer), RowTable.Column("vsync_ns", .integer),
            RowTable.Column("deadline_ns", .integer),
            RowTable.Column("main_ms", .milliseconds), RowTable.Column("overrun_ms", .milliseconds),
            RowTable.Column("missed_vsyncs", .integer),
            RowTable.Column("outcome", .text), RowTable.Column("hitch_cause", .text),
            RowTable.Column("held_by_frame", .integer, isNullable: true),
            RowTable.Column("hitch_stage", .text, isNullable: true),
        ]
        if isAndroid {
            columns += [
                RowTable.Column("frame_id", .integer, isNullable: true),
                RowTable.Column("jank_type", .text, isNullable: true),
                RowTable.Column("jank_tag", .text, isNullable: true),
                RowTable.Column("present_type", .text, isNullable: true),
                RowTable.Column("stuffing_latency_ms", .milliseconds, isNullable: true),
            ]
        }
        // Nullable whether or not this trace has the lane, so every trace's file has one schema.
        columns += laneColumns.map { RowTable.Column("\($0.identifier)_ms", .milliseconds, isNullable: true) }
        columns.append(
            RowTable.Column(
                "main_by_category_ms", .millisecondsByName,
                csvKeys: categories.map { (header: "category:\(FrameAnalyzer.categoryLabel($0))", key: $0) }))
        return columns
    }

    /// What the columns are, in a line, for Parquet's key-value metadata.
    static let columnsDescription = """
        One row per frame: schema, version, trace, label_KEY (--label), meta_KEY (trace metadata), frame_source, \
        frame_interval_ms (the frame's display period), index, vsync_ns, deadline_ns (trace clock), main_ms, overrun_ms (negative is headroom), \
        missed_vsyncs, outcome, hitch_cause, held_by_frame, hitch_stage, [Android: frame_id, jank_type, jank_tag, present_type, \
        stuffing_latency_ms], LANE_ms per lane, main_by_category_ms (map). *_ms are exact: DECIMAL(18,6) of the nanoseconds.
        """

    /// Nanoseconds as milliseconds with six decimals, exactly (no floating point): `-1.500000`.
    static func exactMilliseconds(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        var fraction = String(magnitude % 1_000_000)
        while fraction.count < 6 { fraction = "0" + fraction }
        return (nanoseconds < 0 ? "-" : "") + String(magnitude / 1_000_000) + "." + fraction
    }

    /// The Android columns of one frame: its vsync id, trace processor's strings, and the added latency of a
    /// stuffed frame (`null` for any other).
    private static func androidCells(_ android: AndroidFrame?) -> [RowTable.Cell] {
        [
            android.map { .integer($0.token) } ?? .null,
            android.map { .text($0.jankType) } ?? .null, android.map { .text($0.jankTag) } ?? .null,
            android.map { .text($0.presentType) } ?? .null,
            android.flatMap { $0.isStuffed ? .milliseconds($0.lateness) : nil } ?? .null,
        ]
    }
}
