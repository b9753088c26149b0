// fuzz-sources: Sources/FrameTrace Sources/FrameSupport Sources/FrameJSON Sources/FrameTraceReader
// fuzz-merge-modules: FrameTrace FrameSupport FrameJSON FrameTraceReader
// fuzz-seeds: Tests/FrameTraceReaderTests/Fixtures/perfetto
// libFuzzer target for the Perfetto protobuf reader (and framescope's protobuf codec). Its sources
// compile into one module with this harness, so internal symbols are reachable.
//
// Every input is read as protobuf (the detection by content is skipped, so every mutation reaches
// the packet parser). Besides "no crash, no hang, no sanitizer report", it checks:
// - an error is invalid-protobuf or unexpected-end, with a byte offset inside the input;
// - a trace that loads is well formed (symbols and argument lists in range, durations and times
//   within TraceEvent.timeLimitNanoseconds, no unpaired begin or end, at most 100 listed
//   diagnostics per kind plus summaries); written as Perfetto protobuf and as JSON it reads back
//   with the same spans;
// - repair of a file that reads makes bytes that read without a truncated diagnostic.
//
// Run: tools/fuzz.sh perfetto [SECONDS]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let result = PerfettoImporter.parse(input, arguments: .all)
    switch result {
    case .success(let trace):
        check(trace)
        let spans = trace.events.filter { $0.phase == .complete }.count
        guard let again = try? TraceReader.read(bytes: trace.perfettoProtobuf()) else {
            fatalError("a trace the Perfetto writer wrote does not read back")
        }
        check(again)
        precondition(again.events.filter { $0.phase == .complete }.count == spans, "spans lost through the Perfetto writer")
        guard let json = try? TraceReader.read(bytes: trace.chromeJSON()) else {
            fatalError("a trace read from protobuf does not read back from JSON")
        }
        check(json)
    case .failure(let error):
        precondition(error.code == .invalidProtobuf || error.code == .unexpectedEnd, "unexpected error code: \(error)")
        precondition(error.isBinaryPosition && error.byteOffset >= 0 && error.byteOffset <= size, "no byte position: \(error)")
    }
    // Repair cuts only a torn last packet: what read (perhaps with a truncated diagnostic) reads
    // cleanly after it.
    if case .success = result, PerfettoImporter.looksLikePerfetto(input), let repair = try? TraceRepair.repair(Array(input)) {
        guard let repaired = try? TraceReader.read(bytes: repair.bytes) else { fatalError("repaired bytes do not read") }
        precondition(!repaired.diagnostics.contains { $0.kind == .truncated }, "a repaired trace is still cut off")
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
        precondition(event.phase != .begin && event.phase != .end, "begin/end left unpaired in the trace")
    }
    var listed: [TraceDiagnostic.Kind: Int] = [:]
    for diagnostic in trace.diagnostics where diagnostic.count == 1 || diagnostic.eventIndex != nil {
        listed[diagnostic.kind, default: 0] += 1
        precondition(diagnostic.count >= 1)
    }
    for (kind, count) in listed {
        precondition(count <= (kind == .skippedPhase ? 64 : 101), "\(count) \(kind) diagnostics listed")
    }
}
