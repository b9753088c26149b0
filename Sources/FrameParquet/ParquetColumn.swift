/// One top-level column of a Parquet table: a name, what it holds, whether it may be null.
///
/// ```swift
/// let columns = [
///     ParquetColumn("index", .int64),
///     ParquetColumn("main_ms", .decimal(precision: 18, scale: 6)),
///     ParquetColumn("hitch_stage", .string, isOptional: true),
/// ]
/// ```
package struct ParquetColumn: Sendable, Hashable {
    /// What a column holds, and so its physical and logical types.
    package enum Kind: Sendable, Hashable {
        /// INT64, no logical type.
        case int64
        /// INT64 holding the unscaled value of a DECIMAL(precision, scale).
        case decimal(precision: Int, scale: Int)
        /// BYTE_ARRAY with the STRING logical type (converted type UTF8).
        case string
        /// DOUBLE.
        case double
        /// A standard three-level MAP<STRING, DECIMAL(precision, scale) on INT64>:
        /// `optional group NAME (MAP) { repeated group key_value { required binary key (STRING);
        /// required int64 value (DECIMAL) } }`.
        case decimalMap(precision: Int, scale: Int)
    }

    /// The column's name, as readers show it.
    package var name: String
    /// What it holds.
    package var kind: Kind
    /// OPTIONAL (nulls allowed, written with definition levels) rather than REQUIRED. A map
    /// column is always an optional group, whatever this says.
    package var isOptional: Bool

    /// Creates a column.
    package init(_ name: String, _ kind: Kind, isOptional: Bool = false) {
        self.name = name
        self.kind = kind
        self.isOptional = isOptional
    }
}

/// One cell of a row handed to ``ParquetWriter``.
package enum ParquetValue: Sendable, Hashable {
    /// No value: only in an optional column.
    case null
    /// An `.int64` or `.decimal` column's value (for a decimal, the unscaled integer).
    case int64(Int64)
    /// A `.double` column's value.
    case double(Double)
    /// A `.string` column's value; stored as its UTF-8, byte for byte.
    case string(String)
    /// A `.decimalMap` column's entries in order (unscaled values); empty is an empty map.
    case entries([MapEntry])

    /// One key and unscaled value of a map cell.
    package struct MapEntry: Sendable, Hashable {
        /// The key.
        package var key: String
        /// The unscaled decimal.
        package var value: Int64
        /// Creates an entry.
        package init(_ key: String, _ value: Int64) {
            self.key = key
            self.value = value
        }
    }
}
