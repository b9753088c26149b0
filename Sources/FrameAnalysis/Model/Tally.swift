/// Sums of positive values by group (a frame, a thread) and key (a category's or a span name's
/// number), for many groups that each touch a few keys: what a dictionary per group would hold,
/// made with array updates instead of a hash per addition.
///
/// Additions are summed in a dense scratch array indexed by key for as long as they go to the same
/// group; when a different group is added to, the group's sums are appended to one flat list.
/// Additions made group by group (a thread's self-time segments in time order, to frames in
/// time order) thus leave one entry per group and key; ``finish(groupCount:)`` merges any other
/// order. Values must be positive: a scratch sum of 0 means "not touched yet", and sums of
/// positive values saturate at `Int64.max` in any order, so the order of additions never
/// changes a sum.
///
/// ```swift
/// var tally = Tally(keyCount: 3)
/// tally.add(5, key: 2, group: 0)
/// tally.add(1, key: 2, group: 0)
/// let sums = tally.finish(groupCount: 1)
/// sums[0].map(\.value)   // [6]
/// ```
struct Tally {
    /// The sum of one key in one group.
    struct Entry {
        var group: UInt32
        var key: UInt32
        var value: Int64
    }

    /// Per key, the current group's sum so far; 0 for keys it has not touched.
    private var scratch: [Int64]
    /// The keys the current group has touched, in order of first touch.
    private var touched: [UInt32] = []
    private var group = -1
    private var entries: [Entry] = []
    /// The last group flushed to `entries`, and whether some group was flushed after a group
    /// numbered at least as high: only then may `entries` hold a group in pieces, or a key twice
    /// in one group, for ``finish(groupCount:)`` to merge.
    private var lastFlushed = -1
    private var repeatsGroups = false
    /// How many sums a group keeps, its largest; `nil` for all.
    private let limit: Int?
    /// Per key, its place in the order that breaks ties between equal sums when only the largest
    /// are kept (the order of the keys' names, so that the result does not depend on the order in
    /// which a file happened to name them).
    private let rank: [UInt32]

    /// A tally of keys `0..<keyCount`.
    init(keyCount: Int) {
        scratch = Array(repeating: 0, count: keyCount)
        limit = nil
        rank = []
    }

    /// A tally of keys `0..<keyCount` that keeps only each group's `limit` largest sums (on
    /// ties, the key with the lower `rank` first), for a group's top few out of many keys in a
    /// fraction of the memory. Additions must come group by group in increasing order, so that a
    /// group's sums are final when the next group begins.
    /// - Parameter rank: Per key, its place in the tie-breaking order; `keyCount` entries.
    init(keyCount: Int, largestPerGroup limit: Int, rank: [UInt32]) {
        precondition(rank.count == keyCount, "one rank per key")
        scratch = Array(repeating: 0, count: keyCount)
        self.limit = limit
        self.rank = rank
    }

    /// Whether `entry` goes before `other` among a group's largest: the larger sum, then the
    /// lower rank.
    @inline(__always)
    static func precedes(_ entry: Entry, _ other: Entry, rank: [UInt32]) -> Bool {
        (other.value, rank[Int(entry.key)]) < (entry.value, rank[Int(other.key)])
    }

    /// Adds `value` (positive) to `key` in `group`. Groups and keys are positions: less than
    /// 2³² (a frame or a thread of a trace held in memory, a symbol).
    @inline(__always)
    mutating func add(_ value: Int64, key: Int, group: Int) {
        if group != self.group {
            assert(
                limit == nil || group > self.group,
                "a tally that keeps the largest sums takes groups in increasing order")
            flush()
            self.group = group
        }
        if scratch[key] == 0 { touched.append(UInt32(key)) }
        scratch[key] = scratch[key].addingSaturating(value)
    }

    /// Adds the sums of `others`, tallies of the same keys (and limit) that took additions apart
    /// from this one and from each other, for work split between threads.
    ///
    /// Sums of positive values do not depend on the order of additions, so a tally without a
    /// limit may merge any others. A tally that keeps each group's largest sums keeps them only of
    /// the additions it took: each tally must touch only groups after every group the tallies
    /// before it (this one first) touched, and then the merged tally holds exactly what one tally
    /// taking every run of additions in turn would.
    mutating func merge(_ others: [Tally]) {
        flush()
        entries.reserveCapacity(entries.count + others.reduce(0) { $0 + $1.entries.count + $1.touched.count })
        for other in others {
            assert(limit == other.limit, "merged tallies keep the same sums")
            // `other` is flushed where it is still held once (see ``flush()``), so that this copy
            // and its flush copy nothing.
            var other = other
            other.flush()
            assert(
                limit == nil || entries.last.map { last in other.entries.allSatisfy { $0.group > last.group } } ?? true,
                "a tally that keeps the largest sums merges only later groups")
            if other.repeatsGroups || (other.entries.first.map { Int($0.group) <= lastFlushed } ?? false) {
                repeatsGroups = true
            }
            entries.append(contentsOf: other.entries)
            lastFlushed = max(lastFlushed, other.lastFlushed)
            group = max(group, other.group)
        }
    }

    /// Appends the current group's sums (its largest, with a limit) to `entries` and clears the
    /// scratch. Done by the tally itself when its group changes and when it finishes; a tally
    /// about to be merged (``merge(_:)``) is flushed where it is made, so that the merge reads it
    /// without copying it.
    mutating func flush() {
        guard !touched.isEmpty else { return }
        if group <= lastFlushed { repeatsGroups = true }
        lastFlushed = group
        if let limit {
            // The largest first, the lower rank first on ties.
            let start = entries.count
            for key in touched {
                let entry = Entry(group: UInt32(group), key: key, value: scratch[Int(key)])
                scratch[Int(key)] = 0
                var position = entries.count
                while position > start, Self.precedes(entry, entries[position - 1], rank: rank) {
                    position -= 1
                }
                guard position < start + limit else { continue }
                entries.insert(entry, at: position)
                if entries.count > start + limit { entries.removeLast() }
            }
        } else {
            for key in touched {
                entries.append(Entry(group: UInt32(group), key: key, value: scratch[Int(key)]))
                scratch[Int(key)] = 0
            }
        }
        touched.removeAll(keepingCapacity: true)
    }

    /// The sums of groups `0..<groupCount`, each key once per group (a tally that keeps the
    /// largest sums: those, largest first, the lower rank first on ties); the tally is left empty.
    /// - Complexity: O(*e* + *g*) for *e* entries and *g* groups.
    mutating func finish(groupCount: Int) -> Sums {
        flush()
        defer {
            entries = []
            group = -1
            lastFlushed = -1
            repeatsGroups = false
        }
        // Each group flushed once, in increasing order: its entries are together, each key once
        // (and, with a limit, its largest in order), as the result wants them.
        if !repeatsGroups {
            var offsets = Array(repeating: 0, count: groupCount + 1)
            for entry in entries { offsets[Int(entry.group) + 1] += 1 }
            for group in 0..<groupCount { offsets[group + 1] += offsets[group] }
            return Sums(entries: entries, offsets: offsets)
        }
        var offsets = groupEntries(groupCount: groupCount)
        mergeKeys(offsets: &offsets, groupCount: groupCount)
        return Sums(entries: entries, offsets: offsets)
    }

    /// Groups the entries: they already are when additions came group by group, else a stable
    /// counting sort by group. Returns where each group's entries begin (and, last, their end).
    private mutating func groupEntries(groupCount: Int) -> [Int] {
        var offsets = Array(repeating: 0, count: groupCount + 1)
        var isGrouped = true
        var previous: UInt32 = 0
        for entry in entries {
            offsets[Int(entry.group) + 1] += 1
            if entry.group < previous { isGrouped = false }
            previous = entry.group
        }
        for group in 0..<groupCount { offsets[group + 1] += offsets[group] }
        if !isGrouped {
            var next = offsets
            var grouped = entries
            for entry in entries {
                grouped[next[Int(entry.group)]] = entry
                next[Int(entry.group)] += 1
            }
            entries = grouped
        }
        return offsets
    }

    /// Merges each group's entries of the same key, in place (a group's merged entries never
    /// outnumber its entries), keeping the largest first up to the limit; `offsets` becomes the
    /// merged groups'.
    private mutating func mergeKeys(offsets: inout [Int], groupCount: Int) {
        var written = 0
        for group in 0..<groupCount {
            for index in offsets[group]..<offsets[group + 1] {
                let key = Int(entries[index].key)
                if scratch[key] == 0 { touched.append(entries[index].key) }
                scratch[key] = scratch[key].addingSaturating(entries[index].value)
            }
            offsets[group] = written
            for key in touched {
                let entry = Entry(group: UInt32(group), key: key, value: scratch[Int(key)])
                scratch[Int(key)] = 0
                guard let limit else {
                    entries[written] = entry
                    written += 1
                    continue
                }
                // The largest first, as ``flush()`` keeps them.
                var position = written
                while position > offsets[group], Self.precedes(entry, entries[position - 1], rank: rank) {
                    entries[position] = entries[position - 1]
                    position -= 1
                }
                entries[position] = entry
                written = min(written + 1, offsets[group] + limit)
            }
            touched.removeAll(keepingCapacity: true)
        }
        offsets[groupCount] = written
        entries.removeSubrange(written...)
    }

    /// A finished tally: per group, its keys' sums.
    struct Sums {
        private let entries: [Entry]
        /// Group `g`'s entries are `entries[offsets[g]..<offsets[g + 1]]`.
        private let offsets: [Int]

        fileprivate init(entries: [Entry], offsets: [Int]) {
            self.entries = entries
            self.offsets = offsets
        }

        /// The sums of one group, each key once: in no particular order, or with a limit, the
        /// largest first.
        subscript(group: Int) -> ArraySlice<Entry> { entries[offsets[group]..<offsets[group + 1]] }

        /// The sums of one group keyed by name: `names[key]` must be distinct for distinct keys.
        /// A slice of the sums, not a copy: every group's times share one buffer.
        func times(group: Int, names: [String]) -> CategoryTimes {
            CategoryTimes(names: names, entries: self[group])
        }

        /// Per key, its sums in the groups that touched it, in group order.
        func valuesByKey(keyCount: Int) -> [[Int64]] {
            var result = Array(repeating: [Int64](), count: keyCount)
            for entry in entries { result[Int(entry.key)].append(entry.value) }
            return result
        }
    }
}
