import Foundation
@_spi(FramescopeInternals) import FrameTrace
import Testing

@testable import FrameTraceReader

/// The Perfetto reader pairs a thread's slices as it reads them, and reads a file again keeping
/// every begin and end when one thread's slices are out of time order. Either way the trace must
/// be the one the records-only read gives.
@Suite("Perfetto reader: pairing as it reads")
struct PerfettoPairingTests {
    /// What the reader makes of `bytes` with `pairsAsItReads` set as asked, and whether that
    /// read asked for a second pass.
    static func read(_ bytes: [UInt8], pairsAsItReads: Bool) throws -> (trace: Trace, neededSecondPass: Bool) {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = PerfettoParser(buffer, arguments: .all, pairsAsItReads: pairsAsItReads)
            try parser.parseTrace()
            if !parser.needsSecondPass { parser.placeDeferredEvents() }
            return (parser.finish(), parser.needsSecondPass)
        }
    }

    static func expectSameRead(_ bytes: [UInt8], _ label: String) throws {
        let records = try read(bytes, pairsAsItReads: false)
        #expect(!records.neededSecondPass, "\(label)")
        let read = try bytes.withUnsafeBufferPointer { try PerfettoImporter.parse($0, arguments: .all).get() }
        #expect(read.events == records.trace.events, "\(label)")
        #expect(read.diagnostics == records.trace.diagnostics, "\(label)")
    }

    /// One thread track (pid 1, tid 2) with slices begun and ended at the given times (a name
    /// begins a slice, `nil` ends the innermost).
    static func thread(_ slices: [(time: UInt64, name: String?)]) -> [UInt8] {
        var out = ProtobufOutput()
        out.message(PerfettoSchema.Trace.packet) { packet in
            packet.message(PerfettoSchema.Packet.trackDescriptor) { track in
                track.varint(PerfettoSchema.Track.uuid, 10)
                track.message(PerfettoSchema.Track.thread) { thread in
                    thread.varint(PerfettoSchema.Thread.pid, 1)
                    thread.varint(PerfettoSchema.Thread.tid, 2)
                }
            }
        }
        for slice in slices {
            out.message(PerfettoSchema.Trace.packet) { packet in
                packet.varint(PerfettoSchema.Packet.timestamp, slice.time)
                packet.varint(PerfettoSchema.Packet.trustedPacketSequenceID, 1)
                packet.message(PerfettoSchema.Packet.trackEvent) { event in
                    event.varint(PerfettoSchema.Event.trackUUID, 10)
                    if let name = slice.name {
                        event.varint(PerfettoSchema.Event.type, PerfettoSchema.Event.sliceBegin)
                        event.string(PerfettoSchema.Event.name, name)
                    } else {
                        event.varint(PerfettoSchema.Event.type, PerfettoSchema.Event.sliceEnd)
                    }
                }
            }
        }
        return out.bytes
    }

    @Test("Every Perfetto fixture reads to the same events and diagnostics as with records only")
    func fixtures() throws {
        let folder = Fixture.directory.appendingPathComponent("perfetto")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pftrace") }
            .sorted()
        #expect(names.count >= 10)
        for name in names {
            let bytes = try Fixture.bytes("perfetto/\(name)")
            let records = Result { try Self.read(bytes, pairsAsItReads: false) }
            guard case .success = records else {
                // A malformed fixture fails the same way both ways.
                let error = try? bytes.withUnsafeBufferPointer { try PerfettoImporter.parse($0, arguments: .all).get() }
                #expect(error == nil, "\(name)")
                continue
            }
            try Self.expectSameRead(bytes, name)
        }
    }

    @Test("In time order: paired in one pass, an end with nothing open and a begin never ended counted as before")
    func ordered() throws {
        let bytes = Self.thread([(50, nil), (100, "a"), (150, "b"), (200, nil), (400, nil), (500, "open")])
        let first = try Self.read(bytes, pairsAsItReads: true)
        #expect(!first.neededSecondPass)
        let spans = first.trace.events.filter { $0.phase == .complete }
        #expect(spans.map { first.trace.name(of: $0) } == ["a", "b", "open"])
        #expect(spans.map(\.duration) == [300, 50, 0])
        #expect(first.trace.diagnostics.contains { $0.kind == .unmatchedEnd })
        #expect(first.trace.diagnostics.contains { $0.kind == .unclosedBegin })
        try Self.expectSameRead(bytes, "ordered")
    }

    @Test("Out of time order on a thread: read again with records, the same trace as a records-only read")
    func outOfOrder() throws {
        let bytes = Self.thread([(100, "a"), (150, "b"), (200, nil), (400, nil), (50, "c"), (80, nil)])
        let first = try Self.read(bytes, pairsAsItReads: true)
        #expect(first.neededSecondPass)
        try Self.expectSameRead(bytes, "out of order")
        let trace = try bytes.withUnsafeBufferPointer { try PerfettoImporter.parse($0, arguments: .all).get() }
        let durations = Dictionary(
            uniqueKeysWithValues: trace.events.filter { $0.phase == .complete }.map {
                (trace.name(of: $0), $0.duration)
            })
        #expect(durations == ["a": 300, "b": 50, "c": 30])
    }
}
