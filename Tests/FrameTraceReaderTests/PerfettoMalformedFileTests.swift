import FrameTrace
import Testing

@testable import FrameTraceReader

/// The rule for a Perfetto file that ends too soon, pinned over every truncation of valid
/// fixtures and over the hostile byte strings that first broke it: a torn packet after a whole
/// one loads with a `truncated` diagnostic (what a killed writer leaves); no whole packet, or a
/// length of 2 GiB or more, is an error. What each cut must give is worked out here from the
/// fixture's own packet boundaries, walked by this file, not from the reader's code.
@Suite("Perfetto files that end too soon: a torn last packet loads, no whole packet is an error")
struct PerfettoMalformedFileTests {
    /// A top-level packet as this test walks it: key byte at `start`, its length's varint, payload.
    struct Packet {
        var start: Int
        var payloadStart: Int
        var length: Int
        var end: Int { payloadStart + length }
    }

    /// The packets of a whole Perfetto file: each a `0x0A` key, a varint length and that many bytes.
    static func packets(of bytes: [UInt8]) -> [Packet] {
        var packets: [Packet] = []
        var position = 0
        while position < bytes.count {
            precondition(bytes[position] == 0x0A, "a fixture whose top-level fields are all packets")
            let start = position
            position += 1
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            packets.append(Packet(start: start, payloadStart: position, length: length))
            position += length
        }
        precondition(position == bytes.count)
        return packets
    }

    /// What reading the first `length` bytes of a fixture must give.
    enum Outcome: Equatable {
        /// Loads; `truncated` is the diagnostic's message when the cut is inside a packet.
        case loads(truncated: String?)
        case error(TraceReadError.Code, byteOffset: Int, message: String)
    }

    /// The outcome of cutting a file of `packets` after `length` bytes, from the rule.
    static func expected(cutAt length: Int, of bytes: [UInt8], packets: [Packet]) -> Outcome {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        if length == 0 { return .error(.notJSON, byteOffset: 0, message: "the input is empty") }
        // Read as JSON: white space only (a lone line feed, or a line feed and a length byte that
        // is a white space character).
        if bytes.prefix(length).allSatisfy(whitespace.contains) {
            let message =
                length == 1
                ? "the input is 1 byte, a line feed: no JSON value, and too short to hold one Perfetto packet"
                : "the input is \(length) bytes of white space: no JSON value, nor a Perfetto trace"
            return .error(.notJSON, byteOffset: 0, message: message)
        }
        if packets.contains(where: { $0.end == length }) { return .loads(truncated: nil) }
        let index = packets.firstIndex { $0.end > length }!
        let torn = packets[index]
        if index == 0 {
            if length < torn.payloadStart {
                return .error(
                    .unexpectedEnd, byteOffset: 0,
                    message:
                        "the input is \(length) bytes and ends inside the first packet's length: not a whole Perfetto packet"
                )
            }
            return .error(
                .unexpectedEnd, byteOffset: 0,
                message:
                    "the first packet claims \(torn.length) bytes but only \(length - torn.payloadStart) follow its length, in an input of \(length) bytes: not a whole Perfetto packet"
            )
        }
        let read = "the \(index) packet\(index == 1 ? "" : "s") before it \(index == 1 ? "was" : "were") read"
        if length < torn.payloadStart {
            return .loads(
                truncated:
                    "the input ends inside the length of the packet that starts at byte \(torn.start), so how many bytes are missing is not known; \(read)"
            )
        }
        let present = length - torn.payloadStart
        return .loads(
            truncated:
                "the input ends inside the packet that starts at byte \(torn.start): it claims \(torn.length) bytes and the input has \(present), \(torn.end - length) missing; \(read)"
        )
    }

    /// A fixture cut after `length` bytes.
    struct Cut: CustomTestStringConvertible, Sendable {
        var fixture: String
        var length: Int
        var testDescription: String { "\(fixture) cut after \(length) bytes" }
    }

    static let fixtures = ["track-event-basics", "atrace-android-app"]

    /// Every truncation of each fixture, from nothing to the whole file.
    static let cuts: [Cut] = fixtures.flatMap { name in
        let size = (try? Fixture.bytes("perfetto/\(name).pftrace").count) ?? 0
        return (0...size).map { Cut(fixture: name, length: $0) }
    }

    @Test("The cuts cover whole fixtures, each of several packets with multi-byte lengths")
    func cutsCoverFixtures() throws {
        for name in Self.fixtures {
            let bytes = try Fixture.bytes("perfetto/\(name).pftrace")
            let packets = Self.packets(of: bytes)
            #expect(packets.count >= 3 && packets.contains { $0.payloadStart - $0.start > 2 }, "\(name)")
            #expect(Self.cuts.filter { $0.fixture == name }.count == bytes.count + 1)
        }
    }

    @Test(
        "Every truncation of a fixture loads (a truncated diagnostic exactly when the cut tears a packet after the first) or is the documented error",
        arguments: cuts)
    func everyTruncation(_ cut: Cut) throws {
        let bytes = try Fixture.bytes("perfetto/\(cut.fixture).pftrace")
        let packets = Self.packets(of: bytes)
        let prefix = Array(bytes.prefix(cut.length))
        let expected = Self.expected(cutAt: cut.length, of: bytes, packets: packets)
        // On the calling thread, and with the packets framed on a worker thread.
        for pipelining in [TraceReader.Pipelining.never, .always] {
            let result = prefix.withUnsafeBufferPointer {
                TraceReader.parse($0, releasesInput: false, pipelining: pipelining)
            }
            switch (result, expected) {
            case (.success(let trace), .loads(let truncated)):
                #expect(
                    trace.diagnostics.filter { $0.kind == .truncated }.map(\.message) == (truncated.map { [$0] } ?? []),
                    "\(pipelining)")
                // A torn packet adds nothing: the trace is the one cut on the last whole packet.
                if truncated != nil, let whole = packets.last(where: { $0.end <= cut.length }) {
                    let before = try TraceReader.read(bytes: bytes.prefix(whole.end))
                    #expect(trace.events == before.events)
                    #expect(trace.diagnostics.filter { $0.kind != .truncated } == before.diagnostics)
                }
            case (.failure(let error), .error(let code, let byteOffset, let message)):
                #expect(
                    error.code == code && error.byteOffset == byteOffset && error.message == message, "\(pipelining)")
                #expect(!error.description.contains("\n"))
            default:
                Issue.record("\(pipelining): read \(result), expected \(expected)")
            }
        }
    }

    /// Hostile byte strings and what reading them gives: `(code, byte offset, message)` for an
    /// error, `nil` for a load with a truncated diagnostic.
    struct Hostile: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var error: (code: TraceReadError.Code, byteOffset: Int, description: String)?
        var testDescription: String { name }
    }

    /// The varint bytes of a value.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }

    /// A whole packet: a timestamp (field 8) of 1000.
    static let wholePacket: [UInt8] = [0x0A, 0x03, 0x40, 0xE8, 0x07]

    static let hostile: [Hostile] = [
        Hostile(
            name: "2^40 bytes claimed by the first packet of a 15-byte file",
            bytes: [0x0A] + varint(1 << 40) + [0x40, 0xA0, 0x8D, 0x06, 0x50, 0x01, 0x68, 0x01],
            error: (
                .invalidProtobuf, 0,
                "byte 0: the first packet claims 1099511627776 bytes but only 8 follow its length, in an input of 15 bytes: not a whole Perfetto packet"
            )),
        Hostile(
            name: "one byte, 0x0A", bytes: [0x0A],
            error: (
                .notJSON, 0,
                "line 1, column 1 (byte 0): the input is 1 byte, a line feed: no JSON value, and too short to hold one Perfetto packet"
            )),
        Hostile(name: "empty", bytes: [], error: (.notJSON, 0, "line 1, column 1 (byte 0): the input is empty")),
        Hostile(
            name: "a key and a cut length", bytes: [0x0A, 0x80],
            error: (
                .unexpectedEnd, 0,
                "byte 0: the input is 2 bytes and ends inside the first packet's length: not a whole Perfetto packet"
            )),
        Hostile(
            name: "a first packet missing one byte", bytes: [0x0A, 0x04, 0x40, 0xE8, 0x07],
            error: (
                .unexpectedEnd, 0,
                "byte 0: the first packet claims 4 bytes but only 3 follow its length, in an input of 5 bytes: not a whole Perfetto packet"
            )),
        Hostile(
            name: "a whole packet, then one claiming 2^40 bytes",
            bytes: wholePacket + [0x0A] + varint(1 << 40) + [0x40, 0x01],
            error: (
                .invalidProtobuf, 5,
                "byte 5: the packet claims 1099511627776 bytes, and no protobuf message is 2 GiB or more: a corrupt length, not a packet cut off mid-write"
            )),
        Hostile(
            name: "a whole packet, then one claiming 2^31 bytes",
            bytes: wholePacket + [0x0A] + varint(1 << 31) + [0x40, 0x01],
            error: (
                .invalidProtobuf, 5,
                "byte 5: the packet claims 2147483648 bytes, and no protobuf message is 2 GiB or more: a corrupt length, not a packet cut off mid-write"
            )),
        Hostile(
            name: "a whole packet, then one claiming 2^31 - 1 bytes (torn)",
            bytes: wholePacket + [0x0A] + varint((1 << 31) - 1) + [0x40, 0x01], error: nil),
        Hostile(name: "a whole packet, then a packet key alone (torn)", bytes: wholePacket + [0x0A], error: nil),
    ]

    @Test(
        "Hostile byte strings: no whole packet or a length of 2 GiB or more is one line naming the byte; a torn packet after a whole one loads",
        arguments: hostile)
    func hostileBytes(_ input: Hostile) throws {
        guard let expected = input.error else {
            let trace = try TraceReader.read(bytes: input.bytes)
            let truncated = trace.diagnostics.filter { $0.kind == .truncated }
            #expect(
                truncated.count == 1 && truncated[0].message.contains("byte \(Self.wholePacket.count)"),
                "\(trace.diagnostics)")
            let repair = try TraceRepair.repair(input.bytes)
            #expect(repair.bytes == Self.wholePacket && repair.droppedFromOffset == Self.wholePacket.count)
            return
        }
        let error = try #require(throws: TraceReadError.self) { try TraceReader.read(bytes: input.bytes) }
        #expect(error.code == expected.code)
        #expect(error.byteOffset == expected.byteOffset)
        #expect(error.description == expected.description)
        // Repair keeps whole packets: where the reader finds none, or a corrupt length, it has
        // nothing it may cut, and says what the reader says.
        if PerfettoImporter.looksLikePerfetto(bytes: input.bytes) {
            #expect(throws: error) { try TraceRepair.repair(input.bytes) }
        }
    }

    @Test("The reader alone (as the fuzz target calls it) refuses an empty input: no whole packet")
    func emptyInputToThePerfettoReader() throws {
        let result = [UInt8]().withUnsafeBufferPointer { PerfettoImporter.parse($0, arguments: .all) }
        guard case .failure(let error) = result else {
            Issue.record("an empty input read as a Perfetto trace")
            return
        }
        #expect(error.code == .unexpectedEnd && error.byteOffset == 0 && error.isBinaryPosition)
    }

    @Test(
        "The two generated files at the rule's edges read from disk as their expected files say",
        arguments: ["first-packet-beyond-file", "last-packet-length-over-2gib"])
    func fixtures(_ name: String) throws {
        let expected = try PerfettoReaderTests.expected(name)
        let error = try #require(throws: TraceReadError.self) { try Fixture.read("perfetto/\(name).pftrace") }
        #expect(error.code.rawValue == expected["error"]?["code"]?.stringValue)
        #expect(Int64(error.byteOffset) == PerfettoReaderTests.integer(expected["error"]?["byte_offset"]))
        #expect(error.message == expected["error"]?["message"]?.stringValue)
    }
}
