import FrameTrace
import FrameTraceReader
import Testing

/// The reader's third stage alone: pairing one thread's `B` and `E` records.
@Suite("Begin/end pairing")
struct BeginEndPairerTests {
    static let a = Symbol(rawValue: 1)
    static let b = Symbol(rawValue: 2)

    static func begin(_ name: Symbol, at timestamp: Int64, input: Int, position: Int) -> BeginEndPairer.Record {
        .init(timestamp: timestamp, inputIndex: input, name: name, isEnd: false, payload: position)
    }

    static func end(_ name: Symbol?, at timestamp: Int64, input: Int) -> BeginEndPairer.Record {
        .init(timestamp: timestamp, inputIndex: input, name: name, isEnd: true, payload: -1)
    }

    /// (begin position, end timestamp) for every closed pair, and the input index of every unmatched end.
    static func summary(_ outcomes: [BeginEndPairer.Outcome]) -> (closed: [[Int64]], unmatched: [Int]) {
        var closed: [[Int64]] = []
        var unmatched: [Int] = []
        for outcome in outcomes {
            switch outcome {
            case .closed(let begin, let end): closed.append([Int64(begin.payload), end.timestamp])
            case .unmatched(let end, _): unmatched.append(end.inputIndex)
            }
        }
        return (closed, unmatched)
    }

    @Test("Ends written out of timestamp order close the begins their timestamps nest: B A@0, B B@5, E A@10, E B@7")
    func outOfOrderEnds() {
        let records = [
            Self.begin(Self.a, at: 0, input: 0, position: 0), Self.begin(Self.b, at: 5, input: 1, position: 1),
            Self.end(Self.a, at: 10, input: 2), Self.end(Self.b, at: 7, input: 3),
        ]
        let (outcomes, open) = BeginEndPairer.pair(records)
        let result = Self.summary(outcomes)
        #expect(result.closed == [[1, 7], [0, 10]])
        #expect(result.unmatched.isEmpty)
        #expect(open.isEmpty)
    }

    @Test("Among ends at one timestamp, the one named like the innermost begin goes first")
    func tiedEndsPreferTheInnermostName() {
        let records = [
            Self.begin(Self.a, at: 0, input: 0, position: 0), Self.begin(Self.b, at: 1, input: 1, position: 1),
            Self.end(Self.a, at: 4, input: 2), Self.end(Self.b, at: 4, input: 3),
        ]
        let result = Self.summary(BeginEndPairer.pair(records).outcomes)
        #expect(result.closed == [[1, 4], [0, 4]])
    }

    @Test(
        "An end named like no open begin is unmatched; an unnamed end closes the innermost; an unclosed begin stays open"
    )
    func unmatchedAndOpen() {
        let records = [
            Self.end(Self.a, at: 0, input: 0),
            Self.begin(Self.a, at: 1, input: 1, position: 0), Self.begin(Self.b, at: 2, input: 2, position: 1),
            Self.end(Symbol(rawValue: 9), at: 3, input: 3), Self.end(nil, at: 4, input: 4),
        ]
        let (outcomes, open) = BeginEndPairer.pair(records)
        let result = Self.summary(outcomes)
        #expect(result.unmatched == [0, 3])
        #expect(result.closed == [[1, 4]])
        #expect(open.map(\.payload) == [0])
        guard case .unmatched(_, let hadOpen) = outcomes[0], case .unmatched(_, let hadOpenLater) = outcomes[1] else {
            Issue.record("expected two unmatched ends first, got \(outcomes)")
            return
        }
        #expect(!hadOpen)
        #expect(hadOpenLater)
    }
}
