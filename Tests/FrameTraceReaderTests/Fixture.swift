import Foundation
import FrameTrace
import FrameTraceReader

/// Test inputs in `Fixtures/`, each named after the case it tests.
enum Fixture {
    /// The folder the package copies the fixtures into.
    static let directory: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// The path of a fixture.
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The bytes of a fixture.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Reads a fixture as a trace from its file.
    static func read(_ name: String) throws -> Trace { try TraceReader.read(contentsOf: path(name)) }

    /// Every `.json` fixture, sorted.
    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }

    /// Fixtures that are traces (possibly inconsistent or cut off), as opposed to error cases.
    static var traces: [String] { all.filter { !errorCases.contains($0) } }

    /// Fixtures that must fail to read.
    static let errorCases: Set<String> = [
        "not-json.json", "not-a-trace-number.json", "not-a-trace-object.json", "trace-events-not-array.json",
        "missing-comma.json", "unterminated-string.json", "truncated-object-before-events.json", "invalid-escape.json",
        "invalid-number-leading-zero.json", "invalid-number-bare-minus.json", "invalid-number-dot.json",
        "control-character-in-string.json", "trailing-garbage.json", "trailing-comma-in-args.json", "bad-literal.json",
    ]
}

extension Trace {
    /// The events with a given name, in order.
    func events(named name: String) -> [TraceEvent] { events.filter { self.name(of: $0) == name } }

    /// The only event with a given name.
    func event(named name: String) -> TraceEvent? {
        let matches = events(named: name)
        return matches.count == 1 ? matches[0] : nil
    }

    /// The diagnostics of one kind.
    func diagnostics(_ kind: TraceDiagnostic.Kind) -> [TraceDiagnostic] { diagnostics.filter { $0.kind == kind } }

    /// How many occurrences of a kind the diagnostics stand for (summaries included).
    func total(_ kind: TraceDiagnostic.Kind) -> Int { diagnostics(kind).reduce(0) { $0 + $1.count } }

    /// The event indexes of the diagnostics of one kind.
    func indexes(_ kind: TraceDiagnostic.Kind) -> [Int?] { diagnostics(kind).map(\.eventIndex) }

    /// How many events of a phase the trace holds.
    func count(_ phase: Phase) -> Int { events.count { $0.phase == phase } }

    /// Arguments of an event as a dictionary (last value wins).
    func argumentDictionary(of event: TraceEvent) -> [String: JSONValue] {
        Dictionary(arguments(of: event).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }
}
