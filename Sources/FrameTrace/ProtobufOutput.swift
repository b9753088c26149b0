/// An append-only byte buffer with the protocol buffer wire format's primitives: what the Perfetto
/// writer needs, and nothing from a protobuf library (framescope has no package dependencies).
///
/// A field is a key (`field number << 3 | wire type`, a varint) and a value. Nested messages are
/// written in place: ``message(_:_:)`` reserves one length byte, writes the body after it and
/// widens the length afterwards only when the body is 128 bytes or longer, so the common small
/// message costs no copy.
///
/// ```swift
/// var out = ProtobufOutput()
/// out.message(1) { packet in           // Trace.packet
///     packet.varint(8, 1_000)           // TracePacket.timestamp
///     packet.string(23, "layout")       // would be TrackEvent.name inside a track_event
/// }
/// ```
package struct ProtobufOutput {
    /// The wire types framescope writes (groups, 3 and 4, are obsolete).
    package enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    package var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    package mutating func key(_ field: Int, _ type: WireType) {
        appendVarint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    @inline(__always)
    package mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// An unsigned varint field (`uint64`, `uint32`, enums, `bool`).
    @inline(__always)
    package mutating func varint(_ field: Int, _ value: UInt64) {
        key(field, .varint)
        appendVarint(value)
    }

    /// A signed varint field (`int64`, `int32`): two's complement, ten bytes when negative.
    @inline(__always)
    package mutating func int(_ field: Int, _ value: Int64) {
        varint(field, UInt64(bitPattern: value))
    }

    /// A `bool` field.
    package mutating func bool(_ field: Int, _ value: Bool) { varint(field, value ? 1 : 0) }

    /// A `fixed64` field.
    package mutating func fixed64(_ field: Int, _ value: UInt64) {
        key(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `double` field.
    package mutating func double(_ field: Int, _ value: Double) { fixed64(field, value.bitPattern) }

    /// A `string` field (UTF-8).
    package mutating func string(_ field: Int, _ value: String) {
        key(field, .lengthDelimited)
        var value = value
        value.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A `bytes` field, or a message already encoded.
    package mutating func bytes(_ field: Int, _ value: [UInt8]) {
        key(field, .lengthDelimited)
        appendVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A nested message written by `body`, with its length in front.
    @inline(__always)
    package mutating func message(_ field: Int, _ body: (inout ProtobufOutput) -> Void) {
        key(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        closeLength(at: lengthAt)
    }

    /// Writes the length of the body that follows the placeholder byte at `lengthAt`, widening
    /// the placeholder when the length needs more than one byte.
    package mutating func closeLength(at lengthAt: Int) {
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
            return
        }
        var encoded: [UInt8] = []
        var rest = UInt64(length)
        while rest >= 0x80 {
            encoded.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        encoded.append(UInt8(truncatingIfNeeded: rest))
        bytes.replaceSubrange(lengthAt..<(lengthAt + 1), with: encoded)
    }
}
