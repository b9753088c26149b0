import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace
import FrameTraceReader

/// The environment variable that turns this process into a reader and nothing else, so its peak
/// memory can be measured apart from the benchmark's own.
private let readOnlyVariable = "FRAMESCOPE_BENCH_READ_ONLY"
/// The environment variable that turns this process into `framescope report` and nothing else:
/// read, analyse, render the text.
private let reportOnlyVariable = "FRAMESCOPE_BENCH_REPORT_ONLY"

/// What `framescope report` keeps of a trace's arguments: only the keys the analysis reads.
private let reportArguments = TraceReader.ArgumentSelection.only(FrameAnalyzer.argumentKeys)

/// Reader figures: throughput (MB/s, events/s) of `ChromeJSONImporter` on a generated trace and on
/// chrome65, a third-party file (the largest ones are in `stages`), each beside Python's
/// `json.load` on the same file in the same run, and the peak memory of a process that only reads
/// the file, against the file's size.
///
/// - Parameter generatedEvents: Events in the generated trace (1,000,000 for the issue's figures).
func runReaderBenchmarks(generatedEvents: Int) {
    if let path = ProcessInfo.processInfo.environment[readOnlyVariable] {
        readOnly(path, report: false)  // does not return
    }
    if let path = ProcessInfo.processInfo.environment[reportOnlyVariable] {
        readOnly(path, report: true)  // does not return
    }
    section("Reader (ChromeJSONImporter vs Python json.load on the same file)")
    let generatedPath = FileManager.default.temporaryDirectory.appendingPathComponent(
        "framescope-bench-\(generatedEvents)-events.json"
    ).path
    let startGenerate = benchNow()
    let bytes = makeSyntheticTrace(events: generatedEvents, seed: 0x5EED)
    _ = FileManager.default.createFile(atPath: generatedPath, contents: Data(bytes))
    figure(
        "generated trace", Double(bytes.count) / 1e6, "MB",
        note:
            "\(generatedEvents) events, made in \(formatFixed(Double(benchNow() - startGenerate) / 1e9, decimals: 1)) s"
    )
    compare(path: generatedPath, label: "generated", repetitions: 5, issueTargets: true)
    fleet(path: generatedPath, copies: 4)
    try? FileManager.default.removeItem(atPath: generatedPath)

    let thirdParty = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(
            "shared/traces/third-party/speedscope__chrome65_simple-timeline.json"
        ).path
    if FileManager.default.fileExists(atPath: thirdParty) {
        compare(path: thirdParty, label: "chrome65 (third-party)", repetitions: 200)
    } else {
        print("(third-party trace not found at \(thirdParty); skipped)")
    }
}

/// Times the reader and Python on one file, then measures peak memory of a read-only process.
/// - Parameter issueTargets: Whether the notes give issue 18's targets, which are set for the
///   generated 1,000,000-event trace only (on a small file the process baseline and fixed costs
///   dominate).
private func compare(path: String, label: String, repetitions: Int, issueTargets: Bool = false) {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let target = { (text: String) -> String in issueTargets ? "; target \(text)" : "" }
    guard let seconds = readerFigures(path: path, label: label, size: size, repetitions: repetitions, target: target),
        let reportSeconds = reportFigures(
            path: path, label: label, size: size, repetitions: repetitions, target: target)
    else { return }
    let readerRate = Double(size) / seconds / 1e6
    if let python = pythonSeconds(path: path, repetitions: max(1, min(repetitions, size > 50_000_000 ? 3 : 50))) {
        let pythonRate = Double(size) / python / 1e6
        figure("\(label): python json.load, best", python * 1e3, "ms")
        figure("\(label): python json.load throughput", pythonRate, "MB/s")
        figure("\(label): reader / python", readerRate / pythonRate, "x", note: "target >= 5")
        figure(
            "\(label): report end to end / python json.load", python / reportSeconds, "x",
            note: "speed ratio; > 1 means report is faster\(target(">= 10"))")
    } else {
        print("(python3 not available; comparison skipped)")
    }
    if let simdjson = simdjsonSeconds(path: path, repetitions: max(1, min(repetitions, size > 50_000_000 ? 5 : 50))) {
        figure(
            "\(label): simdjson parse (pysimdjson), best", simdjson * 1e3, "ms", note: "file read + parse, in Python")
        figure("\(label): simdjson throughput", Double(size) / simdjson / 1e6, "MB/s")
        figure(
            "\(label): reader / simdjson", simdjson / seconds, "x", note: "speed ratio: simdjson time over reader time")
        figure(
            "\(label): report end to end / simdjson", simdjson / reportSeconds, "x",
            note: "speed ratio\(target(">= 0.33, within 3x"))")
    } else {
        print("(simdjson comparison skipped: python3 -c \"import simdjson\" failed; pip install pysimdjson)")
    }
    memoryFigures(path: path, label: label, size: size, issueTargets: issueTargets)
}

/// The reader on one thread, then with its worker thread (used from 4 MiB on 2+ cores); returns
/// the best time with the worker thread, in seconds, or `nil` (said) when the reader fails.
private func readerFigures(
    path: String, label: String, size: Int, repetitions: Int, target: (String) -> String
) -> Double? {
    var inputEvents = 0
    func readerSeconds(workerThread: Bool) -> (best: Double, median: Double)? {
        var samples: [UInt64] = []
        for _ in 0..<repetitions {
            let start = benchNow()
            guard let trace = try? TraceReader.read(contentsOf: path, workerThread: workerThread) else { return nil }
            samples.append(benchNow() - start)
            inputEvents = trace.events.count
            blackHole(trace)
        }
        samples.sort()
        return (Double(samples[0]) / 1e9, Double(samples[samples.count / 2]) / 1e9)
    }
    guard let single = readerSeconds(workerThread: false), let (seconds, median) = readerSeconds(workerThread: true)
    else {
        print("\(label): the reader failed")
        return nil
    }
    let cores = AvailableProcessors.count  // what the reader, the analysis and check use
    figure("\(label): file", Double(size) / 1e6, "MB", note: "\(inputEvents) trace events after reading")
    figure(
        "\(label): reader, 1 thread, best of \(repetitions)", single.best * 1e3, "ms",
        note:
            "median \(formatFixed(single.median * 1e3, decimals: 1)) ms; \(formatFixed(Double(size) / single.best / 1e6, decimals: 0)) MB/s\(target(">= 800 MB/s"))"
    )
    figure(
        "\(label): reader, all cores (\(cores)), best of \(repetitions)", seconds * 1e3, "ms",
        note: "median \(formatFixed(median * 1e3, decimals: 1)) ms")
    figure("\(label): reader throughput", Double(size) / seconds / 1e6, "MB/s")
    figure("\(label): reader event rate", Double(inputEvents) / seconds / 1e6, "M events/s")
    return seconds
}

/// `framescope report` end to end, in process: read, find the frames, analyse, render the text;
/// on one thread, then as `report` runs (the reader's worker thread, the analysis on all cores).
/// At least three samples, as the baselines take (Python best of 3, simdjson best of 5). Returns
/// the best time on all cores, in seconds.
private func reportFigures(
    path: String, label: String, size: Int, repetitions: Int, target: (String) -> String
) -> Double? {
    let reportRepetitions = max(3, repetitions / 5)
    func reportSeconds(allCores: Bool) -> Double? {
        var best = UInt64.max
        for _ in 0..<reportRepetitions {
            guard let stages = reportStages(path: path, source: label, allCores: allCores, json: false) else {
                return nil
            }
            best = min(best, stages.endToEnd)
        }
        return Double(best) / 1e9
    }
    guard let reportSingle = reportSeconds(allCores: false), let reportSeconds = reportSeconds(allCores: true) else {
        return nil
    }
    let cores = AvailableProcessors.count
    figure(
        "\(label): report end to end, 1 thread, best of \(reportRepetitions)", reportSingle * 1e3, "ms",
        note: "read + analyse + text; \(formatFixed(Double(size) / reportSingle / 1e6, decimals: 1)) MB/s")
    figure(
        "\(label): report end to end, all cores (\(cores)), best of \(reportRepetitions)", reportSeconds * 1e3, "ms",
        note:
            "\(formatFixed(Double(size) / reportSeconds / 1e6, decimals: 1)) MB/s; the figures below use this one\(target(">= 400 MB/s"))"
    )
    return reportSeconds
}

/// The peak memory of a process that only reads the file, and of one that only reports on it.
private func memoryFigures(path: String, label: String, size: Int, issueTargets: Bool) {
    if let (rssKilobytes, events) = readOnlyPeak(path: path), rssKilobytes > 0 {
        let baseline = baselinePeak() ?? 0
        figure(
            "\(label): peak RSS of a read-only process", Double(rssKilobytes) / 1024, "MiB",
            note: "\(events) events; VmHWM")
        figure(
            "\(label): of which process baseline", Double(baseline) / 1024, "MiB", note: "same process reading \"[]\"")
        figure("\(label): peak RSS / file size", Double(rssKilobytes) * 1024 / Double(max(size, 1)), "x")
        figure(
            "\(label): (peak RSS - baseline) / events", Double(rssKilobytes - baseline) * 1024 / Double(max(events, 1)),
            "bytes/event")
    }
    if let (rssKilobytes, _) = readOnlyPeak(path: path, report: true), rssKilobytes > 0 {
        figure(
            "\(label): peak RSS of a report-only process", Double(rssKilobytes) / 1024, "MiB",
            note: "read + analyse + text; VmHWM")
        figure(
            "\(label): report peak RSS / file size", Double(rssKilobytes) * 1024 / Double(max(size, 1)), "x",
            note: issueTargets ? "target <= 1" : "")
    }
}

/// `framescope check` over `copies` copies of the file with `--jobs 1` and with one job per core
/// (the built `framescope` beside this executable). A large trace's reading and analysis already
/// use every core, so `--jobs` adds what is left: the stretches of one trace's work that run on
/// one thread.
private func fleet(path: String, copies: Int) {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "framescope"
    ).path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
        print("(fleet: \(executable) not built; run swift build -c release first; skipped)")
        return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-bench-fleet").path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var traces: [String] = []
    for copy in 1...copies {
        let link = (directory as NSString).appendingPathComponent("trace-\(copy).json")
        try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        traces.append(link)
    }
    let budget = (directory as NSString).appendingPathComponent("budget.json")
    _ = FileManager.default.createFile(
        atPath: budget, contents: Data(#"{"version": 1, "limits": {"hitch-time-ratio": 1000}}"#.utf8))
    let cores = AvailableProcessors.count  // what the reader, the analysis and check use
    var seconds: [Int: Double] = [:]
    for jobs in Set([1, min(cores, copies)]).sorted() {
        var best = UInt64.max
        for _ in 0..<2 {
            let start = benchNow()
            guard
                run(executable, ["check"] + traces + ["--budget", budget, "--jobs", String(jobs)], environment: nil)
                    != nil
            else {
                print("(fleet: framescope check failed; skipped)")
                return
            }
            best = min(best, benchNow() - start)
        }
        seconds[jobs] = Double(best) / 1e9
        figure("fleet: check of \(copies) copies, --jobs \(jobs), best of 2", Double(best) / 1e6, "ms")
    }
    if let one = seconds[1], let all = seconds[min(cores, copies)], min(cores, copies) > 1 {
        figure(
            "fleet: --jobs \(min(cores, copies)) (all \(cores) cores) / --jobs 1", one / all, "x",
            note: "speed-up over one trace at a time, each on all cores")
    }
}

/// Best wall time of Python's `json.load` over the file, timed inside Python.
private func pythonSeconds(path: String, repetitions: Int) -> Double? {
    bestPythonSeconds(path: path, repetitions: repetitions, setup: "import json", parse: "json.load(f)")
}

/// Best wall time of simdjson's parse (pysimdjson) of the file, reading included, timed inside
/// Python; `nil` when the module is not installed.
private func simdjsonSeconds(path: String, repetitions: Int) -> Double? {
    bestPythonSeconds(
        path: path, repetitions: repetitions, setup: "import simdjson\nparser = simdjson.Parser()",
        parse: "parser.parse(f.read())")
}

/// Best wall time over `repetitions` of opening the file as `f` and running the `parse`
/// expression, after `setup`, timed inside Python; `nil` when Python or a module is missing.
func bestPythonSeconds(path: String, repetitions: Int, setup: String, parse: String) -> Double? {
    let script = """
        import sys, time
        \(setup)
        best = float("inf")
        for _ in range(int(sys.argv[2])):
            start = time.perf_counter()
            with open(sys.argv[1], "rb") as f:
                document = \(parse)
            best = min(best, time.perf_counter() - start)
            del document
        print(best)
        """
    guard let output = run("/usr/bin/env", ["python3", "-c", script, path, String(repetitions)], environment: nil)
    else { return nil }
    return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Peak resident memory (KiB) of this executable re-run to do nothing but read the file (or, with
/// `report`, read, analyse and render it), and the events read.
private func readOnlyPeak(path: String, report: Bool = false) -> (Int, Int)? {
    var environment = ProcessInfo.processInfo.environment
    environment[report ? reportOnlyVariable : readOnlyVariable] = path
    guard let output = run(CommandLine.arguments[0], ["reader"], environment: environment),
        let line = output.split(separator: "\n").first(where: { $0.hasPrefix("read-only ") })
    else { return nil }
    let fields = line.split(separator: " ")
    guard fields.count >= 3, let rss = Int(fields[1]), let events = Int(fields[2]) else { return nil }
    return (rss, events)
}

/// The read-only mode: read the file once (with `report`, also analyse it and render the text, as
/// `framescope report` does), print `read-only <peak RSS KiB> <events>`, exit.
///
/// The peak is `VmHWM` from `/proc/self/status`, which belongs to this address space alone:
/// `getrusage`'s `ru_maxrss` would survive `execve` and report the parent's peak instead.
private func readOnly(_ path: String, report: Bool) -> Never {
    let events: Int
    do {
        let trace = try TraceReader.read(contentsOf: path, arguments: report ? reportArguments : .all)
        events = trace.events.count
        if report { blackHole(FrameAnalyzer.analyze(consume trace).text(source: path)) } else { blackHole(trace) }
    } catch {
        print("read-only failed: \(error)")
        exit(1)
    }
    print("read-only \(peakResidentKilobytes() ?? -1) \(events)")
    exit(0)
}

/// Peak resident memory (KiB) of this executable re-run in read-only mode on an empty trace:
/// what the runtime and libraries cost before any trace is read.
private func baselinePeak() -> Int? {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-bench-empty.json").path
    _ = FileManager.default.createFile(atPath: path, contents: Data("[]".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return readOnlyPeak(path: path)?.0
}

func run(_ executable: String, _ arguments: [String], environment: [String: String]?) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
}

// MARK: - A realistic synthetic trace

/// `framescope-bench make-trace PATH [EVENTS]`: writes the synthetic trace and exits, so other
/// tools (profilers, `tools/bench_reader.sh`) can use the same input.
func writeSyntheticTrace(events: Int, to path: String) -> Never {
    let bytes = makeSyntheticTrace(events: events, seed: 0x5EED)
    // As the CLI's `--out` writes: a device or pipe at `path` (`/dev/null`) is written to, not
    // replaced by a regular file.
    do {
        try OutputFile.replace(path, with: bytes)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    print("wrote \(bytes.count) bytes, \(events) events, to \(path)")
    exit(0)
}
