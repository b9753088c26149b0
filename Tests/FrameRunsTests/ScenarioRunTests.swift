import Foundation
import FrameAnalysis
import FrameRuns
import FrameSimulation
import FrameTrace
import FrameTraceReader
import Testing

@Suite("Scenario runs from the library")
struct ScenarioRunTests {
    @Test("A run on virtual time writes its trace, reports every frame, and says which clock it ran on")
    func virtualRun() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-run-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try #require(ScenarioCatalog.scenario(named: "diffable-update"))
        let run = try ScenarioRun.execute(
            descriptor, strategy: "snapshot-diff", settings: RunSettings(frames: 12), tracePath: path)
        #expect(run.report.summary.frameCount == 12)
        #expect(run.summary.frames == 12)
        let trace = try TraceReader.read(contentsOf: path)
        #expect(trace.metadata.clock == .virtual)
        #expect(trace.metadata.extra["strategy"]?.stringValue == "snapshot-diff")
        // Two simulated workers by default, whatever the host has.
        let workers = Set(trace.threads.values.compactMap(\.name).filter { $0.hasPrefix("worker-") })
        #expect(workers == ["worker-1", "worker-2"])
        #expect(FrameAnalyzer.analyze(trace).summary.frameCount == 12)
        #expect(trace.metadata.extra["cost-model"]?.stringValue == CostModel.reference.name)
        // Whoever reads the report learns that its times are priced work on a simulated device.
        #expect(run.report.method.clock == TraceClock.virtual)
        #expect(
            run.report.text(source: path).contains(
                "time            virtual: each piece of work priced from what it counted, on a simulated device"))
    }

    @Test("A run on CPU time says so in its trace and report, and names no cost model")
    func cpuTimeRun() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-run-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try #require(ScenarioCatalog.scenario(named: "diffable-update"))
        let run = try ScenarioRun.execute(
            descriptor, strategy: "snapshot-diff", settings: RunSettings(frames: 4, clock: .cpuTime), tracePath: path)
        let trace = try TraceReader.read(contentsOf: path)
        #expect(trace.metadata.clock == .cpuTime)
        #expect(trace.metadata.extra["cost-model"] == nil)
        #expect(
            run.report.text(source: path).contains(
                "time            CPU time: each piece of work took its thread's CPU time"))
    }

    @Test(
        "The simulated display article's example: offscreen-clip's render lane has a p95 per frame, every frame composited"
    )
    func documentedExample() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-run-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let corner = try #require(ScenarioCatalog.scenario(named: "corner-rounding"))
        let run = try ScenarioRun.execute(
            corner, strategy: "offscreen-clip", settings: RunSettings(frames: 6), tracePath: path)
        let render = try #require(run.report.lanes.first { $0.lane == .render })
        #expect(render.framesWithWork == 6)
        #expect((render.cost?.p95 ?? 0) > 0)
    }

    @Test("An unknown strategy is an error with its own code, and no trace is analysed")
    func unknownStrategy() throws {
        let descriptor = try #require(ScenarioCatalog.scenario(named: "diffable-update"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-run-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SimulationError(.unknownStrategy, "unknown strategy 'magic' for diffable-update")) {
            try ScenarioRun.execute(descriptor, strategy: "magic", settings: RunSettings(frames: 1), tracePath: path)
        }
    }

    @Test(
        "Settings: 2 workers on virtual and CPU time by default, the core count on real time, and a title that says which"
    )
    func settings() {
        #expect(RunSettings().workerCount == 2)
        #expect(RunSettings().timeDescription == "virtual time (2 workers)")
        #expect(RunSettings(clock: .real).workerCount == ProcessInfo.processInfo.activeProcessorCount)
        #expect(RunSettings(workers: 1, clock: .real).timeDescription == "real time (1 worker)")
        #expect(RunSettings(clock: .cpuTime).workerCount == 2)
        #expect(RunSettings(clock: .cpuTime).timeDescription == "CPU time (2 workers)")
    }
}
