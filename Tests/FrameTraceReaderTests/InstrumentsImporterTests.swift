import Foundation
import FrameTrace
import FrameTraceReader
import Testing

/// Instruments' `xctrace export` XML: the real exports in `shared/traces/third-party`, a
/// recording made of several exported tables, and hostile input (`Fixtures/xctrace/`, each file
/// named after its case).
@Suite("Instruments exports read as traces; hostile XML is refused with its position")
struct InstrumentsImporterTests {
    static let realExports = [
        "xctrace__OSSignpostIntervals.xml", "xctrace__PointsOfInterestEvents.xml", "xctrace__device-display-info.xml",
        "xctrace__display-surface-swap.xml", "xctrace__display-vsyncs-interval.xml",
        "xctrace__displayed-surfaces-interval.xml", "xctrace__hang-risks.xml", "xctrace__hitches-renders.xml",
        "xctrace__hitches.xml", "xctrace__potential-hangs.xml", "xctrace__runloop-events.xml",
        "xctrace__runloop-intervals.xml",
    ]

    static func fixture(_ name: String) -> String { Fixture.path("xctrace/" + name) }

    @Test(
        "Every real xctrace export reads",
        .enabled(if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone"),
        arguments: realExports)
    func everyRealExportReads(file: String) throws {
        let trace = try ThirdParty.read(file)
        #expect(trace.metadata.producer == InstrumentsImporter.producer)
    }

    @Test(
        "Apple's hitches become instants with Apple's column names and every value resolved through refs",
        .enabled(if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone"))
    func hitchesResolveReferences() throws {
        let trace = try ThirdParty.read("xctrace__hitches.xml")
        let hitches = trace.events.filter { trace.symbols[$0.category] == "hitches" }
        #expect(hitches.count == 11)
        let durations = hitches.compactMap { trace.arguments(of: $0)["Duration"]?.integerValue }
        // Written once with id="12" in the second row, then as ref="12" by five more rows.
        #expect(durations.filter { $0 == 16_666_666 }.count == 5)
        let issues = hitches.map { trace.arguments(of: $0)["Potential Issue"]?.stringValue }
        #expect(issues.filter { $0 == "Potentially expensive app update(s)" }.count == 10)
        #expect(trace.processes[12345]?.name == "TestApp")
    }

    @Test(
        "Signpost intervals are spans on their threads, Main Thread named as Instruments names it",
        .enabled(if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone"))
    func signpostIntervalsAreSpans() throws {
        let trace = try ThirdParty.read("xctrace__OSSignpostIntervals.xml")
        let spans = trace.events.filter { $0.phase == .complete }
        #expect(!spans.isEmpty)
        let preflight = try #require(spans.first { trace.symbols[$0.name] == "PreFlight" })
        #expect(preflight.timestamp == 4_100_000_000)
        #expect(preflight.duration == 820_000_000)
        #expect(trace.symbols[preflight.category] == "PointsOfInterest")
        #expect(trace.threadName(preflight.thread) == "Main Thread")
        #expect(preflight.thread == ThreadKey(processID: 2033, threadID: 6659))
    }

    @Test(
        "Tables framescope does not use are counted once each in the diagnostics",
        .enabled(if: ThirdParty.isAvailable, "shared/traces/third-party is not beside this clone"))
    func unusedTablesAreCounted() throws {
        let trace = try ThirdParty.read("xctrace__runloop-intervals.xml")
        #expect(trace.events.isEmpty)
        #expect(trace.diagnostics.count == 1)
        #expect(trace.diagnostics.first?.message.contains("runloop-intervals") == true)
        let unknown = try TraceReader.read(contentsOf: Self.fixture("unknown-table.xml"))
        #expect(unknown.diagnostics.map(\.message) == ["Instruments table \"thermal-state\" not used (1 rows)"])
    }

    @Test("A directory of exported tables and its TOC reads as one recording; ids are each file's own")
    func directoryIsOneRecording() throws {
        let trace = try TraceReader.read(contentsOf: Self.fixture("recording"))
        let categories = Set(trace.events.map { trace.symbols[$0.category] })
        #expect(categories == ["hitches", "device-display-info", "potential-hangs"])
        let extra = Dictionary(trace.metadata.extra.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(extra[InstrumentsImporter.TOCKey.duration] == .int(40_000_000_000))
        #expect(extra[InstrumentsImporter.TOCKey.template] == .string("Animation Hitches"))
        #expect(extra[InstrumentsImporter.TOCKey.device] == .string("Test iPhone, iPhone 15 Pro, 18.2 (22C152)"))
        #expect(extra[InstrumentsImporter.TOCKey.startDate] == .string("2026-01-10T10:00:00.000+00:00"))
    }

    @Test("A directory holding anything besides .xml exports is not a recording: the usual io-error")
    func mixedDirectoryIsNotARecording() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xctrace-mixed-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try Fixture.bytes("xctrace/valid-hitches.xml")).write(to: directory.appendingPathComponent("a.xml"))
        try Data("[]".utf8).write(to: directory.appendingPathComponent("b.json"))
        #expect(throws: TraceReadError.self) { try TraceReader.read(contentsOf: directory.path) }
        do {
            _ = try TraceReader.read(contentsOf: directory.path)
        } catch {
            #expect(error.code == .ioError)
            #expect(error.message == "\(directory.path): is a directory")
        }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("b.json"))
        #expect(try TraceReader.read(contentsOf: directory.path).events.count == 2)
    }

    @Test("XML is told apart by content: a byte order mark and white space before it are fine")
    func formatByContent() throws {
        let plain = try TraceReader.read(contentsOf: Self.fixture("valid-hitches.xml"))
        let marked = try TraceReader.read(contentsOf: Self.fixture("bom-and-whitespace.xml"))
        #expect(plain.events.count == 2)
        #expect(marked.events == plain.events)
        #expect(try TraceReader.read(bytes: Array("<trace-toc></trace-toc>".utf8)).events.isEmpty)
    }

    @Test("The five predefined entities and numeric character references are decoded")
    func predefinedEntities() throws {
        let trace = try TraceReader.read(contentsOf: Self.fixture("entities.xml"))
        let issue = trace.events.first.flatMap { trace.arguments(of: $0)["Potential Issue"]?.stringValue }
        #expect(issue == "a <b> & \"c\" 'd' AB")
    }

    /// Hostile or broken inputs that must fail with a one-line error at a position.
    static let refused: [(file: String, message: String, line: Int)] = [
        ("billion-laughs.xml", "document type declarations are not processed", 2),
        ("external-entity.xml", "document type declarations are not processed", 2),
        ("undefined-entity.xml", "entity &xxe; is not defined", 3),
        ("deep-nesting.xml", "elements nest deeper than 256", 2),
        ("ref-before-id.xml", "ref=\"99\" names no value defined before it", 3),
        ("truncated.xml", "the file ends inside", 4),
        ("unclosed-attribute.xml", "'<' in an attribute value", 3),
        ("bad-utf8.xml", "text that is not UTF-8", 3),
        ("mismatched-end-tag.xml", "end tag </start-time> does not close <duration>", 3),
    ]

    @Test("Hostile XML is an error naming the problem, its line and column", arguments: refused)
    func hostileInputIsRefused(file: String, message: String, line: Int) {
        do {
            _ = try TraceReader.read(contentsOf: Self.fixture(file))
            Issue.record("\(file) read without an error")
        } catch {
            #expect(error.code == .invalidXML)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.line == line)
            #expect(error.column > 0)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("A 10 MB attribute is refused without being held whole")
    func hugeAttribute() {
        let head = #"<?xml version="1.0"?><trace-query-result><node><schema name=""#
        var bytes = Array(head.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000)
        bytes += Array(#""/></node></trace-query-result>"#.utf8)
        #expect(throws: TraceReadError.self) { try TraceReader.read(bytes: bytes) }
        do {
            _ = try TraceReader.read(bytes: bytes)
        } catch {
            #expect(error.message == "attribute name is longer than 1 MiB")
            #expect(error.line == 1)
        }
    }

    @Test("A number past Int64 and a negative duration drop their row with a counted diagnostic")
    func badNumbersAreDiagnostics() throws {
        let overflow = try TraceReader.read(contentsOf: Self.fixture("int64-overflow.xml"))
        #expect(overflow.events.count == 1)
        #expect(overflow.diagnostics.map(\.kind) == [.invalidEvent])
        #expect(overflow.diagnostics.first?.message.contains("does not fit in 64 bits") == true)
        let negative = try TraceReader.read(contentsOf: Self.fixture("negative-duration.xml"))
        #expect(negative.events.count == 1)
        #expect(negative.diagnostics.map(\.kind) == [.negativeDuration])
    }

    @Test("framescope's frame signpost messages, old and new, become frame arguments")
    func frameMessages() throws {
        let xml = """
            <?xml version="1.0"?><trace-query-result><node><schema name="os-signpost-interval">\
            <col><mnemonic>start</mnemonic><name>Start</name></col><col><mnemonic>duration</mnemonic><name>Duration</name></col>\
            <col><mnemonic>name</mnemonic><name>Name</name></col><col><mnemonic>category</mnemonic><name>Category</name></col>\
            <col><mnemonic>subsystem</mnemonic><name>Subsystem</name></col>\
            <col><mnemonic>start-thread</mnemonic><name>Start Thread</name></col>\
            <col><mnemonic>start-message</mnemonic><name>Start Message</name></col></schema>\
            <row><start-time id="1">100</start-time><duration id="2">50</duration><signpost-name id="3">frame</signpost-name>\
            <category id="4">frame</category><subsystem id="5">framescope</subsystem>\
            <thread id="6" fmt="Main Thread"><tid id="7">9</tid><process id="8" fmt="App (3)"><pid id="9">3</pid></process></thread>\
            <os-log-metadata id="10">index 4 since-vsync 20 ns budget 8333333 ns</os-log-metadata></row>\
            <row><start-time id="11">200</start-time><duration ref="2"/><signpost-name ref="3"/><category ref="4"/>\
            <subsystem ref="5"/><thread ref="6"/><os-log-metadata id="12">index 5 budget 16666667 ns</os-log-metadata></row>\
            <row><start-time id="13">300</start-time><duration ref="2"/><signpost-name id="14">span</signpost-name>\
            <category id="15">layout</category><subsystem ref="5"/><thread ref="6"/>\
            <os-log-metadata id="16">cell &lt;3&gt;</os-log-metadata></row>\
            </node></trace-query-result>
            """
        let trace = try TraceReader.read(bytes: Array(xml.utf8))
        #expect(trace.events.count == 3)
        let first = trace.arguments(of: trace.events[0])
        #expect(first[FrameContract.Key.index] == .int(4))
        #expect(first[FrameContract.Key.sinceVsync] == .int(20))
        #expect(first[FrameContract.Key.budget] == .int(8_333_333))
        #expect(trace.arguments(of: trace.events[1])[FrameContract.Key.budget] == .int(16_666_667))
        #expect(trace.arguments(of: trace.events[1])[FrameContract.Key.sinceVsync] == nil)
        #expect(trace.symbols[trace.events[0].category] == FrameContract.frameCategory)
        #expect(trace.symbols[trace.events[2].name] == "cell <3>")
        #expect(trace.threadName(trace.events[2].thread) == "Main Thread")
    }

    @Test(
        "A span measured after the fact reads back as the span it was, in both forms of the mirror's message",
        arguments: [("measured span: 1200 ns", 3800), ("measured span: 1200 ns ended 300 ns ago", 3500)])
    func measuredSpan(message: String, start: Int64) throws {
        let xml = """
            <?xml version="1.0"?><trace-query-result><node><schema name="os-signpost">\
            <col><mnemonic>time</mnemonic><name>Time</name></col><col><mnemonic>name</mnemonic><name>Name</name></col>\
            <col><mnemonic>category</mnemonic><name>Category</name></col>\
            <col><mnemonic>thread</mnemonic><name>Thread</name></col><col><mnemonic>message</mnemonic><name>Message</name></col>\
            </schema><row><event-time id="1">5000</event-time><signpost-name id="2">decode</signpost-name>\
            <category id="3">image-decode</category><thread id="4" fmt="Worker"><tid id="5">11</tid></thread>\
            <os-log-metadata id="6">\(message)</os-log-metadata></row></node></trace-query-result>
            """
        let trace = try TraceReader.read(bytes: Array(xml.utf8))
        let span = try #require(trace.events.first)
        #expect(span.phase == .complete)
        #expect(span.timestamp == start)
        #expect(span.duration == 1200)
        #expect(trace.symbols[span.name] == "decode")
    }
}
