import FrameSupport
@_spi(FramescopeInternals) import FrameTrace
import FrameTraceReader
import Testing

/// The reader checks threads whose spans arrive in start order in one pass and sorts the others,
/// gathering a thread's spans from where it is first found out of order and, in a second walk,
/// the ones before. Sorting every thread's spans and checking them gives the same spans: in start
/// order (longer first on equal starts, then input order), which arrival order already is on a
/// thread that stays in order.
@Suite("Partial overlaps: one pass and sorting agree")
struct PartialOverlapTests {
    @Test(
        "Seeded traces of threads in order, out of order from any point, and with B/E pairs", arguments: UInt64(1)...60)
    func agreesWithSortingEveryThread(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let threadCount = Int.random(in: 1...4, using: &generator)
        // Per thread, its events in its own order, and whether each becomes a span of the trace.
        var threads: [[(line: String, isSpan: Bool)]] = []
        for thread in 1...threadCount {
            // Spans in start order, nested or not; then some moved out of order from a random point.
            var spans: [(start: Int, duration: Int)] = []
            var start = 0
            for _ in 0..<Int.random(in: 2...20, using: &generator) {
                start += Int.random(in: 0...4, using: &generator)
                spans.append((start, Int.random(in: 0...12, using: &generator)))
            }
            spans.sort { ($0.start, -$0.duration) < ($1.start, -$1.duration) }
            if Bool.random(using: &generator) {
                let from = Int.random(in: 0..<spans.count, using: &generator)
                spans[from...].shuffle(using: &generator)
            }
            var events = spans.map {
                (#"{"ph":"X","name":"x","pid":1,"tid":\#(thread),"ts":\#($0.start),"dur":\#($0.duration)}"#, true)
            }
            if Bool.random(using: &generator) {
                // A B/E pair around everything and one inside it, at a random place in the order.
                let inner = Int.random(in: 0...40, using: &generator)
                let pair = [
                    (#"{"ph":"B","name":"outer","pid":1,"tid":\#(thread),"ts":0}"#, true),
                    (#"{"ph":"B","name":"inner","pid":1,"tid":\#(thread),"ts":\#(inner)}"#, true),
                    (
                        #"{"ph":"E","pid":1,"tid":\#(thread),"ts":\#(Int.random(in: 41...60, using: &generator))}"#,
                        false
                    ),
                    (#"{"ph":"E","pid":1,"tid":\#(thread),"ts":200}"#, false),
                ]
                events.insert(contentsOf: pair, at: Int.random(in: 0...events.count, using: &generator))
            }
            threads.append(events)
        }
        // The threads' events interleaved at random, each thread's in its own order.
        var lines: [String] = []
        var spanInputs: [Int] = []  // the input index of each event the trace keeps (X and B), in order
        var next = Array(repeating: 0, count: threads.count)
        while let thread = threads.indices.filter({ next[$0] < threads[$0].count }).randomElement(using: &generator) {
            let (line, isSpan) = threads[thread][next[thread]]
            next[thread] += 1
            if isSpan { spanInputs.append(lines.count) }
            lines.append(line)
        }
        let trace = try TraceReader.read(bytes: Array(("[" + lines.joined(separator: ",\n") + "]").utf8))
        #expect(trace.events.count == spanInputs.count)

        var positionsByThread: [ThreadKey: [Int]] = [:]
        for position in trace.events.indices where trace.events[position].phase == .complete {
            positionsByThread[trace.events[position].thread, default: []].append(position)
        }
        var expected: [Int] = []
        for var positions in positionsByThread.values {
            NestingStack.sort(&positions, of: trace.events)
            var open = NestingStack()
            for position in positions
            where !open.push(start: trace.events[position].timestamp, end: trace.events[position].endTimestamp) {
                expected.append(spanInputs[position])
            }
        }
        #expect(
            trace.diagnostics.filter { $0.kind == .partialOverlap }.map(\.eventIndex)
                == expected.sorted().map { Optional($0) })
    }
}
