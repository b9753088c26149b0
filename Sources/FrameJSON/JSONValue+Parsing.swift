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
    /// Parses the value at the scanner's position (after whitespace), leaving the scanner after it.
    ///
    /// Finished values wait on one flat stack until their container closes, and are then moved
    /// into it once, so every value is copied a bounded number of times whatever the document's
    /// shape: O(*n*) in the input (a container held in a stack frame and appended to would be
    /// copied on every append, which is quadratic for a long array).
    package static func parseValue(_ scanner: inout JSONScanner<JSONParseError>, maxDepth: Int) throws(JSONParseError)
        -> JSONValue
    {
        var containers = OpenContainers(maxDepth: maxDepth)
        while true {
            // A scalar, an empty container, or a container opened for its first element.
            let byte = try scanner.peekValue("a value")
            let value: JSONValue
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                guard let empty = try containers.open(byte, &scanner) else { continue }
                value = empty
            } else {
                value = try scalar(byte, &scanner)
            }
            if let document = try containers.add(value, &scanner) { return document }
        }
    }

    /// A string, number, `true`, `false` or `null` starting with `byte`.
    @inline(__always)
    private static func scalar(_ byte: UInt8, _ scanner: inout JSONScanner<JSONParseError>) throws(JSONParseError)
        -> JSONValue
    {
        switch byte {
        case UInt8(ascii: "\""):
            return .string(scanner.string(try scanner.scanString()))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanner.scanNumber()
            if let integer = token.exactInteger { return .int(integer) }
            return .double(token.double(in: scanner))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try scanner.scanLiteral().map(JSONValue.bool) ?? .null
        default:
            throw scanner.unexpected(expecting: "a value")
        }
    }

    /// The containers open at the parser's position, innermost last, with their finished values
    /// and member names on two flat stacks.
    private struct OpenContainers {
        private struct Frame {
            var isObject: Bool
            var firstValue: Int
            var firstKey: Int
        }

        let maxDepth: Int
        private var stack: [Frame] = []
        private var values: [JSONValue] = []
        private var keys: [String] = []

        init(maxDepth: Int) { self.maxDepth = maxDepth }

        /// Steps into the `{` or `[` at the scanner: the empty container's value when it closes at
        /// once, or `nil` when it is open (and an object's first member name read).
        @inline(__always)
        mutating func open(_ byte: UInt8, _ scanner: inout JSONScanner<JSONParseError>) throws(JSONParseError)
            -> JSONValue?
        {
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
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            if try scanner.peekValue(isObject ? "a member name or '}'" : "a value or ']'") == close {
                scanner.position += 1
                return isObject ? .object([]) : .array([])
            }
            stack.append(Frame(isObject: isObject, firstValue: values.count, firstKey: keys.count))
            if isObject { keys.append(try JSONValue.memberName(&scanner)) }
            return nil
        }

        /// Adds a finished value to the innermost container and closes every container that ends
        /// after it: the whole document when the last one closed (or there was none), else `nil`
        /// with the scanner at the next element (an object's next member name read).
        @inline(__always)
        mutating func add(_ finished: JSONValue, _ scanner: inout JSONScanner<JSONParseError>) throws(JSONParseError)
            -> JSONValue?
        {
            var value = finished
            while let frame = stack.last {
                values.append(value)
                let expecting =
                    frame.isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
                let next = try scanner.peekValue(expecting)
                if next == UInt8(ascii: ",") {
                    scanner.position += 1
                    if frame.isObject { keys.append(try JSONValue.memberName(&scanner)) }
                    return nil
                }
                guard next == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw scanner.unexpected(expecting: expecting)
                }
                scanner.position += 1
                value = close(frame)
            }
            return value
        }

        /// The innermost container's value, its members or elements taken off the stacks.
        private mutating func close(_ frame: Frame) -> JSONValue {
            defer {
                values.removeSubrange(frame.firstValue...)
                stack.removeLast()
            }
            guard frame.isObject else { return .array(Array(values[frame.firstValue...])) }
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(values.count - frame.firstValue)
            for (key, member) in zip(keys[frame.firstKey...], values[frame.firstValue...]) {
                members.append((key, member))
            }
            keys.removeSubrange(frame.firstKey...)
            return .object(members)
        }
    }

    /// Consumes `"name" :` and returns the name.
    fileprivate static func memberName(_ scanner: inout JSONScanner<JSONParseError>) throws(JSONParseError) -> String {
        guard try scanner.peekValue("a member name") == UInt8(ascii: "\"") else {
            throw scanner.unexpected(expecting: "a member name in quotes")
        }
        let name = scanner.string(try scanner.scanString())
        try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
        return name
    }
}
