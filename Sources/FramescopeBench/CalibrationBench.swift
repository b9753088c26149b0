import Foundation
import FrameAnalysis
import FrameRuns
import FrameSimulation

/// `framescope-bench calibrate [FRAMES]`: derives virtual time's cost model on this machine.
///
/// Runs every scenario and strategy on CPU time with a calibrating meter, which records each
/// counted piece of work's kind, units and thread CPU time; fits `perCall + perUnit × units` per
/// kind by least squares; prints the fit and the Swift source of the model
/// (`Sources/FrameSimulation/DisplayLoop/CostModel+Reference.swift`); then runs every scenario
/// again on virtual time priced by the fitted model and prints both runs side by side, so the
/// model's fidelity to the measured work is on the page.
func runCalibration(frames: Int) {
    section("calibration: virtual time's cost model from \(frames) frames of every run on CPU time")
    let directory = NSTemporaryDirectory() + "framescope-calibrate-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let meter = WorkMeter(.calibrating)
    guard let measured = runOnCPUTime(frames: frames, directory: directory, meter: meter) else { return }
    let fits = WorkMeter.fit(meter.samples)
    printFits(fits)
    let model = CostModel(name: "reference", rates: Dictionary(uniqueKeysWithValues: fits.map { ($0.kind, $0.rate) }))
    guard printFidelity(of: model, beside: measured, frames: frames, directory: directory) else { return }

    print("// Sources/FrameSimulation/DisplayLoop/CostModel+Reference.swift, rates from this run:")
    for fit in fits {
        print(
            "            .\(fit.kind): Rate(perCall: \(formatFixed(fit.rate.perCall, decimals: 0)), perUnit: \(formatFixed(fit.rate.perUnit, decimals: 3))),"
        )
    }
    exit(0)
}

/// A scenario run on CPU time and its report.
private typealias MeasuredRun = (scenario: ScenarioDescriptor, strategy: String, report: FrameReport)

/// Every scenario and strategy on CPU time, `meter` recording their work; `nil` (said) when one
/// does not run.
private func runOnCPUTime(frames: Int, directory: String, meter: WorkMeter) -> [MeasuredRun]? {
    var measured: [MeasuredRun] = []
    for scenario in ScenarioCatalog.all {
        for strategy in scenario.strategies {
            let path = "\(directory)/\(scenario.name)--\(strategy.name)-cpu.json"
            guard
                let run = try? ScenarioRun.execute(
                    scenario, strategy: strategy.name, settings: RunSettings(frames: frames, clock: .cpuTime),
                    tracePath: path,
                    costModel: .reference, calibrating: meter)
            else {
                print("could not run \(scenario.name) / \(strategy.name)")
                return nil
            }
            measured.append((scenario, strategy.name, run.report))
        }
    }
    return measured
}

/// The fitted rates of each kind of work, as a table.
private func printFits(_ fits: [WorkMeter.Fit]) {
    let total = fits.reduce(0) { $0 + $1.measured }
    var fitTable = ReportTable(
        title: "Fitted rates",
        columns: [
            ("kind", .left), ("calls", .right), ("units", .right), ("per call", .right), ("per unit", .right),
            ("R^2", .right), ("share of counted CPU time", .right),
        ])
    fitTable.rows = fits.map { fit in
        [
            fit.kind.rawValue, "\(fit.calls)", "\(fit.units)",
            formatFixed(fit.rate.perCall / 1000, decimals: 1) + " us",
            formatFixed(fit.rate.perUnit, decimals: 2) + " ns", formatFixed(fit.rSquared, decimals: 2),
            formatFixed(100 * fit.measured / max(1, total), decimals: 1) + "%",
        ]
    }
    print(fitTable.text())
}

/// Every run again on virtual time priced by `model`, beside its CPU-time run, as a table;
/// `false` (said) when one does not run.
private func printFidelity(of model: CostModel, beside measured: [MeasuredRun], frames: Int, directory: String) -> Bool
{
    var fidelity = ReportTable(
        title: "Virtual time priced by this fit, beside the CPU-time runs it was fitted on (late frames; work in ms)",
        columns: [
            ("run", .left), ("late\ncpu", .right), ("late\nvirtual", .right), ("main\ncpu", .right),
            ("main\nvirtual", .right), ("main\nratio", .right), ("render\ncpu", .right), ("render\nvirtual", .right),
        ])
    for (scenario, strategy, cpu) in measured {
        let path = "\(directory)/\(scenario.name)--\(strategy)-virtual.json"
        guard
            let priced = try? ScenarioRun.execute(
                scenario, strategy: strategy, settings: RunSettings(frames: frames, clock: .virtual), tracePath: path,
                costModel: model)
        else {
            print("could not run \(scenario.name) / \(strategy) on virtual time")
            return false
        }
        let (cpuMain, virtualMain) = (mainWork(cpu), mainWork(priced.report))
        fidelity.rows.append([
            "\(scenario.name) / \(strategy)", "\(cpu.summary.lateFrames)", "\(priced.report.summary.lateFrames)",
            formatFixed(cpuMain, decimals: 1), formatFixed(virtualMain, decimals: 1),
            formatFixed(virtualMain / max(0.001, cpuMain), decimals: 2),
            formatFixed(renderWork(cpu), decimals: 1), formatFixed(renderWork(priced.report), decimals: 1),
        ])
    }
    print(fidelity.text())
    return true
}

/// Main-thread work over all frames, in milliseconds.
private func mainWork(_ report: FrameReport) -> Double {
    Double(report.frames.reduce(Int64(0)) { $0 + $1.mainThreadNanoseconds }) / 1e6
}

/// Render-lane work over all frames, in milliseconds.
private func renderWork(_ report: FrameReport) -> Double {
    Double(
        report.frames.reduce(Int64(0)) { sum, frame in
            sum + frame.lanes.filter { $0.lane == .render }.reduce(0) { $0 + $1.costNanoseconds }
        }) / 1e6
}
