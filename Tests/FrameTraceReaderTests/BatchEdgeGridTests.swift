import Testing

@testable import FrameTraceReader

// In a file of their own, not beside the suites they extend: CI's ThreadSanitizer step selects
// tests by a filter that also matches the file a test is in.

/// The JSON pipeline's batch-edge reading over more places and offsets than
/// ``ReaderPipelineTests/oddEndings()``, which CI also runs under ThreadSanitizer: here only in
/// the ordinary test run.
@Suite("Reading Chrome JSON on a worker thread: edits at more places around batch edges")
struct ReaderBatchEdgeGridTests {
    @Test("Cut off or broken near the start, each batch edge and the end, a trace reads or fails the same both ways")
    func grid() {
        let batch = ChromeJSONImporter.EventPipeline.batchSize
        ReaderPipelineTests.expectEditsReadTheSameBothWays(
            elements: [0, 1, 2, 3, batch - 1, batch, batch + 1, 2 * batch - 1, 2 * batch, 2 * batch + 1, .max],
            offsets: [-2, 0, 1, 20])
    }
}

/// The Perfetto pipeline's batch-edge reading over more places and edits than
/// ``PerfettoPipelineTests/batchEdges()``, which CI also runs under ThreadSanitizer: here only in
/// the ordinary test run, where it costs seconds, not minutes.
@Suite("Reading Perfetto protobuf on a worker thread: edits at more places around batch edges")
struct PerfettoBatchEdgeGridTests {
    @Test("Cut, broken or with other fields near the start, at batch edges and at the end, a file reads the same")
    func grid() {
        let batch = PacketFramer.Batch.capacity
        let packets = PerfettoPipelineTests.packetStarts(PerfettoPipelineTests.large).count
        PerfettoPipelineTests.expectEditsReadTheSameBothWays(
            packets: [1, 2, batch - 1, batch, batch + 1, 2 * batch, 2 * batch + 1, packets - 1], offsets: [0, 1, 2, 5])
    }
}
