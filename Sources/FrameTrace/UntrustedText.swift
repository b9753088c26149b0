/// Turns text that came from a trace — span, category, thread and process names, metadata values,
/// labels, file names — into the text of each output format: one function per format, used by
/// every writer, so each algorithm exists once.
///
/// A trace recorded in a pull request is written by whoever wrote that code. Nothing in one may
/// change what an output means: forge a GitHub workflow command, move a terminal's cursor, open a
/// link or an image in a step summary, add an element to an HTML page, or break a table.
///
/// ```swift
/// UntrustedText.terminal("a\u{1B}[2Jb")          // a\u{1B}[2Jb, with a visible backslash-u
/// UntrustedText.markdownText("![x](http://e)")   // \!\[x\](http\://e)
/// UntrustedText.markdownCode("a`b")              // `` a`b ``
/// ```
public enum UntrustedText {
    // MARK: - Terminal

    /// Text for a terminal, one line: control characters (C0 except tab, DEL, C1) and invisible
    /// or bidirectional format characters (U+061C, U+200B–U+200F, U+2028, U+2029,
    /// U+202A–U+202E, U+2066–U+2069, U+FEFF) become visible escapes such as `\u{1B}`, so the
    /// text never spans lines, moves the cursor or reorders what follows; text that would begin,
    /// after leading whitespace, with `::` (a GitHub workflow command at the start of a line) is
    /// quoted: `"::error::x"`.
    /// - Parameter text: Any string.
    /// - Returns: One line of printable text.
    /// - Complexity: O(*n*) in the length of `text`.
    public static func terminal(_ text: String) -> String {
        let escaped = visible(text, keepingTab: true)
        return startsWorkflowCommand(escaped) ? "\"" + escaped + "\"" : escaped
    }

    /// Rendered text with every line that would begin, after leading whitespace, with `::` made
    /// harmless: its first colon becomes the visible escape `\u{3A}`. The GitHub Actions runner
    /// reads such a line of a step's output as a workflow command; framescope's own annotations
    /// are written apart from this text.
    ///
    /// ``terminal(_:)`` already quotes a name that starts with `::`; this guards the lines a
    /// layout makes, such as a long cell wrapped or cut in the middle of a name.
    /// - Parameter text: Lines separated by `\n`.
    /// - Returns: The same lines, none starting with `::`.
    public static func neutralizingWorkflowCommands(_ text: String) -> String {
        guard text.contains("::") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            guard startsWorkflowCommand(line) else { return line }
            let colon = line.firstIndex(of: ":")!
            return line[..<colon] + "\\u{3A}" + line[line.index(after: colon)...]
        }.joined(separator: "\n")
    }

    // MARK: - Markdown

    /// Text for GitHub-flavoured Markdown that renders as itself, on one line, inside a
    /// paragraph, heading, list item or table cell: no image, link, autolink, HTML, entity,
    /// emphasis, strikethrough, math, emoji shortcode, code or table break can come from it.
    ///
    /// Control and format characters become visible escapes as in ``terminal(_:)`` (tab too,
    /// line breaks included), so the text never ends its line; then the ASCII punctuation that
    /// can start Markdown inside a line is backslash-escaped (`` \ ` * _ { } [ ] < > # ! | ~ & $
    /// : @ ^ ``), and so is the `.` of `www.`. CommonMark renders any backslash-escaped ASCII
    /// punctuation as the character itself. Block syntax (`-`, `+`, `1.` lists, `=` underlines)
    /// only counts at the start of a line, where framescope never puts a name: it always follows
    /// `| `, `## `, `- ` or a word.
    /// - Parameter text: Any string.
    /// - Returns: Markdown source for the literal text.
    public static func markdownText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previous: [Unicode.Scalar] = []
        for scalar in visible(text, keepingTab: false).unicodeScalars {
            var escape = markdownPunctuation.contains(scalar)
            if scalar == ".", previous.count >= 3, previous.suffix(3).allSatisfy({ $0 == "w" || $0 == "W" }) { escape = true }
            if escape { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
            previous.append(scalar)
            if previous.count > 3 { previous.removeFirst() }
        }
        return result
    }

    /// Text as a Markdown code span that shows it verbatim, on one line: delimited by a backtick
    /// run longer than any inside it (padded with a space where it starts or ends with a
    /// backtick or a space), control and format characters as visible escapes. Text holding
    /// `|`, which a GitHub table would split at even inside a code span, and empty text are
    /// written as ``markdownText(_:)`` instead.
    /// - Parameter text: Any string.
    /// - Returns: Markdown source.
    public static func markdownCode(_ text: String) -> String {
        let content = visible(text, keepingTab: false)
        guard !content.isEmpty, !content.contains("|") else { return markdownText(text) }
        var longest = 0
        var run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let first = content.first!, last = content.last!
        let pad = first == "`" || last == "`" || (first == " " && last == " " && content.contains { $0 != " " })
        return pad ? fence + " " + content + " " + fence : fence + content + fence
    }

    /// Text for a Mermaid string in double quotes, such as a chart's title: one line (control
    /// and format characters as visible escapes) with `"` written as `'`, so it can neither end
    /// the string, start a new statement nor close the Markdown fence around the chart.
    /// - Parameter text: Any string.
    /// - Returns: The string's content, without the quotes.
    public static func mermaidString(_ text: String) -> String {
        String(visible(text, keepingTab: false).map { $0 == "\"" ? "'" : $0 })
    }

    // MARK: - GitHub Actions workflow commands

    /// Text for the message of a workflow command (`::error title=T::MESSAGE`): `%`, CR and LF
    /// percent-encoded as the Actions runner expects; other control and format characters as
    /// visible escapes, as in ``terminal(_:)``.
    /// - Parameter text: Any string.
    /// - Returns: The encoded message.
    public static func annotationMessage(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: appendVisible(scalar, keepingTab: true, to: &result)
            }
        }
        return result
    }

    /// Text for a property value of a workflow command (`title=VALUE`): as
    /// ``annotationMessage(_:)``, and also `:` as `%3A` and `,` as `%2C`.
    /// - Parameter text: Any string.
    /// - Returns: The encoded value.
    public static func annotationProperty(_ text: String) -> String {
        var result = ""
        for character in annotationMessage(text) {
            switch character {
            case ":": result += "%3A"
            case ",": result += "%2C"
            default: result.append(character)
            }
        }
        return result
    }

    // MARK: - HTML, XML, CSV

    /// Text for HTML element content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as
    /// character references, so no element, attribute or entity can come from it.
    /// - Parameter text: Any string.
    /// - Returns: The escaped text.
    public static func html(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text for an XML 1.0 attribute value or element content: `&`, `<`, `>`, `"`, `'`, and tab,
    /// newline and carriage return as character references (so attribute values keep them);
    /// other control characters, and U+FFFE/U+FFFF, which XML 1.0 cannot hold even as
    /// references, as visible escapes (`\u{1B}`), as in ``terminal(_:)``.
    /// - Parameter text: Any string.
    /// - Returns: The escaped text.
    public static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Text as one RFC 4180 CSV field: quoted, with quotes doubled, when it holds a comma, quote
    /// or line break; otherwise as it is. The field reads back as exactly `text`.
    /// - Parameter text: Any string.
    /// - Returns: The field.
    public static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "\""
    }

    // MARK: - Pieces

    /// Whether `scalar` is shown as a visible escape in terminal text: C0 controls (tab when
    /// `keepingTab` is false), DEL, C1, and the invisible and bidirectional format characters.
    public static func isHidden(_ scalar: Unicode.Scalar, keepingTab: Bool = true) -> Bool {
        switch scalar.value {
        case 0x09: !keepingTab
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    private static let markdownPunctuation: Set<Unicode.Scalar> = [
        "\\", "`", "*", "_", "{", "}", "[", "]", "<", ">", "#", "!", "|", "~", "&", "$", ":", "@", "^",
    ]

    private static func visible(_ text: String, keepingTab: Bool) -> String {
        guard text.unicodeScalars.contains(where: { isHidden($0, keepingTab: keepingTab) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { appendVisible(scalar, keepingTab: keepingTab, to: &result) }
        return result
    }

    private static func appendVisible(_ scalar: Unicode.Scalar, keepingTab: Bool, to result: inout String) {
        if isHidden(scalar, keepingTab: keepingTab) {
            result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    private static func startsWorkflowCommand(_ line: some StringProtocol) -> Bool {
        line.drop { $0 == " " || $0 == "\t" }.hasPrefix("::")
    }
}
