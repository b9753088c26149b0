/// A forward-only scanner over the UTF-8 bytes of a JSON document.
///
/// It finds tokens without allocating: strings come back as byte ranges (decoded only when a
/// caller asks), numbers as a ``JSONNumberToken`` (converted only when a caller asks), and whole
/// values can be skipped with full validation but without building anything. Nothing recurses, so
/// no input can overflow the stack; containers nested deeper than a limit are an error.
///
/// Errors are `Failure` values (``JSONParseError``, or a reader's own error) that carry only a byte
/// offset; the line and column are added when the error leaves the parser or the reader.
/// Everything is `@inlinable` so that a reader in another module tokenizes at the speed it did
/// when the scanner was its own: specialized for its error type, the small steps inlined.
///
/// The `package` types (this one, ``JSONStringToken``, ``JSONNumberToken``, ``JSONScanFailure``)
/// and their stored properties are `@usableFromInline` too, and that is what makes `@inlinable`
/// work: Swift 6.3 accepts `@inlinable` on a member of a plain `package` type without a word, but
/// other modules then only call it, out of line and (for the scanner) unspecialized, which made
/// the Chrome reader's tokenizer a quarter slower than when the scanner lived in the reader.
@usableFromInline package struct JSONScanner<Failure: JSONScanFailure> {
    /// The first byte of the input.
    @usableFromInline package let base: UnsafePointer<UInt8>
    /// The number of bytes in the input.
    @usableFromInline package let count: Int
    /// The offset of the next byte to read.
    @usableFromInline package var position: Int
    /// One bit per open container while skipping: 1 for an object, 0 for an array.
    @usableFromInline var nesting: [UInt64] = []

    /// The deepest nesting ``skipValue()`` accepts.
    @inlinable package static var maximumSkipDepth: Int { 10_000 }

    /// Creates a scanner at the start of `input`, which must outlive it.
    @inlinable package init(_ input: UnsafeBufferPointer<UInt8>) {
        base = input.baseAddress.map { UnsafePointer($0) } ?? UnsafePointer(jsonEmptyInput)
        count = input.count
        position = 0
    }

    // MARK: - Bytes and whitespace

    /// Skips a UTF-8 byte-order mark at the start of the input.
    @inlinable package mutating func skipByteOrderMark() {
        if position == 0, count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
    }

    /// Whether every byte has been read.
    @inline(__always)
    @inlinable package var isAtEnd: Bool { position >= count }

    /// The byte at `position`; only valid when not at the end.
    @inline(__always)
    @inlinable package var current: UInt8 { base[position] }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    @inline(__always)
    @inlinable package mutating func skipWhitespace() {
        while position < count {
            let byte = base[position]
            if byte > UInt8(ascii: " ") { return }
            guard
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\t")
            else { return }
            position += 1
        }
    }

    /// Skips whitespace and returns the next byte without consuming it.
    /// - Throws: ``TraceReadError/Code/unexpectedEnd`` at the end of the input.
    @inline(__always)
    @inlinable package mutating func peekValue(_ expectation: @autoclosure () -> String) throws(Failure) -> UInt8 {
        // no whitespace, the usual case
        if position < count, base[position] > UInt8(ascii: " ") { return base[position] }
        skipWhitespace()
        guard position < count else { throw endOfInput(expecting: expectation()) }
        return base[position]
    }

    /// Skips whitespace and consumes `byte`.
    /// - Throws: ``TraceReadError/Code/unexpectedToken`` when the next byte is another one.
    @inline(__always)
    @inlinable package mutating func expect(_ byte: UInt8, _ expectation: @autoclosure () -> String) throws(Failure) {
        skipWhitespace()
        guard position < count else { throw endOfInput(expecting: expectation()) }
        guard base[position] == byte else { throw unexpected(expecting: expectation()) }
        position += 1
    }

    /// Consumes a comma when it and the quote of the next member name follow with no whitespace
    /// (`,"`), which is what the general path (peek `,`, consume it, peek `"`) would do there.
    /// - Returns: Whether it did; if not, nothing is consumed.
    @inline(__always)
    @inlinable package mutating func skipCommaBeforeName() -> Bool {
        let at = position
        guard at &+ 2 <= count,
            UInt16(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt16.self)) == 0x222C
        else {
            return false
        }
        position = at &+ 1
        return true
    }

    // MARK: - Errors

    /// The error for running out of input while expecting something.
    @inlinable package func endOfInput(expecting expectation: String) -> Failure {
        Failure.syntax(.unexpectedEnd, "the input ends where \(expectation) was expected", at: count)
    }

    /// The error for an unexpected byte at `position`.
    @inlinable package func unexpected(expecting expectation: String, at offset: Int? = nil) -> Failure {
        let offset = offset ?? position
        guard offset < count else { return endOfInput(expecting: expectation) }
        return Failure.syntax(
            .unexpectedToken, "expected \(expectation), found \(JSONScanner.describe(base[offset]))", at: offset)
    }

    /// A byte as a person would name it in an error message.
    @inlinable package static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "'\"'"
        case UInt8(ascii: "!")...UInt8(ascii: "~"): return "'\(Character(Unicode.Scalar(byte)))'"
        case UInt8(ascii: " "): return "a space"
        case UInt8(ascii: "\n"): return "a line feed"
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
        }
    }

    // MARK: - Strings

    /// Scans a string whose opening quote is at `position`, leaving `position` after the closing
    /// quote. Escapes are validated but not decoded.
    /// - Returns: The byte range between the quotes.
    /// - Throws: ``TraceReadError/Code/unterminatedString`` when the input ends inside it,
    ///   ``TraceReadError/Code/invalidEscape`` for a bad escape, and
    ///   ``TraceReadError/Code/unexpectedToken`` for a raw control character.
    @inline(__always)
    @inlinable package mutating func scanString() throws(Failure) -> JSONStringToken {
        let open = position
        var index = position + 1
        var hasEscapes = false
        while true {
            // Eight bytes at a time while none of them is a quote, a backslash or a control byte;
            // then straight to the first one that is (the lowest flagged byte is exact).
            while index &+ 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let special = JSONScanner.specialStringBytes(word)
                if special != 0 {
                    index &+= special.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
            // One byte at a time from the special byte (or, near the end, up to it or to the end).
            while true {
                guard index < count else {
                    throw Failure.syntax(
                        .unterminatedString, "the input ends inside a string that starts here", at: open)
                }
                let byte = base[index]
                if byte == UInt8(ascii: "\"") {
                    position = index + 1
                    return JSONStringToken(start: open + 1, end: index, hasEscapes: hasEscapes)
                }
                if byte == UInt8(ascii: "\\") {
                    hasEscapes = true
                    index = try validateEscape(at: index, stringStart: open)
                    break
                }
                if byte < UInt8(ascii: " ") {
                    throw Failure.syntax(
                        .unexpectedToken, "a string may not contain \(JSONScanner.describe(byte)) unescaped", at: index)
                }
                index &+= 1
            }
        }
    }

    /// The high bit of each byte of `word` (little-endian) that may be `"`, `\` or below 0x20
    /// (from "Bit Twiddling Hacks"):
    /// zero exactly when there is none, and the lowest set bit marks exactly the first such byte
    /// (a borrow only carries upward, so only bytes above a true match can be flagged falsely).
    @inline(__always)
    @inlinable package static func specialStringBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* UInt64(UInt8(ascii: " "))) & ~word
        return (hasQuote | hasBackslash | hasControl) & highs
    }

    /// Checks the escape whose backslash is at `index` and returns the offset after it.
    @inlinable func validateEscape(at index: Int, stringStart: Int) throws(Failure) -> Int {
        guard index + 1 < count else {
            throw Failure.syntax(
                .unterminatedString, "the input ends inside a string that starts here", at: stringStart)
        }
        switch base[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            for offset in (index + 2)..<(index + 6) {
                guard offset < count else {
                    throw Failure.syntax(
                        .unterminatedString, "the input ends inside a string that starts here", at: stringStart)
                }
                guard JSONScanner.hexValue(base[offset]) != nil else {
                    throw Failure.syntax(.invalidEscape, "a \\u escape needs four hexadecimal digits", at: index)
                }
            }
            return index + 6
        default:
            throw Failure.syntax(
                .invalidEscape,
                "\\\(JSONScanner.describe(base[index + 1]).dropFirst().dropLast()) is not a JSON escape", at: index)
        }
    }

    /// The value of an ASCII hexadecimal digit.
    @inline(__always)
    @inlinable package static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }

    /// The bytes of a string token without decoding escapes.
    @inline(__always)
    @inlinable package func rawBytes(_ token: JSONStringToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)
    }

    /// The string a token stands for, escapes decoded.
    ///
    /// Ill-formed UTF-8 and unpaired surrogates become U+FFFD, as everywhere in Swift.
    @inlinable package func string(_ token: JSONStringToken) -> String {
        if !token.hasEscapes { return String(decoding: rawBytes(token), as: UTF8.self) }
        var bytes: [UInt8] = []
        decode(token, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of a string token, escapes decoded, to `output`. The token must have
    /// been validated by ``scanString()``.
    @inlinable package func decode(_ token: JSONStringToken, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + token.end - token.start)
        var index = token.start
        while index < token.end {
            let byte = base[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = base[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(UInt8(ascii: "\u{08}"))
            case UInt8(ascii: "f"): output.append(UInt8(ascii: "\u{0C}"))
            case UInt8(ascii: "n"): output.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): output.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "t"): output.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "u"):
                var scalar = hex4(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate pairs with an immediately following \u low surrogate.
                    if index + 6 <= token.end, base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u") {
                        let low = hex4(at: index + 2)
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            index += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                JSONScanner.appendUTF8(scalar, to: &output)
            default:
                output.append(escape)  // \" \\ \/
            }
        }
    }

    @inlinable func hex4(at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | (JSONScanner.hexValue(base[index + offset]) ?? 0) }
        return value
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value (already checked to be one).
    @inlinable package static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    // MARK: - Numbers and literals

    /// Scans a number starting at `position` (a `-` or a digit), following JSON's grammar exactly.
    ///
    /// The first 19 significant digits are kept in an integer with a decimal exponent; further
    /// digits are dropped (noted in ``JSONNumberToken/isExact``). Exponents saturate, so no
    /// input overflows.
    /// - Throws: ``TraceReadError/Code/invalidNumber`` for a malformed number.
    @inline(__always)
    @inlinable package mutating func scanNumber() throws(Failure) -> JSONNumberToken {
        let start = position
        var index = position
        var token = JSONNumberToken(start: start)
        if base[index] == UInt8(ascii: "-") {
            token.isNegative = true
            index += 1
        }
        guard index < count else { throw endOfInput(expecting: "a digit") }
        var significant = 0
        let first = base[index]
        if first == UInt8(ascii: "0") {
            index += 1
            if index < count, base[index] &- UInt8(ascii: "0") < 10 {
                throw Failure.syntax(.invalidNumber, "a number may not have a leading zero", at: start)
            }
        } else if first &- UInt8(ascii: "1") < 9 {
            while index < count {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significant < 19 {
                    token.mantissa = token.mantissa &* 10 &+ UInt64(digit)
                    significant += 1
                } else {
                    token.exponent += 1
                    if digit != 0 { token.isExact = false }
                }
                index += 1
            }
        } else {
            throw Failure.syntax(.invalidNumber, "expected a digit after '-'", at: index)
        }
        if index < count, base[index] == UInt8(ascii: ".") {
            token.isInteger = false
            index += 1
            guard index < count else { throw endOfInput(expecting: "a digit after '.'") }
            guard base[index] &- UInt8(ascii: "0") < 10 else {
                throw Failure.syntax(.invalidNumber, "expected a digit after '.'", at: index)
            }
            while index < count {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significant < 19 {
                    token.mantissa = token.mantissa &* 10 &+ UInt64(digit)
                    token.exponent -= 1
                    if token.mantissa != 0 { significant += 1 }
                } else if digit != 0 {
                    token.isExact = false
                }
                index += 1
            }
        }
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            token.isInteger = false
            index += 1
            guard index < count else { throw endOfInput(expecting: "an exponent") }
            var negativeExponent = false
            if base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                negativeExponent = base[index] == UInt8(ascii: "-")
                index += 1
                guard index < count else { throw endOfInput(expecting: "an exponent") }
            }
            guard base[index] &- UInt8(ascii: "0") < 10 else {
                throw Failure.syntax(.invalidNumber, "expected a digit in the exponent", at: index)
            }
            var exponent = 0
            while index < count {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if exponent < 100_000_000 { exponent = exponent * 10 + Int(digit) }
                index += 1
            }
            token.exponent += negativeExponent ? -exponent : exponent
        }
        token.end = index
        position = index
        return token
    }

    /// Scans a plain decimal at `position` (a `-` or a digit): an optional `-`, 1 to 15 integer
    /// digits without a leading zero, and at most `fractionDigits` fraction digits (none when it
    /// is 0), with no exponent. Returns its value times 10^`fractionDigits`, which is exactly what
    /// ``scanNumber()`` and then ``JSONNumberToken/scaledInteger(shift:rounding:)`` with that
    /// shift give for it (at most 18 digits, so nothing is rounded), and leaves `position` where
    /// ``scanNumber()`` would. For any other text it returns `nil` and consumes nothing, so the
    /// general path reads it (and reports its errors) as before.
    @inline(__always)
    @inlinable package mutating func scanPlainDecimal(fractionDigits: Int) -> Int64? {
        var index = position
        let isNegative = base[index] == UInt8(ascii: "-")
        if isNegative { index &+= 1 }
        let integerStart = index
        var value: Int64 = 0
        // Up to eight leading digits in one word, then (past eight, or near the end) one at a time.
        if index &+ 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let digits = JSONScanner.leadingDigitCount(word)
            if digits > 0 {
                value = Int64(JSONScanner.eightDigitsValue(word &<< UInt64(64 &- 8 &* digits)))
                index &+= digits
            }
        }
        while index < count {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int64(digit)
            index &+= 1
        }
        let integerDigits = index &- integerStart
        guard integerDigits > 0, integerDigits <= 15 else { return nil }
        // a leading zero: scanNumber's error
        if integerDigits > 1, base[integerStart] == UInt8(ascii: "0") { return nil }
        var scale = fractionDigits
        if index < count {
            if base[index] == UInt8(ascii: ".") {
                guard fractionDigits > 0 else { return nil }
                index &+= 1
                let fractionStart = index
                while index < count {
                    let digit = base[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { break }
                    value = value &* 10 &+ Int64(digit)
                    index &+= 1
                }
                let digits = index &- fractionStart
                guard digits > 0, digits <= fractionDigits else { return nil }
                scale = fractionDigits &- digits
            }
            if index < count, base[index] | 0x20 == UInt8(ascii: "e") { return nil }  // an exponent
        }
        while scale > 0 {
            value &*= 10
            scale &-= 1
        }
        position = index
        return isNegative ? 0 &- value : value
    }

    /// How many of the eight bytes of `word` (little-endian: the first byte lowest) are ASCII
    /// digits before the first one that is not.
    @inline(__always)
    @inlinable package static func leadingDigitCount(_ word: UInt64) -> Int {
        // Per byte, with no carry between bytes: a high nibble other than 3, or a low one above 9.
        let highNibbles = (word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
        let lowAboveNine = ((word & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        let notDigits = highNibbles | lowAboveNine
        return notDigits == 0 ? 8 : notDigits.trailingZeroBitCount &>> 3
    }

    /// The value of eight ASCII digits (the first byte lowest, most significant); zero bytes
    /// count as leading zeros. From simdjson's `parse_eight_digits_unrolled`.
    @inline(__always)
    @inlinable package static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var value = word & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 10) &+ (value &>> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let hundredsAndMillions: UInt64 = 100 &+ (1_000_000 &<< 32)
        let onesAndTenThousands: UInt64 = 1 &+ (10_000 &<< 32)
        return ((value & mask) &* hundredsAndMillions &+ ((value &>> 16) & mask) &* onesAndTenThousands) &>> 32
    }

    /// Consumes `true`, `false` or `null` at `position`.
    /// - Returns: `true`, `false`, or `nil` for `null`.
    /// - Throws: ``TraceReadError/Code/unexpectedToken`` for anything else.
    @inlinable package mutating func scanLiteral() throws(Failure) -> Bool? {
        let (word, value): (StaticString, Bool?) =
            switch base[position] {
            case UInt8(ascii: "t"): ("true", true)
            case UInt8(ascii: "f"): ("false", false)
            default: ("null", nil)
            }
        let length = word.utf8CodeUnitCount
        let pointer = word.utf8Start
        for offset in 0..<length {
            guard position + offset < count else { throw endOfInput(expecting: "'\(word)'") }
            guard base[position + offset] == pointer[offset] else {
                throw unexpected(expecting: "'\(word)'", at: position + offset)
            }
        }
        position += length
        return value
    }

    // MARK: - Skipping

    /// Skips one complete value (after optional whitespace), validating it, without allocating
    /// beyond a small nesting stack.
    /// - Throws: Any scanning error, and ``TraceReadError/Code/tooDeep`` past
    ///   ``maximumSkipDepth`` levels of nesting.
    /// - Complexity: O(length of the value).
    @discardableResult
    @inlinable package mutating func skipValue() throws(Failure) -> Int {
        var depth = 0
        var deepest = 0
        while true {
            // A value is expected.
            let byte = try peekValue("a value")
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                try push(isObject: isObject, depth: &depth)
                deepest = max(deepest, depth)
                position += 1
                let next = try peekValue(isObject ? "a member name or '}'" : "a value or ']'")
                if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    depth -= 1
                } else {
                    if isObject { try skipMemberName() }
                    continue
                }
            case UInt8(ascii: "\""):
                _ = try scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try scanNumber()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                _ = try scanLiteral()
            default:
                throw unexpected(expecting: "a value")
            }
            // After a value: close containers until a separator leads to the next value.
            while depth > 0 {
                let isObject = isObjectLevel(depth)
                let next = try peekValue(
                    isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
                if next == UInt8(ascii: ",") {
                    position += 1
                    if isObject { try skipMemberName() }
                    break
                }
                guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpected(
                        expecting: isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
                }
                position += 1
                depth -= 1
            }
            if depth == 0 { return deepest }
        }
    }

    /// Consumes `"name" :` in an object being skipped.
    @inlinable mutating func skipMemberName() throws(Failure) {
        guard try peekValue("a member name") == UInt8(ascii: "\"") else {
            throw unexpected(expecting: "a member name in quotes")
        }
        _ = try scanString()
        try expect(UInt8(ascii: ":"), "':' after a member name")
    }

    @inlinable mutating func push(isObject: Bool, depth: inout Int) throws(Failure) {
        guard depth < JSONScanner.maximumSkipDepth else {
            throw Failure.syntax(
                .tooDeep, "values are nested more than \(JSONScanner.maximumSkipDepth) levels deep", at: position)
        }
        let word = depth >> 6
        let bit = UInt64(1) << UInt64(depth & 63)
        if word >= nesting.count { nesting.append(0) }
        if isObject { nesting[word] |= bit } else { nesting[word] &= ~bit }
        depth += 1
    }

    @inlinable func isObjectLevel(_ depth: Int) -> Bool {
        let level = depth - 1
        return nesting[level >> 6] & (UInt64(1) << UInt64(level & 63)) != 0
    }
}

/// The location of a string in the input: the bytes between its quotes.
@usableFromInline package struct JSONStringToken: Hashable {
    /// Offset of the first byte after the opening quote.
    @usableFromInline package var start: Int
    /// Offset of the closing quote.
    @usableFromInline package var end: Int
    /// Whether the string contains backslash escapes that decoding must resolve.
    @usableFromInline package var hasEscapes: Bool

    /// The number of raw bytes between the quotes.
    @inlinable package var length: Int { end - start }

    @inlinable package init(start: Int, end: Int, hasEscapes: Bool) {
        self.start = start
        self.end = end
        self.hasEscapes = hasEscapes
    }
}

/// A readable byte for empty inputs, so a scanner's `base` is never dangling.
@usableFromInline nonisolated(unsafe) let jsonEmptyInput = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
