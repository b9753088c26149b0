import FrameAnalysis
import FrameTrace

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
