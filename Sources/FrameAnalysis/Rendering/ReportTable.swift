import FrameSupport
import FrameTrace

/// A titled table of already-formatted cells, rendered as aligned text or Markdown, so the text and
/// Markdown reports share one layout.
package struct ReportTable: Sendable, Hashable {
    /// How a column's cells line up.
    package enum Alignment: Sendable, Hashable {
        case left
        case right
    }

    /// The table's heading.
    package var title: String
    /// Column headings and alignments.
    package var columns: [(name: String, alignment: Alignment)] {
        get { zip(columnNames, alignments).map { ($0, $1) } }
        set {
            columnNames = newValue.map(\.name)
            alignments = newValue.map(\.alignment)
        }
    }
    private var columnNames: [String] = []
    private var alignments: [Alignment] = []
    /// Rows of cells, one per column.
    package var rows: [[String]]

    /// Creates a table.
    package init(title: String, columns: [(String, Alignment)], rows: [[String]] = []) {
        self.title = title
        self.rows = rows
        self.columns = columns.map { (name: $0.0, alignment: $0.1) }
    }

    package static func == (lhs: ReportTable, rhs: ReportTable) -> Bool {
        lhs.title == rhs.title && lhs.columnNames == rhs.columnNames && lhs.alignments == rhs.alignments
            && lhs.rows == rhs.rows
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(columnNames)
        hasher.combine(rows)
    }

    /// The table as aligned plain text under its title, indented two spaces.
    ///
    /// A column name may hold a line break (`"hitch\nms/s"`): the heading then takes two lines,
    /// so narrow numeric columns stay narrow. Markdown joins the lines with a space.
    /// - Parameter maxWidth: When set and the table is wider, left-aligned columns are narrowed
    ///   to fit, the widest first: a last column wraps onto continuation lines (it holds notes,
    ///   messages and lists whose parts all matter) as ``wrap(_:width:)`` breaks it: a list of
    ///   measured items (`RunTask 2.79 ms, UpdateLayoutTree 1.20 ms`) between its items, prose at
    ///   spaces but never inside `2.79 ms`. Any other cell, and a last one without a space, is cut
    ///   with `…` (a long category or span name). Right-aligned (numeric) cells are never cut.
    ///   `nil` keeps every cell whole.
    ///
    /// The title and every cell are untrusted text (names from a trace): each is written through
    /// ``UntrustedText/terminal(_:)``, and no line of the table begins with `::`
    /// (``UntrustedText/neutralizingWorkflowCommands(_:)``).
    package func text(maxWidth: Int? = nil) -> String {
        let title = UntrustedText.terminal(title)
        var rows = rows.prefix(Self.textRowLimit).map { $0.map(UntrustedText.terminal) }
        if self.rows.count > Self.textRowLimit {
            let more = "… \(self.rows.count - Self.textRowLimit) more rows: --format json has them all"
            rows.append([more] + Array(repeating: "", count: max(0, columnNames.count - 1)))
        }
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
            return ([parts.joined(separator: "  ")] + continuation.map { String(indent.dropFirst(2)) + $0 }).map {
                line in
                var text = "  " + line
                while text.hasSuffix(" ") { text.removeLast() }
                return text
            }
        }
        var output = maxWidth.map { title.count > $0 ? ReportTable.wrap(title, width: $0) : [title] } ?? [title]
        for lineIndex in 0..<headingLines {
            // Headings sit on their last lines, so a one-line heading lines up with the second line of a two-line one.
            output += lines(
                headings.map { heading in
                    let offset = lineIndex - (headingLines - heading.count)
                    return offset >= 0 ? heading[offset] : ""
                })
        }
        for row in rows { output += lines(row) }
        return UntrustedText.neutralizingWorkflowCommands(output.joined(separator: "\n")) + "\n"
    }

    /// Column widths that fit `maxWidth` (two-space indent and separators included) by narrowing
    /// left-aligned columns, the widest first, down to the longest heading line or 8 characters
    /// (20 for a last column, which wraps: a note wraps before a name is cut).
    static func fit(_ widths: [Int], alignments: [Alignment], headings: [[String]], into maxWidth: Int) -> [Int] {
        var widths = widths
        func total() -> Int { 2 + widths.reduce(0, +) + 2 * max(0, widths.count - 1) }
        let floors = widths.indices.map { index in
            min(widths[index], max(index == widths.count - 1 ? 20 : 8, headings[index].map(\.count).max() ?? 0))
        }
        while total() > maxWidth {
            let candidates = widths.indices.filter { alignments[$0] == .left && widths[$0] > floors[$0] }
            guard let widest = candidates.max(by: { (widths[$0], $1) < (widths[$1], $0) }) else { break }
            widths[widest] = max(floors[widest], widths[widest] - (total() - maxWidth))
        }
        return widths
    }

    /// `text` as a bulleted paragraph (`  - ` then lines indented to match) of at most `width` columns.
    package static func bulleted(_ text: String, width: Int) -> String {
        wrap(text, width: max(10, width - 4)).enumerated().map { ($0.offset == 0 ? "  - " : "    ") + $0.element }
            .joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters.
    ///
    /// A list of measured items (``measuredItems(_:)``: `RunTask 2.79 ms, UpdateLayoutTree 1.20 ms`)
    /// breaks only between items, after the separator, so an item is never split; an item wider
    /// than a line alone keeps its figure and loses the end of its name to `…`. Any other text
    /// breaks at spaces, except between a number and its unit (`2.79 ms`) and between a word and
    /// the number after it (`RunTask 2.79`): only a run of such words wider than a line breaks
    /// inside, at its spaces but still not inside `2.79 ms`, and only a word wider than a line is
    /// split where the line ends.
    package static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        if let items = measuredItems(text) { return wrapItems(items, width: width) }
        var lines: [String] = []
        var current = ""
        func place(_ word: Substring) {
            if current.isEmpty {
                var word = word
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
                place(word)
            }
        }
        for group in unbreakableGroups(text) {
            if group.joined(separator: " ").count <= width {
                place(Substring(group.joined(separator: " ")))
                continue
            }
            // A run of glued words wider than a line breaks at its spaces after all, except
            // between a number and its unit.
            var index = 0
            while index < group.count {
                if index + 1 < group.count, isNumber(group[index]), units.contains(core(group[index + 1])) {
                    place(group[index] + " " + group[index + 1])
                    index += 2
                } else {
                    place(group[index])
                    index += 1
                }
            }
        }
        lines.append(current)
        return lines
    }

    /// The units a number in a report may carry: no line breaks between the number and its unit.
    static let units: Set<Substring> = [
        "ms", "ms/s", "us", "µs", "ns", "s", "%", "x", "frame", "frames", "job", "jobs", "events", "spans",
        "B", "KB", "KiB", "MB", "MiB", "GB", "GiB", "fps", "Hz",
    ]

    /// `token` without the punctuation that may follow it in a sentence or a list.
    private static func core(_ token: Substring) -> Substring {
        var token = token
        while let last = token.last, ",;:)".contains(last) { token.removeLast() }
        return token
    }

    /// Whether `token` is a number: digits with an optional sign, decimals, thousands commas and
    /// a `%` or `x` right after it (`-7.67`, `1,474`, `12.5%`, `1.6x`).
    static func isNumber(_ token: Substring) -> Bool {
        var token = token
        if let first = token.first, first == "-" || first == "+" { token.removeFirst() }
        if let last = token.last, last == "%" || last == "x" { token.removeLast() }
        guard let first = token.first, first.isASCII, first.isNumber, let last = token.last, last.isASCII, last.isNumber
        else { return false }
        return token.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," }
    }

    /// `text`'s words (split at single spaces), grouped so that no group may break inside: a word
    /// joins the group before it when it is a number, or a unit right after a number.
    private static func unbreakableGroups(_ text: String) -> [[Substring]] {
        var groups: [[Substring]] = []
        var previous: Substring?
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let glued =
                previous.map { previous in
                    !previous.isEmpty && (isNumber(core(word)) || (isNumber(previous) && units.contains(core(word))))
                } ?? false
            if glued { groups[groups.count - 1].append(word) } else { groups.append([word]) }
            previous = word
        }
        return groups
    }

    /// The items of `text` when it is a list of at least two measured items: parts separated by
    /// `"; "` (or, when it holds none, `", "`), each a name followed by a number with a unit
    /// (`frame 13.00 ms`, `layout cell 12.00 ms`) or by a bare number (`misses 3`). Each item keeps
    /// the separator's punctuation that follows it (`"frame 13.00 ms,"`). `nil` for anything else:
    /// prose, a single item, a part without a figure.
    static func measuredItems(_ text: String) -> [Substring]? {
        let separator = text.contains("; ") ? "; " : ", "
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy(isMeasured) else { return nil }
        return parts.enumerated().map { index, part in
            index < parts.count - 1 ? Substring(part + separator.dropLast()) : part
        }
    }

    /// Whether `part` is a name followed by a figure: its last word a number, or a unit after a number.
    private static func isMeasured(_ part: Substring) -> Bool {
        let words = part.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count >= 2, words.allSatisfy({ !$0.isEmpty }) else { return false }
        if isNumber(words[words.count - 1]) { return true }
        return words.count >= 3 && units.contains(words[words.count - 1]) && isNumber(words[words.count - 2])
    }

    /// Measured items in lines of at most `width`, broken only between items.
    private static func wrapItems(_ items: [Substring], width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for item in items {
            let item = item.count > width ? cut(item, width: width) : String(item)
            if current.isEmpty {
                current = item
            } else if current.count + 1 + item.count <= width {
                current += " " + item
            } else {
                lines.append(current)
                current = item
            }
        }
        lines.append(current)
        return lines
    }

    /// An item wider than `width`, cut to it: the end of its name becomes `…` and its figure stays
    /// (`RunTask::ThreadControl… 25.91 ms,`); only when the figure alone is too wide is the end cut.
    private static func cut(_ item: Substring, width: Int) -> String {
        let words = item.split(separator: " ", omittingEmptySubsequences: false)
        let figureWords = units.contains(core(words[words.count - 1])) && words.count >= 3 ? 2 : 1
        let figure = " " + words.suffix(figureWords).joined(separator: " ")
        let name = words.dropLast(figureWords).joined(separator: " ")
        guard figure.count + 2 <= width else { return String(item.prefix(max(0, width - 1))) + "…" }
        return String(name.prefix(width - figure.count - 1)) + "…" + figure
    }

    /// Keeps only the columns at `indices` (in that order), in the headings and every row.
    package mutating func keepColumns(_ indices: [Int]) {
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
    package func markdown(formatted: (_ row: Int, _ column: Int, _ cell: String) -> String? = { _, _, _ in nil })
        -> String
    {
        let names = columnNames.map { UntrustedText.markdownText($0.replacingAll("\n", with: " ")) }
        var lines = ["### \(UntrustedText.markdownText(title))", "", "| " + names.joined(separator: " | ") + " |"]
        lines.append("|" + alignments.map { $0 == .left ? " :--- |" : " ---: |" }.joined())
        lines += rows.prefix(Self.markdownRowLimit).enumerated().map { rowIndex, row in
            "| "
                + row.enumerated().map { column, cell in
                    formatted(rowIndex, column, cell) ?? UntrustedText.markdownText(cell)
                }
                .joined(separator: " | ") + " |"
        }
        if rows.count > Self.markdownRowLimit {
            let more = "… \(rows.count - Self.markdownRowLimit) more rows: the JSON output (--format json) has them all"
            lines.append(
                "| "
                    + ([UntrustedText.markdownText(more)] + Array(repeating: "", count: max(0, columnNames.count - 1)))
                    .joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The most rows a text table shows: its first ones, then a row that counts the rest.
    package static let textRowLimit = 1_000

    /// The most rows a Markdown table shows: its first ones (every table lists what matters
    /// most first), then a row that counts the rest. With names shortened
    /// (``UntrustedText/shownLength``), this keeps a table far under GitHub's step-summary limit.
    package static let markdownRowLimit = 200
}

/// GitHub's limit on a step summary, and how framescope's Markdown stays under it.
package enum MarkdownLimit {
    /// The most bytes any Markdown output of framescope holds. GitHub discards a step summary
    /// over 1 MiB (1,048,576 bytes); this leaves room for what else a step appends.
    package static let bytes = 1_000_000

    /// `markdown` whole when it fits in ``bytes``; otherwise its first lines (never half a
    /// chart: a cut inside a code fence goes back to the fence's start) and a line that says
    /// what was cut and where everything is.
    package static func fit(_ markdown: String) -> String {
        guard markdown.utf8.count > bytes else { return markdown }
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let room = bytes - 400  // for the note
        var used = 0
        var kept = 0
        var fenceStart: Int?
        for (index, line) in lines.enumerated() {
            let size = line.utf8.count + 1
            if used + size > room { break }
            used += size
            if line.hasPrefix("```") { fenceStart = fenceStart == nil ? index : nil }
            kept = index + 1
        }
        if let fenceStart { kept = fenceStart }
        let note =
            "*framescope cut this Markdown at \(kept) of \(lines.count) lines to stay under GitHub's 1 MiB step-summary limit; "
            + "`--format json` writes every figure.*"
        return lines[..<kept].joined(separator: "\n") + "\n\n" + note + "\n"
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
