import Foundation
import FrameAnalysis
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
    var measured: [ScenarioRun] = []
    for scenario in ScenarioCatalog.all {
        for strategy in scenario.strategies {
            let path = "\(directory)/\(scenario.name)--\(strategy.name)-cpu.json"
            guard
                let run = try? ScenarioRun.execute(
                    scenario, strategy: strategy.name, settings: RunSettings(frames: frames, clock: .cpuTime), tracePath: path,
                    costModel: .reference, calibrating: meter)
            else {
                print("could not run \(scenario.name) / \(strategy.name)")
                return
            }
            measured.append(run)
        }
    }
    let fits = WorkMeter.fit(meter.samples)
    let total = fits.reduce(0) { $0 + $1.measured }
    print("kind                    calls      units   per call   per unit   R^2   share of counted CPU time")
    for fit in fits {
        print(
            pad(fit.kind.rawValue, 20) + padLeft("\(fit.calls)", 9) + padLeft("\(fit.units)", 11)
                + padLeft(formatFixed(fit.rate.perCall / 1000, decimals: 1) + " us", 11)
                + padLeft(formatFixed(fit.rate.perUnit, decimals: 2) + " ns", 11) + padLeft(formatFixed(fit.rSquared, decimals: 2), 6)
                + padLeft(formatFixed(100 * fit.measured / max(1, total), decimals: 1) + "%", 8))
    }
    let model = CostModel(name: "reference", rates: Dictionary(uniqueKeysWithValues: fits.map { ($0.kind, $0.rate) }))

    print("\nvirtual time priced by this fit, beside the CPU-time runs it was fitted on:")
    print("run                                              late frames    main-thread work (ms)   render (ms)")
    print("                                                  cpu  virtual      cpu  virtual  ratio   cpu  virtual")
    var index = 0
    for scenario in ScenarioCatalog.all {
        for strategy in scenario.strategies {
            let path = "\(directory)/\(scenario.name)--\(strategy.name)-virtual.json"
            guard
                let priced = try? ScenarioRun.execute(
                    scenario, strategy: strategy.name, settings: RunSettings(frames: frames, clock: .virtual), tracePath: path, costModel: model)
            else {
                print("could not run \(scenario.name) / \(strategy.name) on virtual time")
                return
            }
            let cpu = measured[index].report
            index += 1
            let cpuMain = mainWork(cpu)
            let virtualMain = mainWork(priced.report)
            print(
                pad("\(scenario.name) / \(strategy.name)", 48) + padLeft("\(cpu.summary.lateFrames)", 5)
                    + padLeft("\(priced.report.summary.lateFrames)", 9) + padLeft(formatFixed(cpuMain, decimals: 1), 9)
                    + padLeft(formatFixed(virtualMain, decimals: 1), 9) + padLeft(formatFixed(virtualMain / max(0.001, cpuMain), decimals: 2), 7)
                    + padLeft(formatFixed(renderWork(cpu), decimals: 1), 6) + padLeft(formatFixed(renderWork(priced.report), decimals: 1), 9))
        }
    }

    print("\n// Sources/FrameSimulation/DisplayLoop/CostModel+Reference.swift, rates from this run:")
    for fit in fits {
        print(
            "        .\(caseName(fit.kind)): Rate(perCall: \(formatFixed(fit.rate.perCall, decimals: 0)), perUnit: \(formatFixed(fit.rate.perUnit, decimals: 3))),"
        )
    }
    exit(0)
}

/// Main-thread work over all frames, in milliseconds.
private func mainWork(_ report: FrameReport) -> Double {
    Double(report.frames.reduce(Int64(0)) { $0 + $1.mainThreadNanoseconds }) / 1e6
}

/// Render-lane work over all frames, in milliseconds.
private func renderWork(_ report: FrameReport) -> Double {
    Double(report.frames.reduce(Int64(0)) { sum, frame in sum + frame.lanes.filter { $0.lane == .render }.reduce(0) { $0 + $1.costNanoseconds } }) / 1e6
}

/// `pngDecode` for `png-decode`.
private func caseName(_ kind: WorkKind) -> String {
    let words = kind.rawValue.split(separator: "-")
    return words.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
}

private func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
private func padLeft(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(1, width - text.count)) + text }
