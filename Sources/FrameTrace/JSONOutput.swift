/// An append-only byte buffer with the JSON primitives the trace writer needs.
///
/// Numbers are formatted by hand from integers so timestamps are exact and no Foundation
/// formatter runs per event.
package struct JSONOutput {
    package var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    package mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    package mutating func append(bytes other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Appends a signed decimal integer.
    package mutating func append(integer value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(unsigned: value.magnitude)
        } else {
            append(unsigned: UInt64(value))
        }
    }

    /// Appends an unsigned decimal integer.
    package mutating func append(unsigned value: UInt64) {
        if value < 10 {
            bytes.append(0x30 &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                count += 1
                buffer[24 - count] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// Appends nanoseconds as microseconds with at most three decimals, exactly.
    package mutating func append(microsecondsFromNanoseconds nanoseconds: Int64) {
        if nanoseconds < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude
        append(unsigned: magnitude / 1000)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt64 = 100
        while fraction != 0 {
            bytes.append(0x30 &+ UInt8(truncatingIfNeeded: fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// Appends a double as JSON; NaN and infinities, which JSON cannot hold, become `null`.
    package mutating func append(double value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            append(integer: Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// Appends a quoted, escaped JSON string.
    package mutating func append(string: String) {
        bytes.append(UInt8(ascii: "\""))
        JSONOutput.escape(string, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a value as compact JSON: the one JSON writer of ``JSONValue``, iterative, so deep
    /// nesting cannot overflow the stack. Non-finite numbers become `null`.
    package mutating func append(value: JSONValue) {
        switch value {
        case .int(let int): return append(integer: int)
        case .double(let double): return append(double: double)
        case .string(let string): return append(string: string)
        case .bool(let bool): return append(bool ? "true" : "false")
        case .null: return append("null")
        case .array, .object: break
        }
        var pending: [(JSONValue, Int)] = [(value, 0)]
        // A stack of (value, next child index); closing brackets when a container is done.
        while let (value, child) = pending.popLast() {
            switch value {
            case .null: append("null")
            case .bool(let bool): append(bool ? "true" : "false")
            case .int(let integer): append(integer: integer)
            case .double(let number): append(double: number)
            case .string(let string): append(string: string)
            case .array(let elements):
                if child == 0 { bytes.append(UInt8(ascii: "[")) }
                if child < elements.count {
                    if child > 0 { bytes.append(UInt8(ascii: ",")) }
                    pending.append((value, child + 1))
                    pending.append((elements[child], 0))
                } else {
                    bytes.append(UInt8(ascii: "]"))
                }
            case .object(let members):
                if child == 0 { bytes.append(UInt8(ascii: "{")) }
                if child < members.count {
                    if child > 0 { bytes.append(UInt8(ascii: ",")) }
                    append(string: members[child].0)
                    bytes.append(UInt8(ascii: ":"))
                    pending.append((value, child + 1))
                    pending.append((members[child].1, 0))
                } else {
                    bytes.append(UInt8(ascii: "}"))
                }
            }
        }
    }

    /// Appends `{"key":value,...}` for arguments.
    package mutating func append(arguments: [Argument]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, argument) in arguments.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(string: argument.key)
            bytes.append(UInt8(ascii: ":"))
            append(value: argument.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Escapes a string's UTF-8 for a JSON string body: quote, backslash and every control
    /// character, and — so that the text stays inert in a CI log or a terminal that shows it
    /// raw — every hidden character (``isHidden(_:keepingTab:)``: bidi controls,
    /// U+2028/U+2029/U+0085, tag characters, ...) as a `\u` escape (a surrogate pair past
    /// U+FFFF), and the second `#` of `##[` (the GitHub runner's command form) as `\u0023`.
    /// Every escape decodes to the same string: JSON keeps names exactly. Swift strings are
    /// valid Unicode, so ill-formed input was already replaced by U+FFFD when the string was
    /// made from bytes.
    package static func escape(_ string: String, into output: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"),
                    byte != UInt8(ascii: "#")
                {
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "#") {
                    let opensCommand =
                        index > 0 && utf8[index - 1] == UInt8(ascii: "#") && index + 1 < utf8.count
                        && utf8[index + 1] == UInt8(ascii: "[")
                    guard opensCommand else {
                        index += 1
                        continue
                    }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    appendUnicodeEscape(0x23, to: &output)
                    index += 1
                    start = index
                    continue
                }
                if byte >= 0x7F {
                    // A scalar past ASCII: decoded only to ask whether it is hidden.
                    let (value, length) = scalarValue(utf8, at: index)
                    index += length
                    guard let scalar = Unicode.Scalar(value), isHidden(scalar) else { continue }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index - length]))
                    appendScalarEscape(value, to: &output)
                    start = index
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendASCIIEscape(byte, to: &output)
                index += 1
                start = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
    }

    /// The value and length of the UTF-8 sequence that begins at `index` (a byte past ASCII).
    @inline(__always)
    private static func scalarValue(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let byte = utf8[index]
        let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        var value = UInt32(byte < 0x80 ? byte : byte < 0xE0 ? byte & 0x1F : byte < 0xF0 ? byte & 0x0F : byte & 0x07)
        for offset in 1..<max(length, 1) where index + offset < utf8.count {
            value = value << 6 | UInt32(utf8[index + offset] & 0x3F)
        }
        return (value, length)
    }

    /// Appends a hidden scalar as `\u` escapes: a surrogate pair past U+FFFF.
    private static func appendScalarEscape(_ value: UInt32, to output: inout [UInt8]) {
        if value > 0xFFFF {
            let offset = value - 0x10000
            appendUnicodeEscape(0xD800 + (offset >> 10), to: &output)
            appendUnicodeEscape(0xDC00 + (offset & 0x3FF), to: &output)
        } else {
            appendUnicodeEscape(value, to: &output)
        }
    }

    /// Appends the escape of a quote, a backslash or a control character.
    private static func appendASCIIEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            output.append(contentsOf: [
                UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)],
            ])
        }
    }

    /// Appends `\uXXXX` for a UTF-16 code unit.
    private static func appendUnicodeEscape(_ unit: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(hexDigits[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }
}
