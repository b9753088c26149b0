import Foundation
import FrameSupport
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// The self-time sweep runs on all cores for a large trace (``SelfTimeSweep``): the reports must
/// be the ones the single-threaded sweep gives, down to the last byte of their JSON and text.
@Suite("Self-time sweep on all cores")
struct ParallelSweepTests {
    /// The report with the sweep on one thread and with every thread's spans cut into the
    /// shortest runs the cutting rules allow, on all cores.
    static func reports(_ trace: Trace, options: AnalysisOptions) -> (single: FrameReport, parallel: FrameReport) {
        (
            FrameAnalyzer.analyze(trace, options: options, parallelSpans: .max),
            FrameAnalyzer.analyze(trace, options: options, parallelSpans: 0)
        )
    }

    static func expectSame(_ trace: Trace, options: AnalysisOptions, _ label: String) {
        let (single, parallel) = reports(trace, options: options)
        #expect(
            parallel.jsonValue(source: label).description == single.jsonValue(source: label).description, "\(label)")
        #expect(parallel.text(source: label) == single.text(source: label), "\(label)")
    }

    /// The repository's trace files that read: the analysis tests' fixtures, the reader's, and the
    /// example traces.
    static let traceFiles: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folders = ["Tests/FrameAnalysisTests/Fixtures", "Tests/FrameTraceReaderTests/Fixtures", "Traces"]
        return folders.flatMap { folder in
            let directory = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0).path }
        }
    }()

    @Test("Every trace file in the repository gives the same report swept in runs on all cores as on one thread")
    func traceFilesGiveTheSameReport() throws {
        #expect(Self.traceFiles.count > 20)
        var analysed = 0
        for path in Self.traceFiles {
            guard let trace = try? TraceReader.read(contentsOf: path) else { continue }
            analysed += 1
            let name = URL(fileURLWithPath: path).lastPathComponent
            Self.expectSame(trace, options: AnalysisOptions(worstFrameCount: 1000), name)
            Self.expectSame(
                trace, options: AnalysisOptions(frameRate: FrameRate(hertz: 1000), worstFrameCount: 1000),
                "\(name) at 1000 fps")
        }
        #expect(analysed > 20)
    }

    /// A busy trace: a main thread of nested spans under many names, some overlapping their
    /// parent's end, with frame-mark instants between which several stretches of work run, and
    /// three worker threads of overlapping spans.
    static func busyTrace(seed: UInt64) -> Trace {
        var random = SeededGenerator(seed: seed)
        var trace = Trace()
        let main = ThreadKey(processID: 1, threadID: 1)
        trace.setThread(TraceThread(key: main, name: "main", sortIndex: 0))
        let names = ["layout", "draw", "commit", "decode", "measure", "script", "style", "paint"]
        var time: Int64 = 1_000_000
        for frame in 0..<120 {
            trace.append(.instant, name: "tick", thread: main, timestamp: time)
            // Some stretches start exactly at the mark, the others inside the frame's window.
            var start = frame % 3 == 0 ? time : time + Int64.random(in: 1...200_000, using: &random)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let length = Int64.random(in: 100_000...3_000_000, using: &random)
                trace.append(
                    .complete, name: "task", category: "toplevel", thread: main, timestamp: start, duration: length)
                var child = start
                while child < start + length {
                    let duration = Int64.random(in: 1...900_000, using: &random)
                    let name = names.randomElement(using: &random)!
                    // Now and then a child runs past its parent's end, and is clipped to it.
                    trace.append(
                        .complete, name: name, category: name, thread: main, timestamp: child, duration: duration)
                    if Bool.random(using: &random) {
                        let inner = names.randomElement(using: &random)!
                        trace.append(
                            .complete, name: inner, category: inner, thread: main, timestamp: child + duration / 4,
                            duration: duration / 2)
                    }
                    child += duration + Int64.random(in: 0...50_000, using: &random)
                }
                start += length + Int64.random(in: 1...400_000, using: &random)
            }
            time = max(start, time + 16_666_667)
        }
        for worker in 2...4 {
            let thread = ThreadKey(processID: 1, threadID: .init(worker))
            trace.setThread(TraceThread(key: thread, name: "worker-\(worker)", sortIndex: .init(worker)))
            var start: Int64 = 0
            while start < time {
                let duration = Int64.random(in: 1...5_000_000, using: &random)
                trace.append(
                    .complete, name: "job", category: "image", thread: thread, timestamp: start, duration: duration)
                trace.append(
                    .complete, name: "decode", category: "image", thread: thread, timestamp: start + 1,
                    duration: duration / 3)
                start += Int64.random(in: 1...4_000_000, using: &random)
            }
        }
        trace.events.sort { ($0.timestamp, $0.thread) < ($1.timestamp, $1.thread) }
        return trace
    }

    @Test(
        "A busy trace gives the same report in runs as on one thread, with frames from marks, estimated or at another rate",
        arguments: [1, 2, 3] as [UInt64])
    func busyTraceGivesTheSameReport(seed: UInt64) {
        let trace = Self.busyTrace(seed: seed)
        Self.expectSame(trace, options: AnalysisOptions(worstFrameCount: 1000, frameMarkers: ["tick"]), "marks")
        Self.expectSame(trace, options: AnalysisOptions(worstFrameCount: 1000), "estimated")
        Self.expectSame(
            trace,
            options: AnalysisOptions(frameRate: FrameRate(hertz: 240), worstFrameCount: 1000, frameMarkers: ["tick"]),
            "240 fps")
        let report = FrameAnalyzer.analyze(trace, options: AnalysisOptions(frameMarkers: ["tick"]))
        #expect(report.method.frameSource == .frameMarkers)
        #expect(report.frames.count > 100)
    }

    @Test("Past the threshold the public analysis uses all cores unless the options say not to, with the same report")
    func usesAllCoresChangesNothing() {
        var trace = Trace()
        let main = ThreadKey(processID: 1, threadID: 1)
        let worker = ThreadKey(processID: 1, threadID: 2)
        trace.setThread(TraceThread(key: main, name: "main", sortIndex: 0))
        for frame in 0..<Int64(20_000) {
            let vsync = 1_000_000 + frame * 16_666_667
            trace.append(.instant, name: "tick", thread: main, timestamp: vsync)
            trace.append(
                .complete, name: "task", category: "toplevel", thread: main, timestamp: vsync + 1_000,
                duration: 4_000_000 + frame % 7 * 3_000_000)
            trace.append(
                .complete, name: "layout", category: "layout", thread: main, timestamp: vsync + 2_000,
                duration: 2_000_000)
            trace.append(
                .complete, name: "decode", category: "image", thread: worker, timestamp: vsync, duration: 3_000_000)
        }
        #expect(trace.events.filter { $0.phase == .complete }.count >= FrameAnalyzer.parallelSpans)
        var single = AnalysisOptions(frameMarkers: ["tick"])
        single.usesAllCores = false
        let allCores = FrameAnalyzer.analyze(trace, options: AnalysisOptions(frameMarkers: ["tick"]))
        let oneThread = FrameAnalyzer.analyze(trace, options: single)
        let sameJSON = allCores.jsonValue(source: "t").description == oneThread.jsonValue(source: "t").description
        #expect(sameJSON)
        #expect(allCores.text(source: "t") == oneThread.text(source: "t"))
        #expect(allCores.frames.count == 19_999)  // from each mark to the next
        #expect(allCores.categories.map(\.name).sorted() == ["image", "layout", "toplevel"])
    }

    @Test("Runs begin only where no span is open, and on the main thread only outside every frame's window")
    func runsCutOnlyWhereAllowed() {
        let trace = Self.busyTrace(seed: 1)
        let spans = SpanIndex(trace: trace)
        let main = spans.slot(of: ThreadKey(processID: 1, threadID: 1))!
        // Frames from the marks: each window runs from one mark to the next.
        let report = FrameAnalyzer.analyze(trace, options: AnalysisOptions(frameMarkers: ["tick"]))
        let accounting = FrameAccounting(frames: report.frames, categoryNameCount: 1, spanNames: trace.symbols)
        let frames = report.frames
        // The main-thread windows as the accounting draws them: each cut at the next frame's start.
        let windows = frames.indices.map { index in
            (
                start: frames[index].workStart,
                end: index + 1 < frames.count
                    ? max(frames[index].workStart, min(frames[index].commitEnd, frames[index + 1].workStart))
                    : frames[index].commitEnd
            )
        }
        let sweep = SelfTimeSweep(spans: spans, mainSlot: main, nameOfCategory: [], measureStart: 0, measureEnd: 0)
        let runs = sweep.runs(spansPerRun: 1, accounting: accounting)
        #expect(runs.filter { $0.slot == main }.count > 10, "the main thread is cut into many runs")
        #expect(runs.filter { $0.slot != main }.count > 30)
        var refused = 0
        for slot in spans.threads.indices {
            let threadSpans = spans.spans(inSlot: slot)
            let threadRuns = runs.filter { $0.slot == slot }
            // The runs cover the thread's spans in order, with no gap.
            #expect(threadRuns.first?.spans.lowerBound == 0 && threadRuns.last?.spans.upperBound == threadSpans.count)
            #expect(zip(threadRuns, threadRuns.dropFirst()).allSatisfy { $0.spans.upperBound == $1.spans.lowerBound })
            let cuts = Set(threadRuns.dropFirst().map(\.spans.lowerBound))
            var openUntil = Int64.min
            for index in threadSpans.indices {
                let start = threadSpans[index].start
                let insideWindow = slot == main && windows.contains { $0.start < start && start < $0.end }
                if cuts.contains(index) {
                    #expect(openUntil <= start, "no span is open where a run begins")
                    #expect(!insideWindow, "no main-thread run begins inside a frame's window")
                } else if index > 0, openUntil <= start, insideWindow {
                    refused += 1
                }
                openUntil = max(openUntil, threadSpans[index].end)
            }
        }
        #expect(refused > 10, "stretches of work inside a frame's window are not cut")
    }

    @Test("Merged tallies keep each group's largest sums as one tally of every addition does")
    func mergedTallies() {
        var whole = Tally(keyCount: 6, largestPerGroup: 2, rank: [5, 4, 3, 2, 1, 0])
        var first = Tally(keyCount: 6, largestPerGroup: 2, rank: [5, 4, 3, 2, 1, 0])
        var second = Tally(keyCount: 6, largestPerGroup: 2, rank: [5, 4, 3, 2, 1, 0])
        let additions: [(value: Int64, key: Int, group: Int)] = [
            (5, 1, 0), (3, 2, 0), (7, 3, 0), (2, 1, 1), (9, 4, 2), (9, 5, 2), (1, 0, 2),
        ]
        for (index, addition) in additions.enumerated() {
            whole.add(addition.value, key: addition.key, group: addition.group)
            if index < 4 {
                first.add(addition.value, key: addition.key, group: addition.group)
            } else {
                second.add(addition.value, key: addition.key, group: addition.group)
            }
        }
        second.flush()
        first.merge([second])
        let merged = first.finish(groupCount: 3)
        let expected = whole.finish(groupCount: 3)
        for group in 0..<3 {
            #expect(merged[group].map { "\($0.key): \($0.value)" } == expected[group].map { "\($0.key): \($0.value)" })
        }
        #expect(merged[0].map(\.key) == [3, 1])
        #expect(merged[2].map(\.key) == [5, 4], "the lower rank first on ties (key 5 ranks 0)")
    }
}
