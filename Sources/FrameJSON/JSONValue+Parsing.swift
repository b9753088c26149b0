public import FrameTrace

extension JSONValue {
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
    /// - Throws: ``JSONParseError`` with the line and column of the first problem, including
    ///   ``JSONParseError/Code/tooDeep`` beyond `maxDepth` and
    ///   ``JSONParseError/Code/unexpectedToken`` for anything after the value.
    /// - Complexity: O(*n*) in the length of the input.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
        -> JSONValue
    {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
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
    /// - Throws: ``JSONParseError`` with the line and column of the first problem.
    /// - Complexity: O(*n*) in the length of the text.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<
        JSONValue, JSONParseError
    > {
        var scanner = JSONScanner<JSONParseError>(buffer)
        do throws(JSONParseError) {
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw JSONParseError.syntax(.notJSON, "the input is empty", at: 0) }
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
    package static func parseValue(_ scanner: inout JSONScanner<JSONParseError>, maxDepth: Int) throws(JSONParseError)
        -> JSONValue
    {
        var stack: [Frame] = []
        var values: [JSONValue] = []
        var keys: [String] = []
        while true {
            // Parse a value, or open a container and go round for its first element.
            var value: JSONValue
            let byte = try scanner.peekValue("a value")
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < maxDepth else {
                    throw JSONParseError.syntax(
                        .tooDeep, "values are nested more than \(maxDepth) levels deep", at: scanner.position)
                }
                scanner.position += 1
                if stack.isEmpty {
                    // The first container: room for a small one at once, instead of growing
                    // each array from one element (most nested values are small).
                    stack.reserveCapacity(4)
                    values.reserveCapacity(8)
                    keys.reserveCapacity(8)
                }
                if byte == UInt8(ascii: "{") {
                    if try scanner.peekValue("a member name or '}'") == UInt8(ascii: "}") {
                        scanner.position += 1
                        value = .object([])
                    } else {
                        stack.append(Frame(isObject: true, firstValue: values.count, firstKey: keys.count))
                        keys.append(try memberName(&scanner))
                        continue
                    }
                } else {
                    if try scanner.peekValue("a value or ']'") == UInt8(ascii: "]") {
                        scanner.position += 1
                        value = .array([])
                    } else {
                        stack.append(Frame(isObject: false, firstValue: values.count, firstKey: keys.count))
                        continue
                    }
                }
            case UInt8(ascii: "\""):
                value = .string(scanner.string(try scanner.scanString()))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let token = try scanner.scanNumber()
                if let integer = token.exactInteger {
                    value = .int(integer)
                } else {
                    value = .double(token.double(in: scanner))
                }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
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
                    if next == UInt8(ascii: ",") {
                        scanner.position += 1
                        keys.append(try memberName(&scanner))
                        break
                    } else if next == UInt8(ascii: "}") {
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
                    if next == UInt8(ascii: ",") {
                        scanner.position += 1
                        break
                    } else if next == UInt8(ascii: "]") {
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
    private static func memberName(_ scanner: inout JSONScanner<JSONParseError>) throws(JSONParseError) -> String {
        guard try scanner.peekValue("a member name") == UInt8(ascii: "\"") else {
            throw scanner.unexpected(expecting: "a member name in quotes")
        }
        let name = scanner.string(try scanner.scanString())
        try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
        return name
    }
}
