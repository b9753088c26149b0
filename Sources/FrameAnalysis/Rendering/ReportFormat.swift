/// Number formatting for reports: fixed decimals, deterministic on every platform. The renderers'
/// one place for numbers as people read them; the words around them are in ReportPhrases.swift.
package enum ReportFormat {
    /// `value` with exactly `decimals` decimals, rounded half away from zero.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return String(value) }
        let integer = UInt64(scaled)
        let divisor = UInt64(scale)
        let whole = integer / divisor
        var fraction = String(integer % divisor)
        while fraction.count < decimals { fraction = "0" + fraction }
        let sign = value < 0 && integer != 0 ? "-" : ""
        return sign + String(whole) + (decimals > 0 ? "." + fraction : "")
    }

    /// A threshold as prose prints it: up to two decimals, without trailing zeros (`5`, `700`,
    /// `16.67`).
    package static func trimmed(_ value: Double) -> String {
        var text = fixed(value, decimals: 2)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Nanoseconds as milliseconds with two decimals and the unit: `4.12 ms`.
    package static func milliseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1e6, decimals: 2) + " ms"
    }

    /// Like ``milliseconds(_:)``, or `-` when there is no value.
    package static func optionalMilliseconds(_ nanoseconds: Int64?) -> String {
        nanoseconds.map(milliseconds) ?? "-"
    }

    /// p50, p90, p95, p99 and max in milliseconds, or dashes when there were no values.
    package static func percentiles(_ summary: PercentileSummary<Int64>?) -> [String] {
        guard let summary else { return Array(repeating: "-", count: 5) }
        return [summary.p50, summary.p90, summary.p95, summary.p99, summary.max].map(milliseconds)
    }

    /// A share as a percentage with one decimal: `12.5%`.
    package static func percent(_ share: Double) -> String {
        fixed(share * 100, decimals: 1) + "%"
    }

    /// Like ``percent(_:)``, or `-` when the share could not be computed.
    package static func optionalPercent(_ share: Double?) -> String {
        share.map(percent) ?? "-"
    }
}

/// A number as prose and reasons print it: whole numbers without a decimal point (`60`, `120`),
/// others as Swift prints a `Double` (`0.05`, `59.94`).
func formatNumber(_ value: Double) -> String {
    value == value.rounded() ? String(Int64(value)) : String(value)
}

// Signed figures and p-values, for compare's reasons and tables.

func signedNumber(_ value: Double, decimals: Int = 2) -> String {
    let text = ReportFormat.fixed(value, decimals: decimals)
    return text.hasPrefix("-") ? text : "+" + text
}

func signedMilliseconds(_ value: Double) -> String { signedNumber(value) + " ms" }

func signedPercent(_ relative: Double) -> String {
    guard relative.isFinite else { return relative > 0 ? "from 0" : "to 0" }
    return signedNumber(relative * 100, decimals: 1) + "%"
}

func pValueText(_ p: Double) -> String {
    p < 0.0001 ? "< 0.0001" : "= " + ReportFormat.fixed(p, decimals: 4)
}

func percentText(_ share: Double) -> String {
    formatNumber((share * 1000).rounded() / 10) + "%"
}
