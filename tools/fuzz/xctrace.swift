// fuzz-sources: Sources/FrameTrace Sources/FrameSupport Sources/FrameJSON Sources/FrameTraceReader
// fuzz-merge-modules: FrameTrace FrameSupport FrameJSON FrameTraceReader
// fuzz-seeds: Tests/FrameTraceReaderTests/Fixtures/xctrace Tests/FrameTraceReaderTests/Fixtures/xctrace/recording
// libFuzzer target for the Instruments (xctrace export) XML reader: its byte scanner, the id/ref
// values and the tables' rows. Its sources compile into one module with this harness, so internal
// symbols are reachable.
//
// Every input is read as XML (the detection by content is skipped, so every mutation reaches the
// scanner). Besides "no crash, no hang, no sanitizer report", it checks:
// - an error is invalid-xml, with a byte offset inside the input and a line and column, on one line;
// - a trace that loads is well formed (symbols and argument lists in range, durations and times
//   within TraceEvent.timeLimitNanoseconds, no negative duration); written as JSON and as Perfetto
//   protobuf it reads back with the same spans.
//
// Run: tools/fuzz.sh xctrace [SECONDS]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    switch InstrumentsImporter.parse([input], releasesInput: false) {
    case .success(let trace):
        check(trace)
        let spans = trace.events.filter { $0.phase == .complete }.count
        guard let json = try? TraceReader.read(bytes: trace.chromeJSON()) else {
            fatalError("a trace read from xctrace XML does not read back from JSON")
        }
        precondition(json.events.filter { $0.phase == .complete }.count == spans, "spans lost through the JSON writer")
        guard let protobuf = try? TraceReader.read(bytes: trace.perfettoProtobuf()) else {
            fatalError("a trace read from xctrace XML does not read back from protobuf")
        }
        check(protobuf)
    case .failure(let error):
        precondition(error.code == .invalidXML, "unexpected error code: \(error)")
        precondition(error.byteOffset >= 0 && error.byteOffset <= size, "no byte position: \(error)")
        precondition(error.line >= 1 && error.column >= 1, "no line and column: \(error)")
        precondition(!error.description.contains("\n"), "a message of several lines: \(error)")
    }
    return 0
}

private func check(_ trace: Trace) {
    let limit = TraceEvent.timeLimitNanoseconds
    for event in trace.events {
        precondition(Int(event.name.rawValue) < trace.symbols.count && Int(event.category.rawValue) < trace.symbols.count)
        precondition(Int(event.arguments) < trace.argumentLists.count)
        precondition(event.phase != .complete || event.duration >= 0, "negative duration")
        precondition(event.timestamp.magnitude <= limit.magnitude && event.duration.magnitude <= limit.magnitude, "time past the limit")
    }
}
