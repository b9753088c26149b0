import Foundation
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

@Suite("The analysis keeps only the arguments it reads")
struct AnalysisArgumentTests {
    @Test("Narrowed argument lists keep every key the analysis reads, in order, at the same index")
    func narrowedLists() {
        var trace = Trace()
        let lists: [[Argument]] = [
            [
                Argument("url", .string("https://img.example.com/photos/1.jpg")),
                Argument(FrameContract.Key.budget, .int(5)),
            ],
            [Argument("row", .int(1))],
            [
                Argument(FrameContract.Key.renderedFrame, .int(3)), Argument("opaque", .bool(true)),
                Argument(FrameContract.Key.untilPresent, .int(2)),
            ],
            [Argument(FrameContract.Key.sinceInput, .double(1.5)), Argument(FrameContract.Key.ignored, .bool(false))],
            [
                Argument(ChromeFrameEvents.stateKey, .string("STATE_PRESENTED_ALL")),
                Argument(ChromeFrameEvents.legacySequenceKey, .int(7)),
            ],
        ]
        let indexes = lists.map { trace.addArguments($0) }
        FrameAnalyzer.keepAnalysisArguments(&trace)
        #expect(trace.argumentLists.count == lists.count + 1)
        #expect(trace.argumentLists[0].isEmpty)
        #expect(trace.argumentLists[Int(indexes[0])] == [Argument(FrameContract.Key.budget, .int(5))])
        #expect(trace.argumentLists[Int(indexes[1])].isEmpty)
        #expect(trace.argumentLists[Int(indexes[2])] == [lists[2][0], lists[2][2]])
        #expect(trace.argumentLists[Int(indexes[3])] == lists[3])
        #expect(trace.argumentLists[Int(indexes[4])] == lists[4])
    }

    @Test(
        "Every argument lookup in the analysis's sources uses a key declared in argumentKeys, so narrowing cannot hide it"
    )
    func everyLookupIsDeclared() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FrameAnalysis")
        let declaration = try String(
            contentsOf: sources.appendingPathComponent("Analyzer/FrameAnalyzer+Arguments.swift"), encoding: .utf8)
        let start = try #require(declaration.range(of: "static let argumentKeys: Set<String> = ["))
        let end = try #require(declaration.range(of: "]", range: start.upperBound..<declaration.endIndex))
        let declared = Set(
            declaration[start.upperBound..<end.lowerBound].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            .filter { !$0.isEmpty })
        #expect(declared.count == FrameAnalyzer.argumentKeys.count, "one name per key: \(declared.sorted())")
        // `arguments[KEY]` and `argumentLists[...][KEY]`, the two ways the analysis reads an argument.
        let lookup = try NSRegularExpression(pattern: #"(?:\barguments|argumentLists\[[^\]]+\])\[([^\]]+)\]"#)
        var lookups: [(file: String, key: String)] = []
        // The module's folders (Model, Analyzer, Platforms/…) are searched all the way down.
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 30, "the search reaches the module's subfolders: \(files.count) files")
        for path in files {
            let file = URL(fileURLWithPath: path).lastPathComponent
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for match in lookup.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                var key = String(text[range])
                if key.hasPrefix("Int(") { continue }  // an index into argumentLists, not a key
                if key.hasPrefix("Self."), file == "ChromeFrameEvents.swift" {
                    key = "ChromeFrameEvents." + key.dropFirst(5)
                }
                lookups.append((file, key))
            }
        }
        #expect(lookups.count >= 15, "the pattern finds the analysis's lookups: \(lookups.count)")
        for (file, key) in lookups {
            #expect(declared.contains(key), "\(file) reads argument \(key), which argumentKeys does not declare")
        }
    }

    @Test("Every key the analysis reads passes its matcher, and keys that only look alike do not")
    func keyMatcher() {
        let matcher = FrameAnalyzer.argumentKeyMatcher
        for key in FrameAnalyzer.argumentKeys { #expect(matcher.matches(key), "\(key)") }
        for key in [
            "", "frames", "Frame", "budget-ms", "index ", "since-vsync-us", "layerTreeID", "url", "row",
            String(repeating: "f", count: 70),
        ] {
            #expect(!matcher.matches(key), "\(key)")
        }
    }

    /// The JSON files in `folder`, sorted.
    static func jsonFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    static let fixtures = jsonFiles(
        in: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures"))
    /// `shared/traces/third-party` beside the repository.
    static let thirdPartyFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/traces/third-party")

    /// Reads each trace with every argument and with the analysis's keys only, and expects the
    /// same reports (or the same error); returns how many reports it compared.
    static func expectSameReports(_ paths: [String]) -> Int {
        var compared = 0
        for path in paths {
            let whole = Result { () throws(TraceReadError) in try TraceReader.read(contentsOf: path) }
            let selected = Result { () throws(TraceReadError) in
                try TraceReader.read(contentsOf: path, arguments: .only(FrameAnalyzer.argumentKeys))
            }
            switch (whole, selected) {
            case (.success(let whole), .success(let selected)):
                #expect(selected.keptArgumentKeys == FrameAnalyzer.argumentKeys)
                let expected = FrameAnalyzer.analyze(whole, options: AnalysisOptions(worstFrameCount: 1000))
                let report = FrameAnalyzer.analyze(selected, options: AnalysisOptions(worstFrameCount: 1000))
                // Compared as booleans: a failure names the trace instead of printing two reports.
                let sameJSON = report.jsonValue(source: "t").description == expected.jsonValue(source: "t").description
                let sameText = report.text(source: "t") == expected.text(source: "t")
                #expect(sameJSON, "\(path): the JSON reports differ")
                #expect(sameText, "\(path): the text reports differ")
                compared += 1
            case (.failure(let left), .failure(let right)):
                #expect(String(describing: left) == String(describing: right), "\(path)")
            default:
                Issue.record("\(path): one read failed and the other did not")
            }
        }
        return compared
    }

    @Test("Reading only the keys the analysis reads gives the same report as reading every argument, on every fixture")
    func selectedReadGivesSameReport() throws {
        #expect(Self.fixtures.count >= 10, "the fixtures are found: \(Self.fixtures.count)")
        #expect(Self.expectSameReports(Self.fixtures) >= 10)
    }

    @Test(
        "Reading only the keys the analysis reads gives the same report as reading every argument, on every third-party trace",
        .enabled(
            if: FileManager.default.fileExists(atPath: thirdPartyFolder.path),
            "shared/traces/third-party is not beside this clone; third-party checks skipped"))
    func selectedReadGivesSameReportOnThirdParty() throws {
        let paths = Self.jsonFiles(in: Self.thirdPartyFolder)
        #expect(paths.count >= 40, "the third-party traces are found: \(paths.count)")
        #expect(Self.expectSameReports(paths) >= 10)
    }

    @Test(
        "Arguments the analysis does not read change nothing in its report",
        arguments: [
            "frame spans, render work, a fed job and inputs", "chrome-smooth-animation.json",
            "chrome-legacy-frames.json",
        ])
    func unreadArgumentsChangeNothing(source: String) throws {
        let trace = source.hasSuffix(".json") ? try analysisFixture(source) : Self.sketch()
        #expect(trace.argumentLists.count > 1)
        let plain = FrameAnalyzer.analyze(trace)
        if !source.hasSuffix(".json") {
            // Each argument the sketch sets shows in the report: narrowing kept it.
            #expect(plain.method.frameSource == .frameSpans)
            #expect(plain.frames.map(\.sourceIndex) == [0, 1, 2, 3])
            #expect(plain.frames.map(\.vsync) == [0, 10, 20, 30].map { ms($0) })
            #expect(plain.frames[1].deadline == ms(15))
            #expect(plain.frames.map(\.presentation) == [ms(6), ms(16), ms(32.5), ms(46)])
            #expect(plain.backgroundJobs.map(\.requestedAt) == [ms(2)])
            #expect(plain.input?.inputs == 3)
            #expect(plain.input?.ignored == 1)
        }
        let noisy = FrameAnalyzer.analyze(Self.withUnreadArguments(trace))
        #expect(noisy.jsonValue(source: "t").description == plain.jsonValue(source: "t").description)
        #expect(noisy.text(source: "t") == plain.text(source: "t"))
    }

    /// Frames with vsync, budget and index arguments, render work for each, a background job fed
    /// to the second frame with a request time, and inputs with `since-input-ns` and `ignored`.
    static func sketch() -> Trace {
        var sketch = TraceSketch(metadataMain: true, interval: ms(10))
        let render = ThreadKey(processID: 1, threadID: 3)
        sketch.trace.setThread(TraceThread(key: render, name: "render-server-1", sortIndex: 2))
        for index in 0..<4 {
            let vsync = Double(index) * 10
            let end = vsync + (index == 2 ? 9.5 : 3)
            sketch.span(
                "frame", FrameContract.frameCategory, from: vsync + 1, to: end,
                arguments: [
                    Argument(FrameContract.Key.index, .int(Int64(index))),
                    Argument(FrameContract.Key.sinceVsync, .int(ms(1))),
                    Argument(FrameContract.Key.budget, .int(ms(index == 1 ? 5 : 10))),
                ])
            sketch.span("layout", "layout", from: vsync + 1.5, to: end - 0.5)
            sketch.span(
                "composite", FrameContract.renderCategory, from: end, to: end + 1, on: render,
                arguments: [
                    Argument(FrameContract.Key.renderedFrame, .int(Int64(index))),
                    Argument(FrameContract.Key.untilDeadline, .int(ms(vsync + 20 - end))),
                    Argument(FrameContract.Key.untilPresent, .int(ms(index == 3 ? 12 : 2))),
                ])
        }
        sketch.span(
            "decode", "image-decode", from: 4, to: 9, on: sketch.worker,
            arguments: [Argument(FrameContract.Key.sinceRequest, .int(ms(2)))])
        sketch.trace.append(
            .flowStart, name: "decode request", category: "image", thread: sketch.worker, timestamp: ms(5), id: 1)
        sketch.trace.append(
            .flowEnd, name: "decode request", category: "image", thread: sketch.main, timestamp: ms(12), id: 1)
        sketch.input("pan", at: 2, arguments: [Argument(FrameContract.Key.sinceInput, .int(ms(3)))])
        sketch.input("pan", at: 12, arguments: [Argument(FrameContract.Key.ignored, .bool(true))])
        sketch.input("pan", at: 25, arguments: [Argument(FrameContract.Key.sinceInput, .double(2_500_000))])
        return sketch.trace
    }

    /// The trace with two arguments no analysis step reads added to every event's list (a new
    /// list for events that had none), like the generated trace's image URLs and row numbers.
    static func withUnreadArguments(_ trace: Trace) -> Trace {
        var noisy = trace
        noisy.argumentLists = [[]]
        for index in noisy.events.indices {
            let unread = [
                Argument("url", .string("https://img.example.com/photos/\(index).jpg")),
                Argument("row", .int(Int64(index))),
            ]
            noisy.events[index].arguments = noisy.addArguments(
                unread + trace.arguments(of: trace.events[index]) + unread)
        }
        return noisy
    }
}
