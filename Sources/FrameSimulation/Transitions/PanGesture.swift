package import FrameSupport

/// One scripted pan: a finger touches down, drags vertically at a steady speed, and lifts.
///
/// The touch screen samples the finger once per display frame, a few milliseconds before the
/// vsync, so a gesture becomes a ``TouchSample`` per frame: `began` on the first frame at or after
/// ``start``, `moved` on each frame of the drag, `ended` on the frame after.
package struct PanGesture: Sendable, Hashable {
    /// When the finger touches down, in seconds from the first frame's vsync.
    package var start: Double
    /// How long the finger drags before lifting, in seconds.
    package var duration: Double
    /// The vertical distance dragged, in points: negative is up (toward the zoomed layout).
    package var distance: Double
    /// The card under the finger at touch-down.
    package var focusCard: Int

    /// Creates a gesture.
    package init(start: Double, duration: Double, distance: Double, focusCard: Int) {
        precondition(start >= 0 && duration > 0, "a gesture starts at or after 0 and lasts a positive time")
        self.start = start
        self.duration = duration
        self.distance = distance
        self.focusCard = focusCard
    }

    /// The finger's speed during the drag, in points per second.
    package var velocity: Double { distance / duration }

    /// The gesture as display-rate touch samples.
    /// - Parameters:
    ///   - interval: The frame interval `P`, in nanoseconds.
    ///   - generator: Draws each sample's lead before its vsync: 1 to 6 ms, less than `P`.
    /// - Returns: `began`, then a `moved` per frame of the drag, then `ended`, in tick order.
    package func samples(interval: Int64, using generator: inout SeededGenerator) -> [TouchSample] {
        let seconds = Double(interval) / 1e9
        let first = Int((start / seconds).rounded(.up))
        let dragTicks = max(1, Int((duration / seconds).rounded()))
        func lead() -> Int64 {
            Int64.random(in: min(1_000_000, interval / 2)...min(6_000_000, interval * 3 / 4), using: &generator)
        }
        var samples = [TouchSample(tick: first, phase: .began, translation: 0, leadNanoseconds: lead(), gesture: self)]
        for step in 1...dragTicks {
            samples.append(
                TouchSample(
                    tick: first + step, phase: .moved, translation: distance * Double(step) / Double(dragTicks),
                    leadNanoseconds: lead(), gesture: self))
        }
        samples.append(
            TouchSample(
                tick: first + dragTicks + 1, phase: .ended, translation: distance, leadNanoseconds: lead(),
                gesture: self))
        return samples
    }

    /// A seeded stream of gestures: alternately up and down (four times in five; otherwise the
    /// same way again), each dragging 150 to 400 pt for 0.1 to 0.3 s on a random card, then a
    /// pause of 0.1 to 1.3 s from the lift to the next touch-down. Pauses shorter than a finishing
    /// animation make the next gesture start while the previous transition is still finishing.
    /// - Parameters:
    ///   - generator: The seeded source.
    ///   - cardCount: Cards a finger can land on.
    ///   - until: Generate gestures starting before this many seconds.
    ///   - after: The previous gesture, if any, to continue from.
    package static func script(
        using generator: inout SeededGenerator, cardCount: Int, until: Double, after previous: PanGesture? = nil
    ) -> [PanGesture] {
        var gestures: [PanGesture] = []
        var last = previous
        while true {
            let start: Double
            let upward: Bool
            if let last {
                start = last.start + last.duration + Double.random(in: 0.1...1.3, using: &generator)
                let flips = Int.random(in: 0..<5, using: &generator) < 4
                upward = flips ? last.distance > 0 : last.distance < 0
            } else {
                start = Double.random(in: 0.05...0.2, using: &generator)
                upward = true
            }
            guard start < until else { return gestures }
            let distance = Double.random(in: 150...400, using: &generator)
            let gesture = PanGesture(
                start: start, duration: Double.random(in: 0.1...0.3, using: &generator),
                distance: upward ? -distance : distance,
                focusCard: Int.random(in: 0..<cardCount, using: &generator))
            gestures.append(gesture)
            last = gesture
        }
    }
}

/// One display-rate sample of a finger on the screen.
package struct TouchSample: Sendable, Hashable {
    /// Where the sample falls in the gesture.
    package enum Phase: String, Sendable, Hashable {
        /// Touch-down.
        case began
        /// A movement during the drag.
        case moved
        /// Lift-off.
        case ended
    }

    /// The vsync tick (from the first frame's vsync, in frame intervals) it was sampled before.
    package var tick: Int
    /// Where it falls in the gesture.
    package var phase: Phase
    /// The translation since touch-down, in points (negative is up).
    package var translation: Double
    /// How long before the tick's vsync the finger was sampled, in nanoseconds.
    package var leadNanoseconds: Int64
    /// The gesture it belongs to.
    package var gesture: PanGesture
}
