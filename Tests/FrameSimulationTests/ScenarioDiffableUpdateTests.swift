import FrameScope
import FrameTrace
import Testing

@testable import FrameSimulation

@Suite("diffable-update scenario")
struct DiffableUpdateScenarioTests {
    @Test(
        "Both strategies leave on screen exactly the rows a full reload of the shown model gives",
        arguments: DiffableUpdateScenario.Strategy.allCases)
    func rowsMatchAFullReload(strategy: DiffableUpdateScenario.Strategy) {
        let (recorder, meter) = virtualTime()  // work priced by the reference device: the same outcome on any host
        let scenario = DiffableUpdateScenario(strategy: strategy, seed: 11, rowCount: 300, updateEvery: 2)
        _ = DisplayLoop(
            recorder: recorder, configuration: DisplayConfiguration(frameCount: 24, workerCount: 2), meter: meter
        ).run(scenario)
        #expect(scenario.rows == ListReloadWorkload.reload(scenario.shownMenu))
        #expect(scenario.shownMenu.revision > 0, "updates were applied")
        if strategy == .reload { #expect(scenario.isUpToDate) }
    }

    @Test("Reload applies on the main thread; snapshot-diff diffs on a worker and applies on main")
    func whereTheWorkRuns() {
        for strategy in DiffableUpdateScenario.Strategy.allCases {
            let (recorder, meter) = virtualTime()  // work priced by the reference device: the same outcome on any host
            let scenario = DiffableUpdateScenario(strategy: strategy, seed: 5, rowCount: 300, updateEvery: 3)
            _ = DisplayLoop(
                recorder: recorder, configuration: DisplayConfiguration(frameCount: 15, workerCount: 2), meter: meter
            ).run(scenario)
            let trace = recorder.snapshot()
            let diffWork = trace.events.filter { trace.category(of: $0) == "diff-apply" && $0.phase == .complete }
            let onMain = diffWork.filter { $0.thread == recorder.mainThreadKey }.map { trace.name(of: $0) }
            let offMain = diffWork.filter { $0.thread != recorder.mainThreadKey }.map { trace.name(of: $0) }
            switch strategy {
            case .reload:
                #expect(Set(onMain) == ["reload list"])
                #expect(offMain.isEmpty)
            case .snapshotDiff:
                #expect(Set(offMain) == ["snapshot and diff"])
                #expect(Set(onMain) == ["apply"])
            }
        }
    }
}
