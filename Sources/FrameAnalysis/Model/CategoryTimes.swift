/// Time by category name, for one frame or one lane of a frame: what a `[String: Int64]` would
/// hold, stored as category numbers into a names table the frames share.
///
/// A large trace has tens of thousands of frames, each with its main-thread and background time
/// by category. Built as dictionaries, every frame hashed every one of its category names and
/// allocated two hash tables; here a frame keeps a slice of the analysis's sums (one buffer for
/// all frames) and the names table they index, and nothing is hashed or allocated per frame.
///
/// It reads like the dictionary it replaces: iteration yields `(key: name, value: nanoseconds)`
/// pairs in no particular order, `times["layout"]` looks a name up, and two values are equal
/// when they map the same names to the same times, however they are stored.
///
/// ```swift
/// let times: CategoryTimes = ["layout": 1_500_000, "image-decode": 400_000]
/// times["layout"]                      // 1_500_000
/// times.sorted { $0.key < $1.key }     // [("image-decode", 400_000), ("layout", 1_500_000)]
/// ```
package struct CategoryTimes: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Element = (key: String, value: Int64)

    /// The names the entries' keys are positions in.
    private let names: [String]
    /// Each category once: its name's position in `names` and its time. Only `key` and `value`
    /// are read; a slice of a ``Tally``'s sums, whose `group` is the frame's.
    private let entries: ArraySlice<Tally.Entry>

    /// No categories.
    package init() {
        names = []
        entries = []
    }

    /// The sums of one group of a finished tally keyed by category name number: `names[key]`
    /// must be distinct for distinct keys.
    init(names: [String], entries: ArraySlice<Tally.Entry>) {
        self.names = names
        self.entries = entries
    }

    /// The same times as `dictionary`.
    package init(_ dictionary: [String: Int64]) {
        var names: [String] = []
        var entries: [Tally.Entry] = []
        names.reserveCapacity(dictionary.count)
        entries.reserveCapacity(dictionary.count)
        for (name, value) in dictionary {
            entries.append(Tally.Entry(group: 0, key: UInt32(names.count), value: value))
            names.append(name)
        }
        self.init(names: names, entries: entries[...])
    }

    package init(dictionaryLiteral elements: (String, Int64)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The number of categories.
    package var count: Int { entries.count }

    package var isEmpty: Bool { entries.isEmpty }

    /// The time of the category called `name`; `nil` when it has none here.
    package subscript(name: String) -> Int64? {
        for entry in entries where names[Int(entry.key)] == name { return entry.value }
        return nil
    }

    /// The times, in the order of iteration.
    package var values: [Int64] { entries.map(\.value) }

    /// The same times as a dictionary.
    package var dictionary: [String: Int64] {
        var result = [String: Int64](minimumCapacity: entries.count)
        for (name, value) in self { result[name] = value }
        return result
    }

    package struct Iterator: IteratorProtocol {
        fileprivate let names: [String]
        fileprivate var entries: ArraySlice<Tally.Entry>.Iterator

        package mutating func next() -> Element? {
            entries.next().map { (key: names[Int($0.key)], value: $0.value) }
        }
    }

    package func makeIterator() -> Iterator { Iterator(names: names, entries: entries.makeIterator()) }

    package var underestimatedCount: Int { entries.count }

    /// Equal when both map the same names to the same times: the order of storage and the
    /// names table do not matter.
    package static func == (a: CategoryTimes, b: CategoryTimes) -> Bool {
        guard a.count == b.count else { return false }
        for (name, value) in a where b[name] != value { return false }
        return true
    }

    /// Independent of the order of storage, as equality is.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined = 0
        for (name, value) in self {
            var one = Hasher()
            one.combine(name)
            one.combine(value)
            combined &+= one.finalize()
        }
        hasher.combine(combined)
    }
}

extension CategoryTimes {
    /// Calls `body` with the names table and the entries (each a name's position in it and its
    /// time), for sums over many frames that share one table (``CategorySeries``).
    func withEntries<Result>(_ body: ([String], ArraySlice<Tally.Entry>) -> Result) -> Result {
        body(names, entries)
    }
}

/// Per category name, the times of the frames that have it, in the order they were appended:
/// what a `[String: [Int64]]` would collect from many frames' ``CategoryTimes``, with one
/// dictionary lookup per name of each names table, not one per frame and category.
struct CategorySeries {
    /// The names, in order of first appearance.
    private(set) var names: [String] = []
    /// Per name, its times.
    private(set) var values: [[Int64]] = []
    private var seriesOfName: [String: Int] = [:]
    /// The names table of the last times appended, and per position in it, its series (-1: not
    /// looked up yet). Frames from one analysis share one table, so this lookup is made once.
    private var lastNames: [String] = []
    private var seriesOfKey: [Int] = []

    mutating func append(_ times: CategoryTimes) {
        times.withEntries { names, entries in
            guard !entries.isEmpty else { return }
            if !Self.sameStorage(names, lastNames) {
                lastNames = names
                seriesOfKey = Array(repeating: -1, count: names.count)
            }
            for entry in entries {
                let key = Int(entry.key)
                var series = seriesOfKey[key]
                if series < 0 {
                    series = seriesOfName[names[key]] ?? self.names.count
                    if series == self.names.count {
                        seriesOfName[names[key]] = series
                        self.names.append(names[key])
                        values.append([])
                    }
                    seriesOfKey[key] = series
                }
                values[series].append(entry.value)
            }
        }
    }

    /// Whether two arrays are one buffer (equal counts and the same first element's address).
    private static func sameStorage(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { $0.baseAddress == x.baseAddress } }
    }
}
