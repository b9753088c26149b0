/// A display's refresh rate, and the frame interval `P` it gives: the one spelling of a frame rate
/// that the recorder, the simulated display, the analysis, budgets and the command line share.
///
/// A frame rate holds its rate in hertz and its interval in whole nanoseconds, converted once,
/// when the rate is made: from a rate, the interval is `1e9 / hertz` rounded to the nearest
/// nanosecond, halves away from zero (60 Hz gives 16,666,667 ns; 120 Hz gives 8,333,333 ns); from
/// an interval, the rate is `1e9 / nanoseconds` and the interval stays exactly as given.
///
/// ```swift
/// let display = FrameRate(hertz: 120)
/// display.intervalNanoseconds                      // 8_333_333
/// display.interval                                  // .nanoseconds(8_333_333)
/// FrameRate.standard.intervalNanoseconds           // 16_666_667: 60 Hz
///
/// // A rate read from a file or typed by a person is checked, not trusted:
/// let rate = try FrameRate(validating: 59.94)      // within 1 to 1,000 Hz
/// ```
///
/// Every frame rate has an interval of at least 1 ns that an `Int64` holds, so arithmetic on
/// ``intervalNanoseconds`` starts from a sane value; rates made from untrusted numbers go through
/// ``init(validating:in:)``, which throws a ``FrameRateError`` instead of trapping on zero, a
/// negative, infinite, NaN or enormous value.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// The rate, in frames (vsyncs) per second.
    public let hertz: Double
    /// The frame interval `P`, in whole nanoseconds: at least 1.
    public let intervalNanoseconds: Int64

    /// 60 Hz, a frame every 16,666,667 ns: the rate analysis assumes when nothing states one, and
    /// the simulated display's default.
    public static let standard = FrameRate(hertz: 60)

    /// The rates a budget file's `fps` and the command line's `--fps` may ask for: 1 to 1,000 Hz.
    public static let acceptedHertz: ClosedRange<Double> = 1...1000

    /// A frame rate in hertz, for a rate the program itself chose.
    ///
    /// ```swift
    /// let promotion = FrameRate(hertz: 120)   // a frame every 8,333,333 ns
    /// ```
    /// - Parameter hertz: The rate, in frames per second.
    /// - Precondition: `hertz` is finite and positive, and its interval, rounded to whole
    ///   nanoseconds, is at least 1 ns and fits in an `Int64` (about 0.000000000111 Hz to
    ///   2,000,000,000 Hz). Use ``init(validating:in:)`` for a rate read from input.
    public init(hertz: Double) {
        guard let interval = Self.interval(hertz: hertz) else {
            preconditionFailure(
                "a frame rate must be finite and positive, with an interval of 1 ns to 9e18 ns; got \(hertz)")
        }
        self.hertz = hertz
        intervalNanoseconds = interval
    }

    /// A frame rate read from input (a file, an argument): checked against `range`.
    ///
    /// ```swift
    /// let rate = try FrameRate(validating: 120)            // 1 to 1,000 Hz
    /// let display = try FrameRate(validating: value, in: 1...240)
    /// ```
    /// - Parameters:
    ///   - hertz: The rate asked for, in frames per second; any value, NaN and infinities included.
    ///   - range: The rates to accept; ``acceptedHertz`` (1 to 1,000 Hz) by default.
    /// - Throws: ``FrameRateError`` when `hertz` is outside `range`, or is a rate no frame rate can
    ///   hold (NaN, zero or negative, or so small or large that its interval is under 1 ns or
    ///   overflows).
    public init(validating hertz: Double, in range: ClosedRange<Double> = FrameRate.acceptedHertz)
        throws(FrameRateError)
    {
        guard range.contains(hertz), let interval = Self.interval(hertz: hertz) else {
            throw FrameRateError(value: hertz, range: range)
        }
        self.hertz = hertz
        intervalNanoseconds = interval
    }

    /// The frame rate whose interval is `intervalNanoseconds`, or `nil` when it is not positive.
    ///
    /// The interval is kept exactly; the rate is `1e9 / intervalNanoseconds`. Trace metadata
    /// states its frame interval this way.
    /// - Parameter intervalNanoseconds: The frame interval `P`, in nanoseconds.
    public init?(intervalNanoseconds: Int64) {
        guard intervalNanoseconds > 0 else { return nil }
        self.intervalNanoseconds = intervalNanoseconds
        hertz = 1e9 / Double(intervalNanoseconds)
    }

    /// The frame rate whose interval is `interval`, or `nil` when it is not positive.
    ///
    /// The interval is kept in whole nanoseconds, truncated toward zero but at least 1 ns, and at
    /// most `Int64.max` ns.
    ///
    /// ```swift
    /// let rate = FrameRate(interval: .seconds(link.targetTimestamp - link.timestamp))
    /// ```
    /// - Parameter interval: The frame interval `P`.
    public init?(interval: Duration) {
        guard interval > .zero else { return nil }
        self.init(intervalNanoseconds: max(1, interval.nanosecondCount))
    }

    /// The frame interval `P` as a duration: ``intervalNanoseconds`` nanoseconds.
    public var interval: Duration { .nanoseconds(intervalNanoseconds) }

    /// The rate in hertz to three decimals, without trailing zeros: `60 Hz`, `59.94 Hz`; a rate
    /// made from 16,666,667 ns reads `60 Hz` too.
    public var description: String {
        let rounded = (hertz * 1000).rounded() / 1000
        return FrameRateError.number(rounded > 0 ? rounded : hertz) + " Hz"
    }

    /// The one conversion from a rate to an interval: `1e9 / hertz`, rounded half away from zero,
    /// or `nil` when that is not a whole number of nanoseconds from 1 to just under 9e18.
    private static func interval(hertz: Double) -> Int64? {
        guard hertz.isFinite, hertz > 0 else { return nil }
        let nanoseconds = (1e9 / hertz).rounded()
        guard nanoseconds >= 1, nanoseconds < 9e18 else { return nil }
        return Int64(nanoseconds)
    }
}

extension FrameRate {
    /// The vsyncs a frame missed when its work ended `lateness` nanoseconds past its deadline:
    /// whole intervals, rounded up; 0 for a frame on time (`lateness` ≤ 0) or a non-positive
    /// `interval`. The one definition the analysis's figures and the simulated display loop use.
    package static func missedVsyncs(lateness: Int64, interval: Int64) -> Int64 {
        guard lateness > 0, interval > 0 else { return 0 }
        return lateness / interval + (lateness % interval == 0 ? 0 : 1)
    }
}

/// A frame rate read from input that framescope cannot use: outside the accepted range, or no
/// rate at all (NaN, zero, negative, infinite).
///
/// Its ``description`` says what was expected and what came:
/// `expected a frame rate from 1 to 1000, got 0`. A budget file prefixes it with the key's path,
/// the command line with the option's name.
public struct FrameRateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rate that was asked for, in hertz.
    public var value: Double
    /// The rates that would have been accepted, in hertz.
    public var range: ClosedRange<Double>

    /// Creates an error.
    /// - Parameters:
    ///   - value: The rate that was asked for, in hertz.
    ///   - range: The rates that would have been accepted, in hertz.
    public init(value: Double, range: ClosedRange<Double>) {
        self.value = value
        self.range = range
    }

    /// `from 1 to 1000`: the accepted range, for a message.
    public var expectedRange: String { "from \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))" }

    /// `expected a frame rate from 1 to 1000, got 0`.
    public var description: String { "expected a frame rate \(expectedRange), got \(Self.number(value))" }

    /// A number as a person writes it: whole numbers without a fraction (`60`), others in Swift's
    /// shortest form (`59.94`, `1e-300`, `nan`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
