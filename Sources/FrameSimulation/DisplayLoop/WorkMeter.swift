import Foundation
import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kinds of work the workloads count, each with the unit it is counted in. A kind's identifier
/// is stable: cost models name their rates by it.
package enum WorkKind: String, CaseIterable, Sendable, Comparable {
    /// Decoding a PNG file (inflate, unfilter, convert to RGBA); units: decoded pixels.
    case pngDecode = "png-decode"
    /// Downsampling a bitmap with a box filter; units: source pixels.
    case downsample
    /// Pre-rendering an image with rounded corners; units: pixels.
    case roundCorners = "round-corners"
    /// Drawing an image through an offscreen pass (clip, then blend); units: pixels of the image.
    case drawOffscreen = "draw-offscreen"
    /// Copying an opaque pre-rendered image; units: pixels.
    case drawCopy = "draw-copy"
    /// Blending a pre-rendered image with transparent corners; units: pixels.
    case drawBlend = "draw-blend"
    /// Copying an image and blending corner overlays on it; units: pixels of the image.
    case drawCornerOverlay = "draw-corner-overlay"
    /// Laying out a feed cell with the constraint solver; units: tableau row substitutions.
    case constraintLayout = "constraint-layout"
    /// Laying out a feed cell with manual (pin-style) code; units: text characters measured.
    case manualLayout = "manual-layout"
    /// Laying out a feed cell from layout specs; units: text characters measured.
    case specLayout = "spec-layout"
    /// Positioning the visible cells' subviews; units: subviews.
    case positionSubviews = "position-subviews"
    /// Binding every row of a list to a view model (a full reload); units: rows.
    case reloadList = "reload-list"
    /// Changing a list's model; units: rows in the model.
    case updateModel = "update-model"
    /// Building a list snapshot; units: items.
    case makeSnapshot = "make-snapshot"
    /// Diffing two snapshots; units: items in both.
    case diffSnapshots = "diff-snapshots"
    /// Applying a diff to the rows shown; units: rows shown.
    case applyDiff = "apply-diff"
    /// Finding the visible rows from every row's height; units: rows.
    case layoutRows = "layout-rows"
    /// Interpolating card frames for a transition; units: cards.
    case interpolateCards = "interpolate-cards"
    /// Placing the visible images of a grid; units: tiles on screen.
    case placeImages = "place-images"
    /// A frame's main-thread work that no other kind counts (input, bookkeeping, recording
    /// spans); units: frames.
    case mainFrame = "main-frame"
    /// A render's work that no other kind counts; units: renders.
    case renderFrame = "render-frame"
    /// A background job's work that no other kind counts; units: jobs.
    case backgroundJob = "background-job"

    package static func < (lhs: WorkKind, rhs: WorkKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a simulated device takes for each kind of work: a cost per call plus a cost per unit, in
/// nanoseconds. Virtual time prices counted work with it, so a run's timeline follows from the work
/// it did, never from how fast or busy the host is.
package struct CostModel: Sendable, Hashable {
    /// The cost of one call of a kind of work: `perCall + perUnit × units` nanoseconds.
    package struct Rate: Sendable, Hashable {
        package var perCall: Double
        package var perUnit: Double

        package init(perCall: Double, perUnit: Double) {
            self.perCall = perCall
            self.perUnit = perUnit
        }
    }

    /// The device's name, for titles.
    package var name: String
    /// Rates by kind; a kind without one costs nothing.
    package var rates: [WorkKind: Rate]

    package init(name: String, rates: [WorkKind: Rate]) {
        self.name = name
        self.rates = rates
    }

    /// The nanoseconds `units` of `kind` take, rounded; never negative, saturating far beyond any
    /// real run.
    package func cost(of kind: WorkKind, units: Int) -> Int64 {
        guard let rate = rates[kind] else { return 0 }
        let nanoseconds = (rate.perCall + rate.perUnit * Double(max(0, units))).rounded()
        guard nanoseconds.isFinite, nanoseconds > 0 else { return 0 }
        return nanoseconds >= 1e15 ? 1_000_000_000_000_000 : Int64(nanoseconds)
    }
}

/// The clock a pricing meter advances: the recorder's `ManualClock` (its conformance is in
/// `WorkMeter+ManualClock.swift`). The meter and the workloads it measures need nothing else of
/// the recorder, so the imaging fuzz target compiles them without it.
package protocol AdvancingClock: Sendable {
    /// Moves the clock forward by `duration`.
    func advance(by duration: Duration)
}

/// Counts the work the workloads do and turns it into time, for the simulated display's virtual
/// time; or, when calibrating, measures each piece's thread CPU time beside its count.
///
/// Workloads call ``measure(_:_:)`` around a piece of work (a decode, a cell's layout, a diff):
/// with no meter current on the thread it only runs the work. The display loop makes its meter
/// current on the threads it runs work on (``withCurrent(_:_:)``). A **pricing** meter advances
/// its manual clock by the cost model's price of each piece: the same seed gives the same
/// timeline on any host, however loaded. A **calibrating** meter records every piece's kind,
/// units and thread CPU time, from which ``fit(_:)`` derives a cost model. Pieces may nest; each
/// counts its own work only.
package final class WorkMeter: @unchecked Sendable {
    // @unchecked: `samples` is guarded by `lock`; the other fields are immutable.
    package enum Mode: Sendable {
        /// Advance `clock` by the price of each piece.
        case pricing(CostModel, any AdvancingClock)
        /// Record each piece's thread CPU time.
        case calibrating
    }

    /// One measured piece of work.
    package struct Sample: Sendable, Hashable {
        package var kind: WorkKind
        package var units: Int
        package var nanoseconds: Int64
    }

    package let mode: Mode
    private let lock = NSLock()
    private var recorded: [Sample] = []

    package init(_ mode: Mode) { self.mode = mode }

    /// A meter that prices work with `model` on `clock`.
    package static func pricing(_ model: CostModel, clock: any AdvancingClock) -> WorkMeter {
        WorkMeter(.pricing(model, clock))
    }

    /// The samples a calibrating meter has recorded, in the order they ended.
    package var samples: [Sample] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    fileprivate func record(_ sample: Sample) {
        lock.lock()
        recorded.append(sample)
        lock.unlock()
    }

    // MARK: - The meter current on a thread

    /// What the thread-specific key holds: the meter made current by ``withCurrent(_:_:)`` and, for
    /// calibration, the CPU time of finished pieces nested in each running piece.
    fileprivate final class Binding {
        let meter: WorkMeter
        var nested: [Int64] = []
        init(_ meter: WorkMeter) { self.meter = meter }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    private static var binding: Binding? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Binding>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The meter current on the calling thread, if any.
    package static var current: WorkMeter? { binding?.meter }

    /// Runs `body` with `meter` current on the calling thread (none when `nil`), then restores the
    /// thread's previous meter.
    package static func withCurrent<R>(_ meter: WorkMeter?, _ body: () throws -> R) rethrows -> R {
        let binding = meter.map(Binding.init)
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, binding.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) })
        defer { pthread_setspecific(key, previous) }
        return try withExtendedLifetime(binding) { try body() }
    }

    /// Runs a piece of work of `kind` and counts it with the meter current on the thread, if any.
    ///
    /// Pieces may nest: each counts only its own work, without the pieces inside it (a pricing
    /// meter charges each piece's own units; a calibrating meter records each piece's CPU time
    /// minus that of the pieces it ran).
    /// - Parameter body: The work; returns its result and the units it did. A pricing meter
    ///   charges the price when the work ends.
    package static func measure<R>(_ kind: WorkKind, _ body: () throws -> (R, units: Int)) rethrows -> R {
        guard let binding else { return try body().0 }
        switch binding.meter.mode {
        case .pricing(let model, let clock):
            let (result, units) = try body()
            clock.advance(by: .nanoseconds(model.cost(of: kind, units: units)))
            return result
        case .calibrating:
            return try binding.calibrate(kind) { try body() }
        }
    }

    /// As ``measure(_:_:)`` for work whose units are known before it starts: a pricing meter
    /// charges the price first, so the time is spent where the work begins (a frame's own work
    /// before the commit that ends it).
    package static func measure<R>(_ kind: WorkKind, units: Int, _ body: () throws -> R) rethrows -> R {
        guard let binding else { return try body() }
        switch binding.meter.mode {
        case .pricing(let model, let clock):
            clock.advance(by: .nanoseconds(model.cost(of: kind, units: units)))
            return try body()
        case .calibrating:
            return try binding.calibrate(kind) { (try body(), units) }
        }
    }

    // MARK: - Calibration

    /// How well a fitted rate explains its samples.
    package struct Fit: Sendable {
        package var kind: WorkKind
        package var rate: CostModel.Rate
        package var calls: Int
        package var units: Int
        /// Measured nanoseconds in all samples.
        package var measured: Double
        /// The share of the samples' variance the rate explains (1 when every call costs the same).
        package var rSquared: Double
    }

    /// Least-squares rates, `nanoseconds ≈ perCall + perUnit × units`, per kind; both terms kept
    /// at or above zero (a line through the origin, or a flat cost, when the free fit would go
    /// negative). A kind whose calls all did the same units gets its median call.
    package static func fit(_ samples: [Sample]) -> [Fit] {
        var byKind: [WorkKind: [Sample]] = [:]
        for sample in samples { byKind[sample.kind, default: []].append(sample) }
        return byKind.keys.sorted().map { kind -> Fit in
            let group = byKind[kind]!
            let n = Double(group.count)
            let xs = group.map { Double($0.units) }
            let ys = group.map { Double($0.nanoseconds) }
            let meanX = xs.reduce(0, +) / n
            let meanY = ys.reduce(0, +) / n
            var sxx = 0.0
            var sxy = 0.0
            var syy = 0.0
            for (x, y) in zip(xs, ys) {
                sxx += (x - meanX) * (x - meanX)
                sxy += (x - meanX) * (y - meanY)
                syy += (y - meanY) * (y - meanY)
            }
            var rate: CostModel.Rate
            if sxx > 0 {
                let slope = sxy / sxx
                rate = CostModel.Rate(perCall: meanY - slope * meanX, perUnit: slope)
                if rate.perUnit < 0 { rate = CostModel.Rate(perCall: meanY, perUnit: 0) }
                if rate.perCall < 0 {
                    let sumXX: Double = xs.reduce(0.0) { $0 + $1 * $1 }
                    let sumXY: Double = zip(xs, ys).reduce(0.0) { $0 + $1.0 * $1.1 }
                    rate = CostModel.Rate(perCall: 0, perUnit: sumXX > 0 ? sumXY / sumXX : 0)
                }
            } else {
                // Every call did the same units: the median call, so that one-off costs of a first
                // call (lazy initialisation, first-touch page faults) are not spread over the rest.
                let sorted = ys.sorted()
                let median =
                    sorted.count % 2 == 1
                    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
                rate = CostModel.Rate(perCall: xs[0] > 0 ? 0 : median, perUnit: xs[0] > 0 ? median / xs[0] : 0)
            }
            var residual = 0.0
            for (x, y) in zip(xs, ys) {
                let error = y - (rate.perCall + rate.perUnit * x)
                residual += error * error
            }
            return Fit(
                kind: kind, rate: rate, calls: group.count, units: group.reduce(0) { $0 + $1.units },
                measured: ys.reduce(0, +),
                rSquared: syy > 0 ? max(0, 1 - residual / syy) : 1)
        }
    }
}

extension WorkMeter.Binding {
    /// Runs `body`, recording its CPU time minus that of the pieces nested in it.
    fileprivate func calibrate<R>(_ kind: WorkKind, _ body: () throws -> (R, units: Int)) rethrows -> R {
        nested.append(0)
        let depth = nested.count
        defer { if nested.count == depth { nested.removeLast() } }  // when `body` threw
        let start = threadCPUNanoseconds()
        let (result, units) = try body()
        let total = max(0, threadCPUNanoseconds() - start)
        let inner = nested.removeLast()
        if !nested.isEmpty { nested[nested.count - 1] += total }
        meter.record(WorkMeter.Sample(kind: kind, units: units, nanoseconds: max(0, total - inner)))
        return result
    }
}
