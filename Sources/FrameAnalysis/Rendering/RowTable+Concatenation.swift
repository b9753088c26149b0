/// Several traces' tables as one, for a file that holds a batch of traces (`report TRACE...
/// --format frames-parquet`).
extension RowTable {
    /// The rows of `tables`, one table after the other, under one set of columns: every column
    /// of every table, by name, in order of first appearance.
    ///
    /// A table without a column has no value in it (`null`), so such a column is nullable; a
    /// column whose type differs between tables (a `meta_seed` that is an integer in one trace
    /// and text in another) is text, each value written as its CSV field; a by-name column's CSV
    /// keys are every table's, in order of first appearance. The schema and its description are
    /// the first table's.
    ///
    /// ```swift
    /// let frames = RowTable.concatenating(reports.map { FrameRows.table($0, ...) })
    /// let parquet = frames?.parquet()
    /// ```
    /// - Parameter tables: The tables, all of one schema (`framescope.frames`, say).
    /// - Returns: One table, or `nil` when `tables` is empty (no table, no columns).
    /// - Complexity: O(columns) to build; each row costs O(log tables) more than its own table's.
    package static func concatenating(_ tables: [RowTable]) -> RowTable? {
        guard let first = tables.first else { return nil }
        var columns: [Column] = []
        var indexOfName: [String: Int] = [:]
        var sources: [[Int]] = []  // per table: each of its columns' index among `columns`
        for table in tables {
            var positions: [Int] = []
            for column in table.columns {
                guard let index = indexOfName[column.name] else {
                    indexOfName[column.name] = columns.count
                    positions.append(columns.count)
                    columns.append(column)
                    continue
                }
                columns[index] = merged(columns[index], column)
                positions.append(index)
            }
            sources.append(positions)
        }
        for positions in sources where positions.count < columns.count {
            let present = Set(positions)
            for index in columns.indices where !present.contains(index) { columns[index].isNullable = true }
        }
        var offsets: [Int] = [0]
        for table in tables { offsets.append(offsets[offsets.count - 1] + table.rowCount) }
        let types = columns.map(\.type)
        return RowTable(
            schema: first.schema, version: first.version, description: first.description, columns: columns,
            rowCount: offsets[offsets.count - 1]
        ) { index in
            let table = tableIndex(of: index, offsets: offsets)
            var row = [Cell](repeating: .null, count: types.count)
            for (cell, position) in zip(tables[table].row(index - offsets[table]), sources[table]) {
                row[position] = types[position] == .text ? cell.asText : cell
            }
            return row
        }
    }

    /// One column as two tables have it: nullable if either is; text if their types differ.
    private static func merged(_ column: Column, _ other: Column) -> Column {
        var result = column
        result.isNullable = column.isNullable || other.isNullable
        if column.type != other.type {
            result.type = .text
            result.csvKeys = []
        } else if column.type == .millisecondsByName {
            let known = Set(column.csvKeys.map(\.key))
            result.csvKeys += other.csvKeys.filter { !known.contains($0.key) }
        }
        return result
    }

    /// The table a row of the concatenation comes from: the last whose first row is at or
    /// before `index` (tables without rows are passed over).
    private static func tableIndex(of index: Int, offsets: [Int]) -> Int {
        var low = 0
        var high = offsets.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

extension RowTable.Cell {
    /// The cell in a text column: text and `null` as they are, any other value as its CSV field.
    fileprivate var asText: RowTable.Cell {
        switch self {
        case .text, .null: self
        default: .text(text)
        }
    }
}
