import FrameTrace

/// Turns text that came from a trace — span, category, thread and process names, metadata values,
/// labels, file names — into the text of each output format: one function per format, used by
/// every writer, so each algorithm exists once; formats of one grammar share one implementation
/// (HTML and XML: ``markup(_:_:)`` with a ``MarkupGrammar``).
///
/// The command-line tool's engine, not FrameTrace, which apps link: apps write traces, never
/// reports. FrameTrace keeps only `isHidden(_:keepingTab:)`, the hidden-scalar predicate its JSON
/// writer needs too, and every function here calls that one definition.
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
package enum UntrustedText {
    // MARK: - Terminal

    /// Text for a terminal, one line: hidden characters (`isHidden(_:keepingTab:)` in FrameTrace:
    /// controls, format and invisible characters, line and paragraph separators, private-use,
    /// unassigned and noncharacter code points) become visible escapes such as `\u{1B}`, so the
    /// text never spans lines, moves the cursor, reorders what follows or hides text; the GitHub
    /// runner's older command form `##[` becomes `#\u{23}[` wherever it is; text that would begin,
    /// after leading whitespace of any kind, with `::` (a workflow command at the start of a line)
    /// is quoted: `"::error::x"`; and text longer than ``shownLength`` scalars is shortened to its
    /// start, an ellipsis and its length (`… (4,000,000 characters)`).
    /// - Parameter text: Any string.
    /// - Returns: One line of printable text.
    /// - Complexity: O(*n*) in the length of `text`.
    package static func terminal(_ text: String) -> String {
        let escaped = breakingLegacyCommands(visible(shortened(text), keepingTab: true))
        return startsWorkflowCommand(escaped) ? "\"" + escaped + "\"" : escaped
    }

    /// Rendered text made harmless for the GitHub Actions runner, which reads every line of a
    /// step's output for workflow commands: a line that would begin, after leading whitespace
    /// (any Unicode whitespace: the runner trims it all), with `::` gets its first colon as the
    /// visible escape `\u{3A}`, and the older form `##[`, recognised anywhere in a line, becomes
    /// `#\u{23}[`. framescope's own annotations are written apart from this text.
    ///
    /// ``terminal(_:)`` already treats a name; this guards the lines a layout makes, such as a
    /// long cell wrapped or cut in the middle of a name, or a name next to a `#`.
    /// - Parameter text: Lines separated by `\n`.
    /// - Returns: The same lines, none a workflow command.
    package static func neutralizingWorkflowCommands(_ text: String) -> String {
        let text = breakingLegacyCommands(text)
        guard mayContain(text, "::"), text.contains("::") else { return text }
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
    /// Text longer than ``shownLength`` is shortened as in ``terminal(_:)``; hidden characters
    /// become visible escapes (tab too, line breaks included), so the text never ends its line;
    /// then the ASCII punctuation that can start Markdown inside a line is backslash-escaped
    /// (the backtick and `\ * _ { } [ ] < > # ! | ~ & $ : ^`), and so is the `.` of `www.` (`#`
    /// escaped also breaks the GitHub runner's `##[`); `@` is written as a code span of its own
    /// (a backtick, `@`, a backtick), since GitHub's renderer makes an email link of `a\@b.com`
    /// despite the escape. CommonMark renders any backslash-escaped ASCII punctuation as the
    /// character itself. Block syntax (`-`, `+`, `1.` lists, `=` underlines)
    /// only counts at the start of a line, where framescope never puts a name: it always follows
    /// `| `, `## `, `- ` or a word.
    /// - Parameter text: Any string.
    /// - Returns: Markdown source for the literal text.
    package static func markdownText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previous: [Unicode.Scalar] = []
        for scalar in visible(shortened(text), keepingTab: false).unicodeScalars {
            var escape = markdownPunctuation.contains(scalar)
            if scalar == ".", previous.count >= 3, previous.suffix(3).allSatisfy({ $0 == "w" || $0 == "W" }) {
                escape = true
            }
            if scalar == "@" {
                // cmark-gfm finds email autolinks after escapes and entities are decoded (`a\@b.com`
                // and `a&#64;b.com` still link); an `@` in a code span of its own is apart.
                result += "`@`"
            } else {
                if escape { result.unicodeScalars.append("\\") }
                result.unicodeScalars.append(scalar)
            }
            previous.append(scalar)
            if previous.count > 3 { previous.removeFirst() }
        }
        return result
    }

    /// Text as a Markdown code span that shows it verbatim, on one line: delimited by a backtick
    /// run longer than any inside it (padded with a space where it starts or ends with a
    /// backtick or a space), hidden characters as visible escapes, shortened as in
    /// ``terminal(_:)``. Text holding `|`, which a GitHub table would split at even inside a
    /// code span, or `##[`, which no escape inside a code span can break for the GitHub runner,
    /// and empty text are written as ``markdownText(_:)`` instead.
    /// - Parameter text: Any string.
    /// - Returns: Markdown source.
    package static func markdownCode(_ text: String) -> String {
        let content = visible(shortened(text), keepingTab: false)
        guard !content.isEmpty, !content.contains("|"), !content.contains("##[") else { return markdownText(text) }
        var longest = 0
        var run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let first = content.first!
        let last = content.last!
        let pad = first == "`" || last == "`" || (first == " " && last == " " && content.contains { $0 != " " })
        return pad ? fence + " " + content + " " + fence : fence + content + fence
    }

    /// Text for a Mermaid string in double quotes, such as a chart's title: one line (hidden
    /// characters as visible escapes, shortened as in ``terminal(_:)``) in which `"`, `'`, `%`
    /// and the backtick are written as Mermaid's entity codes (`#quot;`, `#39;`, `#37;`, `#96;`),
    /// which it shows as the characters once the chart is parsed. So the text can neither end
    /// the string (Mermaid reads `'` as `"` too), hold a `%%{init}%%` directive or a `%%`
    /// comment (Mermaid finds those anywhere, before it reads strings), start a Markdown string,
    /// nor, being one line, close the Markdown fence around the chart.
    /// - Parameter text: Any string.
    /// - Returns: The string's content, without the quotes.
    package static func mermaidString(_ text: String) -> String {
        var result = ""
        for scalar in breakingLegacyCommands(visible(shortened(text), keepingTab: false)).unicodeScalars {
            switch scalar {
            case "\"": result += "#quot;"
            case "'", "%", "`": result += "#\(scalar.value);"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - GitHub Actions workflow commands

    /// Text for the message of a workflow command (`::error title=T::MESSAGE`): `%`, CR and LF
    /// percent-encoded as the Actions runner expects; other hidden characters as visible
    /// escapes and `##[` broken, as in ``terminal(_:)``.
    /// - Parameter text: Any string.
    /// - Returns: The encoded message.
    package static func annotationMessage(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: appendVisible(scalar, keepingTab: true, to: &result)
            }
        }
        return breakingLegacyCommands(result)
    }

    /// Text for a property value of a workflow command (`title=VALUE`): as
    /// ``annotationMessage(_:)``, and also `:` as `%3A` and `,` as `%2C`.
    /// - Parameter text: Any string.
    /// - Returns: The encoded value.
    package static func annotationProperty(_ text: String) -> String {
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
    /// character references, so no element, attribute or entity can come from it; hidden
    /// characters as visible escapes (a character reference would still render a bidi override
    /// or hide text), so a name never breaks a line of the page's source; `##[` as `#&#35;[`
    /// (shown the same, but not the GitHub runner's command form should the page reach a log).
    /// - Parameter text: Any string.
    /// - Returns: The escaped text.
    package static func html(_ text: String) -> String { markup(text, .html) }

    /// Text for an XML 1.0 attribute value or element content: `&`, `<`, `>`, `"`, `'`, and tab,
    /// newline and carriage return as character references (so attribute values keep them and
    /// the document's lines are framescope's); `#` after a `#` as `&#35;` (the GitHub runner's
    /// `##[`); other hidden characters, and U+FFFE/U+FFFF, which XML 1.0 cannot hold even as
    /// references, as visible escapes (`\u{1B}`), as in ``terminal(_:)``.
    /// - Parameter text: Any string.
    /// - Returns: The escaped text.
    package static func xml(_ text: String) -> String { markup(text, .xml) }

    /// What sets HTML's escaping apart from XML's; everything else is the same grammar.
    ///
    /// Both escape `&`, `<`, `>` and `"` with the same references and a `#` after a `#` as
    /// `&#35;`, and both show every hidden character as a visible escape. The characters XML 1.0
    /// cannot hold at all, even as references (C0 controls other than tab, newline and carriage
    /// return, and U+FFFE/U+FFFF; surrogates cannot occur in a Swift string), are all hidden, so
    /// the shared rule already writes them as visible escapes and no grammar needs a rule of its
    /// own for them.
    package struct MarkupGrammar: Sendable {
        /// The reference for `'`: `&#39;` in HTML (HTML 4 has no `&apos;`), `&apos;` in XML.
        package var apostrophe: String
        /// Whether tab, newline and carriage return are written as numeric character references
        /// (`&#9;`, `&#10;`, `&#13;`): XML, whose attribute-value normalisation would turn them
        /// into spaces. HTML keeps a tab and shows newline and carriage return as visible
        /// escapes (`\u{A}`), like other hidden characters.
        package var referencesLineBreaks: Bool

        /// HTML element content and quoted attribute values.
        package static let html = MarkupGrammar(apostrophe: "&#39;", referencesLineBreaks: false)
        /// XML 1.0 element content and attribute values.
        package static let xml = MarkupGrammar(apostrophe: "&apos;", referencesLineBreaks: true)
    }

    /// Text for markup of `grammar`: the one implementation of ``html(_:)`` and ``xml(_:)``.
    /// - Parameters:
    ///   - text: Any string.
    ///   - grammar: ``MarkupGrammar/html`` or ``MarkupGrammar/xml``.
    /// - Returns: The escaped text.
    package static func markup(_ text: String, _ grammar: MarkupGrammar) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var hashes = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += grammar.apostrophe
            case "#" where hashes > 0: result += "&#35;"
            // One `where` per pattern: a `where` after a list of patterns guards only the last.
            case "\t" where grammar.referencesLineBreaks, "\n" where grammar.referencesLineBreaks,
                "\r" where grammar.referencesLineBreaks:
                result += "&#\(scalar.value);"
            default: appendVisible(scalar, keepingTab: true, to: &result)
            }
            hashes = scalar == "#" ? hashes + 1 : 0
        }
        return result
    }

    /// Text as one CSV field (RFC 4180) that a spreadsheet shows as text and a CI log shows as
    /// one line:
    ///
    /// - hidden characters, CR and LF included, become visible escapes (`\u{A}`), so a field
    ///   never spans lines, and `##[` becomes `#\u{23}[`, as in ``terminal(_:)``;
    /// - a field that is not a number and begins with `=`, `+`, `-`, `@`, tab or CR — a formula
    ///   to Excel, LibreOffice and Google Sheets (OWASP's CSV injection) — gets a leading `'`,
    ///   which the spreadsheet shows as text;
    /// - the field is quoted, with quotes doubled, when it holds a comma or a quote, or begins,
    ///   after whitespace, with `::` (so no line of the file begins with a workflow command).
    ///
    /// Names are not shortened: a CSV is read by programs.
    /// - Parameter text: Any string.
    /// - Returns: The field.
    package static func csvField(_ text: String) -> String {
        var field = breakingLegacyCommands(visible(text, keepingTab: false))
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !isDecimalNumber(text) {
            field = "'" + field
        }
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" }) || startsWorkflowCommand(field) else {
            return field
        }
        var result = "\""
        for scalar in field.unicodeScalars {
            if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "\""
    }

    // MARK: - Names that are too long

    /// The longest name, in Unicode scalars, shown whole in text and Markdown; a longer one is
    /// shown as its first ``shownPrefixLength`` scalars, an ellipsis and its length. JSON, JSON
    /// Lines and CSV keep names whole.
    package static let shownLength = 256
    /// How much of a name longer than ``shownLength`` is shown.
    package static let shownPrefixLength = 200

    /// `text`, or its start, `…` and its length in scalars when it is longer than ``shownLength``.
    ///
    /// ```swift
    /// UntrustedText.shortened(String(repeating: "a", count: 4_000_000))
    /// // the first 200 a's, then "… (4,000,000 characters)"
    /// ```
    /// - Parameter text: Any string.
    /// - Returns: `text` itself when it has at most ``shownLength`` scalars; otherwise its first
    ///   ``shownPrefixLength`` scalars, an ellipsis and its length.
    package static func shortened(_ text: String) -> String {
        var count = 0
        var cut: String.UnicodeScalarView.Index?
        var index = text.unicodeScalars.startIndex
        while index != text.unicodeScalars.endIndex, count <= shownLength {
            if count == shownPrefixLength { cut = index }
            count += 1
            text.unicodeScalars.formIndex(after: &index)
        }
        guard count > shownLength, let cut else { return text }
        let total = text.unicodeScalars.count
        return String(text.unicodeScalars[..<cut]) + "… (\(groupedThousands(total)) characters)"
    }

    private static func groupedThousands(_ value: Int) -> String {
        let digits = Array(String(value))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    // MARK: - Pieces

    private static let markdownPunctuation: Set<Unicode.Scalar> = [
        "\\", "`", "*", "_", "{", "}", "[", "]", "<", ">", "#", "!", "|", "~", "&", "$", ":", "^",
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

    /// `##[` written as `#\u{23}[`: the GitHub runner reads `##[command]` anywhere in a line.
    private static func breakingLegacyCommands(_ text: String) -> String {
        guard mayContain(text, "##["), text.contains("##[") else { return text }
        var result = ""
        var hashes = 0
        for scalar in text.unicodeScalars {
            // The second `#` of `##[` becomes the escape; a longer run keeps its other `#`s.
            if scalar == "[", hashes >= 2 {
                result.unicodeScalars.removeLast()
                result += "\\u{23}"
            }
            result.unicodeScalars.append(scalar)
            hashes = scalar == "#" ? hashes + 1 : 0
        }
        return result
    }

    /// Whether the bytes of the ASCII `pattern` occur in `text`'s UTF-8: `false` means `text.contains(pattern)`
    /// is `false` too (a character equal to an ASCII character is that one byte), and costs a byte scan where
    /// the character search costs tens of instructions a character, at every table, name and report rendered.
    private static func mayContain(_ text: String, _ pattern: StaticString) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let count = pattern.utf8CodeUnitCount
            let needle = UnsafeBufferPointer(start: pattern.utf8Start, count: count)
            guard count > 0, bytes.count >= count else { return count == 0 }
            var index = 0
            while index <= bytes.count - count {
                if bytes[index] == needle[0] {
                    var matched = 1
                    while matched < count, bytes[index + matched] == needle[matched] { matched += 1 }
                    if matched == count { return true }
                }
                index += 1
            }
            return false
        }
        return found ?? true  // not contiguous (a bridged string): the character search decides
    }

    /// Whether the line begins, after any Unicode whitespace (the runner's `TrimStart()`), with `::`.
    static func startsWorkflowCommand(_ line: some StringProtocol) -> Bool {
        line.unicodeScalars.drop { $0.properties.isWhitespace }.starts(with: "::".unicodeScalars)
    }

    /// Whether the text is a plain decimal number (`-12`, `0.5`), which CSV writes as it is.
    private static func isDecimalNumber(_ text: String) -> Bool {
        var scalars = text.unicodeScalars[...]
        if scalars.first == "-" { scalars = scalars.dropFirst() }
        var digits = 0
        var dots = 0
        for scalar in scalars {
            if scalar == "." { dots += 1 } else if ("0"..."9").contains(scalar) { digits += 1 } else { return false }
        }
        return digits > 0 && dots <= 1
    }
}
