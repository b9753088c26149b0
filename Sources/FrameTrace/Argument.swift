/// The value of an argument: a JSON value.
@available(
    *, deprecated, renamed: "JSONValue",
    message: "arguments hold a JSONValue; its accessors are stringValue, doubleValue and integerValue"
)
public typealias ArgumentValue = JSONValue

/// One key and value of an event's `args`.
public struct Argument: Sendable, Hashable {
    /// The key, as written in the trace.
    public var key: String
    /// The value; the reader stores scalars only.
    public var value: JSONValue

    /// Creates an argument.
    /// - Parameters:
    ///   - key: The key, as the trace will write it.
    ///   - value: The value.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == Argument {
    /// The value of the first argument named `key`.
    ///
    /// ```swift
    /// let width = trace.arguments(of: event)["width"]?.integerValue
    /// ```
    /// - Parameter key: The key to look for, compared exactly.
    /// - Returns: The first matching argument's value, or `nil` when no argument has that key.
    /// - Complexity: O(*n*) in the number of arguments.
    public subscript(key: String) -> JSONValue? {
        // By index, so only the matching element's value is copied (a closure over elements
        // copies, retaining and releasing, every argument it looks at).
        for index in indices where self[index].key == key { return self[index].value }
        return nil
    }
}
