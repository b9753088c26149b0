/// A handle to a string interned in a ``SymbolTable``.
///
/// Events store names and categories as symbols so that a trace of millions of events holds each
/// distinct string once and compares names by integer.
public struct Symbol: Hashable, Sendable, Comparable {
    /// The index of the string in its table.
    public let rawValue: UInt32

    /// Creates a symbol from a table index.
    /// - Parameter rawValue: The string's index in its ``SymbolTable``.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The empty string, present in every table at index 0.
    public static let empty = Symbol(rawValue: 0)

    /// Orders symbols by their index: the order their strings were first interned, not the
    /// strings' alphabetical order.
    /// - Parameters:
    ///   - lhs: A symbol.
    ///   - rhs: Another symbol of the same table.
    /// - Returns: `true` when `lhs` was interned before `rhs`.
    public static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Distinct strings of a trace, each stored once and addressed by ``Symbol``.
///
/// ```swift
/// var table = SymbolTable()
/// let layout = table.intern("layout")
/// assert(table[layout] == "layout")
/// ```
public struct SymbolTable: Sendable {
    /// The strings in interning order; index 0 is the empty string.
    public private(set) var strings: [String] = [""]
    private var index: [String: Symbol] = ["": .empty]

    /// Creates a table that holds only the empty string.
    public init() {}

    /// Returns the symbol for `string`, adding it if it is new.
    /// - Parameter string: The string to intern.
    /// - Returns: The symbol `string` had, or the next free one.
    /// - Complexity: Amortized O(length of `string`).
    public mutating func intern(_ string: String) -> Symbol {
        if let existing = index[string] { return existing }
        let symbol = Symbol(rawValue: UInt32(strings.count))
        strings.append(string)
        index[string] = symbol
        return symbol
    }

    /// Returns the symbol for `string` if it is in the table, without adding it.
    /// - Parameter string: The string to look up.
    /// - Returns: Its symbol, or `nil` when the table does not hold it.
    public func lookup(_ string: String) -> Symbol? { index[string] }

    /// The string a symbol stands for.
    /// - Parameter symbol: A symbol from this table.
    /// - Precondition: `symbol` comes from this table (or a copy of it), so its index is in range.
    public subscript(symbol: Symbol) -> String { strings[Int(symbol.rawValue)] }

    /// The number of distinct strings, the empty string included.
    public var count: Int { strings.count }
}
