import Foundation
import FrameTrace
import Testing

/// The vocabulary is declared once: category names in `TraceCategory`, lanes and hitch causes in
/// `Lane`/`HitchCause`, argument and metadata keys in `FrameContract`. This test reads every
/// source file and fails where one of those names is spelled as a string literal anywhere else.
@Suite("One vocabulary, declared once")
struct VocabularyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The files that declare the vocabulary.
    static let declarations: Set<String> = [
        "FrameTrace/TraceCategory.swift", "FrameTrace/FrameContract.swift", "FrameTrace/Lane.swift",
    ]

    /// Names that only the vocabulary may spell, and where else the same word names something
    /// else (a CLI flag, a diagnostic kind, a bench's hand-written third-party JSON).
    static let guarded: [(name: String, elsewhere: Set<String>)] = {
        var names: [(String, Set<String>)] = [
            ("image-decode", ["FramescopeBench"]), ("corner-rounding", ["FramescopeBench"]),
            ("diff-apply", ["FramescopeBench"]),
            ("frame-timeline", []),
            (FrameContract.Key.sinceVsync, []), (FrameContract.Key.budget, []), (FrameContract.Key.sinceInput, []),
            (FrameContract.Key.untilDeadline, []), (FrameContract.Key.untilPresent, []),
            (FrameContract.Key.sinceRequest, []),
            (FrameContract.Timeline.causeKey, []), (FrameContract.Timeline.lateKey, []),
            (FrameContract.Metadata.frameInterval, []),
            // `--main-thread` is a flag of the CLI; `dropped-events` is also a diagnostic kind.
            (FrameContract.Metadata.mainThread, ["FramescopeCLI"]),
            (FrameContract.Metadata.droppedEvents, ["FrameTrace/TraceDiagnostic.swift"]),
        ]
        // Lane and cause names are plain words: guarded where outputs draw them (the HTML page and
        // the demo's table), which once kept copies of their own.
        for lane in Lane.allCases { names.append((lane.identifier, ["*"])) }
        return names
    }()
    static let laneGuardedFiles: Set<String> = [
        "FrameAnalysis/FrameReport+HTML.swift", "FrameAnalysis/RunComparisonTable.swift",
    ]

    @Test("No category name, lane name or argument or metadata key is a string literal outside its declaration")
    func spelledOnce() throws {
        let files = try #require(
            FileManager.default.enumerator(atPath: Self.sources.path)?.compactMap { $0 as? String }
        )
        .filter { $0.hasSuffix(".swift") }
        try #require(files.count > 50, "found the sources at \(Self.sources.path)")
        var found: [String] = []
        for file in files where !Self.declarations.contains(file) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }  // documentation shows the names as users see them
                for (name, elsewhere) in Self.guarded where line.contains("\"\(name)\"") {
                    if elsewhere.contains("*") && !Self.laneGuardedFiles.contains(file) { continue }
                    if elsewhere.contains(where: { file.hasPrefix($0) }) { continue }
                    found.append("\(file):\(number + 1): \"\(name)\"")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("The recorder's built-in categories are TraceCategory's, in order")
    func builtInOrder() {
        #expect(
            TraceCategory.allCases.map(\.name) == [
                "layout", "image-decode", "corner-rounding", "diff-apply", "frame", "input", "render", "other",
                "commit", "frame-timeline",
            ])
        #expect(FrameContract.renderCategory == TraceCategory.render.name)
    }

    @Test("Lanes sort in pipeline order and hitch causes in declaration order: each type's < agrees with allCases")
    func lanesAndCausesSortInDeclarationOrder() {
        #expect(Lane.allCases.reversed().sorted() == Lane.allCases)
        #expect(HitchCause.allCases.reversed().sorted() == HitchCause.allCases)
        #expect(Lane.main < .render && !(Lane.render < .main) && !(Lane.gpu < .gpu))
    }
}
