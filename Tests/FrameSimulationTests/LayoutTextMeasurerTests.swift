import Testing

@testable import FrameSimulation

@Suite("Deterministic text measurement")
struct LayoutTextMeasurerTests {
    /// 10 pt type: an advance of `u` units is `u / 100` points. `a` is 556 units, a space 278.
    let font = TextMeasurer(fontSize: 10, lineHeight: 12)

    @Test(
        "A line is as wide as the sum of its Helvetica advances, rounded up to a point",
        arguments: [
            ("Hello", 15.0, 35.0), ("Hello", 10, 23), ("iiii", 10, 9), ("WWW", 20, 57), ("0123456789", 13, 73),
        ])
    func singleLineWidth(text: String, fontSize: Double, expectedWidth: Double) {
        let measurer = TextMeasurer(fontSize: fontSize, lineHeight: 20)
        #expect(measurer.size(of: text) == LayoutSize(width: expectedWidth, height: 20))
    }

    @Test("Advances come from the Helvetica table, one em for wide scripts, 556 units otherwise")
    func advances() {
        #expect(TextMeasurer.advanceUnits(of: "H") == 722)
        #expect(TextMeasurer.advanceUnits(of: "i") == 222)
        #expect(TextMeasurer.advanceUnits(of: " ") == 278)
        #expect(TextMeasurer.advanceUnits(of: "~") == 584)
        #expect(TextMeasurer.advanceUnits(of: "漢") == 1000)
        #expect(TextMeasurer.advanceUnits(of: "😀") == 1000)
        #expect(TextMeasurer.advanceUnits(of: "é") == 556)
    }

    @Test("Empty and whitespace-only text measures zero", arguments: ["", " ", "   \t  "])
    func emptyText(text: String) {
        #expect(font.size(of: text, maxWidth: 100) == .zero)
    }

    @Test("Words wrap greedily at spaces and the widest line sets the width")
    func greedyWrap() {
        // "aaaa" is 22.24 pt; "aaaa aaaa" is 47.26 pt; three words need 72.28 pt.
        #expect(font.size(of: "aaaa aaaa aaaa", maxWidth: 50) == LayoutSize(width: 48, height: 24))
        #expect(font.size(of: "aaaa aaaa aaaa", maxWidth: 72.28) == LayoutSize(width: 72.28, height: 12))
        #expect(font.size(of: "aaaa aaaa aaaa", maxWidth: 72.27) == LayoutSize(width: 48, height: 24))
        #expect(font.size(of: "aaaa aaaa aaaa", maxWidth: 30) == LayoutSize(width: 23, height: 36))
    }

    @Test("Spaces between words count, spaces at a line break do not")
    func spacesAtBreaks() {
        // Two spaces between words: 22.24 + 5.56 + 22.24 = 50.04 pt on one line.
        #expect(font.size(of: "aaaa  aaaa") == LayoutSize(width: 51, height: 12))
        // Leading and trailing spaces are dropped; so are the spaces where the line breaks.
        #expect(font.size(of: "  aaaa   ", maxWidth: 100) == LayoutSize(width: 23, height: 12))
        #expect(font.size(of: "aaaa      aaaa", maxWidth: 30) == LayoutSize(width: 23, height: 24))
    }

    @Test("A word wider than the line breaks between characters")
    func longWordBreaks() {
        // Ten a's are 55.6 pt; three fit in 20 pt (16.68), four do not (22.24): 3 + 3 + 3 + 1.
        #expect(font.size(of: "aaaaaaaaaa", maxWidth: 20) == LayoutSize(width: 17, height: 48))
        // After a broken word, the next word continues on the last line if it fits.
        #expect(font.size(of: "aaaaaaaaaa a", maxWidth: 20) == LayoutSize(width: 17, height: 48))
    }

    @Test("Hard line breaks start new lines, including empty ones")
    func hardBreaks() {
        #expect(font.size(of: "aa\naaaa") == LayoutSize(width: 23, height: 24))
        #expect(font.size(of: "a\n\na") == LayoutSize(width: 6, height: 36))
        #expect(font.size(of: "a\n") == LayoutSize(width: 6, height: 24))
    }

    @Test("maxLines keeps the first lines of three; a cut last line reaches the edge", arguments: [1, 2])
    func maxLinesTruncates(maxLines: Int) {
        let size = font.size(of: "aaaa aaaa aaaa aaaa aaaa", maxWidth: 50, maxLines: maxLines)
        #expect(size == LayoutSize(width: 50, height: 12 * Double(maxLines)))
    }

    @Test("maxLines that keeps every line changes nothing")
    func maxLinesNotReached() {
        #expect(font.size(of: "aaaa aaaa", maxWidth: 50, maxLines: 1) == LayoutSize(width: 48, height: 12))
        #expect(
            font.size(of: "aaaa aaaa aaaa", maxWidth: 50, maxLines: 3) == font.size(of: "aaaa aaaa aaaa", maxWidth: 50))
    }

    @Test("With unlimited width only hard breaks cut lines, and the kept lines set the width")
    func unlimitedWidthTruncation() {
        #expect(font.size(of: "aa\naaaa", maxLines: 1) == LayoutSize(width: 12, height: 12))
    }

    @Test("Rounding up never exceeds the width offered")
    func roundingCapped() {
        // "aaaa" is 22.24 pt: it fits in 22.5 pt, and reports 22.5 rather than 23.
        #expect(font.size(of: "aaaa", maxWidth: 22.5) == LayoutSize(width: 22.5, height: 12))
    }

    @Test("Zero or negative widths put a character on each line and report zero width", arguments: [0.0, -5])
    func degenerateWidth(maxWidth: Double) {
        #expect(font.size(of: "ab c", maxWidth: maxWidth) == LayoutSize(width: 0, height: 36))
    }

    @Test("A label measures its text with its font and line limit")
    func textLabel() {
        let label = TextLabel("aaaa aaaa aaaa", font: font, maxLines: 2)
        #expect(label.intrinsicSize == LayoutSize(width: 73, height: 12))
        #expect(label.size(fittingWidth: 30) == LayoutSize(width: 30, height: 24))
    }
}
