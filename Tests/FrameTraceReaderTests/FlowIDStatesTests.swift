import FrameTrace
import Testing

@testable import FrameTraceReader

/// The Perfetto reader's per-flow-id states: an array by id for small ids, a dictionary for ids
/// spread wide; both must behave as the dictionary they replace.
@Suite("Flow id states")
struct FlowIDStatesTests {
    static func events(_ ids: [UInt64]) -> [TraceEvent] {
        ids.map {
            TraceEvent(
                phase: .flowStep, name: .empty, thread: ThreadKey(processID: 1, threadID: 1), timestamp: 0, id: $0)
        }
    }

    @Test(
        "Set, read and listed as a dictionary would, for counter ids, ids at the array's limit, and pointers",
        arguments: [
            Array(UInt64(1)...500),
            [0, 4_095, 17, 4_095, 3],
            [4_096, 1, 2],
            [UInt64.max, 0, 1 << 40, UInt64.max - 1],
            (0..<2_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 },
        ])
    func behavesAsADictionary(ids: [UInt64]) {
        var states = FlowIDStates(ids: Self.events(ids))
        var model: [UInt64: UInt8] = [:]
        for (step, id) in ids.enumerated() {
            #expect(states[id] == model[id, default: 0])
            let bit: UInt8 = step % 3 == 0 ? 2 : 1
            states[id] |= bit
            model[id, default: 0] |= bit
        }
        var listed: [UInt8] = []
        states.forEachState { listed.append($0) }
        #expect(listed.sorted() == model.values.sorted())
        for id in ids { #expect(states[id] == model[id]) }
    }
}
