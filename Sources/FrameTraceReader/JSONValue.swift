import FrameTrace
/// A JSON document as a value, for small documents such as budget files and trace metadata.
///
/// Objects keep their members in document order (duplicates included), so error messages and
/// round trips can follow the file. Integer literals that fit in `Int64` stay exact as
/// ``integer(_:)``; every other number is a ``number(_:)``. Parsing is iterative, so deep nesting
/// cannot overflow the stack; it is capped instead, with a clear error.
///
/// ```swift
/// let budget = try JSONValue.parse(#"{"frame-interval-ms": 16.67, "p95-ms": 12}"#)
/// let p95 = budget["p95-ms"]?.doubleValue   // 12.0
/// ```
///
/// For traces use ``ChromeTraceReader``, which streams over the same scanner without building a
/// tree.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer literal (no fraction, no exponent) that fits in `Int64`.
    case integer(Int64)
    /// Any other number, correctly rounded to a `Double` (huge ones become infinities).
    case number(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in document order.
    case object([(String, JSONValue)])

    /// The default limit on nesting for ``parse(_:maxDepth:)``.
    public static let defaultMaxDepth = 512

    /// Parses one JSON document.
    ///
    /// ```swift
    /// let value = try JSONValue.parse(Array(#"[1, 2.5, "three"]"#.utf8))
    /// ```
    /// - Parameters:
    ///   - bytes: UTF-8 JSON text. A leading byte-order mark is ignored.
    ///   - maxDepth: How deeply arrays and objects may nest.
    /// - Returns: The document's value.
    /// - Throws: ``TraceReadError`` with the line and column of the first problem, including
    ///   ``TraceReadError/Code/tooDeep`` beyond `maxDepth` and
    ///   ``TraceReadError/Code/unexpectedToken`` for anything after the value.
    /// - Complexity: O(*n*) in the length of the input.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws(TraceReadError) -> JSONValue {
        let result: Result<JSONValue, TraceReadError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parseDocument(buffer, maxDepth: maxDepth)
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer in parseDocument(buffer, maxDepth: maxDepth) }.get()
    }

    /// Parses one JSON document from text.
    ///
    /// ```swift
    /// let value = try JSONValue.parse(#"{"a": [true, null]}"#)
    /// ```
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - maxDepth: How deeply arrays and objects may nest.
    /// - Returns: The document's value.
    /// - Throws: ``TraceReadError`` with the line and column of the first problem.
    /// - Complexity: O(*n*) in the length of the text.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(TraceReadError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONValue, TraceReadError> {
        var scanner = JSONScanner(buffer)
        do throws(TraceReadError) {
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw TraceReadError(.notJSON, "the input is empty", at: 0) }
            let value = try parseValue(&scanner, maxDepth: maxDepth)
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { throw scanner.unexpected(expecting: "the end of the input after the value") }
            return .success(value)
        } catch {
            return .failure(error.located(in: buffer))
        }
    }

    /// One open container while parsing: where its elements start on the value stack, and for an
    /// object where its member names start on the key stack.
    private struct Frame {
        var isObject: Bool
        var firstValue: Int
        var firstKey: Int
    }

    /// Parses the value at the scanner's position (after whitespace), leaving the scanner after it.
    ///
    /// Finished values wait on one flat stack until their container closes, and are then moved
    /// into it once, so every value is copied a bounded number of times whatever the document's
    /// shape: O(*n*) in the input (a container held in a stack frame and appended to would be
    /// copied on every append, which is quadratic for a long array).
    static func parseValue(_ scanner: inout JSONScanner, maxDepth: Int) throws(TraceReadError) -> JSONValue {
        var stack: [Frame] = []
        var values: [JSONValue] = []
        var keys: [String] = []
        while true {
            // Parse a value, or open a container and go round for its first element.
            var value: JSONValue
            let byte = try scanner.peekValue("a value")
            switch byte {
            case 0x7B, 0x5B:
                guard stack.count < maxDepth else {
                    throw TraceReadError(.tooDeep, "values are nested more than \(maxDepth) levels deep", at: scanner.position)
                }
                scanner.position += 1
                if byte == 0x7B {
                    if try scanner.peekValue("a member name or '}'") == 0x7D {
                        scanner.position += 1
                        value = .object([])
                    } else {
                        stack.append(Frame(isObject: true, firstValue: values.count, firstKey: keys.count))
                        keys.append(try memberName(&scanner))
                        continue
                    }
                } else {
                    if try scanner.peekValue("a value or ']'") == 0x5D {
                        scanner.position += 1
                        value = .array([])
                    } else {
                        stack.append(Frame(isObject: false, firstValue: values.count, firstKey: keys.count))
                        continue
                    }
                }
            case 0x22:
                value = .string(scanner.string(try scanner.scanString()))
            case 0x2D, 0x30...0x39:
                let token = try scanner.scanNumber()
                if let integer = token.exactInteger {
                    value = .integer(integer)
                } else {
                    value = .number(token.double(in: scanner))
                }
            case 0x74, 0x66, 0x6E:
                value = try scanner.scanLiteral().map(JSONValue.bool) ?? .null
            default:
                throw scanner.unexpected(expecting: "a value")
            }
            // Add the value to its container; close containers that end here.
            while true {
                guard let frame = stack.last else { return value }
                values.append(value)
                if frame.isObject {
                    let next = try scanner.peekValue("',' or '}' after an object member")
                    if next == 0x2C {
                        scanner.position += 1
                        keys.append(try memberName(&scanner))
                        break
                    } else if next == 0x7D {
                        scanner.position += 1
                        var members: [(String, JSONValue)] = []
                        members.reserveCapacity(values.count - frame.firstValue)
                        for (key, member) in zip(keys[frame.firstKey...], values[frame.firstValue...]) {
                            members.append((key, member))
                        }
                        keys.removeSubrange(frame.firstKey...)
                        values.removeSubrange(frame.firstValue...)
                        stack.removeLast()
                        value = .object(members)
                    } else {
                        throw scanner.unexpected(expecting: "',' or '}' after an object member")
                    }
                } else {
                    let next = try scanner.peekValue("',' or ']' after an array element")
                    if next == 0x2C {
                        scanner.position += 1
                        break
                    } else if next == 0x5D {
                        scanner.position += 1
                        let elements = Array(values[frame.firstValue...])
                        values.removeSubrange(frame.firstValue...)
                        stack.removeLast()
                        value = .array(elements)
                    } else {
                        throw scanner.unexpected(expecting: "',' or ']' after an array element")
                    }
                }
            }
        }
    }

    /// Consumes `"name" :` and returns the name.
    private static func memberName(_ scanner: inout JSONScanner) throws(TraceReadError) -> String {
        guard try scanner.peekValue("a member name") == 0x22 else {
            throw scanner.unexpected(expecting: "a member name in quotes")
        }
        let name = scanner.string(try scanner.scanString())
        try scanner.expect(0x3A, "':' after a member name")
        return name
    }
}

extension JSONValue {
    /// The value of the first member named `key`, if this is an object that has one.
    ///
    /// ```swift
    /// let interval = metadata["frame-interval-ns"]?.integerValue
    /// ```
    /// - Parameter key: The member name.
    /// - Returns: The member's value, or `nil`.
    /// - Complexity: O(*n*) in the number of members.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The element at `index`, if this is an array long enough.
    ///
    /// ```swift
    /// let first = try JSONValue.parse("[1, 2]")[0]   // .integer(1)
    /// ```
    /// - Parameter index: A 0-based position.
    /// - Returns: The element, or `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number as a `Double`, if this is an integer or a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }

    /// The number as an `Int64`, if this is an integer, or a number with no fraction in range.
    public var integerValue: Int64? {
        switch self {
        case .integer(let integer):
            return integer
        case .number(let number):
            guard number.rounded() == number, abs(number) < 9.2e18 else { return nil }
            return Int64(number)
        default:
            return nil
        }
    }

    /// The Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members in document order, if this is an object.
    public var objectValue: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: Hashable {
    /// Structural equality; member order matters, and `.integer(1)` differs from `.number(1)`.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Hashes the value structurally.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let bool): hasher.combine(1); hasher.combine(bool)
        case .integer(let integer): hasher.combine(2); hasher.combine(integer)
        case .number(let number): hasher.combine(3); hasher.combine(number)
        case .string(let string): hasher.combine(4); hasher.combine(string)
        case .array(let elements): hasher.combine(5); hasher.combine(elements)
        case .object(let members):
            hasher.combine(6)
            hasher.combine(members.count)
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text; non-finite numbers are written as `null`.
    ///
    /// ```swift
    /// JSONValue.object([("a", .integer(1))]).description   // {"a":1}
    /// ```
    public var description: String {
        var output = JSONOutput()
        var pending: [(JSONValue, Int)] = [(self, 0)]
        // Iterative writer: a stack of (value, next child index); closing brackets when done.
        while let (value, child) = pending.popLast() {
            switch value {
            case .null: output.append("null")
            case .bool(let bool): output.append(bool ? "true" : "false")
            case .integer(let integer): output.append(integer: integer)
            case .number(let number): output.append(double: number)
            case .string(let string): output.append(string: string)
            case .array(let elements):
                if child == 0 { output.append(UInt8(ascii: "[")) }
                if child < elements.count {
                    if child > 0 { output.append(UInt8(ascii: ",")) }
                    pending.append((value, child + 1))
                    pending.append((elements[child], 0))
                } else {
                    output.append(UInt8(ascii: "]"))
                }
            case .object(let members):
                if child == 0 { output.append(UInt8(ascii: "{")) }
                if child < members.count {
                    if child > 0 { output.append(UInt8(ascii: ",")) }
                    output.append(string: members[child].0)
                    output.append(UInt8(ascii: ":"))
                    pending.append((value, child + 1))
                    pending.append((members[child].1, 0))
                } else {
                    output.append(UInt8(ascii: "}"))
                }
            }
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
