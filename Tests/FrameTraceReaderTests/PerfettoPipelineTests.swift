import Foundation
@_spi(FramescopeInternals) import FrameTrace
import FramescopeTestSupport
import Testing

@testable import FrameTraceReader

/// Reading a Perfetto trace with its packets framed and decoded on a worker thread against the
/// calling thread alone: the same trace, diagnostics and error, for every protobuf file the tests
/// hold and for a file over many batches cut, broken or out of order at batch edges.
@Suite("Reading Perfetto protobuf with packets decoded on a worker thread")
struct PerfettoPipelineTests {
    /// Every Perfetto file under Tests/ and Traces/, sorted.
    static let fixtures: [String] = {
        let root = ReaderPipelineTests.root
        var paths: [String] = []
        for folder in ["Tests", "Traces"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            paths += files.filter { $0.hasSuffix(".pftrace") || $0.hasSuffix(".perfetto-trace") }.map {
                base.appendingPathComponent($0).path
            }
        }
        return paths.sorted()
    }()

    @Test("Every Perfetto file in the tests and the repository reads the same both ways")
    func fixturesReadTheSame() throws {
        #expect(Self.fixtures.count >= 10, "the Perfetto fixtures are found: \(Self.fixtures.count) files")
        for path in Self.fixtures {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            ReaderPipelineTests.expectSameBothWays(bytes, path)
            ReaderPipelineTests.expectSameBothWays(
                bytes, path + " (analysis keys)", arguments: .only(["frame", "budget-ns"]))
        }
    }

    /// The JSON reader's many-batch trace, written as Perfetto protobuf: slices, instants,
    /// counters, flows and async slices over several batches of packets.
    static let large: [UInt8] = {
        let count = PacketFramer.Batch.capacity * 3
        let trace = try? TraceReader.read(bytes: Array(ReaderPipelineTests.largeTrace(count).utf8))
        return PerfettoTraceWriter.document(for: trace ?? Trace())
    }()

    /// The offset of each `Trace.packet` field's key in `bytes` (a well-formed file): the
    /// malformed-file tests' independent walk of the packet boundaries.
    static func packetStarts(_ bytes: [UInt8]) -> [Int] {
        PerfettoMalformedFileTests.packets(of: bytes).map(\.start)
    }

    @Test("A file over many batches reads the same both ways, whole and cut or broken at its batch edges")
    func batchEdges() throws {
        // The packets on either side of each batch edge, where the worker hands over: this runs
        // under ThreadSanitizer in CI. ``PerfettoBatchEdgeGridTests`` tries more places and edits.
        let batch = PacketFramer.Batch.capacity
        ReaderPipelineTests.expectSameBothWays(Self.large, "whole")
        Self.expectEditsReadTheSameBothWays(packets: [batch - 1, batch, batch + 1, 2 * batch], offsets: [0, 1])
    }

    /// Reads `large` cut, with a packet's length made an overlong varint, and with another Trace
    /// field instead of a packet, at `offsets` bytes past the start of each packet numbered in
    /// `packets`, and with a malformed wire type at each such packet: the same both ways.
    static func expectEditsReadTheSameBothWays(packets: [Int], offsets: [Int]) {
        let bytes = large
        let starts = packetStarts(bytes)
        let batch = PacketFramer.Batch.capacity
        #expect(starts.count > 2 * batch + 10, "the file spans batches: \(starts.count) packets")
        for index in packets where index < starts.count {
            let start = starts[index]
            for delta in offsets where start + delta < bytes.count {
                let cut = start + delta
                ReaderPipelineTests.expectSameBothWays(Array(bytes[..<cut]), "cut at \(cut)")
                var tooLong = bytes  // the packet's length as an eleven-byte varint
                tooLong.replaceSubrange(start + 1..<start + 2, with: Array(repeating: 0xFF, count: 11))
                ReaderPipelineTests.expectSameBothWays(tooLong, "varint too long at \(start)")
                var otherField = bytes  // field 2, a varint, instead of a packet: skipped and counted
                otherField.replaceSubrange(start..<starts[min(index + 1, starts.count - 1)], with: [0x10, 0x07])
                ReaderPipelineTests.expectSameBothWays(otherField, "another Trace field at \(start)")
            }
            var wrongType = bytes  // wire type 3 (a group): malformed
            wrongType[start] = 0x0B
            ReaderPipelineTests.expectSameBothWays(wrongType, "wire type 3 at \(start)")
        }
    }

    @Test("A thread out of time order past the first batch is read again, the same both ways")
    func secondPassAcrossBatches() throws {
        // One thread's slices in order for three batches, then one that begins before the last
        // end: the first read stops there (cancelling the worker) and the file is read again.
        var slices: [(time: UInt64, name: String?)] = []
        for slice in 0..<(3 * PacketFramer.Batch.capacity / 2) {
            slices += [(UInt64(100 + slice * 10), "s"), (UInt64(105 + slice * 10), nil)]
        }
        slices += [(50, "s"), (60, nil)]
        let bytes = PerfettoPairingTests.thread(slices)
        ReaderPipelineTests.expectSameBothWays(bytes, "out of order past the first batch")
        let read = try TraceReader.read(bytes: bytes)
        #expect(read.events.count == slices.count / 2)
        #expect(read.events.allSatisfy { $0.duration == 5 || $0.duration == 10 })
    }
}

/// A mapped Perfetto file's pages are handed back as the read moves past them, and a second pass
/// (a thread out of time order) reads them again from the file; a pipe's bytes, which are not a
/// file mapping, are never released.
@Suite("Reading a mapped Perfetto file hands its read pages back")
struct PerfettoReadPagesTests {
    /// Several megabytes of one thread's slices, the last one out of time order.
    static let bytes: [UInt8] = {
        var slices: [(time: UInt64, name: String?)] = []
        for slice in 0..<120_000 {
            slices += [(UInt64(1_000 + slice * 10), "slice \(slice % 7)"), (UInt64(1_005 + slice * 10), nil)]
        }
        slices += [(50, "early"), (60, nil)]
        return PerfettoPairingTests.thread(slices)
    }()

    @Test(
        "From a file (mapped) and from a pipe (read to its end, not only its first chunk), a large file read twice gives the trace read from memory"
    )
    func mappedAndPiped() throws {
        #expect(
            Self.bytes.count > 4 << 20,
            "the file is large enough to release pages and use the worker: \(Self.bytes.count) bytes")
        let expected = try TraceReader.read(bytes: Self.bytes, workerThread: false)
        #expect(expected.events.count == 120_001)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-read-pages-\(getpid()).pftrace"
        ).path
        try Data(Self.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for workerThread in [false, true] {
            let mapped = try TraceReader.read(contentsOf: path, workerThread: workerThread)
            #expect(mapped.events == expected.events, "mapped, worker thread \(workerThread)")
            #expect(mapped.diagnostics == expected.diagnostics, "mapped, worker thread \(workerThread)")
        }
        // A pipe: the reader reads it into memory of its own, which must stay whole for the
        // second pass.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writer = PipeWriter(FileHandle(fileDescriptor: ends[1], closeOnDealloc: false), Data(Self.bytes))
        defer { close(ends[0]) }
        let piped = try TraceReader.read(fileDescriptor: ends[0])
        writer.finish()
        #expect(piped.events == expected.events, "piped")
        #expect(piped.diagnostics == expected.diagnostics, "piped")
    }
}
