/// How much a constraint matters: required, or a weight for how much violating it costs.
///
/// As in Cassowary's kiwi implementation, a strength is one number built from three levels,
/// `strong·10⁶ + medium·10³ + weak`, each level clamped to `0...1000`. A solver satisfies every
/// ``required`` constraint and, among the solutions, minimises the sum over the other constraints
/// of strength × violation, so one unit of violation of a ``strong`` constraint outweighs a
/// thousand of a ``medium`` one.
///
/// ```swift
/// let compressionResistance = Strength.strong
/// let hugging = Strength(weak: 250)
/// ```
package struct Strength: Comparable, Hashable, Sendable {
    /// The weight, `strong·10⁶ + medium·10³ + weak` after clamping.
    package let value: Double

    /// Creates a strength from its three levels, each multiplied by `weight` and clamped to `0...1000`.
    /// - Parameters:
    ///   - strong: The strong level.
    ///   - medium: The medium level.
    ///   - weak: The weak level.
    ///   - weight: A factor applied to each level before clamping.
    package init(strong: Double = 0, medium: Double = 0, weak: Double = 0, weight: Double = 1) {
        func clamped(_ level: Double) -> Double { min(max(level * weight, 0), 1000) }
        value = clamped(strong) * 1_000_000 + clamped(medium) * 1_000 + clamped(weak)
    }

    /// Must hold: a solver reports an error rather than violate it.
    package static let required = Strength(strong: 1000, medium: 1000, weak: 1000)
    /// The strongest preference level.
    package static let strong = Strength(strong: 1)
    /// The middle preference level.
    package static let medium = Strength(medium: 1)
    /// The weakest preference level.
    package static let weak = Strength(weak: 1)

    /// Whether this is ``required``.
    package var isRequired: Bool { self >= .required }

    /// Orders strengths by weight.
    package static func < (lhs: Strength, rhs: Strength) -> Bool {
        lhs.value < rhs.value
    }
}
