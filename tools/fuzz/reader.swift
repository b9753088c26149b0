// fuzz-sources: Sources/FrameTrace Sources/FrameSupport Sources/FrameJSON Sources/FrameTraceReader
// fuzz-merge-modules: FrameTrace FrameSupport FrameJSON FrameTraceReader
// fuzz-seeds: Tests/FrameTraceReaderTests/Fixtures ../shared/traces/third-party
// libFuzzer target for the Chrome trace reader and the JSONValue parser (modules FrameTraceReader
// and FrameJSON; their sources compile into one module with this harness, so internal symbols
// are reachable).
//
// Besides "no crash, no hang, no sanitizer report", every input checks invariants:
// - a trace that loads is well formed: symbols and argument lists in range, complete events not
//   negative, at most 100 listed diagnostics per kind (plus one summary), diagnostic indexes
//   inside the input's events; writing it and reading it back succeeds;
// - an error has a position inside the input (line and column from 1);
// - the reader and JSONValue agree: a document JSONValue accepts that is an event array or an
//   object with a `traceEvents` array loads as a trace, and a syntax error from the reader is also
//   one for JSONValue;
// - reading with the tokenizer on a worker thread (`+Pipeline`, forced on for every input) gives
//   the same trace, or the same error, as reading on one thread.
//
// Run: tools/fuzz.sh reader [SECONDS]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    // Input that starts like a Perfetto protobuf trace goes to that reader (tools/fuzz/perfetto.swift
    // checks it); the JSON agreements below are for JSON.
    let isProtobuf = PerfettoImporter.looksLikePerfetto(input)
    let document = Result { () throws(JSONParseError) in try JSONValue.parse(input, maxDepth: 1_000) }
    if !isProtobuf { checkPipeline(input) }
    do {
        let trace = try TraceReader.read(bytes: input)
        check(trace)
        do {
            let again = try TraceReader.read(bytes: trace.chromeJSON())
            check(again)
        } catch {
            fatalError("a trace the writer wrote does not read back: \(error)")
        }
    } catch where isProtobuf {
        precondition(error.isBinaryPosition && error.byteOffset >= 0 && error.byteOffset <= size, "no byte position: \(error)")
    } catch {
        precondition(error.code != .ioError)
        precondition(error.line >= 1 && error.column >= 1, "no position: \(error)")
        precondition(error.byteOffset >= 0 && error.byteOffset <= size, "position outside the input: \(error)")
        let isSyntaxError = error.code != .notATrace && error.code != .tooDeep
        if isSyntaxError, case .success = document {
            fatalError("JSONValue accepts what the reader calls a syntax error: \(error)")
        }
        if case .success(let value) = document, value.arrayValue != nil || value["traceEvents"]?.arrayValue != nil,
            error.code != .tooDeep
        {
            fatalError("the reader rejects a well-formed event array: \(error)")
        }
    }
    if case .success(let value) = document {
        precondition((try? JSONValue.parse(value.description, maxDepth: 1_000)) != nil, "description does not parse")
    }
    return 0
}

/// The worker-thread reading against the single-threaded one.
private func checkPipeline(_ input: UnsafeBufferPointer<UInt8>) {
    let sequential = TraceReader.parse(input, releasesInput: false, pipelining: .never)
    let pipelined = TraceReader.parse(input, releasesInput: false, pipelining: .always)
    switch (sequential, pipelined) {
    case (.success(let expected), .success(let trace)):
        precondition(trace.events == expected.events, "the pipelined read's events differ")
        precondition(trace.symbols.strings == expected.symbols.strings, "the pipelined read's symbols differ")
        precondition(trace.argumentLists == expected.argumentLists, "the pipelined read's argument lists differ")
        precondition(trace.threads == expected.threads && trace.processes == expected.processes, "the pipelined read's threads differ")
        precondition(trace.metadata == expected.metadata, "the pipelined read's metadata differs")
        precondition(trace.diagnostics == expected.diagnostics, "the pipelined read's diagnostics differ")
    case (.failure(let expected), .failure(let error)):
        precondition(error == expected, "the pipelined read fails otherwise: \(error) vs \(expected)")
    default:
        fatalError("one way reads the input and the other does not: \(sequential) vs \(pipelined)")
    }
}

private func check(_ trace: Trace) {
    for event in trace.events {
        precondition(Int(event.name.rawValue) < trace.symbols.count && Int(event.category.rawValue) < trace.symbols.count)
        precondition(Int(event.arguments) < trace.argumentLists.count)
        precondition(event.phase != .complete || event.duration >= 0, "negative duration")
        precondition(event.phase != .begin && event.phase != .end, "begin/end left unpaired in the trace")
    }
    var listed: [TraceDiagnostic.Kind: Int] = [:]
    for diagnostic in trace.diagnostics where diagnostic.count == 1 || diagnostic.eventIndex != nil {
        listed[diagnostic.kind, default: 0] += 1
        precondition(diagnostic.count >= 1)
    }
    for (kind, count) in listed {
        precondition(count <= (kind == .skippedPhase ? 256 + 33 : 101), "\(count) \(kind) diagnostics listed")
    }
}
