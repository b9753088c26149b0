import Foundation
import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

/// The Perfetto reader against fixtures built by `tools/make_perfetto_fixtures.py` with Perfetto's
/// own Python schema (`perfetto_trace_pb2`) and, for FrameTimeline, from Perfetto's field numbers
/// and the cases of trace processor's diff tests. Each `X.pftrace` has an `X.expected.json` saying
/// what a correct reader gives, written by the same script from its own model of the input.
@Suite("Reading Perfetto protobuf: TrackEvent, Chrome, atrace, FrameTimeline, hostile bytes")
struct PerfettoReaderTests {
    static func expected(_ name: String) throws -> JSONValue {
        try JSONValue.parse(try Fixture.bytes("perfetto/\(name).expected.json"))
    }

    static func read(_ name: String) throws -> Trace { try Fixture.read("perfetto/\(name).pftrace") }

    /// An integer that the expected files write as a number, or as a string past 2^53.
    static func integer(_ value: JSONValue?) -> Int64? {
        if let string = value?.stringValue { return Int64(string) }
        return value?.integerValue
    }

    /// Expected `arguments` (`[[key, value], ...]`) as arguments.
    static func arguments(_ value: JSONValue?) -> [Argument] {
        (value?.arrayValue ?? []).compactMap { pair in
            guard let key = pair[0]?.stringValue, let value = pair[1] else { return nil }
            return Argument(key, value)
        }
    }

    /// Arguments compared as values: numbers by value (1 and 1.0 alike), objects by member.
    static func same(_ a: [Argument], _ b: [Argument]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
    }

    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int, .double), (.double, .int): return a.doubleValue == b.doubleValue
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in y.contains { $0.0 == member.0 && same($0.1, member.1) } }
        default: return a == b
        }
    }

    /// The spans of a thread, in start order (longer first).
    static func spans(_ trace: Trace, _ thread: ThreadKey) -> [TraceEvent] {
        trace.events.filter { $0.phase == .complete && $0.thread == thread }.sorted {
            ($0.timestamp, -$0.duration) < ($1.timestamp, -$1.duration)
        }
    }

    /// Checks every expected thread's name, slices and instants.
    static func checkThreads(_ trace: Trace, _ expected: JSONValue) {
        for thread in expected["threads"]?.arrayValue ?? [] {
            let key = ThreadKey(processID: integer(thread["pid"]) ?? -1, threadID: integer(thread["tid"]) ?? -1)
            #expect(trace.threadName(key) == thread["name"]?.stringValue, "thread \(key)")
            let slices = (thread["slices"]?.arrayValue ?? []).sorted {
                (integer($0["ts"]) ?? 0, -(integer($0["dur"]) ?? 0)) < (
                    integer($1["ts"]) ?? 0, -(integer($1["dur"]) ?? 0)
                )
            }
            let actual = spans(trace, key)
            #expect(actual.count == slices.count, "slices on thread \(key)")
            for (slice, event) in zip(slices, actual) {
                if slice["name_is_placeholder"]?.boolValue == true {
                    #expect(trace.name(of: event).hasPrefix("(undefined name iid"))
                } else {
                    #expect(trace.name(of: event) == slice["name"]?.stringValue ?? "")
                }
                #expect(trace.category(of: event) == slice["category"]?.stringValue ?? "")
                #expect(event.timestamp == integer(slice["ts"]))
                #expect(event.duration == integer(slice["dur"]))
                #expect(
                    same(trace.arguments(of: event), arguments(slice["arguments"])),
                    "arguments of \(trace.name(of: event))")
            }
            let instants = trace.events.filter { $0.phase == .instant && $0.thread == key }
            for instant in thread["instants"]?.arrayValue ?? [] {
                #expect(
                    instants.contains {
                        trace.name(of: $0) == instant["name"]?.stringValue && $0.timestamp == integer(instant["ts"])
                    },
                    "instant \(instant["name"]?.stringValue ?? "")")
            }
        }
    }

    /// The tag offset of the packet holding `offset`, from an expected file's packet list.
    static func packetStart(holding offset: Int64, in expected: JSONValue) -> Int64? {
        (expected["packets"]?.arrayValue ?? []).last { (integer($0["tag_offset"]) ?? .max) <= offset }.flatMap {
            integer($0["tag_offset"])
        }
    }

    @Test(
        "track-event-basics: descriptors, nested slices, interning per sequence and after a reset, counters, flows, every annotation kind"
    )
    func trackEventBasics() throws {
        let trace = try Self.read("track-event-basics")
        let expected = try Self.expected("track-event-basics")
        Self.checkThreads(trace, expected)
        for process in expected["processes"]?.arrayValue ?? [] {
            #expect(trace.processes[Self.integer(process["pid"]) ?? -1]?.name == process["name"]?.stringValue)
        }
        for counter in expected["counters"]?.arrayValue ?? [] {
            let name = counter["track"]?.stringValue ?? ""
            let samples = trace.events.filter { $0.phase == .counter && trace.name(of: $0) == name }
            let points = counter["points"]?.arrayValue ?? []
            #expect(samples.map(\.timestamp) == points.map { Self.integer($0["ts"]) ?? -1 }, "counter \(name)")
            #expect(
                samples.map { trace.arguments(of: $0)["value"]?.doubleValue } == points.map { $0["value"]?.doubleValue }
            )
            #expect(samples.allSatisfy { $0.thread.processID == Self.integer(counter["pid"]) })
        }
        for flow in expected["flows"]?.arrayValue ?? [] {
            let id = UInt64(flow["id"]?.stringValue ?? "") ?? 0
            let start = trace.events.first { $0.phase == .flowStart && $0.id == id }
            let end = trace.events.first { $0.phase == .flowEnd && $0.id == id }
            #expect(
                start?.thread
                    == ThreadKey(
                        processID: Self.integer(flow["from"]?["pid"]) ?? -1,
                        threadID: Self.integer(flow["from"]?["tid"]) ?? -1))
            #expect(start?.timestamp == Self.integer(flow["from"]?["ts"]))
            #expect(
                end?.thread
                    == ThreadKey(
                        processID: Self.integer(flow["to"]?["pid"]) ?? -1,
                        threadID: Self.integer(flow["to"]?["tid"]) ?? -1))
            #expect(end?.timestamp == Self.integer(flow["to"]?["ts"]))
        }
        // Dropped packets: one diagnostic each, naming the packet's byte.
        let dropped = trace.diagnostics.filter { $0.message.contains("needs incremental state") }
        let offsets = expected["dropped_packets"]?["packet_offsets"]?.arrayValue?.compactMap(Self.integer) ?? []
        #expect(dropped.count == offsets.count && !offsets.isEmpty)
        for offset in offsets { #expect(dropped.contains { $0.message.contains("byte \(offset) ") }) }
        // Unknown packet fields: skipped and counted, whatever their wire type.
        let skipped = trace.diagnostics.filter { $0.kind == .skippedPhase && $0.message.contains("TracePacket field") }
        #expect(
            skipped.reduce(0) { $0 + $1.count }
                == Self.integer(expected["skipped_unknown_packet_fields"]?["count"]).map(Int.init))
    }

    @Test(
        "chrome-pipeline-reporter: each PipelineReporter's typed state as Chrome's JSON gives it, with its stages nested"
    )
    func chromePipelineReporter() throws {
        let trace = try Self.read("chrome-pipeline-reporter")
        let expected = try Self.expected("chrome-pipeline-reporter")
        Self.checkThreads(trace, expected)
        let reporters = trace.events.filter { $0.phase == .asyncBegin && trace.name(of: $0) == "PipelineReporter" }
        let expectedReporters = expected["reporters"]?.arrayValue ?? []
        #expect(reporters.count == expectedReporters.count)
        for reporter in expectedReporters {
            let ts = Self.integer(reporter["ts"])
            let begin = try #require(reporters.first { $0.timestamp == ts })
            let arguments = trace.arguments(of: begin)
            #expect(arguments["chrome_frame_reporter.state"]?.stringValue == reporter["state"]?.stringValue)
            #expect(
                arguments["chrome_frame_reporter.frame_sequence"]?.integerValue
                    == Self.integer(reporter["frame_sequence"]))
            #expect(
                arguments["chrome_frame_reporter.layer_tree_host_id"]?.integerValue
                    == Self.integer(reporter["layer_tree_host_id"]))
            #expect(
                arguments["chrome_frame_reporter.affects_smoothness"]?.boolValue
                    == reporter["affects_smoothness"]?.boolValue)
            #expect(begin.thread.processID == Self.integer(reporter["pid"]))
            // Its end, and its stages: async pairs with the reporter's id.
            let end = trace.events.first { $0.phase == .asyncEnd && $0.id == begin.id && $0.name == begin.name }
            #expect(end.map { $0.timestamp - begin.timestamp } == Self.integer(reporter["dur"]))
            func flatten(_ stages: [JSONValue]) -> [JSONValue] {
                stages + stages.flatMap { flatten($0["children"]?.arrayValue ?? []) }
            }
            for stage in flatten(reporter["stages"]?.arrayValue ?? []) {
                let name = stage["name"]?.stringValue ?? ""
                let stageBegin = trace.events.first {
                    $0.phase == .asyncBegin && $0.id == begin.id && trace.name(of: $0) == name
                        && $0.timestamp == Self.integer(stage["ts"])
                }
                let stageEnd = trace.events.first {
                    $0.phase == .asyncEnd && $0.id == begin.id && trace.name(of: $0) == name
                }
                #expect(stageBegin != nil, "stage \(name)")
                #expect(
                    stageEnd.map { $0.timestamp - (stageBegin?.timestamp ?? 0) } == Self.integer(stage["dur"]),
                    "stage \(name)")
            }
        }
    }

    @Test(
        "atrace-android-app: B/E slices per thread, counters, async S/F, names from process_tree, other ftrace events counted"
    )
    func atrace() throws {
        let trace = try Self.read("atrace-android-app")
        let expected = try Self.expected("atrace-android-app")
        Self.checkThreads(trace, expected)
        for slice in expected["async_slices"]?.arrayValue ?? [] {
            let name = slice["name"]?.stringValue ?? ""
            let begin = trace.events.first {
                $0.phase == .asyncBegin && trace.name(of: $0) == name && $0.timestamp == Self.integer(slice["ts"])
            }
            let end = begin.flatMap { begin in trace.events.first { $0.phase == .asyncEnd && $0.id == begin.id } }
            #expect(begin?.thread.processID == Self.integer(slice["pid"]), "async \(name)")
            #expect(end.map { $0.timestamp - begin!.timestamp } == Self.integer(slice["dur"]), "async \(name)")
        }
        for counter in expected["counters"]?.arrayValue ?? [] {
            let name = counter["track"]?.stringValue ?? counter["name"]?.stringValue ?? ""
            let samples = trace.events.filter { $0.phase == .counter && trace.name(of: $0) == name }
            #expect(
                samples.map(\.timestamp) == (counter["points"]?.arrayValue ?? []).map { Self.integer($0["ts"]) ?? -1 },
                "counter \(name)")
        }
        let skipped = trace.diagnostics.filter { $0.kind == .skippedPhase && $0.message.contains("ftrace event") }
        #expect(
            skipped.reduce(0) { $0 + $1.count }
                == Self.integer(expected["skipped_ftrace_events"]?["count"]).map(Int.init))
    }

    @Test(
        "legacy-events: Chrome's legacy_event phases X, B/E, I, b/e and S/F read as its JSON twin would; others skipped and counted"
    )
    func legacyEvents() throws {
        let trace = try Self.read("legacy-events")
        let expected = try Self.expected("legacy-events")
        let phaseText: [Phase: String] = [.complete: "X", .instant: "i", .asyncBegin: "b", .asyncEnd: "e"]
        let read = trace.events.filter { $0.phase != .metadata }.sorted {
            ($0.timestamp, $0.phase.rawValue) < ($1.timestamp, $1.phase.rawValue)
        }
        let wanted = expected["events"]?.arrayValue ?? []
        #expect(read.count == wanted.count, "\(read.map { trace.name(of: $0) })")
        for (event, want) in zip(read, wanted) {
            let name = want["name"]?.stringValue ?? ""
            #expect(phaseText[event.phase] == want["phase"]?.stringValue, "\(name)")
            #expect(trace.name(of: event) == name)
            #expect(trace.category(of: event) == want["category"]?.stringValue, "\(name)")
            #expect(
                event.thread
                    == ThreadKey(processID: Self.integer(want["pid"]) ?? -1, threadID: Self.integer(want["tid"]) ?? -1),
                "\(name)")
            #expect(event.timestamp == Self.integer(want["ts"]), "\(name)")
            if let duration = Self.integer(want["dur"]) { #expect(event.duration == duration, "\(name)") }
            if let id = want["id"]?.stringValue { #expect(event.id == UInt64(id), "\(name)") }
            #expect(trace.arguments(of: event) == Self.arguments(want["arguments"]), "\(name)")
        }
        let skipped = trace.diagnostics.filter { $0.kind == .skippedPhase && $0.message.contains("legacy event") }
        #expect(skipped.reduce(0) { $0 + $1.count } == Self.integer(expected["skipped"]?["count"]).map(Int.init))
        for kind in expected["skipped"]?["kinds"]?.arrayValue ?? [] {
            #expect(skipped.contains { $0.message.contains(kind.stringValue ?? "?") }, "\(kind)")
        }
    }

    /// The FrameTimeline slices a trace holds, as rows like trace processor's tables.
    static func timelineRows(_ trace: Trace, track: String) -> [(
        ts: Int64, dur: Int64, pid: Int64, name: String, arguments: [Argument]
    )] {
        var rows: [(ts: Int64, dur: Int64, pid: Int64, name: String, arguments: [Argument])] = []
        for (index, event) in trace.events.enumerated()
        where event.phase == .asyncBegin && trace.name(of: event) == track {
            // The child slice (the token) follows its parent; the end shares the id and name.
            let child = trace.events[index + 1]
            let end = trace.events.first { $0.phase == .asyncEnd && $0.id == event.id && $0.name == event.name }
            rows.append(
                (
                    event.timestamp, end.map { $0.timestamp - event.timestamp } ?? -1, event.thread.processID,
                    trace.name(of: child),
                    trace.arguments(of: event)
                ))
        }
        return rows.sorted { ($0.ts, $0.pid, $0.name) < ($1.ts, $1.pid, $1.name) }
    }

    @Test(
        "FrameTimeline rows equal trace processor's diff tests: expected and actual frames, strings, jank tags, durations",
        arguments: [
            "frame-timeline-events", "frame-timeline-metric", "android-app-frames", "frame-timeline-power-mode",
            "android-frames-stdlib",
        ])
    func frameTimeline(_ name: String) throws {
        let trace = try Self.read(name)
        let expected = try Self.expected(name)
        for (table, track) in [
            ("expected_frame_timeline_slice", "Expected Timeline"), ("actual_frame_timeline_slice", "Actual Timeline"),
        ] {
            let rows = (expected[table]?.arrayValue ?? []).sorted {
                (Self.integer($0["ts"]) ?? 0, Self.integer($0["pid"]) ?? 0, $0["name"]?.stringValue ?? "")
                    < (Self.integer($1["ts"]) ?? 0, Self.integer($1["pid"]) ?? 0, $1["name"]?.stringValue ?? "")
            }
            let actual = Self.timelineRows(trace, track: track)
            #expect(actual.count == rows.count, "\(name): \(table)")
            for (row, slice) in zip(rows, actual) {
                let what = "\(name) \(track) \(row["name"]?.stringValue ?? "") at \(Self.integer(row["ts"]) ?? -1)"
                #expect(slice.ts == Self.integer(row["ts"]), "\(what)")
                #expect(slice.dur == Self.integer(row["dur"]), "\(what): dur")
                #expect(slice.pid == Self.integer(row["pid"]), "\(what): pid")
                #expect(slice.name == row["name"]?.stringValue, "\(what): name")
                let arguments = Self.arguments(row["arguments"])
                #expect(
                    Self.same(slice.arguments.sorted { $0.key < $1.key }, arguments.sorted { $0.key < $1.key }),
                    "\(what): \(slice.arguments)")
            }
        }
    }

    @Test(
        "A writer killed mid-packet: the complete packets read, with a truncated diagnostic naming the torn packet's byte"
    )
    func truncatedLastPacket() throws {
        let trace = try Self.read("truncated-last-packet")
        let expected = try Self.expected("truncated-last-packet")
        let offset = try #require(Self.integer(expected["diagnostic"]?["byte_offset"]))
        #expect(trace.diagnostics.map(\.kind) == [.truncated])
        let missing = try #require(Self.integer(expected["diagnostic"]?["missing_bytes"]))
        #expect(trace.diagnostics.first?.message.contains("byte \(offset)") == true)
        #expect(trace.diagnostics.first?.message.contains(", \(missing) missing;") == true, "\(trace.diagnostics)")
        if let kept = expected["expected"] { Self.checkThreads(trace, kept) }
        let repair = try TraceRepair.repair(try Fixture.bytes("perfetto/truncated-last-packet.pftrace"))
        #expect(!repair.wasComplete && repair.format == .perfetto)
        #expect(repair.droppedFromOffset == Int(offset))
        #expect(repair.keptEventCount == Self.integer(expected["expected"]?["complete_packets"]).map(Int.init))
        #expect(try TraceReader.read(bytes: repair.bytes).diagnostics.isEmpty)
    }

    @Test(
        "Malformed bytes are an error with the byte offset, never a trap",
        arguments: [
            "varint-too-long", "length-beyond-file", "first-packet-beyond-file", "last-packet-length-over-2gib",
        ])
    func malformed(_ name: String) throws {
        let expected = try Self.expected(name)
        do {
            _ = try Self.read(name)
            Issue.record("\(name) read without an error")
        } catch let error as TraceReadError {
            #expect(error.code.rawValue == expected["error"]?["code"]?.stringValue)
            #expect(Int64(error.byteOffset) == Self.integer(expected["error"]?["byte_offset"]))
            #expect(error.description.hasPrefix("byte \(error.byteOffset): "))
            #expect(error.message.contains(expected["error"]?["message_contains"]?.stringValue ?? ""))
        }
    }

    @Test(
        "Inconsistent content loads with diagnostics that name the packet's byte: deep nesting, undefined iids, times past 2^60",
        arguments: ["deep-nesting", "undefined-iid", "huge-timestamp"])
    func inconsistent(_ name: String) throws {
        let trace = try Self.read(name)
        let expected = try Self.expected(name)
        let diagnostic = try #require(expected["diagnostic"])
        let kind = diagnostic["kind"]?.stringValue ?? ""
        let matching = trace.diagnostics.filter { $0.kind.rawValue == kind }
        #expect(
            matching.reduce(0) { $0 + $1.count } == Self.integer(diagnostic["count"]).map(Int.init),
            "\(name): \(trace.diagnostics)")
        if kind != "skipped-argument" {  // a summary, not per packet
            let offsets =
                (diagnostic["byte_offsets"]?.arrayValue?.compactMap(Self.integer) ?? [])
                + [Self.integer(diagnostic["byte_offset"])].compactMap { $0 }
            for offset in offsets {
                let packet = try #require(Self.packetStart(holding: offset, in: expected))
                #expect(matching.contains { $0.message.contains("byte \(packet)") }, "\(name): packet at \(packet)")
            }
        }
        if let kept = expected["expected"] { Self.checkThreads(trace, kept) }
    }

    @Test("Interned ids far apart and out of order resolve, however the table stores them")
    func sparseInternedIDs() throws {
        // One sequence: a name at iid 1500 first (far past the others), then iids 2...1600 in
        // order, which grow the table over 1500; then slices named by 1500 and by 2.
        var out = ProtobufOutput()
        func packet(_ body: (inout ProtobufOutput) -> Void) {
            out.message(PerfettoSchema.Trace.packet) { packet in
                packet.varint(PerfettoSchema.Packet.trustedPacketSequenceID, 1)
                body(&packet)
            }
        }
        func name(_ iid: UInt64, _ text: String, into packet: inout ProtobufOutput) {
            packet.message(PerfettoSchema.Packet.internedData) { interned in
                interned.message(PerfettoSchema.Interned.eventNames) { entry in
                    entry.varint(PerfettoSchema.Interned.iid, iid)
                    entry.string(PerfettoSchema.Interned.string, text)
                }
            }
        }
        packet { $0.varint(PerfettoSchema.Packet.sequenceFlags, PerfettoSchema.Packet.incrementalStateClearedFlag) }
        packet { name(1500, "far", into: &$0) }
        for iid in UInt64(2)...1600 where iid != 1500 { packet { name(iid, "n\(iid)", into: &$0) } }
        for (time, iid) in [(100, UInt64(1500)), (300, 2)] {
            packet { packet in
                packet.varint(PerfettoSchema.Packet.timestamp, UInt64(time))
                packet.message(PerfettoSchema.Packet.trackEvent) { event in
                    event.varint(PerfettoSchema.Event.type, PerfettoSchema.Event.instant)
                    event.varint(PerfettoSchema.Event.nameIID, iid)
                }
            }
        }
        let trace = try TraceReader.read(bytes: out.bytes)
        #expect(trace.events.map { trace.name(of: $0) } == ["far", "n2"], "\(trace.diagnostics)")
    }

    @Test("Every prefix of a fixture reads or fails with an error: no trap, no hang")
    func everyPrefix() throws {
        for name in ["track-event-basics", "chrome-pipeline-reporter", "atrace-android-app", "android-app-frames"] {
            let bytes = try Fixture.bytes("perfetto/\(name).pftrace")
            for length in stride(from: 1, through: bytes.count, by: max(1, bytes.count / 300)) {
                do {
                    let trace = try TraceReader.read(bytes: bytes.prefix(length))
                    if length < bytes.count, PerfettoImporter.looksLikePerfetto(bytes: bytes.prefix(length)) {
                        _ = trace.events.count
                    }
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }
}

extension PerfettoImporter {
    /// `looksLikePerfetto` over any bytes, for tests.
    static func looksLikePerfetto(bytes: some Collection<UInt8>) -> Bool {
        Array(bytes).withUnsafeBufferPointer { looksLikePerfetto($0) }
    }
}
