import FrameTrace

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
    ///
    /// A column name may hold a line break (`"hitch\nms/s"`): the heading then takes two lines,
    /// so narrow numeric columns stay narrow. Markdown joins the lines with a space.
    /// - Parameter maxWidth: When set and the table is wider, left-aligned columns are narrowed
    ///   to fit, the widest first: a last column wraps at spaces onto continuation lines (it holds
    ///   notes and messages, whose words all matter), any other cell, and a last one without a
    ///   space, is cut with `…` (a long category or span name). Right-aligned (numeric) cells are never cut. `nil` keeps every cell whole.
    ///
    /// The title and every cell are untrusted text (names from a trace): each is written through
    /// ``UntrustedText/terminal(_:)``, and no line of the table begins with `::`
    /// (``UntrustedText/neutralizingWorkflowCommands(_:)``).
    public func text(maxWidth: Int? = nil) -> String {
        let title = UntrustedText.terminal(title)
        let rows = rows.map { $0.map(UntrustedText.terminal) }
        let headings = columnNames.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let headingLines = headings.map(\.count).max() ?? 1
        var widths = headings.map { $0.map(\.count).max() ?? 0 }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        if let maxWidth { widths = ReportTable.fit(widths, alignments: alignments, headings: headings, into: maxWidth) }
        let last = widths.count - 1
        func lines(_ cells: [String]) -> [String] {
            var parts: [String] = []
            var continuation: [String] = []
            for (index, cell) in cells.enumerated() where index < widths.count {
                var shown = cell
                if cell.count > widths[index] {
                    if index == last && alignments[index] == .left && cell.contains(" ") {
                        let wrapped = ReportTable.wrap(cell, width: widths[index])
                        shown = wrapped[0]
                        continuation = Array(wrapped.dropFirst())
                    } else {
                        shown = String(cell.prefix(max(0, widths[index] - 1))) + "…"
                    }
                }
                let padding = String(repeating: " ", count: max(0, widths[index] - shown.count))
                parts.append(alignments[index] == .left ? shown + padding : padding + shown)
            }
            let indent = "  " + widths.dropLast().map { String(repeating: " ", count: $0 + 2) }.joined()
            return ([parts.joined(separator: "  ")] + continuation.map { String(indent.dropFirst(2)) + $0 }).map { line in
                var text = "  " + line
                while text.hasSuffix(" ") { text.removeLast() }
                return text
            }
        }
        var output = maxWidth.map { title.count > $0 ? ReportTable.wrap(title, width: $0) : [title] } ?? [title]
        for lineIndex in 0..<headingLines {
            // Headings sit on their last lines, so a one-line heading lines up with the second line of a two-line one.
            output += lines(headings.map { heading in
                let offset = lineIndex - (headingLines - heading.count)
                return offset >= 0 ? heading[offset] : ""
            })
        }
        for row in rows { output += lines(row) }
        return UntrustedText.neutralizingWorkflowCommands(output.joined(separator: "\n")) + "\n"
    }

    /// Column widths that fit `maxWidth` (two-space indent and separators included) by narrowing
    /// left-aligned columns, the widest first, down to the longest heading line or 8 characters
    /// (30 for a last column, which wraps).
    static func fit(_ widths: [Int], alignments: [Alignment], headings: [[String]], into maxWidth: Int) -> [Int] {
        var widths = widths
        func total() -> Int { 2 + widths.reduce(0, +) + 2 * max(0, widths.count - 1) }
        let floors = widths.indices.map { index in
            min(widths[index], max(index == widths.count - 1 ? 30 : 8, headings[index].map(\.count).max() ?? 0))
        }
        while total() > maxWidth {
            let candidates = widths.indices.filter { alignments[$0] == .left && widths[$0] > floors[$0] }
            guard let widest = candidates.max(by: { (widths[$0], $1) < (widths[$1], $0) }) else { break }
            widths[widest] = max(floors[widest], widths[widest] - (total() - maxWidth))
        }
        return widths
    }

    /// `text` as a bulleted paragraph (`  - ` then lines indented to match) of at most `width` columns.
    public static func bulleted(_ text: String, width: Int) -> String {
        wrap(text, width: max(10, width - 4)).enumerated().map { ($0.offset == 0 ? "  - " : "    ") + $0.element }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces where it can be.
    package static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            if current.isEmpty {
                // A word longer than a line is split where the line ends.
                while word.count > width {
                    lines.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = ""
                while word.count > width {
                    lines.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
                current = String(word)
            }
        }
        lines.append(current)
        return lines
    }

    /// Keeps only the columns at `indices` (in that order), in the headings and every row.
    public mutating func keepColumns(_ indices: [Int]) {
        let kept = indices.filter { $0 < columnNames.count }
        columns = kept.map { (name: columnNames[$0], alignment: alignments[$0]) }
        rows = rows.map { row in kept.map { $0 < row.count ? row[$0] : "" } }
    }

    /// The table as a GitHub-flavoured Markdown table under a level-3 heading.
    ///
    /// The title and every cell are untrusted text, written through
    /// ``UntrustedText/markdownText(_:)``: a name renders as itself and cannot break the table.
    /// - Parameter formatted: Markdown of its own for a cell (a code span, a bold verdict), given
    ///   its row index, column index and text, or `nil` to write the cell as literal text. What
    ///   it returns must already be safe: built with ``UntrustedText/markdownCode(_:)`` or
    ///   ``UntrustedText/markdownText(_:)`` around any untrusted part, with no line break and no
    ///   unescaped `|`.
    public func markdown(formatted: (_ row: Int, _ column: Int, _ cell: String) -> String? = { _, _, _ in nil }) -> String {
        let names = columnNames.map { UntrustedText.markdownText($0.replacingAll("\n", with: " ")) }
        var lines = ["### \(UntrustedText.markdownText(title))", "", "| " + names.joined(separator: " | ") + " |"]
        lines.append("|" + alignments.map { $0 == .left ? " :--- |" : " ---: |" }.joined())
        lines += rows.enumerated().map { rowIndex, row in
            "| " + row.enumerated().map { column, cell in formatted(rowIndex, column, cell) ?? UntrustedText.markdownText(cell) }
                .joined(separator: " | ") + " |"
        }
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
package enum ReportFormat {
    /// `value` with exactly `decimals` decimals, rounded half away from zero.
    package static func fixed(_ value: Double, decimals: Int) -> String {
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
    package static func milliseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1e6, decimals: 2) + " ms"
    }

    /// Like ``milliseconds(_:)``, or `-` when there is no value.
    package static func optionalMilliseconds(_ nanoseconds: Int64?) -> String {
        nanoseconds.map(milliseconds) ?? "-"
    }

    /// p50, p90, p95, p99 and max in milliseconds, or dashes when there were no values.
    package static func percentiles(_ summary: PercentileSummary<Int64>?) -> [String] {
        guard let summary else { return Array(repeating: "-", count: 5) }
        return [summary.p50, summary.p90, summary.p95, summary.p99, summary.max].map(milliseconds)
    }

    /// A share as a percentage with one decimal: `12.5%`.
    package static func percent(_ share: Double) -> String {
        fixed(share * 100, decimals: 1) + "%"
    }

    /// Like ``percent(_:)``, or `-` when the share could not be computed.
    package static func optionalPercent(_ share: Double?) -> String {
        share.map(percent) ?? "-"
    }
}
