import Dispatch
import FrameSupport
import FrameTrace
import Synchronization
import Testing

@testable import FrameSimulation

@Suite("Layout specs on background threads")
struct LayoutConcurrencyTests {
    static func contents() -> [FeedCellContent] {
        var generator = SeededGenerator(seed: 99)
        return (0..<100).map { _ in FeedCellContent.random(using: &generator) }
    }

    @Test("Four threads laying out the same cells at once get the serial results")
    func concurrentThreads() {
        let engine = SpecLayoutEngine()
        let contents = Self.contents()
        let serial = contents.map { engine.layout($0, width: 375) }
        let results = Mutex<[[FeedCellLayout]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            // Each thread walks the cells from a different starting point so that they overlap in time.
            let order = contents.indices.map { ($0 + thread * 25) % contents.count }
            var layouts = [FeedCellLayout?](repeating: nil, count: contents.count)
            for index in order { layouts[index] = engine.layout(contents[index], width: 375) }
            let finished = layouts.map { $0! }
            results.withLock { $0.append(finished) }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 4)
        for layouts in all { #expect(layouts == serial) }
    }

    @Test("A background batch returns every cell's layout in order")
    func asyncBatch() async {
        let engine = SpecLayoutEngine()
        let contents = Self.contents()
        let batch = await engine.layout(contents, width: 414)
        #expect(batch == contents.map { engine.layout($0, width: 414) })
        #expect(await engine.layout([], width: 414).isEmpty)
    }

    @Test("One spec tree laid out from several tasks at once gives one answer")
    func sharedTree() async {
        let content = Self.contents()[0]
        let spec = SpecLayoutEngine().layoutSpec(for: content, width: 320)
        let range = SizeRange(min: LayoutSize(width: 320, height: 0), max: LayoutSize(width: 320, height: .infinity))
        let sizes = await withTaskGroup(of: LayoutSize.self) { group in
            for _ in 0..<8 { group.addTask { spec.layout(in: range).size } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(sizes) == [SpecLayoutEngine().layout(content, width: 320).size])
    }
}
