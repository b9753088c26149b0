import Foundation
import FrameSupport
import FrameTrace
import Testing

/// The one escaper per output format, on the strings a hostile trace carries.
@Suite("Untrusted text per output format")
struct UntrustedTextTests {
    /// The hostile names of tools/make_hostile_corpus.py, one per class.
    static let hostile = [
        "::error file=x.swift,line=1::pwned", "innocent\n::error::three", "::add-mask::secret-value",
        "  ::warning::indented",
        "<img src=x onerror=alert(1)>", "<b>bold</b>", "![pixel](https://example.com/x.png)",
        "[click](https://example.com)",
        "```\nfenced\n```", "*em* _em_ **strong** ~~strike~~", "# heading", "a | b | c", "line1\r\nline2\rline3",
        "\u{1B}[2Jcleared", "\u{1B}]8;;https://example.com\u{07}hidden link\u{1B}]8;;\u{07}",
        "bell\u{07} nul\u{00} bs\u{08}x",
        "\u{202E}evil.exe\u{202C}", "\u{2066}iso\u{2069} zw\u{200B}sp\u{FEFF}", "del\u{7F} nel\u{85} csi\u{9B}",
        "&amp; &lt;entity&gt;",
        "a`b``c", "$x^2$ :smile: https://example.com www.example.com me@example.com", "\"quote' and \\ backslash",
    ]

    /// Characters no text or Markdown output may hold: C0 but tab and line feed, DEL, C1, and the
    /// invisible and bidirectional format characters. Written out here, apart from the code.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x09 || value == 0x0A { return false }
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x061C || (0x200B...0x200F).contains(value)
            || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0xFEFF
    }

    @Test("Terminal text: controls and bidi characters become visible escapes, on one line")
    func terminal() {
        #expect(UntrustedText.terminal("a\u{1B}[2Jb") == #"a\u{1B}[2Jb"#)
        #expect(UntrustedText.terminal("x\ny\r\tz") == "x\\u{A}y\\u{D}\tz")
        #expect(UntrustedText.terminal("\u{202E}abc\u{202C}") == #"\u{202E}abc\u{202C}"#)
        #expect(
            UntrustedText.terminal("\u{0}\u{7}\u{8}\u{7F}\u{85}\u{9B}\u{FEFF}")
                == #"\u{0}\u{7}\u{8}\u{7F}\u{85}\u{9B}\u{FEFF}"#)
        #expect(UntrustedText.terminal("ThreadControllerImpl::RunTask é 日本") == "ThreadControllerImpl::RunTask é 日本")
        for name in Self.hostile {
            let shown = UntrustedText.terminal(name)
            #expect(!shown.unicodeScalars.contains { Self.isForbidden($0) || $0 == "\n" }, "\(shown)")
        }
    }

    @Test("Terminal text that would start a line with :: is quoted")
    func terminalWorkflowCommand() {
        #expect(UntrustedText.terminal("::error::x") == "\"::error::x\"")
        #expect(UntrustedText.terminal("  ::add-mask::y") == "\"  ::add-mask::y\"")
        #expect(UntrustedText.terminal("a ::error::x") == "a ::error::x")
    }

    @Test("Lines that would begin with :: get a visible escape instead of their first colon")
    func neutralizedLines() {
        #expect(
            UntrustedText.neutralizingWorkflowCommands("a\n  ::error::x\n::warning::y\nFoo::bar")
                == "a\n  \\u{3A}:error::x\n\\u{3A}:warning::y\nFoo::bar")
        #expect(UntrustedText.neutralizingWorkflowCommands("no commands: here\n") == "no commands: here\n")
    }

    @Test("Markdown text: punctuation that starts Markdown is escaped, line breaks are visible")
    func markdownText() {
        #expect(UntrustedText.markdownText("![x](http://e.com)") == #"\!\[x\](http\://e.com)"#)
        #expect(UntrustedText.markdownText("<b>&amp;") == #"\<b\>\&amp;"#)
        #expect(UntrustedText.markdownText("a|b") == #"a\|b"#)
        #expect(UntrustedText.markdownText("x\ny") == #"x\\u\{A\}y"#)
        #expect(UntrustedText.markdownText("www.e.com") == #"www\.e.com"#)
        // GitHub links a\@b.com despite the escape: the @ goes in a code span of its own.
        #expect(UntrustedText.markdownText("me@example.com") == "me`@`example.com")
        #expect(UntrustedText.markdownText("*em* _u_ ~s~ $m$") == #"\*em\* \_u\_ \~s\~ \$m\$"#)
        #expect(UntrustedText.markdownText("-16.26 ms (none)") == "-16.26 ms (none)")
        for name in Self.hostile {
            let markdown = UntrustedText.markdownText(name)
            #expect(!markdown.unicodeScalars.contains { Self.isForbidden($0) || $0 == "\n" }, "\(markdown)")
            // Every character that could open a Markdown construct is preceded by an odd run of
            // backslashes; an @ is framescope's code span `@` (taken out first).
            var backslashes = 0
            for character in markdown.replacingOccurrences(of: "`@`", with: "") {
                if "<>[]!`*_~&|$:@#".contains(character) {
                    #expect(backslashes % 2 == 1, "unescaped \(character) in \(markdown)")
                }
                backslashes = character == "\\" ? backslashes + 1 : 0
            }
        }
    }

    @Test("A Markdown code span is fenced by a longer backtick run, or falls back to escaped text")
    func markdownCode() {
        #expect(UntrustedText.markdownCode("a`b") == "``a`b``")
        #expect(UntrustedText.markdownCode("`x") == "`` `x ``")
        #expect(UntrustedText.markdownCode("a``b") == "```a``b```")
        #expect(UntrustedText.markdownCode(" a ") == "`  a  `")
        #expect(UntrustedText.markdownCode("x\ny") == "`x\\u{A}y`")
        #expect(UntrustedText.markdownCode("a|b") == #"a\|b"#)
        #expect(UntrustedText.markdownCode("") == "")
        #expect(UntrustedText.markdownCode("categories.layout") == "`categories.layout`")
    }

    @Test("Annotation messages and properties: percent-encoding, then visible escapes")
    func annotation() {
        #expect(UntrustedText.annotationMessage("50%\r\n\u{1B}x") == #"50%25%0D%0A\u{1B}x"#)
        #expect(UntrustedText.annotationProperty("a:b,c%") == "a%3Ab%2Cc%25")
        for name in Self.hostile {
            let message = UntrustedText.annotationMessage(name)
            #expect(!message.unicodeScalars.contains { Self.isForbidden($0) || $0 == "\n" }, "\(message)")
            #expect(!UntrustedText.annotationProperty(name).contains(":"))
        }
    }

    @Test("HTML, XML, CSV and Mermaid escaping")
    func markupAndData() {
        #expect(UntrustedText.html("<img src=x onerror='a'>&\"") == "&lt;img src=x onerror=&#39;a&#39;&gt;&amp;&quot;")
        #expect(UntrustedText.xml("a<b>&\"c'\t\u{1B}") == "a&lt;b&gt;&amp;&quot;c&apos;&#9;\\u{1B}")
        #expect(UntrustedText.csvField("plain") == "plain")
        #expect(UntrustedText.csvField("a,b") == "\"a,b\"")
        #expect(UntrustedText.csvField("q\"\nr") == "\"q\"\"\\u{A}r\"")
        #expect(UntrustedText.mermaidString("a\"b\nc") == "a#quot;b\\u{A}c")
        for name in Self.hostile {
            #expect(!UntrustedText.html(name).contains("<"))
            #expect(!UntrustedText.mermaidString(name).contains("\""))
            #expect(!UntrustedText.mermaidString(name).contains("\n"))
        }
    }

    @Test(
        "Hidden means Unicode's invisible classes, not a list: soft hyphen, joiners, fillers, variation selectors, tags, private use, unassigned, noncharacters"
    )
    func hiddenFromUnicodeData() {
        let hidden: [UInt32] = [
            0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x180E, 0x200B, 0x200D, 0x2028, 0x2029, 0x202E, 0x2060,
            0x2061, 0x2064,
            0x206A, 0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF9, 0xFFFB, 0xE000, 0xF8FF, 0xFDD0, 0xFFFE, 0x1BCA0,
            0x1D173,
            0xE0001, 0xE0041, 0xE007F, 0xE0100, 0x2FE0, 0x40000, 0x10FFFF, 0x85, 0x7F, 0x1B, 0x0A,
        ]
        for value in hidden {
            let scalar = Unicode.Scalar(value)!
            #expect(isHidden(scalar), "U+\(String(value, radix: 16, uppercase: true))")
            #expect(
                UntrustedText.terminal("a\(Character(scalar))b")
                    == "a\\u{\(String(value, radix: 16, uppercase: true))}b")
        }
        for visible in ["a", "é", "ß", "中", "😀", " ", "\u{00A0}", "\u{0301}", "\u{3000}"] {
            #expect(!isHidden(visible.unicodeScalars.first!), "\(visible)")
        }
        #expect(!isHidden("\t") && isHidden("\t", keepingTab: false))
    }

    @Test(
        "The GitHub runner's commands: :: after any Unicode whitespace is quoted, ##[ is broken anywhere, in every format"
    )
    func runnerCommands() {
        for space in ["", " ", "\t", "\u{00A0}", "\u{1680}", "\u{2003}", "\u{202F}", "\u{205F}", "\u{3000}"] {
            let name = space + "::error::x"
            #expect(UntrustedText.terminal(name).hasPrefix("\""), "\(Array(space.unicodeScalars))")
            #expect(
                !UntrustedText.neutralizingWorkflowCommands("| \n" + name).split(separator: "\n")[1].contains("::error")
            )
            // Quoted, or begun with the formula guard (a tab is a formula's first character).
            #expect(UntrustedText.csvField(name).hasPrefix("\"") || UntrustedText.csvField(name).hasPrefix("'"))
        }
        let legacy = "x##[stop-commands]tok"
        for output in [
            UntrustedText.terminal(legacy), UntrustedText.neutralizingWorkflowCommands(legacy),
            UntrustedText.markdownText(legacy),
            UntrustedText.markdownCode(legacy), UntrustedText.html(legacy), UntrustedText.xml(legacy),
            UntrustedText.csvField(legacy),
            UntrustedText.annotationMessage(legacy), UntrustedText.annotationProperty(legacy),
            UntrustedText.mermaidString(legacy),
            JSONValue.string(legacy).description,
        ] {
            #expect(!output.contains("##["), "\(output)")
        }
        #expect(UntrustedText.terminal("###[a") == "##\\u{23}[a")
        #expect(UntrustedText.html("##[") == "#&#35;[")
        // JSON keeps the name exactly: the escape decodes to the same text.
        #expect(JSONValue.string("##[x").description == "\"#\\u0023[x\"")
    }

    @Test(
        "JSON writes hidden characters as \\u escapes, past U+FFFF as surrogate pairs, and keeps every other character")
    func jsonHidden() {
        #expect(JSONValue.string("a\u{202E}b\u{2028}c\u{85}d\u{7F}").description == #""a\u202eb\u2028c\u0085d\u007f""#)
        #expect(JSONValue.string("t\u{E0041}g").description == #""t\udb40\udc41g""#)
        #expect(JSONValue.string("é中😀 #[ # [").description == "\"é中😀 #[ # [\"")
    }

    @Test("CSV: a field that is not a number and begins as a formula gets a leading quote mark; numbers stay numbers")
    func csvFormulas() {
        for formula in ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx", "=HYPERLINK(\"http://x\")"] {
            let field = UntrustedText.csvField(formula)
            #expect(field.hasPrefix("'") || field.hasPrefix("\"'"), "\(field)")
            #expect(!field.contains("\n") && !field.contains("\r"))
        }
        for number in ["-1", "-0.25", "12", "3.5"] { #expect(UntrustedText.csvField(number) == number) }
    }

    @Test("Mermaid: no directive, comment or quote can come from a name")
    func mermaidDirectives() {
        let title = UntrustedText.mermaidString("%%{init: {\"theme\":\"dark\"}}%% it's")
        #expect(!title.contains("%") && !title.contains("\"") && !title.contains("'"))
        #expect(title == "#37;#37;{init: {#quot;theme#quot;:#quot;dark#quot;}}#37;#37; it#39;s")
    }

    @Test(
        "Names longer than the shown length are shortened with their length in text and Markdown; short ones are whole")
    func longNames() {
        let long = String(repeating: "a", count: 4_000_000)
        for output in [
            UntrustedText.terminal(long), UntrustedText.markdownText(long), UntrustedText.markdownCode(long),
        ] {
            #expect(output.count < 300)
            #expect(output.contains("… (4,000,000 characters)"))
        }
        let edge = String(repeating: "b", count: UntrustedText.shownLength)
        #expect(UntrustedText.terminal(edge) == edge)
        #expect(
            UntrustedText.terminal(edge + "c").hasPrefix(
                String(repeating: "b", count: UntrustedText.shownPrefixLength) + "… (257 characters)"))
    }
}
