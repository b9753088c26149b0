// Public: argumentValue(in:) is @inlinable and makes a JSONValue.
public import FrameTrace

/// A JSON number as scanned: up to 19 significant decimal digits and a decimal exponent.
///
/// The value is `mantissa × 10^exponent`, negated when ``isNegative``. Conversions never trap:
/// values out of range come back as `nil` (or as an infinity for `Double`).
@usableFromInline package struct JSONNumberToken {
    /// Offset of the number's first byte.
    @usableFromInline package var start: Int
    /// Offset just after the number's last byte.
    @usableFromInline package var end: Int = 0
    /// The first 19 significant digits.
    @usableFromInline package var mantissa: UInt64 = 0
    /// The power of ten the mantissa is scaled by.
    @usableFromInline package var exponent: Int = 0
    /// Whether the number has a leading `-`.
    @usableFromInline package var isNegative = false
    /// Whether the text has neither a fraction nor an exponent.
    @usableFromInline package var isInteger = true
    /// Whether no non-zero digit was dropped beyond the 19th.
    @usableFromInline package var isExact = true

    @inlinable package init(start: Int) { self.start = start }

    /// How to turn a value with a fraction into an integer.
    @usableFromInline package enum Rounding {
        /// To the nearest integer, halves away from zero (timestamps).
        case nearest
        /// Toward zero (ids).
        case towardZero
    }

    /// The value times `10^shift`, as an integer.
    ///
    /// With `shift` 3 this turns the format's microseconds into nanoseconds: integer part and
    /// three fractional digits exact, further digits rounded.
    /// - Returns: `nil` when the result does not fit in `Int64`.
    @inlinable package func scaledInteger(shift: Int, rounding: Rounding = .nearest) -> Int64? {
        guard mantissa != 0 else { return 0 }
        let power = exponent + shift
        var magnitude: UInt64
        if power >= 0 {
            guard power <= 19 else { return nil }
            let (product, overflow) = mantissa.multipliedReportingOverflow(by: JSONNumberToken.powerOfTen(power))
            guard !overflow else { return nil }
            magnitude = product
        } else {
            guard power >= -19 else { return 0 }
            let divisor = JSONNumberToken.powerOfTen(-power)
            magnitude = mantissa / divisor
            let remainder = mantissa % divisor
            if rounding == .nearest, remainder >= divisor - remainder { magnitude += 1 }
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The value as an integer when the text is an integer literal that fits in `Int64`.
    @inlinable package var exactInteger: Int64? {
        guard isInteger, isExact else { return nil }
        return scaledInteger(shift: 0)
    }

    /// The value as a `Double`, correctly rounded; huge values become infinities.
    @inlinable package func double<Failure>(in scanner: JSONScanner<Failure>) -> Double {
        if mantissa == 0 { return isNegative ? -0.0 : 0.0 }
        // Clinger's fast path: both operands exact in a Double, so one rounding is correct.
        if isExact, mantissa <= 1 << 53, (-22...22).contains(exponent) {
            var value = Double(mantissa)
            if exponent >= 0 {
                value *= JSONNumberToken.doublePowerOfTen(exponent)
            } else {
                value /= JSONNumberToken.doublePowerOfTen(-exponent)
            }
            return isNegative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(start: scanner.base + start, count: end - start), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The value as an argument: an integer literal that fits stays an integer, anything else is
    /// a `Double`.
    @inlinable package func argumentValue<Failure>(in scanner: JSONScanner<Failure>) -> JSONValue {
        if let integer = exactInteger { return .int(integer) }
        return .double(double(in: scanner))
    }

    /// `10^power` for `power` in 0...19.
    @inline(__always)
    @inlinable package static func powerOfTen(_ power: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<power { result &*= 10 }
        return result
    }

    /// `10^power` for `power` in 0...22, exact in a `Double`.
    @inlinable package static func doublePowerOfTen(_ power: Int) -> Double {
        var result = 1.0
        for _ in 0..<power { result *= 10 }
        return result
    }
}
