import Testing

@testable import FrameAnalysis

/// A frame's times by category and its top spans are slices of the analysis's tallies; they must
/// read, compare and hash as the dictionaries and arrays they replaced.
@Suite("Category times, contributors and tallies")
struct CategoryTimesTests {
    @Test("Category times compare and hash by what they map, not by how they are stored")
    func equalityIgnoresStorage() {
        var tally = Tally(keyCount: 4)
        // Group 0 touches "draw" (key 3) before "layout" (key 1); the dictionary lists them the other way.
        tally.add(7, key: 3, group: 0)
        tally.add(5, key: 1, group: 0)
        let sums = tally.finish(groupCount: 1)
        let names = ["script", "layout", "style", "draw"]
        let fromTally = sums.times(group: 0, names: names)
        let fromDictionary = CategoryTimes(["layout": 5, "draw": 7])
        #expect(fromTally == fromDictionary)
        #expect(fromTally.hashValue == fromDictionary.hashValue)
        #expect(fromTally["layout"] == 5 && fromTally["draw"] == 7 && fromTally["script"] == nil)
        #expect(fromTally.dictionary == ["layout": 5, "draw": 7])
        #expect(fromTally.count == 2 && !fromTally.isEmpty)
        #expect(fromTally.sorted { $0.key < $1.key }.map(\.value) == [7, 5])
        #expect(fromTally != ["layout": 5, "draw": 8])
        #expect(fromTally != ["layout": 5])
        #expect(fromTally != ["layout": 5, "draw": 7, "style": 1])
        #expect(CategoryTimes().isEmpty && CategoryTimes() == [:])
    }

    @Test("Contributors keep their order, and compare by it")
    func contributorsKeepOrder() {
        let first = FrameReport.Contributor(name: "inflate", nanoseconds: 9)
        let second = FrameReport.Contributor(name: "bind", nanoseconds: 4)
        let top: Contributors = [first, second]
        #expect(top.map(\.name) == ["inflate", "bind"])
        #expect(top == Contributors([first, second]))
        #expect(top != Contributors([second, first]))
        #expect(top.hashValue == Contributors([first, second]).hashValue)
    }

    @Test("A tally whose groups came back (threads swept one after another) sums as one that saw each group once")
    func repeatedGroupsMerge() {
        // Group by group: the fast path. The same additions thread by thread revisit every group.
        let additions: [(value: Int64, key: Int, group: Int)] = [
            (1, 0, 0), (2, 1, 0), (3, 0, 1), (4, 2, 2), (5, 1, 0), (6, 0, 1), (7, 2, 2), (8, 2, 0),
        ]
        var inOrder = Tally(keyCount: 3)
        for addition in additions.sorted(by: { ($0.group, $0.key) < ($1.group, $1.key) }) {
            inOrder.add(addition.value, key: addition.key, group: addition.group)
        }
        var revisited = Tally(keyCount: 3)
        for addition in additions { revisited.add(addition.value, key: addition.key, group: addition.group) }
        let a = inOrder.finish(groupCount: 3)
        let b = revisited.finish(groupCount: 3)
        let names = ["x", "y", "z"]
        for group in 0..<3 {
            #expect(a.times(group: group, names: names) == b.times(group: group, names: names))
            #expect(Set(b[group].map(\.key)).count == b[group].count, "each key once per group")
        }
        #expect(b.times(group: 0, names: names) == ["x": 1, "y": 7, "z": 8])
        #expect(b.times(group: 1, names: names) == ["x": 9])
        #expect(b.times(group: 2, names: names) == ["z": 11])
    }

    @Test("Lane figures group category times from frames that share a names table and from frames that do not")
    func seriesAcrossNameTables() {
        var tally = Tally(keyCount: 2)
        tally.add(3, key: 0, group: 0)
        tally.add(4, key: 1, group: 1)
        let sums = tally.finish(groupCount: 2)
        var series = CategorySeries()
        series.append(sums.times(group: 0, names: ["layout", "draw"]))
        series.append(sums.times(group: 1, names: ["layout", "draw"]))
        series.append(["draw": 5, "decode": 6])
        let byName = Dictionary(uniqueKeysWithValues: zip(series.names, series.values))
        #expect(byName == ["layout": [3], "draw": [4, 5], "decode": [6]])
    }
}
