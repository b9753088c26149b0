import FrameSupport
import FrameTrace
import Testing

/// HTML and XML escaping are one implementation (`UntrustedText.markup(_:_:)`) with the grammars'
/// differences as data (`UntrustedText.MarkupGrammar`). These tests hold it to the two separate
/// functions it replaced, copied below as they were, byte for byte on hostile input: every
/// Unicode scalar, the hostile corpus's classes, and seeded random strings of the characters the
/// grammars treat apart.
@Suite("HTML and XML: one escaper, the grammars as data")
struct MarkupEscapingTests {
    /// `UntrustedText.html` before the two escapers became one.
    static func formerHTML(_ text: String) -> String {
        var result = ""
        var hashes = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "#" where hashes > 0: result += "&#35;"
            default: formerAppendVisible(scalar, to: &result)
            }
            hashes = scalar == "#" ? hashes + 1 : 0
        }
        return result
    }

    /// `UntrustedText.xml` before the two escapers became one.
    static func formerXML(_ text: String) -> String {
        var result = ""
        var hashes = 0
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
            case "#" where hashes > 0: result += "&#35;"
            default: formerAppendVisible(scalar, to: &result)
            }
            hashes = scalar == "#" ? hashes + 1 : 0
        }
        return result
    }

    /// The former `appendVisible(_:keepingTab: true, to:)`.
    static func formerAppendVisible(_ scalar: Unicode.Scalar, to result: inout String) {
        if isHidden(scalar, keepingTab: true) {
            result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    /// The characters the two grammars, or the `#` rule, treat apart, and hostile neighbours.
    static let alphabet: [Unicode.Scalar] = [
        "&", "<", ">", "\"", "'", "#", "[", "]", ":", "%", "`", " ", "a", "é", "\u{301}", "😀", "中",
        "\t", "\n", "\r", "\u{0}", "\u{7}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}",
        "\u{A0}", "\u{AD}", "\u{61C}", "\u{200B}", "\u{200D}", "\u{200E}", "\u{2028}", "\u{2029}", "\u{202A}",
        "\u{202E}", "\u{2066}", "\u{2069}", "\u{FEFF}", "\u{FFF9}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}",
        "\u{E000}", "\u{E0041}", "\u{E007F}", "\u{F0000}", "\u{10FFFF}",
        Unicode.Scalar(0xFDD0)!,  // a noncharacter no string literal may hold
    ]

    static let hostile = [
        "", "#", "##", "##[", "###[x", "#&#35;[", "a#b##c###", "<script>alert('x')</script>",
        "\"><img src=x onerror=alert(1)>", "' onmouseover='x", "&amp; &lt; &#39; &apos; &#x41;", "]]><!--",
        "<?xml version=\"1.0\"?>", "<![CDATA[x]]>", "line1\r\nline2\rline3\nline4", "tab\there",
        "\u{1B}[2Jcleared", "\u{1B}]8;;https://example.com\u{07}hidden\u{1B}]8;;\u{07}", "bell\u{07} nul\u{00}",
        "\u{202E}evil.exe\u{202C}", "\u{2066}iso\u{2069} zw\u{200B}sp\u{FEFF}", "del\u{7F} nel\u{85} csi\u{9B}",
        "\u{FFFE}\u{FFFF}", "t\u{E0041}\u{E007F}g", "::error file=x,line=1::pwned", "e\u{301} 😀 中文",
    ]

    static func expectSame(_ text: String) {
        #expect(UntrustedText.html(text) == formerHTML(text), "html \(Array(text.unicodeScalars))")
        #expect(UntrustedText.xml(text) == formerXML(text), "xml \(Array(text.unicodeScalars))")
    }

    @Test("Every Unicode scalar, alone, after `#`, and in runs, escapes as the former HTML and XML escapers did")
    func everyScalar() {
        var run = String.UnicodeScalarView()
        var differences = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates are no scalars
            // Planes 4 to 13 are unassigned throughout: every 97th is enough there.
            if (0x40000..<0xE0000).contains(value), value % 97 != 0 { continue }
            let alone = String(scalar)
            let afterHash = "#" + alone
            for text in [alone, afterHash]
            where UntrustedText.html(text) != Self.formerHTML(text) || UntrustedText.xml(text) != Self.formerXML(text) {
                differences += 1
                Self.expectSame(text)
            }
            run.append(scalar)
            if run.count == 256 {
                Self.expectSame(String(run))
                run = String.UnicodeScalarView()
            }
        }
        Self.expectSame(String(run))
        #expect(differences == 0)
    }

    @Test("Hostile strings and seeded random strings of the grammars' special characters escape as before")
    func hostileAndRandom() {
        for text in Self.hostile { Self.expectSame(text) }
        var generator = SeededGenerator(seed: 20_261_128)
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length { scalars.append(Self.alphabet.randomElement(using: &generator)!) }
            Self.expectSame(String(scalars))
        }
    }

    @Test("The grammars' differences: the apostrophe's reference, and tab, LF and CR as references in XML only")
    func differences() {
        #expect(UntrustedText.html("'") == "&#39;" && UntrustedText.xml("'") == "&apos;")
        #expect(UntrustedText.html("a\tb\nc\rd") == "a\tb\\u{A}c\\u{D}d")
        #expect(UntrustedText.xml("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d")
        #expect(UntrustedText.markup("'\t", .html) == UntrustedText.html("'\t"))
        #expect(UntrustedText.markup("'\t", .xml) == UntrustedText.xml("'\t"))
    }

    @Test("XML output holds only characters XML 1.0 allows, and no raw tab, LF or CR, whatever the input")
    func xmlCharacters() {
        func allowed(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            return (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || (0x10000...0x10FFFF).contains(value)
        }
        var text = String.UnicodeScalarView()
        for value in UInt32(0)...0x3_0000 { if let scalar = Unicode.Scalar(value) { text.append(scalar) } }
        for value in UInt32(0xE_0000)...0x10_FFFF { if let scalar = Unicode.Scalar(value) { text.append(scalar) } }
        let xml = UntrustedText.xml(String(text))
        #expect(xml.unicodeScalars.allSatisfy(allowed))
    }
}
