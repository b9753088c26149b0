import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every command and output format over the hostile-names corpus (tools/make_hostile_corpus.py):
/// traces whose span, category, thread and process names, metadata keys and values, labels and
/// file names carry HTML, Markdown, line breaks, GitHub workflow commands, terminal escapes and
/// bidi characters. Per format, no name may change what the output means.
@Suite("Hostile names through every command and format")
struct HostileNamesCLITests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/hostile")
    static var trace: String { corpus.appendingPathComponent("hostile-names.json").path }
    static var headTrace: String { corpus.appendingPathComponent("hostile-names-head.json").path }
    static var budget: String { corpus.appendingPathComponent("hostile-budget.json").path }
    /// The committed fixture whose file name holds backticks, pipes, emphasis, HTML and a link.
    static let oddFileName = "file `tick` ``run`` |pipe| *em* <b>x [l](u) $m$ &amp.json"
    static var oddFile: String { corpus.appendingPathComponent(oddFileName).path }
    /// A label value with a workflow command after a line break, an escape and a bidi override.
    static let label = "main\n::error::from-label \u{1B}[31m\u{202E}"

    /// The hostile strings, as the corpus script wrote them.
    static func strings() throws -> [String] {
        let text = try String(contentsOf: corpus.appendingPathComponent("hostile-strings.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["text"] as? String)
        }
    }

    /// A copy of the hostile trace under a file name no committed file can have: a line break
    /// before a workflow command, an escape sequence and a bidi override.
    static func controlFileName() throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(
            "ctl\n::warning::from-file-name \u{1B}[2J\u{202E}.json"
        ).path
        try FileManager.default.copyItem(atPath: trace, toPath: path)
        return path
    }

    // MARK: - What every text and Markdown output must hold

    /// The C0 controls but tab and line feed, DEL, C1, and the invisible and bidi characters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x09 || value == 0x0A { return false }
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x061C || (0x200B...0x200F).contains(value)
            || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0xFEFF
    }

    /// No forbidden character (unless `json`: JSON escapes C0 controls and may hold the rest
    /// as they are), and no line starting with `::` but framescope's own annotations, which come
    /// last, one per finding, in the runner's format.
    static func expectCleanText(_ text: String, annotations: Bool = false, json: Bool = false, _ what: String) {
        let bad = json ? [] : text.unicodeScalars.filter(isForbidden)
        #expect(
            bad.isEmpty,
            "\(what): \(bad.count) control or bidi characters, first U+\(String(bad.first?.value ?? 0, radix: 16))")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let commands = lines.indices.filter { lines[$0].drop { $0 == " " || $0 == "\t" }.hasPrefix("::") }
        if annotations {
            #expect(!commands.isEmpty, "\(what): no annotations")
            // framescope's annotations are the last lines, each `::LEVEL title=...::message`.
            let trailing = Array(lines.reversed().drop { $0.isEmpty }.prefix(commands.count))
            #expect(Set(commands.map { lines[$0] }) == Set(trailing), "\(what): a :: line before the annotations")
            for line in trailing {
                #expect(
                    line.hasPrefix("::error title=") || line.hasPrefix("::warning title=")
                        || line.hasPrefix("::notice title="), "\(what): \(line)")
                let title = line.drop { $0 != "=" }.dropFirst().prefix { $0 != ":" }
                #expect(
                    line.dropFirst(line.distance(from: line.startIndex, to: title.endIndex)).hasPrefix("::"),
                    "\(what): \(line)")
            }
        } else {
            #expect(
                commands.isEmpty,
                "\(what): lines starting with ::\n\(commands.map { String(lines[$0]) }.joined(separator: "\n"))")
        }
    }

    /// The cells of a GitHub table row, split where cmark-gfm splits: at each `|` not taken by a
    /// backslash escape.
    static func cells(_ row: Substring) -> Int {
        var count = 0
        var escaped = false
        for character in row.dropFirst() {
            if escaped {
                escaped = false
                continue
            }
            if character == "\\" { escaped = true } else if character == "|" { count += 1 }
        }
        return count
    }

    /// Markdown: no control or bidi character, no `::` line, every table row with its header's
    /// cell count, no raw payload (HTML, images, links, autolinks, emphasis, math, emoji, entities,
    /// fences, headings) outside code spans and framescope's own Mermaid fences.
    static func expectCleanMarkdown(_ markdown: String, _ what: String) {
        expectCleanText(markdown, what)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        var columns: Int?
        var inFence = false
        for line in lines {
            if line.hasPrefix("```") {
                #expect(line == "```mermaid" || line == "```", "\(what): fence \(line)")
                inFence = line == "```mermaid"
                continue
            }
            if inFence {
                // framescope's chart statements, the title one quoted string a name cannot end.
                let statements = [
                    "xychart-beta", "    title \"", "    x-axis \"frame\" ", "    y-axis \"ms\" ", "    bar [",
                    "    line [",
                ]
                #expect(statements.contains { line.hasPrefix($0) }, "\(what): chart line \(line)")
                if line.hasPrefix("    title") {
                    #expect(line.filter { $0 == "\"" }.count == 2 && line.hasSuffix("\""), "\(what): \(line)")
                }
                continue
            }
            if line.hasPrefix("|") {
                let count = cells(line)
                if let columns {
                    #expect(count == columns, "\(what): \(count) cells, header \(columns): \(line)")
                } else {
                    columns = count
                }
            } else {
                columns = nil
            }
            if line.hasPrefix("#") {
                #expect(line.hasPrefix("## ") || line.hasPrefix("### "), "\(what): heading \(line)")
            }
            #expect(!line.hasPrefix("#") || !line.contains("# heading"), "\(what): \(line)")
            let outside = withoutCodeSpans(line)
            for payload in [
                "<img", "<b>", "<script", "![", "](", "**strong**", "~~strike~~", "$x^2$", ":smile:", "https://",
                "www.example",
                "&amp;", "&lt;", "me@example", "*em*", "_em_",
            ] {
                #expect(!outside.contains(payload), "\(what): raw \(payload) in \(line)")
            }
        }
    }

    /// A Markdown line with its code spans removed (a backtick run opens; the next run of the
    /// same length closes) and each backslash-escaped character replaced by `·`: what is left
    /// is what GitHub would read as Markdown.
    static func withoutCodeSpans(_ line: Substring) -> String {
        let characters = Array(line)
        var result = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "\\" && index + 1 < characters.count {
                result.append("·")
                index += 2
                continue
            }
            guard characters[index] == "`" else {
                result.append(characters[index])
                index += 1
                continue
            }
            var run = 0
            while index + run < characters.count && characters[index + run] == "`" { run += 1 }
            var search = index + run
            var closed: Int?
            while search < characters.count {
                if characters[search] == "`" {
                    var other = 0
                    while search + other < characters.count && characters[search + other] == "`" { other += 1 }
                    if other == run {
                        closed = search + other
                        break
                    }
                    search += other
                } else {
                    search += 1
                }
            }
            if let closed {
                index = closed
            } else {
                result += String(repeating: "`", count: run)
                index += run
            }
        }
        return result
    }

    // MARK: - report

    @Test("report in text, markdown and wide text: no control character, no :: line")
    func reportText() throws {
        for source in [Self.trace, Self.oddFile, try Self.controlFileName()] {
            for arguments in [["--format", "text"], ["--wide"], ["--format", "markdown"]] {
                let result = try CLI.run(["report", source] + arguments)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                if arguments.last == "markdown" {
                    Self.expectCleanMarkdown(result.standardOutput, "report \(arguments)")
                } else {
                    Self.expectCleanText(result.standardOutput, "report \(arguments)")
                }
                // The names are there, shown rather than dropped.
                #expect(result.standardOutput.contains("stop-commands"))
            }
        }
    }

    @Test("report --format html: no element or attribute a name made")
    func reportHTML() throws {
        let result = try CLI.run(["report", Self.oddFile, "--format", "html"])
        #expect(result.status == 0)
        let html = result.standardOutput
        let allowed: Set<String> = [
            "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "h1", "h2", "section", "p", "strong", "br",
            "span", "div", "table",
            "caption", "thead", "tbody", "tr", "th", "td", "canvas", "script",
        ]
        // The names also travel to the page's script as JSON data, with every < escaped, so no
        // name can end the <script> element.
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>bold"))
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("<td>&lt;img src=x onerror=alert(1)&gt;</td>"))
        // Behind the escaping, the page's policy runs only its own script and style.
        #expect(
            html.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-"))
        let (elements, attributes) = Self.markup(html)
        #expect(elements.subtracting(allowed).isEmpty, "elements a name made: \(elements.subtracting(allowed))")
        let pageAttributes: Set<String> = [
            "lang", "charset", "http-equiv", "name", "content", "class", "id", "data-frames", "data-bars", "data-drawn",
            "aria-hidden", "tabindex", "role",
            "aria-label", "aria-live", "hidden", "type", "data-lane", "data-thread",
        ]
        #expect(
            attributes.subtracting(pageAttributes).isEmpty,
            "attributes a name made: \(attributes.subtracting(pageAttributes))")
    }

    /// The element and attribute names of an HTML page, read as a browser tokenizes it: a tag
    /// opens at `<` and a letter, attribute values may be quoted, and a `<script>` element's
    /// content is raw text up to `</script`.
    static func markup(_ html: String) -> (elements: Set<String>, attributes: Set<String>) {
        var elements: Set<String> = []
        var attributes: Set<String> = []
        let characters = Array(html)
        var index = 0
        while index < characters.count {
            guard characters[index] == "<", index + 1 < characters.count,
                characters[index + 1].isLetter || characters[index + 1] == "!" || characters[index + 1] == "/"
            else {
                index += 1
                continue
            }
            index += 1
            if characters[index] == "/" { index += 1 }
            var name = ""
            while index < characters.count, !characters[index].isWhitespace, characters[index] != ">",
                characters[index] != "/"
            {
                name.append(characters[index])
                index += 1
            }
            elements.insert(name)
            // Attributes up to the tag's end.
            while index < characters.count, characters[index] != ">" {
                if characters[index].isWhitespace || characters[index] == "/" {
                    index += 1
                    continue
                }
                var attribute = ""
                while index < characters.count, !characters[index].isWhitespace, characters[index] != "=",
                    characters[index] != ">"
                {
                    attribute.append(characters[index])
                    index += 1
                }
                if !attribute.isEmpty && name != "!DOCTYPE" { attributes.insert(attribute.lowercased()) }
                if index < characters.count, characters[index] == "=" {
                    index += 1
                    if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
                        let quote = characters[index]
                        index += 1
                        while index < characters.count, characters[index] != quote { index += 1 }
                        index += 1
                    } else {
                        while index < characters.count, !characters[index].isWhitespace, characters[index] != ">" {
                            index += 1
                        }
                    }
                }
            }
            index += 1
            if name.lowercased() == "script" {
                // Raw text: skip to the closing tag.
                while index + 8 < characters.count, String(characters[index..<index + 8]).lowercased() != "</script" {
                    index += 1
                }
            }
        }
        return (elements, attributes)
    }

    @Test("report --format json: parses, and every hostile category name round-trips")
    func reportJSON() throws {
        let result = try CLI.run(["report", Self.trace, "--format", "json"])
        #expect(result.status == 0)
        Self.expectCleanLines(result.standardOutput, "report json")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let categories = try #require(object["categories"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        let threads = try #require(object["threads"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        let strings = try Self.strings()
        for name in strings { #expect(categories.contains(Self.shown(name)), "category \(name.debugDescription) lost") }
        // The trace's "(unattributed)" is its own category, apart from framescope's label.
        #expect(categories.contains("\"(unattributed)\""))
        for name in [strings[0], strings[1], strings[14], strings[17]] {
            #expect(threads.contains(name), "thread \(name.debugDescription) lost")
        }
    }

    /// Standard output without framescope's annotations, the `::` lines at its end.
    static func withoutAnnotations(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while let last = lines.last, last.isEmpty || last.hasPrefix("::") { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    /// JSON, JSON Lines: no `::` at the start of any line.
    static func expectCleanLines(_ text: String, _ what: String) {
        let lines = text.split(separator: "\n")
        #expect(!lines.contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::") }, "\(what)")
    }

    @Test("report --format frames-jsonl and frames-csv: rows parse and names, labels and metadata round-trip")
    func reportRows() throws {
        let strings = try Self.strings()
        let jsonl = try CLI.run(["report", Self.trace, "--format", "frames-jsonl", "--label", "branch=\(Self.label)"])
        #expect(jsonl.status == 0, "\(jsonl.standardError)")
        Self.expectCleanLines(jsonl.standardOutput, "frames-jsonl")
        let rows = try jsonl.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 40)
        #expect(rows.allSatisfy { $0["label_branch"] as? String == Self.label })
        #expect(rows.allSatisfy { $0["meta_note"] as? String == strings[24] })
        #expect(rows.allSatisfy { $0["meta_\(strings[12])"] as? String == strings[15] })
        let keys = Set(rows.flatMap { ($0["main_by_category_ms"] as? [String: Any] ?? [:]).keys })
        for name in strings {
            #expect(keys.contains(Self.shown(name)), "\(name.debugDescription) lost in frames-jsonl")
        }

        let csv = try CLI.run(["report", Self.oddFile, "--format", "frames-csv", "--label", "branch=\(Self.label)"])
        #expect(csv.status == 0)
        let table = try Self.parseCSV(csv.standardOutput)
        let header = try #require(table.first)
        #expect(table.count == 41)
        #expect(table.dropFirst().allSatisfy { $0.count == header.count })
        // No field spans lines or is a spreadsheet formula.
        for field in table.joined() {
            #expect(!field.contains("\n") && !field.contains("\r"), "\(field.debugDescription)")
            if let first = field.first, "=+-@\t".contains(first) {
                #expect(Double(field) != nil, "\(field.debugDescription)")
            }
        }
        let column = { (name: String) in header.firstIndex(of: name) }
        let branch = try #require(column("label_branch"))
        let trace = try #require(column("trace"))
        let note = try #require(column("meta_note"))
        #expect(
            table.dropFirst().allSatisfy {
                Self.csvDecoded($0[branch]) == Self.label && $0[trace] == Self.oddFile
                    && Self.csvDecoded($0[note]) == strings[24]
            })
        let decodedHeader = Set(header.map(Self.csvDecoded))
        for name in strings {
            #expect(
                decodedHeader.contains("category:\(Self.shown(name))"), "\(name.debugDescription) lost in frames-csv")
        }
    }

    /// A trace's category name as framescope shows it beside its own labels: a name that begins
    /// with `(` or `"` inside double quotes (the UntrustedNames article, "framescope's own labels
    /// are apart from a trace's names").
    static func shown(_ name: String) -> String {
        name.hasPrefix("(") || name.hasPrefix("\"") ? "\"" + name + "\"" : name
    }

    /// A CSV text field read back: the visible escapes `\u{HEX}` as their characters, and the
    /// `'` before a formula's first character removed.
    static func csvDecoded(_ field: String) -> String {
        var text = field
        if text.hasPrefix("'"), let second = text.dropFirst().first,
            "=+-@\t\r".contains(second) || text.dropFirst().hasPrefix("\\u{9}") || text.dropFirst().hasPrefix("\\u{D}")
        {
            text.removeFirst()
        }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "\\u{") {
            result += rest[..<range.lowerBound]
            let after = rest[range.upperBound...]
            guard let close = after.firstIndex(of: "}"), let value = UInt32(after[..<close], radix: 16),
                let scalar = Unicode.Scalar(value)
            else {
                result += rest[range]
                rest = after
                continue
            }
            result.unicodeScalars.append(scalar)
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    /// RFC 4180: fields separated by commas, quoted fields may hold commas, quotes (doubled) and
    /// line breaks; records end at a line break outside quotes.
    static func parseCSV(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" {
                        field.unicodeScalars.append("\"")
                        scalars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" && field.isEmpty {
                quoted = true
            } else if scalar == "," {
                record.append(field)
                field = ""
            } else if scalar == "\n" {
                record.append(field)
                field = ""
                records.append(record)
                record = []
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        #expect(!quoted, "unterminated quoted field")
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }

    // MARK: - check

    @Test("check in text, markdown and json with --junit, annotations and the step summary")
    func check() throws {
        let directory = try CLI.temporaryDirectory()
        let control = try Self.controlFileName()
        let missing = directory.appendingPathComponent("missing \u{1B}[2J\n::error::gone.json").path
        let strings = try Self.strings()
        for format in ["text", "markdown", "json"] {
            let junit = directory.appendingPathComponent("check-\(format).xml").path
            let summary = directory.appendingPathComponent("summary-\(format).md").path
            let result = try CLI.run(
                [
                    "check", Self.trace, Self.oddFile, control, missing, "--budget", Self.budget, "--format", format,
                    "--junit", junit,
                    "--github-annotations",
                ],
                environment: ["GITHUB_STEP_SUMMARY": summary])
            // One trace is missing: the others are still checked and reported, and the run exits 3.
            #expect(result.status == 3, "\(format): \(result.standardError)")
            Self.expectCleanText(result.standardError, "check stderr")
            #expect(result.standardError.split(separator: "\n").count == 1)
            #expect(result.standardError.contains("no such file or directory"))
            Self.expectCleanText(result.standardOutput, annotations: true, json: format == "json", "check \(format)")
            let body = Self.withoutAnnotations(result.standardOutput)
            if format == "markdown" { Self.expectCleanMarkdown(body, "check markdown") }
            if format == "json" {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                let traces = try #require(object["traces"] as? [[String: Any]])
                #expect(
                    traces.compactMap { $0["name"] as? String } == [
                        "hostile-names.json", Self.oddFileName, (control as NSString).lastPathComponent,
                    ])
                let errors = try #require(object["errors"] as? [[String: Any]])
                #expect(errors.first?["source"] as? String == missing)
                let warnings = try #require(object["warnings"] as? [[String: Any]])
                #expect(warnings.first?["match"] as? String == strings[3] + "*")
            }
            Self.expectCleanMarkdown(try String(contentsOfFile: summary, encoding: .utf8), "check step summary")

            let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
            let root = try #require(document.rootElement())
            let suites = root.elements(forName: "testsuite")
            let suiteNames = suites.compactMap { $0.attribute(forName: "name")?.stringValue }
            #expect(suiteNames.contains("framescope check: \(Self.oddFileName)"))
            let caseNames = suites.flatMap { $0.elements(forName: "testcase") }.compactMap {
                $0.attribute(forName: "name")?.stringValue
            }
            #expect(caseNames.contains("categories[\"<img src=x onerror=alert(1)>\"].main-ms-total"))
            // U+FFFE and U+FFFF cannot be in an XML 1.0 document even as references; a rule's id
            // quotes a name as JSON does, which writes them as \u escapes.
            #expect(caseNames.contains { $0.contains("non\\ufffechar\\uffff end") }, "\(caseNames)")
            for suite in suites {
                let names = suite.elements(forName: "testcase").compactMap {
                    $0.attribute(forName: "name")?.stringValue
                }
                #expect(Set(names).count == names.count, "testcase names repeat in a suite: \(names)")
            }
            let errors = suites.flatMap { $0.elements(forName: "testcase") }.flatMap { $0.elements(forName: "error") }
            #expect(errors.count == 1)
            #expect(
                errors.first?.attribute(forName: "message")?.stringValue?.contains("no such file or directory") == true)
            #expect(root.attribute(forName: "errors")?.stringValue == "1")
        }
    }

    // MARK: - repair

    @Test("repair of a cut trace under a hostile file name: the stderr line shows the name, never writes it")
    func repair() throws {
        // The hostile trace's events as a streamed array, cut two thirds of the way in.
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.trace))) as? [String: Any]
        )
        let events = try #require(object["traceEvents"] as? [Any])
        let lines = try events.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let stream = "[" + lines.joined(separator: ",\n")
        let path = try Self.controlFileName()
        try Data(stream.utf8.prefix(stream.utf8.count * 2 / 3)).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["repair", path, "--out", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        Self.expectCleanText(result.standardError, "repair stderr")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(
            result.standardError.hasPrefix(
                "\(URL(fileURLWithPath: path).deletingLastPathComponent().path)/ctl\\u{A}::warning::from-file-name \\u{1B}[2J\\u{202E}.json: kept "
            ))
        let repaired = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [Any])
        #expect(repaired.count > 10)
    }

    // MARK: - compare

    @Test("compare in text, markdown and json with --junit, annotations and the step summary")
    func compare() throws {
        let directory = try CLI.temporaryDirectory()
        let control = try Self.controlFileName()
        for format in ["text", "markdown", "json"] {
            let junit = directory.appendingPathComponent("compare-\(format).xml").path
            let summary = directory.appendingPathComponent("summary-\(format).md").path
            let result = try CLI.run(
                [
                    "compare", "--base", Self.trace, "--base", control, "--head", Self.headTrace, "--head",
                    Self.oddFile, "--format", format,
                    "--junit", junit, "--github-annotations",
                ],
                environment: ["GITHUB_STEP_SUMMARY": summary])
            #expect(result.status == 1, "\(format): \(result.standardError)")
            Self.expectCleanText(result.standardError, "compare stderr")
            Self.expectCleanText(result.standardOutput, annotations: true, json: format == "json", "compare \(format)")
            let body = Self.withoutAnnotations(result.standardOutput)
            if format == "markdown" { Self.expectCleanMarkdown(body, "compare markdown") }
            if format == "json" {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                let head = try #require(object["head"] as? [String: Any])
                #expect(head["sources"] as? [String] == [Self.headTrace, Self.oddFile])
            }
            Self.expectCleanMarkdown(try String(contentsOfFile: summary, encoding: .utf8), "compare step summary")
            let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
            let caseNames = try #require(document.rootElement()).elements(forName: "testsuite").flatMap {
                $0.elements(forName: "testcase")
            }
            .compactMap { $0.attribute(forName: "name")?.stringValue }
            #expect(caseNames.contains("categories[\"<img src=x onerror=alert(1)>\"].main-ms-per-frame"))
            #expect(caseNames.contains("categories.innocent\n::error::three.main-ms-per-frame"))
        }
    }
}
