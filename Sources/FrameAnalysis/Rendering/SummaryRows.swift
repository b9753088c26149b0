package import FrameTrace

/// One row per trace, for fleet jobs that pool many runs: schema `framescope.summary`,
/// version ``version``. The report's summary figures (named as in `report --format json`'s
/// `summary`, `-` as `_`, nanoseconds as exact `_ms`) beside the trace's labels and metadata.
///
/// Columns, in order: `schema`, `version`, `trace`, `label_KEY`..., `meta_KEY`... (as in
/// ``FrameRows``), `frame_source`, `frame_interval_ms`, `frames`, `late_frames`, `slow_frames`,
/// `frozen_frames`, `missed_vsyncs`, `hitch_ms`, `measured_ms`, `hitch_time_ratio_ms_per_s`,
/// `hitch_band`, `frame_delay_s`, `main_outside_frames_ms`, `dropped_frames`, `partial_frames`,
/// `dropped_frames_affecting_smoothness`, `chrome_dropped_frame_events`, `stuffed_frames`,
/// `background_in_frames_ms`, `background_outside_frames_ms`, `hitch_ms_by_cause` (a map, cause to
/// milliseconds), then `main_thread_cost_{p50,p90,p95,p99,max,total}_ms`,
/// `overrun_{...}_ms` and `LANE_cost_{...}_ms` for every lane (null where the trace has none).
///
/// Pooled over traces: frames = Σ frames, late share = Σ late_frames / Σ frames, slow share =
/// Σ slow_frames / Σ frames, hitch time ratio = Σ hitch_ms / Σ measured_ms × 1000 (ms per s).
package enum SummaryRows {
    /// The schema name.
    package static let schema = "framescope.summary"
    /// The schema version.
    package static let version = 1

    /// The summary table of `report`: one row.
    /// - Parameters:
    ///   - report: The report.
    ///   - trace: What was analysed (a path).
    ///   - labels: Run labels, as given on the command line.
    ///   - metadata: The trace's metadata; its scalar `extra` entries become `meta_` columns.
    /// - Returns: The table.
    package static func table(
        _ report: FrameReport, trace: String, labels: [(key: String, value: String)], metadata: TraceMetadata
    ) -> RowTable {
        var cells = SummaryCells(
            list: FrameRows.traceColumns(
                prefix: [
                    (RowTable.Column("schema", .text), .text(schema)),
                    (RowTable.Column("version", .integer), .integer(Int64(version))),
                ],
                trace: trace, labels: labels, metadata: metadata))
        cells.appendFrameFigures(of: report)
        cells.appendPlatformCounts(of: report.summary)
        cells.appendHitchCauses(of: report.summary)
        cells.percentiles("main_thread_cost", report.summary.mainThreadCost)
        cells.percentiles("overrun", report.summary.overrun)
        for lane in Lane.allCases {
            cells.percentiles("\(lane.identifier)_cost", report.lanes.first { $0.lane == lane }?.cost)
        }
        let row = cells.list.map(\.1)
        return RowTable(
            schema: schema, version: version, description: columnsDescription, columns: cells.list.map(\.0),
            rowCount: 1
        ) { _ in row }
    }

    /// What the columns are, in a line, for Parquet's key-value metadata.
    static let columnsDescription = """
        One row per trace: schema, version, trace, label_KEY, meta_KEY, frame_source, frame_interval_ms, then report \
        --format json's summary (frames, late_frames, slow_frames, frozen_frames, missed_vsyncs, hitch_ms, measured_ms, \
        hitch_time_ratio_ms_per_s, ..., hitch_ms_by_cause map) and {main_thread_cost,overrun,LANE_cost}_{p50,p90,p95,p99,max,total}_ms. \
        *_ms are exact: DECIMAL(18,6) of the nanoseconds. Pool: sum(hitch_ms)/sum(measured_ms).
        """
}

/// The summary row's cells as they are added, column and value, in the schema's order.
private struct SummaryCells {
    var list: [(RowTable.Column, RowTable.Cell)]

    mutating func count(_ name: String, _ value: Int?) {
        list.append(
            (RowTable.Column(name, .integer, isNullable: value == nil), value.map { .integer(Int64($0)) } ?? .null))
    }

    mutating func milliseconds(_ name: String, _ value: Int64) {
        list.append((RowTable.Column(name, .milliseconds), .milliseconds(value)))
    }

    mutating func double(_ name: String, _ value: Double) {
        // NaN or an infinity cannot be a JSON number: null, as report --format json writes it.
        list.append((RowTable.Column(name, .double, isNullable: true), value.isFinite ? .double(value) : .null))
    }

    /// `PREFIX_{p50,p90,p95,p99,max,total}_ms`, null when there were no values.
    mutating func percentiles(_ prefix: String, _ figures: PercentileSummary<Int64>?) {
        let percentiles: [(String, (PercentileSummary<Int64>) -> Int64)] = [
            ("p50", \.p50), ("p90", \.p90), ("p95", \.p95), ("p99", \.p99), ("max", \.max), ("total", \.total),
        ]
        for (name, value) in percentiles {
            list.append(
                (
                    RowTable.Column("\(prefix)_\(name)_ms", .milliseconds, isNullable: true),
                    figures.map { .milliseconds(value($0)) } ?? .null
                ))
        }
    }

    /// The frame source and interval, then the frame counts, hitch time and the time outside frames.
    mutating func appendFrameFigures(of report: FrameReport) {
        let summary = report.summary
        list.append((RowTable.Column("frame_source", .text), .text(report.method.frameSource.identifier)))
        milliseconds("frame_interval_ms", report.method.frameRate.intervalNanoseconds)
        count("frames", summary.frameCount)
        count("late_frames", summary.lateFrames)
        count("slow_frames", summary.slowFrames)
        count("frozen_frames", summary.frozenFrames)
        list.append((RowTable.Column("missed_vsyncs", .integer), .integer(summary.missedVsyncs)))
        milliseconds("hitch_ms", summary.hitchNanoseconds)
        milliseconds("measured_ms", summary.measuredNanoseconds)
        double("hitch_time_ratio_ms_per_s", summary.hitchTimeRatio)
        list.append(
            (
                RowTable.Column("hitch_band", .text, isNullable: true),
                summary.hitchBand.map { .text($0.identifier) } ?? .null
            ))
        double("frame_delay_s", summary.frameDelaySeconds)
        milliseconds("main_outside_frames_ms", summary.mainOutsideFramesNanoseconds)
    }

    /// Chrome's and Android's counts, nullable whatever this trace holds, so every trace's file has
    /// one schema; then the background time in and outside the frames.
    mutating func appendPlatformCounts(of summary: FrameReport.Summary) {
        count("dropped_frames", summary.droppedFrames)
        count("partial_frames", summary.partialFrames)
        for (name, value) in [
            ("dropped_frames_affecting_smoothness", summary.droppedFramesAffectingSmoothness),
            ("chrome_dropped_frame_events", summary.chromeDroppedFrameEvents),
            ("stuffed_frames", summary.stuffedFrames),
        ] {
            list.append((RowTable.Column(name, .integer, isNullable: true), value.map { .integer(Int64($0)) } ?? .null))
        }
        milliseconds("background_in_frames_ms", summary.backgroundInFramesNanoseconds)
        milliseconds("background_outside_frames_ms", summary.backgroundOutsideFramesNanoseconds)
    }

    /// Hitch time by cause, a map (a column per cause in CSV).
    mutating func appendHitchCauses(of summary: FrameReport.Summary) {
        list.append(
            (
                RowTable.Column(
                    "hitch_ms_by_cause", .millisecondsByName,
                    csvKeys: HitchCause.allCases.map { ("hitch_ms_by_cause:\($0.identifier)", $0.identifier) }),
                .millisecondsByName(
                    summary.hitchNanosecondsByCause.sorted { $0.key < $1.key }.map {
                        RowTable.MillisecondsEntry($0.key.identifier, $0.value)
                    })
            ))
    }
}
