/// A small, fast, deterministic random number generator (SplitMix64).
///
/// Workloads that make content (cells, snapshots, images, gestures), synthetic traces and the
/// bootstrap in comparisons all draw from one of these, so a seed reproduces the same values on
/// every machine and every run.
///
/// ```swift
/// var rng = SeededGenerator(seed: 42)
/// let width = Int.random(in: 320...768, using: &rng)
/// ```
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    package init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
