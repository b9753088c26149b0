/// A bounds-checked cursor over protocol buffer bytes: framescope's own decoder, with no protobuf
/// library (the package has no dependencies).
///
/// Every read checks the bytes it needs against the end of its message, so malformed input is an
/// error with the byte offset, never an out-of-bounds read: a varint longer than ten bytes, a
/// length past its message or the file, a group (wire types 3 and 4, which Perfetto never
/// writes), a field number of 0. Lengths are compared before any arithmetic, so nothing a file
/// says can overflow an index.
///
/// ```swift
/// var input = ProtobufInput(buffer)
/// while let (field, wireType) = try input.nextField() {
///     if field == 8, wireType == .varint { timestamp = try input.varint() } else { try input.skip(wireType) }
/// }
/// ```
struct ProtobufInput {
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    let buffer: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read, from the start of the file.
    private(set) var position: Int
    /// The end of the current message (exclusive).
    let end: Int
    /// Whether this cursor is the whole file's: only running out there is the file being cut
    /// off (``TraceReadError/Code/unexpectedEnd``); running out of a nested message whose length
    /// was all there is a malformed message (``TraceReadError/Code/invalidProtobuf``).
    let isWholeFile: Bool

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.position = 0
        self.end = buffer.count
        self.isWholeFile = true
    }

    private init(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.buffer = buffer
        self.position = start
        self.end = end
        self.isWholeFile = false
    }

    var isAtEnd: Bool { position >= end }

    static func error(_ message: String, at offset: Int, end: Bool = false) -> TraceReadError {
        var error = TraceReadError(end ? .unexpectedEnd : .invalidProtobuf, message, at: offset)
        error.isBinaryPosition = true
        return error
    }

    /// The next field's number and wire type, or `nil` at the end of the message.
    @inline(__always)
    mutating func nextField() throws(TraceReadError) -> (field: Int, wireType: WireType)? {
        guard position < end else { return nil }
        let start = position
        let key = try varint()
        let field = key >> 3
        guard field > 0, field <= 0x1FFF_FFFF else {
            throw Self.error("field number \(field) is outside protobuf's range 1...536870911", at: start)
        }
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw Self.error("wire type \(key & 7) (field \(field)) is not one Perfetto's format uses", at: start)
        }
        return (Int(field), type)
    }

    /// A varint of at most ten bytes.
    @inline(__always)
    mutating func varint() throws(TraceReadError) -> UInt64 {
        if position < end, buffer[position] < 0x80 {
            defer { position += 1 }
            return UInt64(buffer[position])
        }
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else {
                throw Self.error("a varint runs past the end of its message", at: start, end: isWholeFile)
            }
            let byte = buffer[position]
            position += 1
            // The tenth byte holds the 64th bit only: more, or a continuation, is an eleventh byte
            // or a value past 64 bits.
            if shift == 63, byte > 1 {
                throw Self.error("a varint is longer than ten bytes (64 bits)", at: start)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func fixed64() throws(TraceReadError) -> UInt64 {
        guard end - position >= 8 else {
            throw Self.error("a 64-bit field runs past the end of its message", at: position, end: isWholeFile)
        }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(buffer[position + index]) << (8 * UInt64(index)) }
        position += 8
        return value
    }

    mutating func fixed32() throws(TraceReadError) -> UInt32 {
        guard end - position >= 4 else {
            throw Self.error("a 32-bit field runs past the end of its message", at: position, end: isWholeFile)
        }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(buffer[position + index]) << (8 * UInt32(index)) }
        position += 4
        return value
    }

    /// The bounds of a length-delimited value, which is then skipped.
    @inline(__always)
    mutating func lengthDelimited() throws(TraceReadError) -> Range<Int> {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw Self.error(
                "a length of \(length) bytes runs past the end of its \(isWholeFile ? "file" : "message") (\(end - position) bytes left)",
                at: start, end: isWholeFile)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// A cursor over a length-delimited value.
    mutating func message() throws(TraceReadError) -> ProtobufInput {
        let range = try lengthDelimited()
        return ProtobufInput(buffer, from: range.lowerBound, to: range.upperBound)
    }

    /// A cursor over a range of the same buffer.
    func input(over range: Range<Int>) -> ProtobufInput {
        ProtobufInput(buffer, from: range.lowerBound, to: range.upperBound)
    }

    /// The UTF-8 string in a range (invalid sequences become U+FFFD).
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// A length-delimited string.
    mutating func string() throws(TraceReadError) -> String { string(try lengthDelimited()) }

    /// Skips a value of the given wire type.
    @inline(__always)
    mutating func skip(_ type: WireType) throws(TraceReadError) {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed32: _ = try fixed32()
        }
    }

    /// A varint, or a fixed64 for a field declared `fixed64` (flow ids), as the wire type says.
    mutating func integer(_ type: WireType) throws(TraceReadError) -> UInt64? {
        switch type {
        case .varint: return try varint()
        case .fixed64: return try fixed64()
        case .fixed32: return UInt64(try fixed32())
        case .lengthDelimited:
            _ = try lengthDelimited()
            return nil
        }
    }
}
