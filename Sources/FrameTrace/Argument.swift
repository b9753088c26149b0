/// A scalar value attached to an event under a key (the format's `args`).
public enum ArgumentValue: Sendable, Hashable {
    case int(Int64)
    case double(Double)
    case string(String)
    case bool(Bool)
    case null

    /// The value as a number, if it is one.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The value as an integer, if it is an integer or a double with no fraction.
    public var integer: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded() == value, abs(value) < 9.2e18 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// The value as a string, if it is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension ArgumentValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// One key and value of an event's `args`.
public struct Argument: Sendable, Hashable {
    /// The key, as written in the trace.
    public var key: String
    /// The scalar value.
    public var value: ArgumentValue

    /// Creates an argument.
    public init(_ key: String, _ value: ArgumentValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == Argument {
    /// The value of the first argument named `key`.
    public subscript(key: String) -> ArgumentValue? {
        first { $0.key == key }?.value
    }
}
