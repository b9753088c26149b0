import Foundation
import FrameSupport
import FrameTrace

/// Seeded synthetic per-frame main-thread costs in nanoseconds: log-normal around a median of
/// 8 ms (σ = 0.25 in log space, so most frames fall between 5 and 13 ms), with an occasional
/// spike of 2 to 5 times the usual cost, as a GC pause or a cache miss would cause.
struct FrameCostGenerator {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// A base run and a head run of `frames` frames each, drawn one after the other from one
    /// seeded stream (so the two are independent); every head cost is multiplied by `headScale`,
    /// 1.2 modelling a change that makes main-thread work 20% dearer.
    static func runs(seed: UInt64, frames: Int, headScale: Double = 1) -> (base: [Double], head: [Double]) {
        var costs = FrameCostGenerator(seed: seed)
        return (costs.sample(frames), costs.sample(frames).map { $0 * headScale })
    }

    /// The next frame's cost.
    mutating func next() -> Double {
        // Box–Muller; 1 − u keeps the logarithm's argument in (0, 1].
        let radius = (-2 * log(1 - Double.random(in: 0..<1, using: &generator))).squareRoot()
        let normal = radius * cos(2 * Double.pi * Double.random(in: 0..<1, using: &generator))
        let cost = 8_000_000 * exp(0.25 * normal)
        return Double.random(in: 0..<1, using: &generator) < 0.02
            ? cost * Double.random(in: 2...5, using: &generator) : cost
    }

    /// The costs of `count` frames.
    mutating func sample(_ count: Int) -> [Double] {
        (0..<count).map { _ in next() }
    }
}
