package import FrameJSON
import FrameTrace

extension ReadErrorCode {
    /// XML input (an `xctrace export`) that is not well-formed, or that asks for what the reader
    /// refuses on purpose: a document type declaration (entity definitions, external entities),
    /// an entity other than XML's five and character references, nesting past
    /// ``XMLScanner/maximumDepth``, an attribute value past ``XMLScanner/maximumValueBytes``.
    package static let invalidXML = ReadErrorCode(rawValue: "invalid-xml")
}

/// A streaming XML tokenizer over bytes in memory: start tags with their attributes, end tags
/// and text, one at a time, with no tree of the document (Instruments' exports run to hundreds
/// of megabytes).
///
/// Hostile input is refused rather than obeyed: no document type declaration is processed, so no
/// entity can be defined (billion laughs) or fetched (`SYSTEM "file:///…"`); only the predefined
/// entities and numeric character references are decoded (``decode(_:)``); nesting, attribute
/// values and text are bounded; end tags must match their start tags, and input that ends inside
/// an element is an error (a truncated export).
///
/// ```swift
/// var scanner = XMLScanner(buffer)
/// while let token = try scanner.next() {
///     if case .start(let name, _) = token { print(scanner.string(name)) }
/// }
/// ```
struct XMLScanner {
    /// How deep elements may nest; real exports nest five or six deep.
    static let maximumDepth = 256
    /// The longest attribute value or text run accepted: 1 MiB.
    static let maximumValueBytes = 1 << 20

    /// One attribute of the last start tag: byte ranges into the input.
    struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
        /// Whether the value holds a `&` to decode.
        var hasReference: Bool
    }

    /// What ``next()`` found.
    enum Token: Equatable {
        /// A start tag (`selfClosing` for `<a/>`, which has no end token); its attributes are in
        /// ``attributes`` until the next call.
        case start(name: Range<Int>, selfClosing: Bool)
        /// An end tag.
        case end(name: Range<Int>)
        /// Character data between tags (`hasReference` when it holds a `&` to decode, `isRaw` for
        /// a CDATA section, which is never decoded).
        case text(Range<Int>, hasReference: Bool, isRaw: Bool)
    }

    let input: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The attributes of the last start tag.
    private(set) var attributes: [Attribute] = []
    /// The open elements' names, innermost last.
    private var open: [Range<Int>] = []
    private var sawRoot = false

    init(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
        // A UTF-8 byte order mark is skipped.
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { position = 3 }
    }

    /// How deep the scanner is: the number of open elements.
    var depth: Int { open.count }

    /// An error at `offset`, located by the caller.
    static func error(_ message: String, at offset: Int) -> TraceReadError {
        TraceReadError(.invalidXML, message, byteOffset: offset, line: 0, column: 0)
    }

    private static func end(_ what: String, at offset: Int) -> TraceReadError {
        TraceReadError(
            .invalidXML, "the file ends inside \(what) (a truncated export?)", byteOffset: offset, line: 0, column: 0
        )
    }

    /// The next token; `nil` at the end of a complete document.
    /// - Throws: ``TraceReadError`` for input that is not well-formed or that is refused.
    mutating func next() throws(TraceReadError) -> Token? {
        while position < input.count {
            if input[position] != UInt8(ascii: "<") {
                if let token = try text() { return token }
                continue
            }
            let start = position
            guard position + 1 < input.count else { throw Self.end("a tag", at: start) }
            switch input[position + 1] {
            case UInt8(ascii: "/"): return try endTag()
            case UInt8(ascii: "?"): try skip(past: "?>", what: "a processing instruction")
            case UInt8(ascii: "!"): if let token = try markup() { return token }
            default: return try startTag()
            }
        }
        if let innermost = open.last {
            throw Self.end("element <\(string(innermost))>", at: input.count)
        }
        guard sawRoot else { throw Self.end("the document (no element)", at: input.count) }
        return nil
    }

    // MARK: - Tags

    private mutating func startTag() throws(TraceReadError) -> Token {
        let tagStart = position
        position += 1
        let name = try self.name()
        attributes.removeAll(keepingCapacity: true)
        while true {
            let hadSpace = skipSpace()
            guard position < input.count else { throw Self.end("a start tag", at: tagStart) }
            let byte = input[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                try push(name, at: tagStart)
                return .start(name: name, selfClosing: false)
            }
            if byte == UInt8(ascii: "/") {
                guard position + 1 < input.count else { throw Self.end("a start tag", at: tagStart) }
                guard input[position + 1] == UInt8(ascii: ">") else {
                    throw Self.error("expected '>' after '/' in a tag", at: position + 1)
                }
                position += 2
                if open.isEmpty {
                    guard !sawRoot else { throw Self.error("a second root element", at: tagStart) }
                    sawRoot = true
                }
                return .start(name: name, selfClosing: true)
            }
            guard hadSpace else { throw Self.error("expected white space, '>' or '/>' in a tag", at: position) }
            try attribute()
        }
    }

    private mutating func push(_ name: Range<Int>, at offset: Int) throws(TraceReadError) {
        if open.isEmpty {
            guard !sawRoot else { throw Self.error("a second root element", at: offset) }
            sawRoot = true
        }
        guard open.count < Self.maximumDepth else {
            throw Self.error("elements nest deeper than \(Self.maximumDepth)", at: offset)
        }
        open.append(name)
    }

    private mutating func attribute() throws(TraceReadError) {
        let name = try self.name()
        _ = skipSpace()
        guard position < input.count else { throw Self.end("an attribute", at: name.lowerBound) }
        guard input[position] == UInt8(ascii: "=") else {
            throw Self.error("expected '=' after attribute \(string(name))", at: position)
        }
        position += 1
        _ = skipSpace()
        guard position < input.count else { throw Self.end("an attribute", at: name.lowerBound) }
        let quote = input[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw Self.error("expected a quoted value for attribute \(string(name))", at: position)
        }
        let valueStart = position + 1
        var index = valueStart
        var hasReference = false
        while index < input.count, input[index] != quote {
            let byte = input[index]
            if byte == UInt8(ascii: "<") { throw Self.error("'<' in an attribute value", at: index) }
            if byte == UInt8(ascii: "&") { hasReference = true }
            index += 1
            if index - valueStart > Self.maximumValueBytes {
                throw Self.error("attribute \(string(name)) is longer than 1 MiB", at: valueStart)
            }
        }
        guard index < input.count else { throw Self.end("the value of attribute \(string(name))", at: valueStart) }
        position = index + 1
        if attributes.contains(where: { equal($0.name, name) }) {
            throw Self.error("attribute \(string(name)) given twice", at: name.lowerBound)
        }
        attributes.append(Attribute(name: name, value: valueStart..<index, hasReference: hasReference))
    }

    private mutating func endTag() throws(TraceReadError) -> Token {
        let tagStart = position
        position += 2
        let name = try self.name()
        _ = skipSpace()
        guard position < input.count else { throw Self.end("an end tag", at: tagStart) }
        guard input[position] == UInt8(ascii: ">") else { throw Self.error("expected '>' in an end tag", at: position) }
        position += 1
        guard let innermost = open.popLast() else {
            throw Self.error("end tag </\(string(name))> with no open element", at: tagStart)
        }
        guard equal(innermost, name) else {
            throw Self.error("end tag </\(string(name))> does not close <\(string(innermost))>", at: tagStart)
        }
        return .end(name: name)
    }

    /// A comment (skipped), a CDATA section (text), or a document type declaration (refused).
    private mutating func markup() throws(TraceReadError) -> Token? {
        let start = position
        if hasPrefix("<!--") {
            try skip(past: "-->", what: "a comment")
            return nil
        }
        if hasPrefix("<![CDATA[") {
            guard !open.isEmpty else { throw Self.error("CDATA outside the root element", at: start) }
            position += 9
            let textStart = position
            try skip(past: "]]>", what: "a CDATA section")
            return .text(textStart..<(position - 3), hasReference: false, isRaw: true)
        }
        if hasPrefix("<!DOCTYPE") {
            throw Self.error(
                "document type declarations are not processed (no entity definitions, no external entities)",
                at: start)
        }
        throw Self.error("unexpected '<!'", at: start)
    }

    private mutating func text() throws(TraceReadError) -> Token? {
        let start = position
        var hasReference = false
        var isSpace = true
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") { hasReference = true }
            if isSpace, !(byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09) { isSpace = false }
            position += 1
        }
        guard position - start <= Self.maximumValueBytes else {
            throw Self.error("a text run is longer than 1 MiB", at: start)
        }
        if open.isEmpty {
            guard isSpace else { throw Self.error("text outside the root element", at: start) }
            return nil
        }
        return .text(start..<position, hasReference: hasReference, isRaw: false)
    }

    // MARK: - Pieces

    private mutating func name() throws(TraceReadError) -> Range<Int> {
        let start = position
        while position < input.count {
            let byte = input[position]
            let isNameByte =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || byte >= 0x80
            guard isNameByte else { break }
            position += 1
        }
        guard position > start else {
            if position >= input.count { throw Self.end("a tag", at: start) }
            throw Self.error("expected a name", at: start)
        }
        guard position - start <= 1024 else { throw Self.error("a name longer than 1024 bytes", at: start) }
        return start..<position
    }

    /// Skips white space; whether there was any.
    private mutating func skipSpace() -> Bool {
        let start = position
        while position < input.count {
            let byte = input[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
            position += 1
        }
        return position > start
    }

    private func hasPrefix(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= input.count else { return false }
        let base = literal.utf8Start
        for offset in 0..<count where input[position + offset] != base[offset] { return false }
        return true
    }

    private mutating func skip(past terminator: StaticString, what: String) throws(TraceReadError) {
        let start = position
        position += 2
        while position < input.count {
            if hasPrefix(terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw Self.end(what, at: start)
    }

    func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where input[a.lowerBound + offset] != input[b.lowerBound + offset] { return false }
        return true
    }

    /// Whether the bytes in `range` are `literal`.
    func bytes(_ range: Range<Int>, equal literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let base = literal.utf8Start
        for offset in 0..<range.count where input[range.lowerBound + offset] != base[offset] { return false }
        return true
    }

    /// The bytes as text, for messages (invalid UTF-8 repaired).
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: input[range.clamped(to: 0..<input.count)]), as: UTF8.self)
    }

    /// The value of the attribute named `name` of the last start tag.
    func attribute(_ name: StaticString) -> Attribute? {
        attributes.first { bytes($0.name, equal: name) }
    }

    // MARK: - Decoding

    /// The text in `range`, with `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` and numeric
    /// character references decoded when `references` says it holds some.
    /// - Throws: ``TraceReadError`` for bytes that are not UTF-8, an unknown entity (never looked
    ///   up: no document type declaration is read), or a reference to no valid scalar.
    func decode(_ range: Range<Int>, references: Bool) throws(TraceReadError) -> String {
        let bytes = UnsafeBufferPointer(rebasing: input[range])
        guard references else {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Self.error("text that is not UTF-8", at: firstInvalidUTF8(range))
            }
            return text
        }
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = input[index]
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            guard let semicolon = (index..<min(range.upperBound, index + 12)).first(where: { input[$0] == 0x3B }) else {
                throw Self.error("'&' that starts no entity or character reference", at: index)
            }
            try appendReference((index + 1)..<semicolon, to: &result)
            index = semicolon + 1
        }
        guard let text = String(validating: result, as: UTF8.self) else {
            throw Self.error("text that is not UTF-8", at: firstInvalidUTF8(range))
        }
        return text
    }

    private func appendReference(_ range: Range<Int>, to result: inout [UInt8]) throws(TraceReadError) {
        let named: [(StaticString, UInt8)] = [
            ("lt", 0x3C), ("gt", 0x3E), ("amp", 0x26), ("quot", 0x22), ("apos", 0x27),
        ]
        for (entity, byte) in named where bytes(range, equal: entity) {
            result.append(byte)
            return
        }
        guard range.count >= 2, input[range.lowerBound] == UInt8(ascii: "#") else {
            throw Self.error(
                "entity &\(string(range)); is not defined (only XML's five; no document type is read)",
                at: range.lowerBound - 1)
        }
        var digits = (range.lowerBound + 1)..<range.upperBound
        var radix: UInt32 = 10
        if input[digits.lowerBound] == UInt8(ascii: "x") {
            radix = 16
            digits = (digits.lowerBound + 1)..<digits.upperBound
        }
        var value: UInt32 = 0
        for index in digits {
            guard let digit = Self.hexDigit(input[index]), digit < radix, value <= 0x10FFFF else {
                throw Self.error("malformed character reference &\(string(range));", at: range.lowerBound - 1)
            }
            value = value * radix + digit
        }
        guard !digits.isEmpty, let scalar = Unicode.Scalar(value), value != 0 else {
            throw Self.error("character reference &\(string(range)); names no character", at: range.lowerBound - 1)
        }
        result.append(contentsOf: String(Character(scalar)).utf8)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The offset of the first byte in `range` that does not begin valid UTF-8, for errors.
    private func firstInvalidUTF8(_ range: Range<Int>) -> Int {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = input[index]
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            guard length > 0, index + length <= range.upperBound,
                String(validating: UnsafeBufferPointer(rebasing: input[index..<(index + length)]), as: UTF8.self) != nil
            else { return index }
            index += length
        }
        return range.lowerBound
    }

    /// The signed decimal integer in `range`: `.value`, `.notANumber`, or `.overflow` for digits
    /// that do not fit in 64 bits (real exports hold `18446744073709551615` in columns framescope
    /// does not read; one it reads is an error there).
    func integer(_ range: Range<Int>) -> ScannedInteger {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, input[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < range.upperBound else { return .notANumber }
        var value: Int64 = 0
        var overflow = false
        while index < range.upperBound {
            let byte = input[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .notANumber }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (sum, overflow2) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { overflow = true }
            value = sum
            index += 1
        }
        return overflow ? .overflow : .value(value)
    }

    /// What ``integer(_:)`` found.
    enum ScannedInteger: Equatable {
        case value(Int64)
        case notANumber
        case overflow
    }
}
