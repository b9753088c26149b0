import FrameSimulation
import FrameSupport

/// Layout figures: nanoseconds per feed-cell layout for each engine on the same 100 seeded cells.
///
/// The PinLayout benchmark reports manual layout 8 to 12 times faster than Auto Layout for a
/// similar cell; these figures are what this machine measures for framescope's own engines, which
/// are printed as they come, never tuned towards that claim.
func runLayoutBenchmarks() {
    let width = 375.0
    let repetitions = 100
    var generator = SeededGenerator(seed: 42)
    let cells = (0..<100).map { _ in FeedCellContent.random(using: &generator) }
    section(
        "Layout (ns per cell; median and p99 over \(repetitions) repetitions of \(cells.count) seeded cells at width 375)"
    )

    let manual = timeLayout(ManualLayoutEngine(), cells: cells, width: width, repetitions: repetitions)
    let spec = timeLayout(SpecLayoutEngine(), cells: cells, width: width, repetitions: repetitions)
    let constraint = timeLayout(ConstraintLayoutEngine(), cells: cells, width: width, repetitions: repetitions)
    guard let manual, let spec, let constraint else { return }
    figure("constraint / manual", constraint.median / manual.median, "x", note: "PinLayout's benchmark reports 8-12x")
    figure("spec / manual", spec.median / manual.median, "x")
}

/// Times one engine over the cells and prints its figure; `nil` (after saying why) if it fails.
private func timeLayout(
    _ engine: some FeedCellLayoutEngine, cells: [FeedCellContent], width: Double, repetitions: Int
) -> Timing? {
    do {
        for cell in cells { _ = try engine.layout(cell, width: width) }
    } catch {
        print("\(engine.name) layout failed: \(error)")
        return nil
    }
    let timing = measure(repetitions: repetitions, operations: cells.count) {
        for cell in cells { blackHole(try? engine.layout(cell, width: width)) }
    }
    figure("\(engine.name) layout", timing.median, "ns", note: "p99 \(formatFixed(timing.p99, decimals: 0)) ns")
    return timing
}
