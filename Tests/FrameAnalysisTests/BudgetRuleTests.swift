import Testing

@testable import FrameAnalysis

@Suite("Budget rules: globs and trace sections")
struct BudgetRuleTests {
    @Test(
        "Globs match the whole name; * matches any run, ? one character",
        arguments: [
            ("diffable-update--*", "diffable-update--reload.json", true),
            ("diffable-update--*", "diffable-update-reload.json", false),
            ("*", "", true),
            ("*", "anything.json", true),
            ("feed-?.json", "feed-1.json", true),
            ("feed-?.json", "feed-12.json", false),
            ("*reload*", "diffable-update--reload.json", true),
            ("*.json", "trace.json.gz", false),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false),
            ("exact.json", "exact.json", true),
            ("exact.json", "Exact.json", false),
            ("??", "é1", true),
        ])
    func globs(pattern: String, name: String, matches: Bool) {
        #expect(Budget.glob(pattern, matches: name) == matches)
    }

    static let budget = """
        {"version": 1,
         "limits": {"hitch-time-ratio": 5, "main-thread-ms": {"p95": 12}},
         "categories": {"image-decode": {"off-main-thread": true}, "layout": {"main-ms-per-frame": {"p95": 4}}},
         "traces": [
           {"match": "diffable-*", "limits": {"hitch-time-ratio": 10, "frozen-frames": 0},
            "categories": {"layout": {"main-ms-total": 50}, "diff-apply": {"main-ms-per-frame": {"max": 2}}}},
           {"match": "*--reload.json", "limits": {"hitch-time-ratio": 20},
            "categories": {"image-decode": {"off-main-thread": false}}}
         ]}
        """

    @Test("Traces that match no section get the top-level rules, ids and paths from the file")
    func topLevelRules() throws {
        let rules = try Budget.parse(Self.budget).rules(forTraceNamed: "feed.json")
        #expect(
            rules.map(\.id) == [
                "hitch-time-ratio", "main-thread-ms.p95", "categories.image-decode.off-main-thread",
                "categories.layout.main-ms-per-frame.p95",
            ])
        #expect(
            rules.map(\.path) == [
                "limits.hitch-time-ratio", "limits.main-thread-ms.p95", "categories.image-decode.off-main-thread",
                "categories.layout.main-ms-per-frame.p95",
            ])
        #expect(rules.map(\.limit) == [5, 12, 0, 4])
    }

    @Test("Matching sections override key by key and add rules, in file order")
    func sectionsOverrideAndAdd() throws {
        let rules = try Budget.parse(Self.budget).rules(forTraceNamed: "diffable-update--snapshot-diff.json")
        let byID = Dictionary(uniqueKeysWithValues: rules.map { ($0.id, $0) })
        #expect(byID["hitch-time-ratio"]?.limit == 10)
        #expect(byID["hitch-time-ratio"]?.path == "traces[0].limits.hitch-time-ratio")
        #expect(byID["frozen-frames"]?.limit == 0)
        #expect(
            byID["main-thread-ms.p95"]?.path == "limits.main-thread-ms.p95", "untouched keys keep the top-level limit")
        #expect(byID["categories.layout.main-ms-per-frame.p95"]?.limit == 4)
        #expect(byID["categories.layout.main-ms-total"]?.path == "traces[0].categories.layout.main-ms-total")
        #expect(byID["categories.diff-apply.main-ms-per-frame.max"]?.limit == 2)
        #expect(
            rules.map(\.id) == [
                "hitch-time-ratio", "frozen-frames", "main-thread-ms.p95", "categories.image-decode.off-main-thread",
                "categories.layout.main-ms-per-frame.p95", "categories.layout.main-ms-total",
                "categories.diff-apply.main-ms-per-frame.max",
            ])
    }

    @Test("A later section wins, and off-main-thread false lifts the requirement")
    func laterSectionWins() throws {
        let rules = try Budget.parse(Self.budget).rules(forTraceNamed: "diffable-update--reload.json")
        #expect(rules.first { $0.id == "hitch-time-ratio" }?.limit == 20)
        #expect(rules.first { $0.id == "hitch-time-ratio" }?.path == "traces[1].limits.hitch-time-ratio")
        #expect(!rules.contains { $0.id == "categories.image-decode.off-main-thread" })
    }
}
