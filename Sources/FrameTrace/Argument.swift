/// The value of an argument: a JSON value.
@available(*, deprecated, renamed: "JSONValue", message: "arguments hold a JSONValue; its accessors are stringValue, doubleValue and integerValue")
public typealias ArgumentValue = JSONValue

/// One key and value of an event's `args`.
public struct Argument: Sendable, Hashable {
    /// The key, as written in the trace.
    public var key: String
    /// The value; the reader stores scalars only.
    public var value: JSONValue

    /// Creates an argument.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == Argument {
    /// The value of the first argument named `key`.
    public subscript(key: String) -> JSONValue? {
        // By index, so only the matching element's value is copied (a closure over elements
        // copies, retaining and releasing, every argument it looks at).
        for index in indices where self[index].key == key { return self[index].value }
        return nil
    }
}
