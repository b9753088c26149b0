import FrameAnalysis
import FrameTrace
import FrameTraceReader

/// `framescope-bench rows`: writing the per-frame rows of a large report, Parquet against JSON
/// Lines in the same run (rows per second, bytes), on two shapes: the reader bench's generated
/// 1,000,000-event trace (few categories per frame) and the many-category trace (200,000 frames,
/// one of 200 categories each: many distinct map keys). The bytes ratio is issue 55's goal
/// (Parquet at most 0.10x the JSON Lines).
func runRowsBenchmarks() {
    section("Rows (frames-parquet vs frames-jsonl, one report, same run)")
    for (label, bytes) in [
        ("generated 1M events", makeSyntheticTrace(events: 1_000_000, seed: 0x5EED)),
        ("200k frames x 200 categories", makeManyCategoryTrace(frames: 200_000, categories: 200)),
    ] {
        guard let trace = try? TraceReader.read(bytes: bytes) else {
            print("(\(label): the trace did not read; skipped)")
            continue
        }
        let metadata = trace.metadata
        let report = FrameAnalyzer.analyze(trace)
        let table = FrameRows.table(report, trace: "bench.json", labels: [("branch", "main")], metadata: metadata)
        var jsonBytes = 0
        let json = measure(repetitions: 3, operations: 1) {
            var count = 0
            table.writeJSONLines { count += $0.utf8.count }
            jsonBytes = count
        }
        var parquetBytes = 0
        let parquet = measure(repetitions: 3, operations: 1) {
            let file = table.parquet()
            parquetBytes = file.count
            blackHole(file)
        }
        let rows = Double(table.rowCount)
        figure("\(label): frames", rows, "rows")
        figure("  frames-jsonl", rows / (json.median / 1e9) / 1e6, "M rows/s", note: "\(jsonBytes) bytes")
        figure("  frames-parquet", rows / (parquet.median / 1e9) / 1e6, "M rows/s", note: "\(parquetBytes) bytes")
        figure("  parquet / jsonl time", parquet.median / json.median, "x")
        let ratio = Double(parquetBytes) / Double(max(jsonBytes, 1))
        figure(
            "  parquet / jsonl bytes", ratio, "x",
            note: "\(formatFixed(ratio, decimals: 3))x; issue 55's goal <= 0.10x: \(ratio <= 0.10 ? "met" : "NOT met")")
    }
}
