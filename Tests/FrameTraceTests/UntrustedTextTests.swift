import FrameTrace
import Testing

/// The one escaper per output format, on the strings a hostile trace carries.
@Suite("Untrusted text per output format")
struct UntrustedTextTests {
    /// The hostile names of tools/make_hostile_corpus.py, one per class.
    static let hostile = [
        "::error file=x.swift,line=1::pwned", "innocent\n::error::three", "::add-mask::secret-value", "  ::warning::indented",
        "<img src=x onerror=alert(1)>", "<b>bold</b>", "![pixel](https://example.com/x.png)", "[click](https://example.com)",
        "```\nfenced\n```", "*em* _em_ **strong** ~~strike~~", "# heading", "a | b | c", "line1\r\nline2\rline3",
        "\u{1B}[2Jcleared", "\u{1B}]8;;https://example.com\u{07}hidden link\u{1B}]8;;\u{07}", "bell\u{07} nul\u{00} bs\u{08}x",
        "\u{202E}evil.exe\u{202C}", "\u{2066}iso\u{2069} zw\u{200B}sp\u{FEFF}", "del\u{7F} nel\u{85} csi\u{9B}", "&amp; &lt;entity&gt;",
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
        #expect(UntrustedText.terminal("\u{0}\u{7}\u{8}\u{7F}\u{85}\u{9B}\u{FEFF}") == #"\u{0}\u{7}\u{8}\u{7F}\u{85}\u{9B}\u{FEFF}"#)
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
        #expect(UntrustedText.neutralizingWorkflowCommands("a\n  ::error::x\n::warning::y\nFoo::bar")
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
        #expect(UntrustedText.markdownText("*em* _u_ ~s~ $m$") == #"\*em\* \_u\_ \~s\~ \$m\$"#)
        #expect(UntrustedText.markdownText("-16.26 ms (none)") == "-16.26 ms (none)")
        for name in Self.hostile {
            let markdown = UntrustedText.markdownText(name)
            #expect(!markdown.unicodeScalars.contains { Self.isForbidden($0) || $0 == "\n" }, "\(markdown)")
            // Every character that could open a Markdown construct is preceded by an odd run of backslashes.
            var backslashes = 0
            for character in markdown {
                if "<>[]!`*_~&|$:@#".contains(character) { #expect(backslashes % 2 == 1, "unescaped \(character) in \(markdown)") }
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
        #expect(UntrustedText.csvField("q\"\nr") == "\"q\"\"\nr\"")
        #expect(UntrustedText.mermaidString("a\"b\nc") == "a'b\\u{A}c")
        for name in Self.hostile {
            #expect(!UntrustedText.html(name).contains("<"))
            #expect(!UntrustedText.mermaidString(name).contains("\""))
            #expect(!UntrustedText.mermaidString(name).contains("\n"))
        }
    }
}
