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
    func target(_ text: String) -> String { issueTargets ? "; target \(text)" : "" }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var inputEvents = 0
    // The reader on one thread, then with its worker thread (used from 4 MiB on 2+ cores).
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
        return
    }
    let cores = AvailableProcessors.count  // what the reader, the analysis and check use
    let readerRate = Double(size) / seconds / 1e6
    figure("\(label): file", Double(size) / 1e6, "MB", note: "\(inputEvents) trace events after reading")
    figure(
        "\(label): reader, 1 thread, best of \(repetitions)", single.best * 1e3, "ms",
        note:
            "median \(formatFixed(single.median * 1e3, decimals: 1)) ms; \(formatFixed(Double(size) / single.best / 1e6, decimals: 0)) MB/s\(target(">= 800 MB/s"))"
    )
    figure(
        "\(label): reader, all cores (\(cores)), best of \(repetitions)", seconds * 1e3, "ms",
        note: "median \(formatFixed(median * 1e3, decimals: 1)) ms")
    figure("\(label): reader throughput", readerRate, "MB/s")
    figure("\(label): reader event rate", Double(inputEvents) / seconds / 1e6, "M events/s")

    // `framescope report` end to end, in process: read, find the frames, analyse, render the text;
    // on one thread, then as `report` runs (the reader's worker thread, the analysis on all
    // cores). At least three samples, as the baselines below take (Python best of 3, simdjson
    // best of 5).
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
        return
    }
    figure(
        "\(label): report end to end, 1 thread, best of \(reportRepetitions)", reportSingle * 1e3, "ms",
        note: "read + analyse + text; \(formatFixed(Double(size) / reportSingle / 1e6, decimals: 1)) MB/s")
    figure(
        "\(label): report end to end, all cores (\(cores)), best of \(reportRepetitions)", reportSeconds * 1e3, "ms",
        note:
            "\(formatFixed(Double(size) / reportSeconds / 1e6, decimals: 1)) MB/s; the figures below use this one\(target(">= 400 MB/s"))"
    )

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

/// Writes a Chrome trace (array form) of `events` events that looks like a scrolling app recorded
/// by framescope next to Chrome-style tracing:
/// - process and thread metadata (`M`);
/// - per frame on the main thread: a vsync instant, the frame as a `B`/`E` pair, `X` spans for
///   input, cell layout (with the row), draw and commit, and a memory counter (`C`) every other
///   frame;
/// - Chrome-style `X` tasks whose `args` repeat a few `src_file`/`src_func` pairs, carry `tdur`
///   and `tts`, or nest a `data` object (devtools.timeline), and `{}` args;
/// - image decodes on four worker threads, each with a flow (`s` on main, `f` with `bp: "e"` on
///   the worker) and a URL and byte count;
/// - a network request every 30 frames as an async `b`/`e` pair with `id2`.
///
/// Timestamps are microseconds with three decimals, as framescope writes them; the same seed
/// gives the same bytes.
func makeSyntheticTrace(events target: Int, seed: UInt64) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(target * 150)
    var count = 0
    func event(_ body: String) {
        guard count < target else { return }
        out.append(contentsOf: (count == 0 ? "[\n{" : ",\n{").utf8)
        out.append(contentsOf: body.utf8)
        out.append(UInt8(ascii: "}"))
        count += 1
    }
    func micros(_ nanoseconds: Int64) -> String {
        let fraction = String(nanoseconds % 1000)
        return "\(nanoseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
    func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
    func span(_ low: Int64, _ high: Int64) -> Int64 { Int64.random(in: low...high, using: &rng) }

    let pid = 4242
    let mainThread = "\"pid\":\(pid),\"tid\":1"
    let workers = (7...10).map { "\"pid\":\(pid),\"tid\":\($0)" }
    event(#""ph":"M","name":"process_name","pid":\#(pid),"tid":0,"args":{"name":"ScrollingApp"}"#)
    event(#""ph":"M","name":"thread_name",\#(mainThread),"args":{"name":"main"}"#)
    event(#""ph":"M","name":"thread_sort_index",\#(mainThread),"args":{"sort_index":0}"#)
    for (index, worker) in workers.enumerated() {
        event(#""ph":"M","name":"thread_name",\#(worker),"args":{"name":"image-decode-\#(index)"}"#)
    }
    let cells = ["FeedCell", "PhotoCell", "CommentCell", "HeaderCell", "AdCell"]
    let hosts = ["img.example.com", "cdn.example.net", "static.example.org"]
    let tasks = [
        ("../../cc/trees/layer_tree_host.cc", "ScheduleAnimation"),
        ("../../cc/scheduler/scheduler.cc", "BeginImplFrame"),
        ("../../ui/events/gesture_detection/gesture_provider.cc", "OnTouchEvent"),
        ("../../third_party/blink/renderer/core/frame/local_frame_view.cc", "UpdateLifecyclePhases"),
        ("../../base/task/sequence_manager/task_queue_impl.cc", "PostTask"),
    ]
    var now: Int64 = 1_000_000_000
    var frame = 0
    var flow = 1
    var request = 1
    while count < target {
        frame += 1
        let start = now
        var t = start + span(20_000, 80_000)
        event(#""ph":"i","name":"vsync","cat":"frame","s":"t",\#(mainThread),"ts":\#(micros(start))"#)
        event(
            #""ph":"B","name":"frame","cat":"frame",\#(mainThread),"ts":\#(micros(start)),"args":{"frame":\#(frame)}"#)
        let (file, function) = pick(tasks)
        let task = span(200_000, 900_000)
        event(
            #""ph":"X","name":"ThreadControllerImpl::RunTask","cat":"toplevel",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(task)),"tdur":\#(task / 1000 - 3),"tts":\#(frame * 311),"args":{"src_file":"\#(file)","src_func":"\#(function)"}"#
        )
        let input = span(50_000, 150_000)
        event(
            #""ph":"X","name":"handle input","cat":"input",\#(mainThread),"ts":\#(micros(t + 10_000)),"dur":\#(micros(input)),"args":{"touches":1,"phase":"\#(pick(["moved", "moved", "moved", "ended"]))"}"#
        )
        t += task + 10_000
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let layout = span(30_000, 900_000)
            event(
                #""ph":"X","name":"layout \#(pick(cells))","cat":"layout",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(layout)),"args":{"row":\#(frame * 3 + Int.random(in: 0...8, using: &rng))}"#
            )
            t += layout + 5_000
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let worker = pick(workers)
                event(
                    #""ph":"s","name":"decode request","cat":"image","id":\#(flow),\#(mainThread),"ts":\#(micros(t))"#)
                let decodeStart = t + span(20_000, 200_000)
                let decode = span(400_000, 6_000_000)
                event(
                    #""ph":"f","name":"decode request","cat":"image","bp":"e","id":\#(flow),\#(worker),"ts":\#(micros(decodeStart))"#
                )
                event(
                    #""ph":"X","name":"decode image","cat":"image",\#(worker),"ts":\#(micros(decodeStart)),"dur":\#(micros(decode)),"args":{"url":"https://\#(pick(hosts))/photos/\#(Int.random(in: 100_000...999_999, using: &rng)).jpg","bytes":\#(Int.random(in: 20_000...900_000, using: &rng))}"#
                )
                event(
                    #""ph":"X","name":"round corners","cat":"image",\#(worker),"ts":\#(micros(decodeStart + decode + 10_000)),"dur":\#(micros(span(50_000, 400_000))),"args":{"radius":12,"opaque":true}"#
                )
                flow += 1
            }
        }
        if frame % 3 == 0 {
            event(
                #""ph":"X","name":"UpdateLayerTree","cat":"devtools.timeline",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(120_000)),"tdur":100,"tts":\#(frame * 17),"args":{"data":{"frame":"F\#(frame % 7)","layerIds":[1,2,3,5,8],"rect":{"x":0,"y":\#(frame),"w":390,"h":844}}}"#
            )
            t += 125_000
        }
        if frame % 30 == 0 {
            let id = "0x\(String(request, radix: 16))"
            request += 1
            event(
                #""ph":"b","name":"fetch page","cat":"network","id2":{"local":"\#(id)"},\#(mainThread),"ts":\#(micros(t)),"args":{}"#
            )
            event(
                #""ph":"e","name":"fetch page","cat":"network","id2":{"local":"\#(id)"},\#(mainThread),"ts":\#(micros(t + 40_000_000)),"args":{"status":200}"#
            )
        }
        let draw = span(300_000, 3_000_000)
        event(
            #""ph":"X","name":"draw","cat":"draw",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(draw)),"args":{}"#)
        t += draw
        let commit = span(100_000, 900_000)
        event(
            #""ph":"X","name":"commit","cat":"commit",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(commit)),"args":{"layers":\#(Int.random(in: 20...40, using: &rng))}"#
        )
        t += commit
        event(#""ph":"E","name":"frame","cat":"frame",\#(mainThread),"ts":\#(micros(t)),"args":{}"#)
        if frame % 2 == 0 {
            event(
                #""ph":"C","name":"memory","cat":"memory",\#(mainThread),"ts":\#(micros(t)),"args":{"resident-mb":\#(Double(Int.random(in: 18_000...26_000, using: &rng)) / 100),"images":\#(Int.random(in: 10...90, using: &rng))}"#
            )
        }
        let interval = FrameRate.standard.intervalNanoseconds
        now = start + max(interval, (t - start + interval - 1) / interval * interval)
    }
    out.append(contentsOf: "\n]\n".utf8)
    return out
}
