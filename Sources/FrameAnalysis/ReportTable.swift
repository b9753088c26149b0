/// A titled table of already-formatted cells, rendered as aligned text or Markdown, so the text and
/// Markdown reports share one layout.
public struct ReportTable: Sendable, Hashable {
    /// How a column's cells line up.
    public enum Alignment: Sendable, Hashable {
        case left
        case right
    }

    /// The table's heading.
    public var title: String
    /// Column headings and alignments.
    public var columns: [(name: String, alignment: Alignment)] {
        get { zip(columnNames, alignments).map { ($0, $1) } }
        set {
            columnNames = newValue.map(\.name)
            alignments = newValue.map(\.alignment)
        }
    }
    private var columnNames: [String] = []
    private var alignments: [Alignment] = []
    /// Rows of cells, one per column.
    public var rows: [[String]]

    /// Creates a table.
    public init(title: String, columns: [(String, Alignment)], rows: [[String]] = []) {
        self.title = title
        self.rows = rows
        self.columns = columns.map { (name: $0.0, alignment: $0.1) }
    }

    public static func == (lhs: ReportTable, rhs: ReportTable) -> Bool {
        lhs.title == rhs.title && lhs.columnNames == rhs.columnNames && lhs.alignments == rhs.alignments && lhs.rows == rhs.rows
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(columnNames)
        hasher.combine(rows)
    }

    /// The table as aligned plain text under its title, indented two spaces.
    public func text() -> String {
        var widths = columnNames.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() where index < widths.count {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                parts.append(alignments[index] == .left ? cell + padding : padding + cell)
            }
            var text = "  " + parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var lines = [title, line(columnNames)]
        lines += rows.map(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table as a GitHub-flavoured Markdown table under a level-3 heading.
    public func markdown() -> String {
        func escape(_ cell: String) -> String { cell.replacingAll("|", with: "\\|") }
        var lines = ["### \(title)", "", "| " + columnNames.map(escape).joined(separator: " | ") + " |"]
        lines.append("|" + alignments.map { $0 == .left ? " :--- |" : " ---: |" }.joined())
        lines += rows.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

/// Number formatting for reports: fixed decimals, deterministic on every platform.
public enum ReportFormat {
    /// `value` with exactly `decimals` decimals, rounded half away from zero.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return String(value) }
        let integer = UInt64(scaled)
        let divisor = UInt64(scale)
        let whole = integer / divisor
        var fraction = String(integer % divisor)
        while fraction.count < decimals { fraction = "0" + fraction }
        let sign = value < 0 && integer != 0 ? "-" : ""
        return sign + String(whole) + (decimals > 0 ? "." + fraction : "")
    }

    /// Nanoseconds as milliseconds with two decimals and the unit: `4.12 ms`.
    public static func milliseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1e6, decimals: 2) + " ms"
    }

    /// Like ``milliseconds(_:)``, or `-` when there is no value.
    public static func optionalMilliseconds(_ nanoseconds: Int64?) -> String {
        nanoseconds.map(milliseconds) ?? "-"
    }

    /// p50, p90, p95, p99 and max in milliseconds, or dashes when there were no values.
    public static func percentiles(_ summary: PercentileSummary<Int64>?) -> [String] {
        guard let summary else { return Array(repeating: "-", count: 5) }
        return [summary.p50, summary.p90, summary.p95, summary.p99, summary.max].map(milliseconds)
    }

    /// A share as a percentage with one decimal: `12.5%`.
    public static func percent(_ share: Double) -> String {
        fixed(share * 100, decimals: 1) + "%"
    }

    /// Like ``percent(_:)``, or `-` when the share could not be computed.
    public static func optionalPercent(_ share: Double?) -> String {
        share.map(percent) ?? "-"
    }
}
