import Foundation
@_spi(FramescopeInternals) import FrameTrace
import Testing

@testable import FrameTraceReader

/// Events whose debug annotation bytes repeat a recent event's share its argument list, but only
/// while those bytes mean the same: an annotation names its key (and perhaps its string value) by
/// an interned id whose string depends on the packet sequence and on what that sequence has
/// defined so far. Flow ids read the same on the common-packet path and the general one.
@Suite("Perfetto reader: shared argument lists and flow ids")
struct PerfettoArgumentSharingTests {
    /// A trace of packets, each on a sequence, built with Perfetto's field numbers.
    struct Builder {
        var out = ProtobufOutput()
        var time: UInt64 = 100

        mutating func packet(sequence: UInt64, _ body: (inout ProtobufOutput) -> Void) {
            out.message(PerfettoSchema.Trace.packet) { packet in
                packet.varint(PerfettoSchema.Packet.trustedPacketSequenceID, sequence)
                body(&packet)
            }
        }

        /// Clears the sequence's state and defines the event name `event` (iid 1) and the given
        /// annotation names.
        mutating func define(sequence: UInt64, clearing: Bool, annotationNames: [(UInt64, String)]) {
            packet(sequence: sequence) { packet in
                if clearing {
                    packet.varint(
                        PerfettoSchema.Packet.sequenceFlags, PerfettoSchema.Packet.incrementalStateClearedFlag)
                }
                packet.message(PerfettoSchema.Packet.internedData) { interned in
                    interned.message(PerfettoSchema.Interned.eventNames) { entry in
                        entry.varint(PerfettoSchema.Interned.iid, 1)
                        entry.string(PerfettoSchema.Interned.string, "event")
                    }
                    for (iid, name) in annotationNames {
                        interned.message(PerfettoSchema.Interned.debugAnnotationNames) { entry in
                            entry.varint(PerfettoSchema.Interned.iid, iid)
                            entry.string(PerfettoSchema.Interned.string, name)
                        }
                    }
                }
            }
        }

        /// An instant on the default track with one annotation: name iid 1, the given value
        /// (`annotation` writes it), and any extra TrackEvent fields. With `clearingAs`, the same
        /// packet clears the sequence's state and defines the event name and annotation name 1
        /// (the shape the reader's common-packet path takes).
        mutating func instant(
            sequence: UInt64, clearingAs annotationName: String? = nil, annotation: (inout ProtobufOutput) -> Void,
            extra: (inout ProtobufOutput) -> Void = { _ in }
        ) {
            time += 10
            let time = self.time
            packet(sequence: sequence) { packet in
                packet.varint(PerfettoSchema.Packet.timestamp, time)
                if let annotationName {
                    packet.varint(
                        PerfettoSchema.Packet.sequenceFlags, PerfettoSchema.Packet.incrementalStateClearedFlag)
                    packet.message(PerfettoSchema.Packet.internedData) { interned in
                        interned.message(PerfettoSchema.Interned.eventNames) { entry in
                            entry.varint(PerfettoSchema.Interned.iid, 1)
                            entry.string(PerfettoSchema.Interned.string, "event")
                        }
                        interned.message(PerfettoSchema.Interned.debugAnnotationNames) { entry in
                            entry.varint(PerfettoSchema.Interned.iid, 1)
                            entry.string(PerfettoSchema.Interned.string, annotationName)
                        }
                    }
                } else {
                    packet.varint(PerfettoSchema.Packet.sequenceFlags, PerfettoSchema.Packet.needsIncrementalStateFlag)
                }
                packet.message(PerfettoSchema.Packet.trackEvent) { event in
                    event.varint(PerfettoSchema.Event.type, PerfettoSchema.Event.instant)
                    event.varint(PerfettoSchema.Event.trackUUID, 10)
                    event.varint(PerfettoSchema.Event.nameIID, 1)
                    event.message(PerfettoSchema.Event.debugAnnotations) { value in
                        value.varint(PerfettoSchema.Annotation.nameIID, 1)
                        annotation(&value)
                    }
                    extra(&event)
                }
            }
        }

        /// A thread track, uuid 10 (pid 1, tid 2), on sequence 99.
        mutating func threadTrack() {
            packet(sequence: 99) { packet in
                packet.message(PerfettoSchema.Packet.trackDescriptor) { track in
                    track.varint(PerfettoSchema.Track.uuid, 10)
                    track.message(PerfettoSchema.Track.thread) { thread in
                        thread.varint(PerfettoSchema.Thread.pid, 1)
                        thread.varint(PerfettoSchema.Thread.tid, 2)
                    }
                }
            }
        }
    }

    static func integer(_ value: Int64) -> (inout ProtobufOutput) -> Void {
        { $0.int(PerfettoSchema.Annotation.intValue, value) }
    }

    @Test("The same annotation bytes share a list only while their interned names are the same")
    func sharingFollowsInternedState() throws {
        var trace = Builder()
        trace.threadTrack()
        trace.define(sequence: 1, clearing: true, annotationNames: [(1, "row")])
        trace.define(sequence: 2, clearing: true, annotationNames: [(1, "frame")])
        trace.instant(sequence: 1, annotation: Self.integer(7))  // row 7
        trace.instant(sequence: 1, annotation: Self.integer(7))  // the same bytes, the same meaning: shared
        trace.instant(sequence: 2, annotation: Self.integer(7))  // the same bytes on another sequence: frame 7
        trace.define(sequence: 1, clearing: false, annotationNames: [(1, "column")])  // iid 1 redefined
        trace.instant(sequence: 1, annotation: Self.integer(7))  // column 7
        trace.define(sequence: 1, clearing: true, annotationNames: [(1, "row")])  // cleared and defined again
        trace.instant(sequence: 1, annotation: Self.integer(7))  // row 7 again
        trace.instant(sequence: 1, annotation: Self.integer(8))  // row 8
        // Two more sequences, each cleared and defined by the packet of its first event.
        trace.instant(sequence: 3, clearingAs: "x", annotation: Self.integer(7))  // x 7
        trace.instant(sequence: 3, annotation: Self.integer(7))  // x 7, shared with the one before
        trace.instant(sequence: 4, clearingAs: "y", annotation: Self.integer(7))  // y 7

        let read = try TraceReader.read(bytes: trace.out.bytes)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        let instants = read.events.filter { $0.phase == .instant }
        let arguments = instants.map { read.arguments(of: $0) }
        #expect(
            arguments == [
                [Argument("row", .int(7))], [Argument("row", .int(7))], [Argument("frame", .int(7))],
                [Argument("column", .int(7))], [Argument("row", .int(7))], [Argument("row", .int(8))],
                [Argument("x", .int(7))], [Argument("x", .int(7))], [Argument("y", .int(7))],
            ])
        // The second event shares the first one's list, and the eighth the seventh's; every
        // other event has a list of its own.
        #expect(instants[1].arguments == instants[0].arguments)
        #expect(instants[7].arguments == instants[6].arguments)
        #expect(Set(instants.map(\.arguments)).count == 7)
        #expect(read.argumentLists.count == 1 + 7)
    }

    @Test("An annotation with a field the reader skips is not shared, so each event's skip counts")
    func skipsCountPerEvent() throws {
        var trace = Builder()
        trace.threadTrack()
        trace.define(sequence: 1, clearing: true, annotationNames: [(1, "row")])
        for _ in 0..<3 {
            trace.instant(sequence: 1) { value in
                value.int(PerfettoSchema.Annotation.intValue, 1)
                value.varint(30, 5)  // no DebugAnnotation field has this number
            }
        }
        let read = try TraceReader.read(bytes: trace.out.bytes)
        let skipped = read.diagnostics.filter {
            $0.kind == .skippedPhase && $0.message.contains("DebugAnnotation field 30")
        }
        #expect(skipped.map(\.count) == [3], "\(read.diagnostics)")
        #expect(
            read.events.filter { $0.phase == .instant }.map { read.arguments(of: $0) }
                == Array(repeating: [Argument("row", .int(1))], count: 3))
    }

    @Test("Flow ids, terminating or not, read the same whether the packet takes the common path or the general one")
    func flowIDsOnBothPaths() throws {
        // The same events twice: flow ids as single fixed64 fields (the common path), then
        // packed (which only the general path reads). Terminating ids come first in the bytes.
        func build(packed: Bool) -> [UInt8] {
            var trace = Builder()
            trace.threadTrack()
            trace.define(sequence: 1, clearing: true, annotationNames: [(1, "row")])
            let ids: [(flow: [UInt64], terminating: [UInt64])] = [
                ([1], []), ([2, 3], [1]), ([], [2, 3]), ([4, 5, 6, 7, 8], []),
            ]
            for (flow, terminating) in ids {
                trace.instant(sequence: 1, annotation: Self.integer(1)) { event in
                    for (field, values) in [
                        (PerfettoSchema.Event.terminatingFlowIDs, terminating), (PerfettoSchema.Event.flowIDs, flow),
                    ]
                    where !values.isEmpty {
                        if packed {
                            var bytes: [UInt8] = []
                            for value in values { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
                            event.bytes(field, bytes)
                        } else {
                            for value in values { event.fixed64(field, value) }
                        }
                    }
                }
            }
            return trace.out.bytes
        }
        let common = try TraceReader.read(bytes: build(packed: false))
        let general = try TraceReader.read(bytes: build(packed: true))
        #expect(common.events == general.events)
        #expect(common.diagnostics == general.diagnostics)
        let flows = common.events.filter { [.flowStart, .flowStep, .flowEnd].contains($0.phase) }
        // Ids 1–8 start (the fifth event's five ids take the general path on both reads); 1, 2
        // and 3 end.
        #expect(flows.filter { $0.phase == .flowStart }.map(\.id).sorted() == Array(1...8))
        #expect(flows.filter { $0.phase == .flowEnd }.map(\.id).sorted() == [1, 2, 3])
        #expect(common.diagnostics.contains { $0.kind == .unmatchedFlow && $0.count == 5 })
    }
}
