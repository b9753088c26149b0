/// A frame's largest contributors by span name, largest first: what a `[FrameReport.Contributor]`
/// would hold, stored as name numbers into the trace's symbol strings.
///
/// Every frame keeps its top spans. Built as arrays of named values, each frame allocated one and
/// retained three names; here a frame keeps a slice of the analysis's sums (one buffer for all
/// frames) and the names they index, as ``CategoryTimes`` does for categories.
///
/// ```swift
/// let top: Contributors = [.init(name: "inflate", nanoseconds: 9_000_000)]
/// top.map(\.name)   // ["inflate"]
/// ```
package struct Contributors: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The names the entries' keys are positions in.
    private let names: [String]
    /// The contributors in order: each entry's `key` is its name's position in `names`.
    private let entries: ArraySlice<Tally.Entry>

    /// A slice of a finished tally's sums, in the order given: `names[key]` must exist for every key.
    init(names: [String], entries: ArraySlice<Tally.Entry>) {
        self.names = names
        self.entries = entries
    }

    /// The contributors of `array`, in its order.
    package init(_ array: [FrameReport.Contributor]) {
        names = array.map(\.name)
        entries = array.indices.map { Tally.Entry(group: 0, key: UInt32($0), value: array[$0].nanoseconds) }[...]
    }

    package init(arrayLiteral elements: FrameReport.Contributor...) { self.init(elements) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { entries.count }

    package subscript(position: Int) -> FrameReport.Contributor {
        let entry = entries[entries.startIndex + position]
        return FrameReport.Contributor(name: names[Int(entry.key)], nanoseconds: entry.value)
    }

    /// Equal when they list the same names with the same times in the same order.
    package static func == (a: Contributors, b: Contributors) -> Bool { a.elementsEqual(b) }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for contributor in self { hasher.combine(contributor) }
    }
}
