/// A JSON document as a value, for small documents such as budget files and trace metadata.
///
/// Objects keep their members in document order (duplicates included), so error messages and
/// round trips can follow the file. Integer literals that fit in `Int64` stay exact as
/// ``int(_:)``; every other number is a ``double(_:)``. Parsing is iterative, so deep nesting
/// cannot overflow the stack; it is capped instead, with a clear error.
///
/// ```swift
/// let budget = try JSONValue.parse(#"{"frame-interval-ms": 16.67, "p95-ms": 12}"#)
/// let p95 = budget["p95-ms"]?.doubleValue   // 12.0
/// ```
///
/// It is also the value of an event's argument (``Argument``): the reader stores scalars there
/// (`int`, `double`, `string`, `bool`, `null`); a producer may record arrays and objects, which
/// the writer writes as they are. FrameJSON parses documents into it (`JSONValue.parse`); for
/// traces use FrameTraceReader's `ChromeJSONImporter`, which streams without building a tree.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer: a literal with no fraction or exponent that fits in `Int64`.
    case int(Int64)
    /// Any other number, correctly rounded to a `Double` (huge ones become infinities).
    case double(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in document order.
    case object([(String, JSONValue)])
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
    /// let first = try JSONValue.parse("[1, 2]")[0]   // .int(1)
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
        case .int(let integer): Double(integer)
        case .double(let number): number
        default: nil
        }
    }

    /// The number as an `Int64`, if this is an integer, or a number with no fraction in range.
    public var integerValue: Int64? {
        switch self {
        case .int(let integer):
            return integer
        case .double(let number):
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
    /// Structural equality; member order matters, and `.int(1)` differs from `.double(1)`.
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: `true` when both are the same case holding equal contents.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Hashes the value structurally, consistently with ``==(_:_:)``.
    /// - Parameter hasher: The hasher to feed the value's case and contents into.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let bool):
            hasher.combine(1)
            hasher.combine(bool)
        case .int(let integer):
            hasher.combine(2)
            hasher.combine(integer)
        case .double(let number):
            hasher.combine(3)
            hasher.combine(number)
        case .string(let string):
            hasher.combine(4)
            hasher.combine(string)
        case .array(let elements):
            hasher.combine(5)
            hasher.combine(elements)
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
    /// JSONValue.object([("a", .int(1))]).description   // {"a":1}
    /// ```
    public var description: String {
        var output = JSONOutput()
        output.append(value: self)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    /// Creates ``int(_:)`` from an integer literal, so `["width": 1200]` needs no `.int`.
    /// - Parameter value: The literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// Creates ``double(_:)`` from a floating-point literal.
    /// - Parameter value: The literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates ``string(_:)`` from a string literal.
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates ``bool(_:)`` from `true` or `false`.
    /// - Parameter value: The literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
