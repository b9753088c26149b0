import Foundation
import FrameTrace
import FrameTraceReader
import Testing

/// The third-party traces in `shared/traces/third-party` beside the repository, and their
/// `INDEX.md` table of event counts by phase.
enum ThirdParty {
    /// `<repo>/../shared/traces/third-party`, found from this file's path.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/traces/third-party")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("INDEX.md").path)
    }

    static func read(_ name: String) throws -> Trace {
        try TraceReader.read(contentsOf: directory.appendingPathComponent(name).path)
    }

    /// One row of INDEX.md.
    struct Entry: CustomTestStringConvertible, Sendable {
        var file: String
        var bytes: Int
        var form: String
        var events: Int
        var phases: [String: Int]

        var testDescription: String { file }
        func count(_ letters: String...) -> Int { letters.reduce(0) { $0 + phases[$1, default: 0] } }
    }

    /// The rows of INDEX.md's table; empty when the folder is absent.
    static var entries: [Entry] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("INDEX.md"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line -> Entry? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 5, cells[0].hasSuffix(".json"), let bytes = Int(cells[1]), let events = Int(cells[3])
            else {
                return nil
            }
            var phases: [String: Int] = [:]
            for item in cells[4].split(separator: " ") {
                let letter = String(item.prefix { $0.isLetter })
                phases[letter] = Int(item.dropFirst(letter.count))
            }
            return Entry(file: cells[0], bytes: bytes, form: cells[2], events: events, phases: phases)
        }
    }
}

@Suite("Third-party traces load, with counts consistent with INDEX.md")
struct ThirdPartyTraceTests {
    @Test(
        "The third-party folder and its index are present",
        .enabled(
            if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone; third-party checks skipped"
        ))
    func indexPresent() throws {
        let entries = ThirdParty.entries
        #expect(entries.count >= 45)
        let files = try FileManager.default.contentsOfDirectory(atPath: ThirdParty.directory.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(Set(files) == Set(entries.map(\.file)), "every file is in the index and every row has a file")
    }

    @Test(
        "Each third-party trace reads and its counts by phase match the index",
        .enabled(
            if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone; third-party checks skipped"
        ),
        arguments: ThirdParty.entries)
    func countsMatchIndex(entry: ThirdParty.Entry) throws {
        let path = ThirdParty.directory.appendingPathComponent(entry.file).path
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(raw.count == entry.bytes)
        #expect(entry.phases.values.reduce(0, +) == entry.events)
        let trace = try ThirdParty.read(entry.file)

        // Every B became a complete event (closed by its E, or at the trace's end and flagged).
        #expect(trace.count(.complete) == entry.count("X", "B"))
        let unclosed = trace.total(.unclosedBegin)
        let pairs = entry.count("B") - unclosed
        #expect(pairs >= 0)
        #expect(trace.total(.unmatchedEnd) == entry.count("E") - pairs)

        #expect(trace.count(.instant) == entry.count("i", "I"))
        #expect(trace.count(.counter) == entry.count("C"))
        #expect(trace.count(.asyncBegin) == entry.count("b"))
        #expect(trace.count(.asyncInstant) == entry.count("n"))
        #expect(trace.count(.asyncEnd) == entry.count("e"))
        #expect(trace.count(.metadata) <= entry.count("M"), "name and sort-index metadata fill tables instead")
        let flows = trace.count(.flowStart) + trace.count(.flowStep) + trace.count(.flowEnd)
        if raw.range(of: Data("bind_id".utf8)) == nil {
            #expect(trace.count(.flowStart) == entry.count("s"))
            #expect(trace.count(.flowStep) == entry.count("t"))
            #expect(trace.count(.flowEnd) == entry.count("f"))
        } else {
            #expect(flows > entry.count("s", "t", "f"), "bind_id slices add flow events")
        }

        // Phases the model does not hold are skipped and counted, each under its own letter.
        let modelled: Set<String> = ["X", "B", "E", "i", "I", "C", "M", "b", "n", "e", "s", "t", "f"]
        for (letter, count) in entry.phases where !modelled.contains(letter) {
            let diagnostic = trace.diagnostics(.skippedPhase).first { $0.message.hasPrefix("phase \"\(letter)\":") }
            #expect(diagnostic?.count == count, "phase \(letter)")
        }
        #expect(trace.total(.skippedPhase) == entry.phases.filter { !modelled.contains($0.key) }.values.reduce(0, +))
        #expect(trace.total(.invalidEvent) == 0)
        #expect(trace.total(.truncated) == 0, "the truncated files end between events, which the format allows")
        for diagnostic in trace.diagnostics {
            if let index = diagnostic.eventIndex { #expect(index >= 0 && index < entry.events) }
        }
    }

    @Test(
        "Known cases carry the diagnostics their names promise",
        .enabled(
            if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone; third-party checks skipped"
        ))
    func knownCases() throws {
        #expect(try ThirdParty.read("catapult__main_thread_has_unclosed_slices.json").total(.unclosedBegin) == 4)
        #expect(try ThirdParty.read("speedscope__too-many-end-events.json").indexes(.unmatchedEnd) == [4, 5])
        // The end names no open begin: dropped, and its begin is closed at the trace's end.
        #expect(try ThirdParty.read("speedscope__mismatched-name.json").indexes(.unmatchedEnd) == [1])
        let reordered = try ThirdParty.read("speedscope__event-reordering-name-match.json")
        #expect(reordered.diagnostics.isEmpty, "ends tied in time pair by name")
        #expect(reordered.events.filter { $0.duration == 1_000 }.count == 2)
        let unbalanced = try ThirdParty.read("speedscope__out-of-order-unbalanced-name.json")
        // In time order: E alpha@9 closes the innermost, beta (flagged); E beta@10 names nothing open.
        #expect(unbalanced.events.map { [$0.timestamp, $0.duration] } == [[0, 10_000], [1_000, 8_000]])
        #expect(unbalanced.indexes(.mismatchedEndName) == [0])
        #expect(unbalanced.indexes(.unmatchedEnd) == [1])
        #expect(try ThirdParty.read("speedscope__invalid-x-nesting.json").indexes(.partialOverlap) == [1])
        #expect(try ThirdParty.read("speedscope__only-begin-events.json").indexes(.unclosedBegin) == [0, 1, 2])
        // B/E pairs written B, then A (which encloses B), then C (inside both): reported once, at
        // A's begin, and still nested A ⊃ B ⊃ C with no overlap or pairing diagnostics.
        let outOfOrder = try ThirdParty.read("speedscope__out-of-order.json")
        #expect(outOfOrder.indexes(.outOfOrder) == [2])
        #expect(outOfOrder.total(.outOfOrder) == 2)
        #expect(outOfOrder.diagnostics.map(\.kind) == [.outOfOrder])
        let slices = outOfOrder.events.sorted { $0.timestamp < $1.timestamp }
        #expect(slices.map { outOfOrder.name(of: $0) } == ["A", "B", "C"])
        #expect(slices.map(\.phase) == [.complete, .complete, .complete])
        #expect(slices.map(\.timestamp) == [0, 1_000, 2_000])
        #expect(slices.map(\.endTimestamp) == [10_000, 9_000, 8_000])
        let partial = try ThirdParty.read("speedscope__simple-partial.json")
        #expect(partial.events.map { partial.name(of: $0) } == ["alpha", "beta", "gamma", "epsilon"])
        let hermes = try ThirdParty.read("speedscope__multi-thread-with-samples.json")
        #expect(
            hermes.threadName(ThreadKey(processID: 7512, threadID: 1)) == "mqt_js", "numeric-string tids are numbers")
        #expect(hermes.events.first?.timestamp == 11_550_183_666_000, "numeric-string timestamps are read")
        let chrome = try ThirdParty.read("speedscope__chrome116_trace.json")
        #expect(chrome.threadName(ThreadKey(processID: 6488, threadID: 259)) == "CrBrowserMain")
        #expect(chrome.count(.metadata) == 6, "process_uptime_seconds and num_cpus are kept as metadata events")
    }
}
