import Foundation
package import FrameAnalysis
package import FrameSimulation
import FrameSupport
import FrameTrace

/// The demo's run matrix: every scenario with every strategy, one trace each, compared side by
/// side, with one verdict per scenario and a page of every run's frame timeline.
///
/// ```swift
/// let demo = try Demo.run(settings: RunSettings(), directory: "framescope-demo")
/// print(demo.table(wide: false).text(maxWidth: 100))
/// demo.verdicts[0].description   // "feed-scroll: constraints-main, ... win in hitches: ..."
/// ```
package struct Demo: Sendable {
    /// The settings every run used.
    package var settings: RunSettings
    /// The runs, scenario by scenario in ``ScenarioCatalog/all``'s order, strategies in theirs.
    package var runs: [ScenarioRun]
    /// The folder the traces are in.
    package var directory: String

    /// Runs every scenario with every strategy, writing `DIRECTORY/SCENARIO--STRATEGY.json` (or
    /// `.pftrace` when the settings choose Perfetto's format).
    /// - Parameters:
    ///   - settings: Used for every run.
    ///   - directory: Created if missing.
    ///   - progress: Called with a line before each run and during long runs.
    /// - Throws: ``SimulationError`` when the folder or a trace cannot be written.
    package static func run(settings: RunSettings, directory: String, progress: (String) -> Void = { _ in })
        throws(SimulationError) -> Demo
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SimulationError(
                .cannotWrite, "cannot create output directory '\(directory)': \(error.localizedDescription)")
        }
        var runs: [ScenarioRun] = []
        let total = ScenarioCatalog.all.reduce(0) { $0 + $1.strategies.count }
        for scenario in ScenarioCatalog.all {
            for strategy in scenario.strategies {
                progress(
                    "[\(runs.count + 1)/\(total)] \(scenario.name) --strategy \(strategy.name): \(settings.frames) frames at \(settings.frameRate)"
                )
                let path = (directory as NSString).appendingPathComponent(
                    "\(scenario.name)--\(strategy.name)\((settings.traceFormat ?? .chromeJSON).fileExtension)")
                runs.append(
                    try ScenarioRun.execute(
                        scenario, strategy: strategy.name, settings: settings, tracePath: path, progress: progress))
            }
        }
        return Demo(settings: settings, runs: runs, directory: directory)
    }

    /// `framescope demo: 60 frames per run at 60 Hz on virtual time (2 workers), seed 1`.
    package var title: String {
        "framescope demo: \(settings.frames) frames per run at \(settings.frameRate) on \(settings.timeDescription), seed \(settings.seed)"
    }

    private var comparedRuns: [(scenario: String, strategy: String, report: FrameReport)] {
        runs.map { ($0.scenario, $0.strategy, $0.report) }
    }

    /// The side-by-side table: the default columns, or every column with `wide`.
    package func table(wide: Bool) -> ReportTable {
        RunComparisonTable.make(title: title, runs: comparedRuns, wide: wide)
    }

    /// One verdict per scenario: which strategy wins, in which lane, by how much, as measured.
    package var verdicts: [RunVerdict] { RunComparisonTable.verdicts(runs: comparedRuns) }

    /// The page: the verdicts, the compact table, then every run's frame timeline, lanes and
    /// tables, one section per run.
    /// - Parameter note: Shown above the verdicts when not `nil`, such as a warning that the
    ///   figures come from a debug build.
    package func htmlPage(note: String? = nil) -> String {
        let compact = RunComparisonTable.make(title: "Every run", runs: comparedRuns, wide: false)
        var preamble = note.map { "<p><strong>\(UntrustedText.html($0))</strong></p>\n" } ?? ""
        preamble += "<section class=\"verdicts\"><h2>Verdicts, as measured</h2>\n<ul>\n"
        for verdict in verdicts { preamble += "<li>\(UntrustedText.html(verdict.description))</li>\n" }
        preamble += "</ul>\n</section>\n" + HTMLPage.table(compact)
        let sections = runs.enumerated().map { index, run in
            run.report.htmlSection(heading: "\(run.scenario) --strategy \(run.strategy)", id: "run-\(index + 1)")
        }
        return HTMLPage.document(title: title, sections: sections, preamble: preamble)
    }

    /// Writes ``htmlPage(note:)`` to `DIRECTORY/index.html` and returns its path.
    /// - Throws: ``SimulationError`` when it cannot be written.
    package func writePage(note: String? = nil) throws(SimulationError) -> String {
        let page = (directory as NSString).appendingPathComponent("index.html")
        do {
            try htmlPage(note: note).write(toFile: page, atomically: true, encoding: .utf8)
        } catch {
            throw SimulationError(.cannotWrite, "cannot write '\(page)': \(error.localizedDescription)")
        }
        return page
    }
}
