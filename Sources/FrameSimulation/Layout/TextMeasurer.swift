/// Measures text deterministically: fixed per-character advances, greedy word wrap, whole-point widths.
///
/// Real text measurement depends on installed fonts and the platform's shaping engine; a
/// benchmark and an equivalence test need the same numbers on every machine. This measurer
/// treats every Unicode scalar as one glyph whose advance comes from a fixed table (Helvetica's
/// published AFM widths for printable ASCII, in 1/1000 em), scaled by ``fontSize``.
///
/// Wrapping is greedy, like `UILabel` and Texture's text node: words are separated by spaces or
/// tabs (a tab advances like a space) and go on the current line while they fit; spaces at a soft line break are dropped; a
/// word wider than a whole line is broken between characters (at least one per line); `"\n"`
/// forces a break. Widths are rounded up to whole points, the way `sizeThatFits` results are
/// commonly ceiled, but never beyond the width offered.
///
/// ```swift
/// let font = TextMeasurer(fontSize: 15, lineHeight: 20)
/// font.size(of: "Hello")                                    // 35 × 20
/// font.size(of: "Hello world", maxWidth: 50)                // 36 × 40, two lines
/// font.size(of: "Hello world", maxWidth: 50, maxLines: 1)   // 50 × 20, truncated
/// ```
package struct TextMeasurer: Hashable, Sendable {
    /// The font size in points; one em.
    package var fontSize: Double
    /// The height of one line in points.
    package var lineHeight: Double

    /// Creates a measurer for one font size.
    /// - Parameters:
    ///   - fontSize: Points per em; must be positive.
    ///   - lineHeight: Points per line; must be positive.
    package init(fontSize: Double, lineHeight: Double) {
        precondition(fontSize > 0 && lineHeight > 0, "font size and line height must be positive")
        self.fontSize = fontSize
        self.lineHeight = lineHeight
    }

    /// The advance of one scalar in font units (1/1000 em).
    ///
    /// Printable ASCII uses Helvetica's widths; scalars from U+2E80 up (CJK, emoji and the like)
    /// are one em wide; everything else, including control characters, is 556 units, Helvetica's
    /// width for a lowercase letter or a digit.
    /// - Parameter scalar: The character to measure.
    /// - Returns: The advance in 1/1000 em.
    package static func advanceUnits(of scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x20...0x7E: Int(helveticaAdvances[Int(scalar.value) - 0x20])
        case 0x2E80...: 1000
        default: 556
        }
    }

    /// Measures text laid out in lines no wider than `maxWidth`.
    ///
    /// The width is the widest kept line rounded up to a whole point, capped at `maxWidth`. When
    /// `maxLines` cuts lines off, the last line is drawn truncated up to the edge, so the width is
    /// `maxWidth` itself (if it is finite; with an infinite width only hard breaks can cut lines).
    /// Empty or whitespace-only text measures `0 × 0`.
    /// - Parameters:
    ///   - text: The text to measure.
    ///   - maxWidth: The widest a line may be, in points; infinite for a single unwrapped line
    ///     per paragraph. Zero or negative widths put one character on each line and report zero.
    ///   - maxLines: The most lines to keep; `0` keeps them all.
    /// - Returns: The size of the kept lines.
    /// - Complexity: O(*n*) in the number of scalars; a word broken across lines is read twice.
    package func size(of text: String, maxWidth: Double = .infinity, maxLines: Int = 0) -> LayoutSize {
        precondition(maxLines >= 0, "maxLines must be 0 (unlimited) or positive")
        var breaker = LineBreaker(measurer: self, maxWidth: maxWidth, maxLines: maxLines)
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        var wordStart = index
        var wordUnits = 0
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            switch scalar {
            case " ", "\t", "\n":
                breaker.place(word: scalars[wordStart..<index], units: wordUnits)
                wordUnits = 0
                wordStart = next
                if scalar == "\n" {
                    breaker.breakLine()
                } else {
                    breaker.addSpace(units: Self.advanceUnits(of: " "))
                }
            default:
                wordUnits += Self.advanceUnits(of: scalar)
            }
            index = next
        }
        breaker.place(word: scalars[wordStart..<index], units: wordUnits)
        breaker.finish()

        let keptLines = maxLines == 0 ? breaker.lineCount : min(breaker.lineCount, maxLines)
        var width = points(breaker.widestUnits).rounded(.up)
        if keptLines < breaker.lineCount && maxWidth.isFinite {
            width = maxWidth
        }
        return LayoutSize(width: max(0, min(width, maxWidth)), height: Double(keptLines) * lineHeight)
    }

    /// Converts font units to points for this font size.
    fileprivate func points(_ units: Int) -> Double {
        Double(units) * fontSize / 1000
    }
}

/// Greedy line breaking over word widths, tracking only what `size(of:)` reports.
private struct LineBreaker {
    let measurer: TextMeasurer
    let maxWidth: Double
    let maxLines: Int
    private(set) var lineCount = 0
    /// The widest line among the first `maxLines` (all lines when `maxLines` is 0).
    private(set) var widestUnits = 0
    private var lineUnits = 0
    private var lineHasWord = false
    private var lineIsOpen = false
    private var pendingSpaceUnits = 0

    init(measurer: TextMeasurer, maxWidth: Double, maxLines: Int) {
        self.measurer = measurer
        self.maxWidth = maxWidth
        self.maxLines = maxLines
    }

    /// Spaces count only between words on one line: leading ones and those at a break are dropped.
    mutating func addSpace(units: Int) {
        if lineHasWord { pendingSpaceUnits += units }
    }

    /// Places one word after the pending spaces, wrapping or breaking it as needed.
    mutating func place(word: Substring.UnicodeScalarView, units: Int) {
        guard !word.isEmpty else { return }
        if lineHasWord {
            if fits(lineUnits + pendingSpaceUnits + units) {
                lineUnits += pendingSpaceUnits + units
                pendingSpaceUnits = 0
                return
            }
            endLine()
        }
        lineIsOpen = true
        if fits(units) {
            lineUnits = units
            lineHasWord = true
            return
        }
        for scalar in word {
            let advance = TextMeasurer.advanceUnits(of: scalar)
            if lineHasWord && !fits(lineUnits + advance) {
                endLine()
                lineIsOpen = true
            }
            lineUnits += advance
            lineHasWord = true
        }
    }

    /// A hard break: ends the current line, even an empty one, and opens the next.
    mutating func breakLine() {
        lineIsOpen = true
        endLine()
        lineIsOpen = true
    }

    /// Ends the last line, if any text or a hard break opened it.
    mutating func finish() {
        if lineIsOpen { endLine() }
    }

    private mutating func endLine() {
        lineCount += 1
        if maxLines == 0 || lineCount <= maxLines {
            widestUnits = max(widestUnits, lineUnits)
        }
        lineUnits = 0
        lineHasWord = false
        lineIsOpen = false
        pendingSpaceUnits = 0
    }

    private func fits(_ units: Int) -> Bool {
        measurer.points(units) <= maxWidth
    }
}

/// Helvetica's advance widths for U+0020 through U+007E, in 1/1000 em (from its AFM file).
private let helveticaAdvances: [UInt16] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // space to /
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0 to ?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @ to O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P to _
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // ` to o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  // p to ~
]
