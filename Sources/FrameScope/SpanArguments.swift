public import FrameTrace

/// Key–value arguments attached to a span or instant, written as a dictionary literal.
///
/// ```swift
/// recorder.withSpan("decode", category: .imageDecode, arguments: ["width": 1200, "file": "feed-3.png"]) { ... }
/// ```
///
/// Arguments are passed as an autoclosure, so a disabled recorder never builds them.
public struct SpanArguments: Sendable, ExpressibleByDictionaryLiteral {
    /// The arguments in the order written.
    public var list: [Argument]

    /// Creates arguments from a list.
    /// - Parameter list: The arguments, in the order the trace should show them.
    @inlinable
    public init(_ list: [Argument]) { self.list = list }

    /// Creates arguments from a dictionary literal, such as
    /// `["width": 1200, "file": "feed-3.png"]`.
    ///
    /// The literal's order is kept, and a key written twice stays twice.
    /// - Parameter elements: The literal's keys and values.
    @inlinable
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        list = elements.isEmpty ? [] : elements.map { Argument($0.0, $0.1) }
    }
}
