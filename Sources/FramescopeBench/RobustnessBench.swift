import FrameAnalysis
import FrameTrace
import FrameTraceReader

/// Figures for inputs whose shape once made framescope slow: a long flat JSON array (budget
/// files and a trace's top-level `metadata` go through ``JSONValue``) beside the event-array
/// reader on the same number of bytes, and the analysis of a trace with many frames and many
/// categories beside an event-heavy trace.
func runRobustnessBenchmarks() {
    section("Robustness (JSONValue on a flat array vs the event reader, same bytes)")
    var array: [UInt8] = [UInt8(ascii: "[")]
    for index in 0..<150_000 {
        if index > 0 { array.append(UInt8(ascii: ",")) }
        array.append(UInt8(ascii: "0"))
    }
    array.append(UInt8(ascii: "]"))
    let jsonTiming = measure(repetitions: 20, operations: 1) { blackHole(try? JSONValue.parse(array)) }
    let megabytes = Double(array.count) / 1e6
    figure("JSONValue: flat 150k-element array", megabytes, "MB")
    figure("JSONValue: flat 150k-element array, median", jsonTiming.median / 1e6 / megabytes, "ms/MB", note: "\(formatFixed(jsonTiming.median / 1e6, decimals: 2)) ms per parse")

    // The event reader on a synthetic trace cut to about the same number of bytes.
    var events = max(1, array.count / 150)
    var trace = makeSyntheticTrace(events: events, seed: 0x5EED)
    if trace.count < array.count {
        events = events * array.count / max(trace.count, 1) + 1
        trace = makeSyntheticTrace(events: events, seed: 0x5EED)
    }
    let traceMegabytes = Double(trace.count) / 1e6
    let readerTiming = measure(repetitions: 20, operations: 1) { blackHole(try? ChromeTraceReader.read(bytes: trace)) }
    figure("event reader: synthetic trace", traceMegabytes, "MB", note: "\(events) events")
    figure("event reader: synthetic trace, median", readerTiming.median / 1e6 / traceMegabytes, "ms/MB", note: "\(formatFixed(readerTiming.median / 1e6, decimals: 2)) ms per read")
}

/// A trace of `frames` framescope frame spans on the main thread, each with one child span in
/// one of `categories` categories (frame *i* gets category *i* mod `categories`): few events per
/// frame, many categories, the shape that made per-category per-frame work explode.
func makeManyCategoryTrace(frames: Int, categories: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(frames * 150)
    out.append(contentsOf: #"[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}}"#.utf8)
    for index in 0..<frames {
        let start = index * 16_667
        out.append(contentsOf: #",{"ph":"X","cat":"frame","name":"frame","pid":1,"tid":1,"ts":\#(start),"dur":9000}"#.utf8)
        out.append(contentsOf: #",{"ph":"X","cat":"c\#(index % categories)","name":"w","pid":1,"tid":1,"ts":\#(start + 100),"dur":\#(1000 + index % 7000)}"#.utf8)
    }
    out.append(UInt8(ascii: "]"))
    return out
}

/// Analysis time of a trace with many frames and categories beside an event-heavy trace, per
/// 1,000 events, so that the two are comparable: O(n log n) in events keeps them close.
func runAnalysisScalingBenchmarks() {
    section("Analysis cost: many frames x many categories vs an event-heavy trace")
    func analyse(_ label: String, _ bytes: [UInt8], repetitions: Int) {
        guard let trace = try? ChromeTraceReader.read(bytes: bytes) else {
            print("\(label): the reader failed")
            return
        }
        var report: FrameReport?
        let timing = measure(repetitions: repetitions, operations: 1) { report = FrameAnalyzer.analyze(trace) }
        let events = trace.events.count
        figure("\(label): analyze, median", timing.median / 1e6, "ms", note: "\(events) events, \(report?.summary.frameCount ?? 0) frames, \(report?.categories.count ?? 0) categories, \(formatFixed(Double(bytes.count) / 1e6, decimals: 1)) MB")
        figure("\(label): analyze per 1,000 events", timing.median / 1e3 / Double(max(events, 1)), "ms")
    }
    analyse("40k frames x 200 categories", makeManyCategoryTrace(frames: 40_000, categories: 200), repetitions: 5)
    analyse("event-heavy synthetic trace", makeSyntheticTrace(events: 400_000, seed: 0x5EED), repetitions: 5)
}
