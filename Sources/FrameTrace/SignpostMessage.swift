/// The text of the messages framescope's signpost mirror writes, and the parser that reads them
/// back from an Instruments export: a contract between the mirror (FrameScope's
/// `Recorder+Signposts.swift`, which emits them through `OSSignposter`) and the Instruments
/// importer (which finds them in the `os-signpost` tables of `xcrun xctrace export`).
///
/// The grammar, exactly (one ASCII space between tokens, integers in decimal with no sign except
/// where noted, no leading zeros beyond a lone `0`, nothing before or after):
///
/// ```
/// frame-begin    = "index " index " since-vsync " nanoseconds " ns budget " nanoseconds " ns"
///                | "index " index " budget " nanoseconds " ns"          ; before since-vsync
/// index          = "-1" | digits                                         ; -1: the frame had none
/// measured-span  = "measured span: " nanoseconds " ns"
///                | "measured span: " nanoseconds " ns ended " nanoseconds " ns ago"
/// ```
///
/// - A frame is a signpost interval named `frame` in category `frame`; its begin message is
///   `frame-begin`. `since-vsync` is how long before the interval's begin the frame's vsync was,
///   and `budget` the time from that vsync to the frame's deadline, so a reader finds
///   `vsync = begin − since-vsync` and `deadline = vsync + budget` on the signpost's own clock.
///   The mirror writes the first form; the second is what it wrote before it carried the time since
///   vsync, and reads back with ``Frame/sinceVsyncNanoseconds`` `nil` (a reader then takes the
///   interval's begin as the vsync, late by the frame's wake-up latency).
/// - A span recorded after the fact is a signpost *event* at the moment it is recorded (a
///   signpost cannot be dated in the past), named as the span, with `measured-span` as its message:
///   the span lasted the first number and ended the second number before the event (`0` when
///   that part is missing), so it ran from `event − ago − duration` to `event − ago`.
/// - A span whose name is only known at run time (or a one-scalar `StaticString`, which
///   `OSSignposter` cannot read) is an interval named ``dynamicSpanName`` whose begin message is
///   the span's name, verbatim. An instant with such a name is an event named ``dynamicInstantName``
///   whose message is the name; a counter sample is an event named as the counter whose message is
///   the value.
///
/// ```swift
/// let text = SignpostMessage.Frame(index: 7, sinceVsyncNanoseconds: 1_200_000, budgetNanoseconds: 8_333_333).text
/// // "index 7 since-vsync 1200000 ns budget 8333333 ns"
/// let frame = SignpostMessage.Frame(parsing: "index 7 budget 16666667 ns")   // sinceVsyncNanoseconds nil
/// ```
public enum SignpostMessage {
    /// The signpost name of a span whose name is in its begin message: `span`.
    public static let dynamicSpanName: StaticString = "span"
    /// The signpost name of an instant whose name is in its message: `instant`.
    public static let dynamicInstantName: StaticString = "instant"

    /// A frame interval's begin message: its index, how long after its vsync it began and its budget.
    public struct Frame: Sendable, Hashable {
        /// The frame's index, or `nil` when the app gave none (written `-1`).
        public var index: Int64?
        /// Nanoseconds from the frame's vsync to the interval's begin (not negative), or `nil` in a
        /// message written before the mirror carried it.
        public var sinceVsyncNanoseconds: Int64?
        /// Nanoseconds from the frame's vsync to its deadline (positive).
        public var budgetNanoseconds: Int64

        /// A frame message from its parts.
        /// - Parameters:
        ///   - index: The frame's index, or `nil`; a negative index is written as none.
        ///   - sinceVsyncNanoseconds: Nanoseconds since the vsync; clamped to zero when negative.
        ///   - budgetNanoseconds: The frame's budget; clamped to at least 1 ns.
        public init(index: Int64?, sinceVsyncNanoseconds: Int64?, budgetNanoseconds: Int64) {
            self.index = index.flatMap { $0 >= 0 ? $0 : nil }
            self.sinceVsyncNanoseconds = sinceVsyncNanoseconds.map { max(0, $0) }
            self.budgetNanoseconds = max(1, budgetNanoseconds)
        }

        /// Reads a frame message in either form of the grammar.
        /// - Parameter text: A signpost's begin message.
        /// - Returns: `nil` when `text` is not exactly a `frame-begin`.
        public init?(parsing text: String) {
            var words = Words(text)
            guard words.take("index"), let index = words.integer(allowingMinusOne: true) else { return nil }
            var sinceVsync: Int64?
            if words.take("since-vsync") {
                guard let value = words.integer(), words.take("ns") else { return nil }
                sinceVsync = value
            }
            guard words.take("budget"), let budget = words.integer(), budget > 0, words.take("ns"), words.isAtEnd
            else { return nil }
            self.init(index: index, sinceVsyncNanoseconds: sinceVsync, budgetNanoseconds: budget)
        }

        /// The message as the mirror writes it: the first form of the grammar when
        /// ``sinceVsyncNanoseconds`` is known, else the second.
        public var text: String {
            let indexText = index.map(String.init) ?? "-1"
            guard let sinceVsyncNanoseconds else { return "index \(indexText) budget \(budgetNanoseconds) ns" }
            return "index \(indexText) since-vsync \(sinceVsyncNanoseconds) ns budget \(budgetNanoseconds) ns"
        }
    }

    /// A measured span's event message: how long the span lasted and how long before the event it
    /// ended.
    public struct MeasuredSpan: Sendable, Hashable {
        /// The span's duration in nanoseconds (not negative).
        public var durationNanoseconds: Int64
        /// Nanoseconds from the span's end to the event (not negative); 0 when the message omits it.
        public var endedNanosecondsAgo: Int64

        /// A measured-span message from its parts; negative values are clamped to zero.
        /// - Parameters:
        ///   - durationNanoseconds: The span's duration.
        ///   - endedNanosecondsAgo: How long before the event the span ended.
        public init(durationNanoseconds: Int64, endedNanosecondsAgo: Int64 = 0) {
            self.durationNanoseconds = max(0, durationNanoseconds)
            self.endedNanosecondsAgo = max(0, endedNanosecondsAgo)
        }

        /// Reads a measured-span message in either form of the grammar.
        /// - Parameter text: A signpost event's message.
        /// - Returns: `nil` when `text` is not exactly a `measured-span`.
        public init?(parsing text: String) {
            var words = Words(text)
            guard words.take("measured"), words.take("span:"), let duration = words.integer(), words.take("ns")
            else { return nil }
            var ago: Int64 = 0
            if words.take("ended") {
                guard let value = words.integer(), words.take("ns"), words.take("ago") else { return nil }
                ago = value
            }
            guard words.isAtEnd else { return nil }
            self.init(durationNanoseconds: duration, endedNanosecondsAgo: ago)
        }

        /// The message as the mirror writes it: the long form when the span ended before the event.
        public var text: String {
            let short = "measured span: \(durationNanoseconds) ns"
            return endedNanosecondsAgo == 0 ? short : short + " ended \(endedNanosecondsAgo) ns ago"
        }
    }

    /// The words of a message, separated by exactly one space, taken from the front.
    struct Words {
        private var rest: Substring
        private var malformed = false

        init(_ text: String) { rest = text[...] }

        var isAtEnd: Bool { !malformed && rest.isEmpty }

        /// The next word, consuming the single space after it (a trailing or doubled space is malformed).
        private mutating func next() -> Substring? {
            guard !malformed, !rest.isEmpty else { return nil }
            guard let space = rest.firstIndex(of: " ") else {
                defer { rest = rest[rest.endIndex...] }
                return rest
            }
            let word = rest[..<space]
            rest = rest[rest.index(after: space)...]
            if rest.isEmpty || word.isEmpty { malformed = true }
            return word
        }

        /// Consumes `word` if it is next; otherwise leaves the words as they were.
        mutating func take(_ word: String) -> Bool {
            let saved = self
            if let next = next(), next == word, !malformed { return true }
            self = saved
            return false
        }

        /// Consumes a decimal integer: digits without leading zeros, or `-1` when allowed.
        mutating func integer(allowingMinusOne: Bool = false) -> Int64? {
            guard let word = next(), !malformed else { return nil }
            if allowingMinusOne, word == "-1" { return -1 }
            guard let first = word.utf8.first, first != UInt8(ascii: "0") || word.utf8.count == 1,
                word.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
            return Int64(word)
        }
    }
}
