/// The state of a gesture-driven zoom between two layouts: its progress (0 the row, 1 zoomed),
/// what drives it (a finger, a finishing animation, or nothing), and whether it takes touches.
///
/// A pan drags the progress with the finger: moving up by ``travel`` points goes from 0 to 1. On
/// release the transition picks the end the gesture was heading for (the progress projected
/// 0.2 s ahead at the release velocity, then rounded to 0 or 1) and finishes there, one of two ways:
///
/// - ``Finish/fixedAnimation(seconds:)``: a fixed-length ease-out curve. The gesture is disabled
///   until it ends, so touches in the meantime are refused (``acceptsTouches`` is `false`): the
///   naive transition's dead zone.
/// - ``Finish/spring(_:)``: a ``DampedSpring`` started from the release velocity and advanced
///   every frame. A new touch stops it where it is and the finger takes over from there.
///
/// A pure value: time comes in as nanoseconds on any clock, nothing is recorded.
///
/// ```swift
/// var zoom = ZoomTransition(finish: .spring(DampedSpring(response: 0.35, dampingRatio: 0.85)), travel: 440)
/// _ = zoom.begin(at: 0)
/// zoom.move(translation: -220)          // progress 0.5
/// zoom.end(translation: -260, velocity: -1_500, at: 100_000_000)
/// zoom.advance(to: 100_000_000 + FrameRate.standard.intervalNanoseconds)   // a frame later, the spring carries it on toward 1
/// ```
package struct ZoomTransition: Sendable, Hashable {
    /// How a released transition finishes.
    package enum Finish: Sendable, Hashable {
        /// A fixed-length ease-out animation that disables the gesture until it ends.
        case fixedAnimation(seconds: Double)
        /// An interruptible damped spring.
        case spring(DampedSpring)
    }

    /// What moves the progress now.
    package enum Driver: Sendable, Hashable {
        /// Nothing: the transition rests at an end.
        case idle
        /// A finger, since it touched down at `startProgress`.
        case finger(startProgress: Double)
        /// The fixed animation, from `from` to `to`, since `start` (nanoseconds).
        case animation(from: Double, to: Double, start: Int64)
        /// The spring, toward `target`, last advanced at `time` (nanoseconds).
        case spring(target: Double, time: Int64)
    }

    /// The ease-out curve of the fixed animation: `1 − (1 − t)³`.
    package static func easeOut(_ t: Double) -> Double {
        let rest = 1 - min(1, max(0, t))
        return 1 - rest * rest * rest
    }

    /// How the transition finishes.
    package let finish: Finish
    /// The upward finger travel, in points, that takes the progress from 0 to 1.
    package let travel: Double
    /// Where the transition is: 0 the row layout, 1 zoomed.
    package private(set) var progress: Double = 0
    /// How fast the progress changes, per second (set on release, carried by the spring).
    package private(set) var velocity: Double = 0
    /// What moves the progress now.
    package private(set) var driver: Driver = .idle

    /// Creates a transition resting in the row layout.
    /// - Precondition: `travel` is positive, and a fixed animation lasts a positive time.
    package init(finish: Finish, travel: Double) {
        precondition(travel > 0, "travel must be positive")
        if case .fixedAnimation(let seconds) = finish {
            precondition(seconds > 0, "an animation must last a positive time")
        }
        self.finish = finish
        self.travel = travel
    }

    /// Whether a new touch would be handled: `false` only while a fixed animation runs.
    package var acceptsTouches: Bool {
        if case .animation = driver { return false }
        return true
    }

    /// Whether a finger drives the transition.
    package var isDragging: Bool {
        if case .finger = driver { return true }
        return false
    }

    /// A finger touches down. A running spring stops where it is and the finger takes over.
    /// - Parameter time: When, in nanoseconds.
    /// - Returns: Whether the touch was handled; `false` while a fixed animation disables the gesture.
    package mutating func begin(at time: Int64) -> Bool {
        guard acceptsTouches else { return false }
        driver = .finger(startProgress: progress)
        velocity = 0
        return true
    }

    /// The finger moved: `translation` points since it touched down (negative is up, toward zoomed).
    package mutating func move(translation: Double) {
        guard case .finger(let start) = driver else { return }
        progress = min(1, max(0, start - translation / travel))
    }

    /// The finger lifted after moving `translation` points, at `velocity` points per second.
    /// - Parameters:
    ///   - translation: The translation since touch-down, in points (negative is up).
    ///   - velocity: The finger's vertical velocity at release, in points per second.
    ///   - time: When, in nanoseconds.
    package mutating func end(translation: Double, velocity fingerVelocity: Double, at time: Int64) {
        guard case .finger = driver else { return }
        move(translation: translation)
        velocity = -fingerVelocity / travel
        let target: Double = progress + velocity * 0.2 >= 0.5 ? 1 : 0
        switch finish {
        case .fixedAnimation:
            driver = .animation(from: progress, to: target, start: time)
        case .spring:
            driver = .spring(target: target, time: time)
        }
    }

    /// Advances a finishing animation or spring to `time` (nanoseconds); a finger or an idle
    /// transition stays where it is. A fixed animation that has run its length, or a spring that
    /// has settled, ends at its target and leaves the transition idle.
    package mutating func advance(to time: Int64) {
        switch (driver, finish) {
        case (.animation(let from, let to, let start), .fixedAnimation(let seconds)):
            let t = Double(time - start) / 1e9 / seconds
            if t >= 1 {
                progress = to
                velocity = 0
                driver = .idle
            } else {
                progress = from + (to - from) * Self.easeOut(t)
            }
        case (.spring(let target, let last), .spring(let spring)):
            let state = spring.step(
                .init(position: progress, velocity: velocity), toward: target, seconds: Double(time - last) / 1e9)
            if spring.isSettled(state, at: target) {
                progress = target
                velocity = 0
                driver = .idle
            } else {
                progress = state.position
                velocity = state.velocity
                driver = .spring(target: target, time: time)
            }
        default:
            break
        }
    }
}
