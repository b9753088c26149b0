internal import FrameParquet
internal import FrameSupport
internal import FrameTrace

/// A table of rows for engines that aggregate many traces (DuckDB, ClickHouse, pandas): its
/// columns (name, type, nullability) and a function that builds each row's cells, once. JSON
/// Lines, CSV and Parquet are renderers of this one value, so the three formats cannot drift
/// apart: a column or a value is decided here, never in a renderer.
///
/// ```swift
/// let table = FrameRows.table(report, trace: "t.json", labels: [], metadata: trace.metadata)
/// table.writeJSONLines { print($0, terminator: "") }
/// let parquet = table.parquet()
/// ```
package struct RowTable {
    /// What a column holds.
    package enum ColumnType: Sendable, Hashable {
        /// Text: a JSON string, a CSV field, Parquet STRING.
        case text
        /// A 64-bit integer: Parquet INT64.
        case integer
        /// A finite floating-point number: JSON and CSV write Swift's shortest form; Parquet DOUBLE.
        case double
        /// Integer nanoseconds shown as milliseconds with six decimals; Parquet INT64
        /// DECIMAL(18, 6), whose unscaled integer is the nanoseconds.
        case milliseconds
        /// Milliseconds by name: a JSON object, one CSV column per name in ``Column/csvKeys``,
        /// a Parquet MAP<STRING, DECIMAL(18, 6)>.
        case millisecondsByName
    }

    /// One column.
    package struct Column: Sendable {
        /// The name: the JSON key, the CSV header, the Parquet column.
        package var name: String
        /// What it holds.
        package var type: ColumnType
        /// Whether a row may have no value (JSON `null`, an empty CSV field, a Parquet null).
        package var isNullable: Bool
        /// For ``ColumnType/millisecondsByName``: the CSV columns it expands to (header, name),
        /// 0 where a row has no entry for the name.
        package var csvKeys: [(header: String, key: String)] = []

        /// Creates a column.
        package init(
            _ name: String, _ type: ColumnType, isNullable: Bool = false, csvKeys: [(header: String, key: String)] = []
        ) {
            self.name = name
            self.type = type
            self.isNullable = isNullable
            self.csvKeys = csvKeys
        }
    }

    /// One value.
    package enum Cell: Sendable, Hashable {
        case text(String)
        case integer(Int64)
        case double(Double)
        case milliseconds(Int64)
        /// Entries in the order written, each nanoseconds.
        case millisecondsByName([MillisecondsEntry])
        /// No value: an empty CSV field, JSON `null`, a Parquet null.
        case null

        /// Its CSV field.
        var text: String {
            switch self {
            case .null: ""
            case .text(let value): value
            case .integer(let value): String(value)
            case .double(let value): String(value)
            case .milliseconds(let nanoseconds): FrameRows.exactMilliseconds(nanoseconds)
            case .millisecondsByName(let entries):
                entries.map { "\($0.key)=\(FrameRows.exactMilliseconds($0.nanoseconds))" }.joined(separator: ";")
            }
        }

        /// Its JSON value.
        var json: String {
            switch self {
            case .text(let value): JSONValue.string(value).description
            case .null: "null"
            case .millisecondsByName(let entries):
                "{"
                    + entries.map {
                        "\(JSONValue.string($0.key).description):\(FrameRows.exactMilliseconds($0.nanoseconds))"
                    }.joined(separator: ",") + "}"
            default: text
            }
        }
    }

    /// One name and its nanoseconds in a ``Cell/millisecondsByName(_:)``.
    package struct MillisecondsEntry: Sendable, Hashable {
        package var key: String
        package var nanoseconds: Int64
        package init(_ key: String, _ nanoseconds: Int64) {
            self.key = key
            self.nanoseconds = nanoseconds
        }
    }

    /// The schema name (`framescope.frames`), written in Parquet's key-value metadata.
    package var schema: String
    /// The schema version.
    package var version: Int
    /// A short description of the columns for Parquet's key-value metadata.
    package var description: String
    /// The columns, in order.
    package var columns: [Column]
    /// How many rows.
    package var rowCount: Int
    /// Builds row `index`'s cells, one per column.
    package var row: (Int) -> [Cell]

    /// Creates a table.
    package init(
        schema: String, version: Int, description: String, columns: [Column], rowCount: Int,
        row: @escaping (Int) -> [Cell]
    ) {
        self.schema = schema
        self.version = version
        self.description = description
        self.columns = columns
        self.rowCount = rowCount
        self.row = row
    }

    // MARK: Renderers

    /// Writes one JSON object per row, each line handed to `emit` with its newline.
    /// - Complexity: O(cells); one row in memory at a time.
    package func writeJSONLines(to emit: (String) -> Void) {
        let keys = columns.map { JSONValue.string($0.name).description + ":" }
        for index in 0..<rowCount {
            let cells = row(index)
            var line = "{"
            for (position, cell) in cells.enumerated() {
                if position > 0 { line += "," }
                line += keys[position] + cell.json
            }
            emit(line + "}\n")
        }
    }

    /// Writes RFC 4180 CSV: a header line, then one line per row (a by-name column expanded
    /// into one column per name).
    /// - Complexity: O(cells); one row in memory at a time.
    package func writeCSV(to emit: (String) -> Void) {
        let header = columns.flatMap { column in
            column.type == .millisecondsByName ? column.csvKeys.map(\.header) : [column.name]
        }
        emit(header.map(UntrustedText.csvField).joined(separator: ",") + "\n")
        for index in 0..<rowCount {
            var fields: [String] = []
            for (column, cell) in zip(columns, row(index)) {
                if column.type == .millisecondsByName {
                    let entries: [MillisecondsEntry]
                    if case .millisecondsByName(let values) = cell { entries = values } else { entries = [] }
                    for key in column.csvKeys {
                        fields.append(
                            FrameRows.exactMilliseconds(entries.first { $0.key == key.key }?.nanoseconds ?? 0))
                    }
                } else {
                    fields.append(cell.text)
                }
            }
            emit(fields.map(UntrustedText.csvField).joined(separator: ",") + "\n")
        }
    }

    /// The table as one Parquet file (see ``FrameParquet``'s writer): text as STRING,
    /// integers as INT64, milliseconds as INT64 DECIMAL(18, 6) holding the nanoseconds, by-name
    /// milliseconds as a MAP; nullable columns OPTIONAL. The footer's key-value metadata holds
    /// `framescope.schema`, `framescope.schema.version` and `framescope.columns`.
    /// - Parameter rowGroupRowLimit: Rows per row group.
    /// - Returns: The file's bytes.
    /// - Complexity: O(cells); a row group's values in memory, and the file.
    package func parquet(rowGroupRowLimit: Int = 65_536) -> [UInt8] {
        var bytes: [UInt8] = []
        writeParquet(rowGroupRowLimit: rowGroupRowLimit) { bytes += $0 }
        return bytes
    }

    /// The table as Parquet (see ``parquet(rowGroupRowLimit:)``), handed to `write` a row group
    /// at a time and then the footer, so no more than one row group is ever held.
    ///
    /// ```swift
    /// try table.writeParquet { try file.write($0) }
    /// ```
    /// - Parameters:
    ///   - rowGroupRowLimit: Rows per row group.
    ///   - write: Called with the file's next bytes, in order, until the last.
    /// - Throws: What `write` throws; the rest of the file is not written.
    /// - Complexity: O(cells); a row group's values and its encoded bytes in memory.
    package func writeParquet(rowGroupRowLimit: Int = 65_536, to write: ([UInt8]) throws -> Void) rethrows {
        let parquetColumns = columns.map { column -> ParquetColumn in
            switch column.type {
            case .text: ParquetColumn(column.name, .string, isOptional: column.isNullable)
            case .integer: ParquetColumn(column.name, .int64, isOptional: column.isNullable)
            case .double: ParquetColumn(column.name, .double, isOptional: column.isNullable)
            case .milliseconds:
                ParquetColumn(column.name, .decimal(precision: 18, scale: 6), isOptional: column.isNullable)
            case .millisecondsByName: ParquetColumn(column.name, .decimalMap(precision: 18, scale: 6), isOptional: true)
            }
        }
        var writer = ParquetWriter(
            columns: parquetColumns,
            metadata: [
                ("framescope.schema", schema), ("framescope.schema.version", String(version)),
                ("framescope.columns", description),
            ],
            createdBy: "\(FramescopeVersion.producer) \(FramescopeVersion.current)", rowGroupRowLimit: rowGroupRowLimit)
        for index in 0..<rowCount {
            writer.append(
                row(index).map { cell -> ParquetValue in
                    switch cell {
                    case .null: .null
                    case .text(let value): .string(value)
                    case .integer(let value), .milliseconds(let value): .int64(value)
                    case .double(let value): .double(value)
                    case .millisecondsByName(let entries):
                        .entries(entries.map { ParquetValue.MapEntry($0.key, $0.nanoseconds) })
                    }
                })
            let ready = writer.takeOutput()
            if !ready.isEmpty { try write(ready) }
        }
        try write(writer.finish())
    }
}
