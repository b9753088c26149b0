/// A damped spring that pulls a value toward a target, integrated step by step, so that whoever
/// drives it can stop it at any moment and start again from its current position and velocity.
///
/// The spring is described as UIKit and SwiftUI describe theirs: a `response` (the period of the
/// undamped oscillation, in seconds) and a `dampingRatio` (1 is critical damping: no overshoot;
/// below 1 overshoots a little). The acceleration is `−k·(x − target) − c·v` with
/// `k = (2π / response)²` and `c = 2·dampingRatio·√k`.
///
/// ```swift
/// let spring = DampedSpring(response: 0.35, dampingRatio: 0.85)
/// var state = DampedSpring.State(position: 0.4, velocity: 3)
/// state = spring.step(state, toward: 1, seconds: 1.0 / 60)
/// ```
package struct DampedSpring: Sendable, Hashable {
    /// A position and a velocity (units per second).
    package struct State: Sendable, Hashable {
        /// Where the value is.
        package var position: Double
        /// How fast it moves, in units per second.
        package var velocity: Double

        /// Creates a state.
        package init(position: Double, velocity: Double) {
            self.position = position
            self.velocity = velocity
        }
    }

    /// The stiffness `k`, per second squared.
    package let stiffness: Double
    /// The damping coefficient `c`, per second.
    package let damping: Double

    /// Creates a spring.
    /// - Precondition: `response` and `dampingRatio` are positive.
    package init(response: Double, dampingRatio: Double) {
        precondition(response > 0 && dampingRatio > 0, "a spring needs a positive response and damping ratio")
        stiffness = (2 * Double.pi / response) * (2 * Double.pi / response)
        damping = 2 * dampingRatio * stiffness.squareRoot()
    }

    /// The longest integration step; longer intervals (a missed frame) are split into steps of at
    /// most this, so a long frame does not make the integration unstable.
    package static let maximumStep = 0.002

    /// Advances the spring by `seconds` (semi-implicit Euler in steps of at most ``maximumStep``).
    /// - Parameters:
    ///   - state: Where the value is and how fast it moves.
    ///   - target: Where the spring pulls it.
    ///   - seconds: How much time passes; 0 or less leaves the state as it is.
    /// - Returns: The state after `seconds`.
    package func step(_ state: State, toward target: Double, seconds: Double) -> State {
        guard seconds > 0 else { return state }
        let steps = max(1, Int((seconds / Self.maximumStep).rounded(.up)))
        let dt = seconds / Double(steps)
        var state = state
        for _ in 0..<steps {
            let acceleration = -stiffness * (state.position - target) - damping * state.velocity
            state.velocity += acceleration * dt
            state.position += state.velocity * dt
        }
        return state
    }

    /// Whether `state` is close enough to `target` and slow enough to stop there.
    /// - Parameters:
    ///   - state: The state.
    ///   - target: The target.
    ///   - tolerance: The largest distance that counts as arrived; the largest speed is 10 times it
    ///     per second.
    package func isSettled(_ state: State, at target: Double, tolerance: Double = 0.001) -> Bool {
        abs(state.position - target) <= tolerance && abs(state.velocity) <= tolerance * 10
    }
}
