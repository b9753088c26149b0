import FrameAnalysis
import Testing

/// Per-frame costs in ms of ten frames, the fewest a side that are judged.
private let tenFrames: [Double] = [8, 9, 10, 11, 12, 8.2, 9.2, 10.2, 11.2, 12.2]

/// Ten frames each a little dearer than ``tenFrames``'s: worse by the minimum effects, not significantly.
private let tenFramesALittleWorse: [Double] = [8.5, 10, 11.5, 12.5, 14, 8.7, 10.2, 11.7, 12.7, 14.2]

/// Sixty frames, one in five expensive: 48 cheap ones near 1 ms and 12 near 10 ms, so the p95
/// falls among the expensive frames and the median among the cheap ones.
private let slowTail: (cheap: [Double], expensive: [Double]) = (
    (0..<48).map { 1 + Double($0) * 0.01 }, (0..<12).map { 10 + Double($0) * 0.1 }
)

/// Sixty frames, one in twelve expensive: few enough that a resample often leaves the p95 among
/// the cheap frames, so the p95's interval is wide and includes 0.
private let rareSlowTail: (cheap: [Double], expensive: [Double]) = (
    (0..<55).map { 1 + Double($0) * 0.01 }, [10, 10.5, 11, 11.5, 12]
)

/// Compares one metric of two samples in ms.
private func judge(
    _ base: [Double], _ head: [Double], thresholds: RegressionThresholds = .defaults
) -> MetricComparison {
    MetricComparison.compare(
        id: "main-thread-ms", label: "main-thread cost per frame", base: base, head: head, thresholds: thresholds)
}

@Suite("Compare's reason: the model stores why a verdict was reached, and Rendering says it in one line")
struct CompareReasonTests {
    @Test("A regression of the typical frame: significant in the typical frame, quoting its shift and p-value")
    func regressionOfTheTypicalFrame() {
        let metric = judge(tenFrames, tenFrames.map { $0 * 2 })
        #expect(metric.verdict == .regression)
        #expect(metric.grounds == .significant(.typicalFrame))
        #expect(metric.p95Interval == nil, "the typical frame decided it; the tail's interval was not needed")
        #expect(metric.reason == "median shift +10.10 ms (+101.0%), p < 0.0001")
    }

    @Test("A regression of the slow tail alone: significant in the tail, quoting the p95 and its interval")
    func regressionOfTheSlowTail() throws {
        let metric = judge(
            slowTail.cheap + slowTail.expensive, slowTail.cheap + slowTail.expensive.map { $0 + 5 })
        #expect(metric.verdict == .regression)
        #expect(metric.grounds == .significant(.slowTail))
        #expect(try #require(metric.p95Interval).lower > 0)
        #expect(metric.reason == "p95 +5.00 ms (+46.3%), 99% interval [+4.30, +5.70] ms")
    }

    @Test("A median shift from 0 is quoted as such, not as an infinite percentage")
    func regressionFromZero() {
        let metric = judge(Array(repeating: 0, count: 10), Array(repeating: 2, count: 10))
        #expect(metric.verdict == .regression)
        #expect(metric.grounds == .significant(.typicalFrame))
        #expect(metric.relativeShift == .infinity)
        #expect(metric.reason == "median shift +2.00 ms (from 0), p < 0.0001")
    }

    @Test("A possible regression stores the alpha it was not significant at, and says it")
    func possibleRegression() {
        let metric = judge(tenFrames, tenFramesALittleWorse)
        #expect(metric.verdict == .possibleRegression)
        #expect(metric.grounds == .notSignificant(.typicalFrame, alpha: 0.01))
        #expect(metric.reason == "median shift +1.40 ms (+14.0%), p = 0.1402; not significant at alpha 0.01")

        let strict = RegressionThresholds(alpha: 0.001, minimumRelativeEffect: 0.1, minimumAbsoluteMilliseconds: 0.25)
        let strictly = judge(tenFrames, tenFramesALittleWorse, thresholds: strict)
        #expect(strictly.grounds == .notSignificant(.typicalFrame, alpha: 0.001))
        #expect(strictly.reason.hasSuffix("; not significant at alpha 0.001"))
    }

    @Test("A possible regression of the tail alone quotes the p95 and its interval across 0")
    func possibleRegressionOfTheSlowTail() {
        let metric = judge(
            rareSlowTail.cheap + rareSlowTail.expensive, rareSlowTail.cheap + rareSlowTail.expensive.map { $0 + 5 })
        #expect(metric.verdict == .possibleRegression)
        #expect(metric.grounds == .notSignificant(.slowTail, alpha: 0.01))
        #expect(
            metric.reason == "p95 +5.00 ms (+47.6%), 99% interval [-10.00, +15.46] ms; not significant at alpha 0.01")
    }

    @Test("An improvement of the typical frame, and one of the slow tail")
    func improvements() {
        let typical = judge(tenFrames, tenFrames.map { $0 / 2 })
        #expect(typical.verdict == .improvement)
        #expect(typical.grounds == .significant(.typicalFrame))
        #expect(typical.reason == "median shift -5.05 ms (-50.5%), p < 0.0001")

        let tail = judge(slowTail.cheap + slowTail.expensive, slowTail.cheap + slowTail.expensive.map { $0 - 5 })
        #expect(tail.verdict == .improvement)
        #expect(tail.grounds == .significant(.slowTail))
        #expect(tail.reason == "p95 -5.00 ms (-46.3%), 99% interval [-5.70, -4.30] ms")
    }

    @Test("Unchanged quotes both parts, with the p95's interval when one was computed")
    func unchanged() {
        let same = judge(tenFrames, tenFrames)
        #expect(same.verdict == .unchanged)
        #expect(same.grounds == .noChangeThatCounts)
        #expect(same.reason == "median shift +0.00 ms (+0.0%), p = 1.0000; p95 +0.00 ms (+0.0%)")

        // The tail is better by the minimum effects, but its interval includes 0.
        let tail = judge(
            rareSlowTail.cheap + rareSlowTail.expensive, rareSlowTail.cheap + rareSlowTail.expensive.map { $0 - 5 })
        #expect(tail.verdict == .unchanged)
        #expect(tail.grounds == .noChangeThatCounts)
        #expect(
            tail.reason
                == "median shift +0.00 ms (+0.0%), p = 0.9498; p95 -5.00 ms (-47.6%), 99% interval [-10.00, +5.46] ms")
    }

    @Test("Too few frames stores both sides' counts")
    func tooFewFrames() {
        let metric = judge([4], [8])
        #expect(metric.verdict == .noData)
        #expect(!metric.fails)
        #expect(metric.grounds == .tooFewFrames(base: 1, head: 1))
        #expect(metric.reason == "too few frames to judge: 1 base, 1 head (at least 10 a side)")

        let short = judge(tenFrames, Array(tenFrames.prefix(3)))
        #expect(short.grounds == .tooFewFrames(base: 10, head: 3))
        #expect(short.reason == "too few frames to judge: 10 base, 3 head (at least 10 a side)")
    }

    @Test("A side without frames stores which side; the base side when both are empty")
    func noFrames() {
        let base = judge([], [8, 9])
        #expect(base.verdict == .noData)
        #expect(base.fails)
        #expect(base.grounds == .noFrames(.base))
        #expect(base.reason == "no frames on the base side")

        let head = judge([8, 9], [])
        #expect(head.grounds == .noFrames(.head))
        #expect(head.reason == "no frames on the head side")

        #expect(judge([], []).grounds == .noFrames(.base))
        #expect(judge([], []).reason == "no frames on the base side")
    }

    @Test("The text, JUnit and annotation outputs print the reason built from the grounds")
    func renderersPrintTheReason() throws {
        let comparison = compareCosts(tenFrames.map { $0 * 1e6 }, tenFramesALittleWorse.map { $0 * 1e6 })
        let main = try #require(comparison.metrics.first { $0.id == "main-thread-ms" })
        #expect(main.grounds == .notSignificant(.typicalFrame, alpha: 0.01))
        let sentence = "median shift +1.40 ms (+14.0%), p = 0.1402; not significant at alpha 0.01"
        #expect(main.reason == sentence)
        #expect(comparison.text().contains("\n  main-thread-ms: possible regression: \(sentence)\n"))
        #expect(comparison.junit().xml().contains("possible regression: \(sentence)"))
        #expect(
            comparison.annotations().contains {
                $0.message == "main-thread cost per frame may have regressed: \(sentence)"
            })
    }
}
