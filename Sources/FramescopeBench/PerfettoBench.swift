import Foundation
import FrameAnalysis
import FrameTrace
import FrameTraceReader

/// Perfetto protobuf against Chrome JSON on the same trace, in the same run: the generated
/// 1,000,000-event trace (the reader benchmark's) exported both ways, then each file read back.
///
/// Issue 30's targets: reading the protobuf export at least 3x faster than reading its JSON; the
/// protobuf file at most 40% of the JSON's bytes; exporting protobuf no slower than JSON. Issue
/// 45's: reading protobuf as `report` reads (only the analysis's argument keys) at least 1.5x
/// the speed of reading its JSON. Each read prints its first stage and the rest apart.
func runPerfettoBenchmarks(generatedEvents: Int) {
    section("Perfetto protobuf vs Chrome JSON (the same \(generatedEvents)-event trace, same run)")
    let source = makeSyntheticTrace(events: generatedEvents, seed: 0x5EED)
    guard let trace = try? TraceReader.read(bytes: source) else {
        print("(the generated trace does not read; skipped)")
        return
    }
    let (json, protobuf) = exportFigures(trace)

    // Read: from files, as every command reads them (mapped), one thread and the default.
    let folder = FileManager.default.temporaryDirectory
    let jsonPath = folder.appendingPathComponent("framescope-bench-perfetto.json").path
    let protobufPath = folder.appendingPathComponent("framescope-bench-perfetto.pftrace").path
    _ = FileManager.default.createFile(atPath: jsonPath, contents: Data(json))
    _ = FileManager.default.createFile(atPath: protobufPath, contents: Data(protobuf))
    defer {
        try? FileManager.default.removeItem(atPath: jsonPath)
        try? FileManager.default.removeItem(atPath: protobufPath)
    }
    let reads = oneThreadReadFigures(jsonPath: jsonPath, protobufPath: protobufPath)
    firstStages(json: json, protobuf: protobuf, reads: reads)
    let jsonDefault = measure(repetitions: 5, operations: 1) { blackHole(try? TraceReader.read(contentsOf: jsonPath)) }
    let protobufDefault = measure(repetitions: 5, operations: 1) {
        blackHole(try? TraceReader.read(contentsOf: protobufPath))
    }
    figure("read JSON, with its worker thread (best of 5)", jsonDefault.min / 1e6, "ms")
    figure(
        "read protobuf, default (best of 5)", protobufDefault.min / 1e6, "ms",
        note:
            "\(formatFixed(jsonDefault.min / protobufDefault.min, decimals: 2))x the speed of JSON read on two threads")
}

/// Export: the whole trace to bytes, each writer as `framescope convert` runs it; returns the
/// Chrome JSON and the Perfetto protobuf.
private func exportFigures(_ trace: Trace) -> (json: [UInt8], protobuf: [UInt8]) {
    var json: [UInt8] = []
    var protobuf: [UInt8] = []
    let jsonExport = measure(repetitions: 5, operations: 1) { json = ChromeTraceWriter.document(for: trace) }
    let protobufExport = measure(repetitions: 5, operations: 1) { protobuf = PerfettoTraceWriter.document(for: trace) }
    figure(
        "export, Chrome JSON (best of 5)", jsonExport.min / 1e6, "ms",
        note: "median \(formatFixed(jsonExport.median / 1e6, decimals: 1)) ms")
    figure(
        "export, Perfetto protobuf (best of 5)", protobufExport.min / 1e6, "ms",
        note:
            "median \(formatFixed(protobufExport.median / 1e6, decimals: 1)) ms; \(formatFixed(jsonExport.min / protobufExport.min, decimals: 2))x JSON's speed; target: no slower"
    )
    figure("file size, Chrome JSON", Double(json.count) / 1e6, "MB")
    figure(
        "file size, Perfetto protobuf", Double(protobuf.count) / 1e6, "MB",
        note:
            "\(formatFixed(100 * Double(protobuf.count) / Double(json.count), decimals: 1))% of the JSON; target: at most 40%"
    )
    return (json, protobuf)
}

/// Best one-thread reads (nanoseconds), every argument and as report reads. JSON and protobuf
/// are read in turn, seven times each, so a busy machine slows both alike.
private func oneThreadReadFigures(jsonPath: String, protobufPath: String)
    -> [(label: String, json: Double, protobuf: Double)]
{
    var events = (json: 0, protobuf: 0)
    var reads: [(label: String, json: Double, protobuf: Double)] = []
    for (label, arguments, target) in [
        ("every argument", TraceReader.ArgumentSelection.all, "issue 30's target: at least 3x"),
        ("as report reads", .only(FrameAnalyzer.argumentKeys), "issue 45's target: at least 1.5x"),
    ] {
        let (jsonRead, protobufRead, pairRatio) = alternatingPairs(repetitions: 7) {
            let read = try? TraceReader.read(contentsOf: jsonPath, arguments: arguments, workerThread: false)
            events.json = read?.events.count ?? -1
        } and: {
            let read = try? TraceReader.read(contentsOf: protobufPath, arguments: arguments, workerThread: false)
            events.protobuf = read?.events.count ?? -1
        }
        reads.append((label, jsonRead.min, protobufRead.min))
        figure(
            "read JSON, one thread, \(label) (best of 7)", jsonRead.min / 1e6, "ms",
            note: "median \(formatFixed(jsonRead.median / 1e6, decimals: 1)) ms; \(events.json) events")
        figure(
            "read protobuf, one thread, \(label) (best of 7)", protobufRead.min / 1e6, "ms",
            note:
                "median \(formatFixed(protobufRead.median / 1e6, decimals: 1)) ms; \(events.protobuf) events; \(formatFixed(jsonRead.min / protobufRead.min, decimals: 2))x JSON's speed; \(target)"
        )
        figure(
            "  protobuf's speed over JSON's, \(label), pairs", pairRatio, "x",
            note: "median over the 7 pairs read back to back: each pair's JSON time over its protobuf time")
    }
    return reads
}

/// JSON's and protobuf's reads timed in turn, `repetitions` times each after one warm-up of
/// each, so that load from elsewhere on the machine falls on both alike.
private func alternating(repetitions: Int, _ first: () -> Void, and second: () -> Void) -> (Timing, Timing) {
    let (firstTiming, secondTiming, _) = alternatingPairs(repetitions: repetitions, first, and: second)
    return (firstTiming, secondTiming)
}

/// ``alternating(repetitions:_:and:)``, with the median over the pairs of the first's time over
/// the second's: each pair runs back to back, so a machine that is slower for a while slows both
/// sides of the same pairs, and the ratio holds where the best times of each side, taken from
/// different moments, may not.
private func alternatingPairs(
    repetitions: Int, _ first: () -> Void, and second: () -> Void
) -> (Timing, Timing, medianRatio: Double) {
    first()
    second()
    var samples: (first: [Double], second: [Double]) = ([], [])
    for _ in 0..<repetitions {
        var start = benchNow()
        first()
        samples.first.append(Double(benchNow() - start))
        start = benchNow()
        second()
        samples.second.append(Double(benchNow() - start))
    }
    func timing(_ values: [Double]) -> Timing {
        let sorted = values.sorted()
        return Timing(median: sorted[sorted.count / 2], p99: sorted[sorted.count - 1], min: sorted[0])
    }
    let ratios = zip(samples.first, samples.second).map { $0 / $1 }.sorted()
    return (timing(samples.first), timing(samples.second), ratios[ratios.count / 2])
}

/// Each format's first stage alone (``FirstStage``), on the bytes in memory: the JSON tokenizer
/// and the protobuf framer and decoder, timed in turn. The rest of each one-thread read
/// (`reads`, nanoseconds) is the trace model each reader builds after it; the first stages'
/// ratio is how much faster protobuf could be read if that model cost nothing.
private func firstStages(json: [UInt8], protobuf: [UInt8], reads: [(label: String, json: Double, protobuf: Double)]) {
    var counts = (json: -1, protobuf: -1)
    let (tokenize, frame) = json.withUnsafeBufferPointer { jsonBytes in
        protobuf.withUnsafeBufferPointer { protobufBytes in
            alternating(repetitions: 7) {
                counts.json = FirstStage.tokenizeJSONEventArray(jsonBytes) ?? -1
            } and: {
                counts.protobuf = FirstStage.framePerfettoPackets(protobufBytes) ?? -1
            }
        }
    }
    let ms = { (nanoseconds: Double) in formatFixed(nanoseconds / 1e6, decimals: 1) }
    figure("first stage, JSON tokenizer (best of 7)", tokenize.min / 1e6, "ms", note: "\(counts.json) elements")
    figure(
        "first stage, protobuf framer (best of 7)", frame.min / 1e6, "ms",
        note: "\(counts.protobuf) packets; \(formatFixed(tokenize.min / frame.min, decimals: 2))x JSON's speed")
    for read in reads {
        let jsonRest = read.json - tokenize.min
        let protobufRest = read.protobuf - frame.min
        figure(
            "the rest, \(read.label): JSON", jsonRest / 1e6, "ms",
            note: "its one-thread read \(ms(read.json)) ms less its first stage")
        figure(
            "the rest, \(read.label): protobuf", protobufRest / 1e6, "ms",
            note:
                "its one-thread read \(ms(read.protobuf)) ms less its first stage; \(formatFixed(jsonRest / protobufRest, decimals: 2))x JSON's speed"
        )
    }
    figure(
        "read speed-up if the model cost nothing", tokenize.min / frame.min, "x",
        note: "JSON's first stage over protobuf's: the most any change to the model work can give")
}
