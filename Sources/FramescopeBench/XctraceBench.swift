import Foundation
import FrameAnalysis
import FrameTrace
import FrameTraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `framescope-bench xctrace [PATH] [--intervals N]`: the Instruments reader against Python on
/// an `xctrace export` of signpost intervals.
///
/// Without PATH, `tools/make_xctrace_export.py` writes one of N intervals (300,000 by default,
/// about 166 MB) to a temporary file. Printed, best of three: framescope's read alone and read +
/// analysis in this process; Python's `xml.etree.ElementTree.iterparse` merely walking the same
/// file (each element cleared once ended, so its memory stays bounded); their ratio; then the
/// wall time and peak RSS (`getrusage(RUSAGE_CHILDREN)`) of a child `framescope report` run (the
/// release binary beside this one), and that peak over the file's size.
func runXctraceBenchmark(path given: String?, intervals: Int) {
    section("Instruments export (xctrace XML)")
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    var path = given ?? ""
    if given == nil {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-bench-xctrace.xml").path
        let generator = root.appendingPathComponent("tools/make_xctrace_export.py").path
        guard run("/usr/bin/env", ["python3", generator, path, String(intervals)], environment: nil) != nil else {
            print("could not run \(generator)")
            return
        }
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    figure("file", Double(size) / 1e6, "MB", note: path)
    var readBest = UInt64.max
    var reportBest = UInt64.max
    var spans = 0
    for _ in 0..<3 {
        let start = benchNow()
        guard let trace = try? TraceReader.read(contentsOf: path, arguments: .only(FrameAnalyzer.argumentKeys)) else {
            print("framescope could not read \(path)")
            return
        }
        let read = benchNow()
        spans = trace.events.count
        let report = FrameAnalyzer.analyze(trace)
        blackHole(report.summary.frameCount)
        readBest = min(readBest, read - start)
        reportBest = min(reportBest, benchNow() - start)
    }
    figure("framescope read", Double(readBest) / 1e6, "ms", note: "\(spans) events")
    figure("framescope read + analysis", Double(reportBest) / 1e6, "ms")
    let walk = """
        import sys, time, xml.etree.ElementTree as E
        best = None
        for _ in range(3):
            t = time.perf_counter(); n = 0
            for event, element in E.iterparse(sys.argv[1]):
                n += 1
                element.clear()
            best = min(best or 1e9, time.perf_counter() - t)
        print(best, n)
        """
    if let output = run("/usr/bin/env", ["python3", "-c", walk, path], environment: nil),
        let seconds = output.split(separator: " ").first.flatMap({ Double($0) })
    {
        figure("python iterparse walk", seconds * 1e3, "ms")
        figure("iterparse walk / framescope read + analysis", seconds * 1e9 / Double(reportBest), "x")
    }
    childReport(path: path, size: size)
}

/// Runs `framescope report PATH` as a child and prints its wall time and peak RSS.
private func childReport(path: String, size: Int) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("framescope").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("no framescope binary beside this one (\(binary)): build it first")
        return
    }
    let start = benchNow()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["report", path, "--out", "/dev/null"]
    do { try process.run() } catch { return }
    process.waitUntilExit()
    let wall = benchNow() - start
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    #else
        getrusage(RUSAGE_CHILDREN, &usage)
    #endif
    let peak = Double(usage.ru_maxrss) * 1024  // kilobytes on Linux
    figure("framescope report (child process)", Double(wall) / 1e6, "ms", note: "exit \(process.terminationStatus)")
    figure("framescope report peak RSS", peak / 1_048_576, "MiB")
    figure("framescope report peak RSS / file size", peak / Double(max(size, 1)), "x")
}
