@_spi(FramescopeInternals) import FrameTrace

/// The batch update that turns one ``ListSnapshot`` into another: section and item deletes,
/// inserts and moves, and item reconfigures.
///
/// The diff is what the fast strategy of technique 5 computes off the main thread, so that the
/// main thread only applies it and touches the rows that changed.
///
/// **How it is computed.** Identifiers are unique, so every identifier present in both
/// snapshots is one of Heckel's unique anchors: one hash table lookup per identifier matches
/// old and new positions (Heckel's passes 1–3; his passes 4–5, which extend matches to
/// neighbouring non-unique lines, have nothing to do). Unmatched old identifiers are deletes and
/// unmatched new ones inserts. Among the matched ones, an item that changed section must move;
/// within each surviving section, the items that stay put are a longest increasing subsequence
/// of their old positions taken in new order, and every other item moves. Sections are treated
/// the same way.
///
/// **What "minimal" means.** Deletes and inserts are exactly the set differences: an identifier
/// present in both snapshots is never deleted and re-inserted. Given that, the number of section
/// moves and of item moves is the smallest that any batch update with the semantics of
/// ``applying(to:makeRow:)`` can use: items that stay in place must keep their relative order,
/// and a longest increasing subsequence is the largest set that does.
///
/// **What it lists.** Unlike UITableView, which drops a deleted section's rows on its own and
/// asks its data source for an inserted section's rows, the diff lists every item change
/// explicitly: the items of a deleted section appear as item deletes (or moves, when they
/// survive elsewhere) and the items of an inserted section as item inserts (or moves), so the
/// diff can be applied without a data source. A UIKit adapter drops the item deletes in deleted
/// sections and the item inserts into inserted sections.
///
/// Every list is sorted: deletes by old position, inserts, moves and reconfigures by new
/// position.
///
/// ```swift
/// var old = ListSnapshot<String, Int>()
/// old.appendSections(["dishes"])
/// old.appendItems([1, 2, 3, 4])
/// var new = old
/// new.deleteItems([2])
/// new.moveItem(1, afterItem: 4)
/// new.appendItems([5])
/// let diff = SnapshotDiff(from: old, to: new)
/// diff.itemDeletes.map(\.id)   // [2]
/// diff.itemMoves.map(\.id)     // [1]
/// diff.itemInserts.map(\.id)   // [5]
/// old.applying(diff) == new    // true
/// ```
package struct SnapshotDiff<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Equatable, Sendable {
    /// An identifier that appears or disappears at one position.
    package struct Change<ID: Hashable & Sendable, Position: Hashable & Sendable>: Hashable, Sendable {
        /// The section or item identifier.
        package var id: ID
        /// Its position: old for deletes, new for inserts and reconfigures.
        package var position: Position

        /// Creates a change.
        /// - Parameters:
        ///   - id: The section or item identifier.
        ///   - position: Its position.
        package init(id: ID, position: Position) {
            self.id = id
            self.position = position
        }
    }

    /// An identifier present in both snapshots whose position is not implied by the other
    /// changes.
    package struct Move<ID: Hashable & Sendable, Position: Hashable & Sendable>: Hashable, Sendable {
        /// The section or item identifier.
        package var id: ID
        /// Its position in the old snapshot.
        package var from: Position
        /// Its position in the new snapshot.
        package var to: Position

        /// Creates a move.
        /// - Parameters:
        ///   - id: The section or item identifier.
        ///   - from: Its position in the old snapshot.
        ///   - to: Its position in the new snapshot.
        package init(id: ID, from: Position, to: Position) {
            self.id = id
            self.from = from
            self.to = to
        }
    }

    /// Sections only in the old snapshot, at their old indexes, ascending.
    package private(set) var sectionDeletes: [Change<SectionID, Int>] = []
    /// Sections only in the new snapshot, at their new indexes, ascending.
    package private(set) var sectionInserts: [Change<SectionID, Int>] = []
    /// Sections in both snapshots that move, ascending by new index.
    package private(set) var sectionMoves: [Move<SectionID, Int>] = []
    /// Items only in the old snapshot, at their old index paths, ascending.
    package private(set) var itemDeletes: [Change<ItemID, ListIndexPath>] = []
    /// Items only in the new snapshot, at their new index paths, ascending.
    package private(set) var itemInserts: [Change<ItemID, ListIndexPath>] = []
    /// Items in both snapshots that move (within a section or to another), ascending by new
    /// index path.
    package private(set) var itemMoves: [Move<ItemID, ListIndexPath>] = []
    /// Items in both snapshots that the new snapshot marks for reconfigure, at their new index
    /// paths, ascending. A reconfigured item may also move.
    package private(set) var itemReconfigures: [Change<ItemID, ListIndexPath>] = []

    /// Whether applying the diff changes nothing.
    package var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && itemDeletes.isEmpty
            && itemInserts.isEmpty && itemMoves.isEmpty && itemReconfigures.isEmpty
    }

    /// Computes the batch update from one snapshot to another.
    ///
    /// - Parameters:
    ///   - old: The snapshot on screen.
    ///   - new: The snapshot to show.
    /// - Complexity: O(*n*) expected in the number of sections and items of both snapshots
    ///   (hash table matching), plus O(*m* log *m*) for the *m* items of a section whose order
    ///   changed. Items and sections that keep their order cost O(1) each in that step, so a
    ///   typical update, which reorders a few rows, runs in linear time.
    package init(from old: ListSnapshot<SectionID, ItemID>, to new: ListSnapshot<SectionID, ItemID>) {
        let oldSectionOfNew = new.sectionIdentifiers.map { old.indexOfSection($0) }
        diffSections(old: old, new: new, oldSectionOfNew: oldSectionOfNew)
        diffItems(old: old, new: new, oldSectionOfNew: oldSectionOfNew)
    }

    private mutating func diffSections(
        old: ListSnapshot<SectionID, ItemID>, new: ListSnapshot<SectionID, ItemID>, oldSectionOfNew: [Int?]
    ) {
        var survives = [Bool](repeating: false, count: old.numberOfSections)
        let staysInPlace = longestIncreasingSubsequenceMask(oldSectionOfNew.compactMap { $0 })
        var matchedCount = 0
        for (index, id) in new.sectionIdentifiers.enumerated() {
            guard let from = oldSectionOfNew[index] else {
                sectionInserts.append(Change(id: id, position: index))
                continue
            }
            survives[from] = true
            if !staysInPlace[matchedCount] {
                sectionMoves.append(Move(id: id, from: from, to: index))
            }
            matchedCount += 1
        }
        for (index, id) in old.sectionIdentifiers.enumerated() where !survives[index] {
            sectionDeletes.append(Change(id: id, position: index))
        }
    }

    private mutating func diffItems(
        old: ListSnapshot<SectionID, ItemID>, new: ListSnapshot<SectionID, ItemID>, oldSectionOfNew: [Int?]
    ) {
        // Heckel's symbol table: identifiers are unique, so one entry per old item.
        var oldFlatIndex = [ItemID: Int](minimumCapacity: old.numberOfItems)
        var oldPaths: [ListIndexPath] = []
        oldPaths.reserveCapacity(old.numberOfItems)
        for (section, items) in old.itemsBySection.enumerated() {
            for (row, id) in items.enumerated() {
                oldFlatIndex[id] = oldPaths.count
                oldPaths.append(ListIndexPath(section: section, item: row))
            }
        }
        var isMatched = [Bool](repeating: false, count: oldPaths.count)
        let marks = new.reconfiguredItemIdentifiers
        var sources: [Int?] = []
        var keptOldRows: [Int] = []
        for (section, items) in new.itemsBySection.enumerated() {
            let keptSection = oldSectionOfNew[section]
            sources.removeAll(keepingCapacity: true)
            keptOldRows.removeAll(keepingCapacity: true)
            for id in items {
                let source = oldFlatIndex[id]
                sources.append(source)
                if let source, oldPaths[source].section == keptSection {
                    keptOldRows.append(oldPaths[source].item)
                }
            }
            let staysInPlace = longestIncreasingSubsequenceMask(keptOldRows)
            var keptCount = 0
            for (row, id) in items.enumerated() {
                let to = ListIndexPath(section: section, item: row)
                guard let source = sources[row] else {
                    itemInserts.append(Change(id: id, position: to))
                    continue
                }
                isMatched[source] = true
                let from = oldPaths[source]
                var moves = true
                if from.section == keptSection {
                    moves = !staysInPlace[keptCount]
                    keptCount += 1
                }
                if moves {
                    itemMoves.append(Move(id: id, from: from, to: to))
                }
                if !marks.isEmpty && marks.contains(id) {
                    itemReconfigures.append(Change(id: id, position: to))
                }
            }
        }
        for (flatIndex, path) in oldPaths.enumerated() where !isMatched[flatIndex] {
            itemDeletes.append(Change(id: old.itemsBySection[path.section][path.item], position: path))
        }
    }
}

/// Marks one longest strictly increasing subsequence of `values` (patience sorting).
///
/// - Complexity: O(*n* log *n*); O(1) for each value larger than every value before it, so an
///   increasing input costs O(*n*).
private func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    // tails[k]: index of the smallest last value of an increasing subsequence of length k + 1.
    var tails: [Int] = []
    var predecessor = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var length = tails.count
        if let last = tails.last, values[last] >= value {
            // The first tail whose value is not below `value` (the last one is not).
            length = tails.partitioningIndex { values[$0] >= value }
            tails[length] = index
        } else {
            tails.append(index)
        }
        if length > 0 { predecessor[index] = tails[length - 1] }
    }
    var mask = [Bool](repeating: false, count: values.count)
    var index = tails.last ?? -1
    while index >= 0 {
        mask[index] = true
        index = predecessor[index]
    }
    return mask
}
