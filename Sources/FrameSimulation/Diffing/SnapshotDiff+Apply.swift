extension SnapshotDiff {
    /// Applies the diff to sectioned rows laid out like the old snapshot, with the semantics of
    /// UITableView's `performBatchUpdates`.
    ///
    /// The semantics, in order:
    /// 1. Item deletes and the sources of item moves leave, addressed by old index paths (as if
    ///    removed one by one in descending order, so no removal shifts another).
    /// 2. Section deletes and the sources of section moves leave, addressed by old indexes; a
    ///    moving section takes its remaining rows with it.
    /// 3. Section inserts (empty) and section move destinations arrive at their new indexes,
    ///    in ascending order; every other section keeps its relative order.
    /// 4. Item inserts and item move destinations arrive at their new index paths, in ascending
    ///    order; every other row keeps its relative order in its section.
    ///
    /// Reconfigures do not change the layout: the caller rebinds the rows at
    /// ``itemReconfigures`` afterwards. This is the main-thread step of technique 5: rows that
    /// did not change are carried over untouched, and `makeRow` runs only for inserted items.
    ///
    /// ```swift
    /// let rows = diff.applying(to: oldRows) { id, path in RowModel(id: id) }
    /// ```
    ///
    /// - Parameters:
    ///   - sections: Rows laid out like the snapshot the diff starts from; a mismatch is a
    ///     precondition failure.
    ///   - makeRow: Makes the row for an inserted item, given its identifier and new index path.
    ///     Called in ascending index-path order.
    /// - Returns: The rows laid out like the snapshot the diff leads to.
    /// - Throws: What `makeRow` throws.
    /// - Complexity: O(*s* + *m* + *k* log *k*): *s* sections, *m* rows in the sections that
    ///   change, *k* changes.
    package func applying<Row>(
        to sections: [[Row]], makeRow: (ItemID, ListIndexPath) throws -> Row
    ) rethrows -> [[Row]] {
        var sections = sections
        var movedRows = [Row?](repeating: nil, count: itemMoves.count)
        var leaving =
            itemDeletes.map { (path: $0.position, move: Int?.none) }
            + itemMoves.enumerated().map { (path: $0.element.from, move: Int?.some($0.offset)) }
        leaving.sort { $0.path < $1.path }
        var next = 0
        while next < leaving.count {
            let section = leaving[next].path.section
            var staying: [Row] = []
            staying.reserveCapacity(sections[section].count)
            for (row, element) in sections[section].enumerated() {
                if next < leaving.count, leaving[next].path == ListIndexPath(section: section, item: row) {
                    if let move = leaving[next].move { movedRows[move] = element }
                    next += 1
                } else {
                    staying.append(element)
                }
            }
            precondition(
                next == leaving.count || leaving[next].path.section != section, "the diff does not fit these rows")
            sections[section] = staying
        }

        sections = applyingSectionChanges(to: sections) { _ in [] }

        var arriving =
            try itemInserts.map { (path: $0.position, row: try makeRow($0.id, $0.position)) }
            + itemMoves.enumerated().map { (path: $0.element.to, row: movedRows[$0.offset]!) }
        arriving.sort { $0.path < $1.path }
        next = 0
        while next < arriving.count {
            let section = arriving[next].path.section
            let end = arriving[next...].firstIndex { $0.path.section != section } ?? arriving.count
            sections[section] = merging(sections[section], with: arriving[next..<end].map { ($0.path.item, $0.row) })
            next = end
        }
        return sections
    }

    /// Applies the section changes (steps 2 and 3 of ``applying(to:makeRow:)``) to one value
    /// per old section.
    func applyingSectionChanges<Payload>(
        to sections: [Payload], makeSection: (SectionID) -> Payload
    ) -> [Payload] {
        var isLeaving = [Bool](repeating: false, count: sections.count)
        for delete in sectionDeletes { isLeaving[delete.position] = true }
        for move in sectionMoves { isLeaving[move.from] = true }
        var arriving =
            sectionInserts.map { (index: $0.position, value: makeSection($0.id)) }
            + sectionMoves.map { (index: $0.to, value: sections[$0.from]) }
        arriving.sort { $0.index < $1.index }
        let staying = sections.indices.filter { !isLeaving[$0] }.map { sections[$0] }
        return merging(staying, with: arriving)
    }
}

extension ListSnapshot {
    /// Returns the snapshot that applying a diff to this one produces.
    ///
    /// When the diff was computed from this snapshot to `new`, the result equals `new` except
    /// for marks on items that `new` inserted: the result marks exactly the diff's
    /// reconfigures. See ``SnapshotDiff/applying(to:makeRow:)`` for the semantics.
    ///
    /// ```swift
    /// let diff = SnapshotDiff(from: old, to: new)
    /// old.applying(diff) == new   // when new marks no inserted item
    /// ```
    ///
    /// - Parameter diff: A diff computed from a snapshot laid out like this one.
    /// - Returns: The snapshot after the batch update.
    /// - Complexity: O(*n* + *k* log *k*) for *n* items and *k* changes.
    package func applying(_ diff: SnapshotDiff<SectionID, ItemID>) -> ListSnapshot {
        ListSnapshot(
            sectionIdentifiers: diff.applyingSectionChanges(to: sectionIdentifiers) { $0 },
            itemsBySection: diff.applying(to: itemsBySection) { id, _ in id },
            reconfiguredItemIdentifiers: Set(diff.itemReconfigures.map(\.id))
        )
    }
}

/// Places elements that arrive at final indexes (ascending) among the elements that stay, which
/// keep their order and fill the other indexes.
private func merging<Element>(_ staying: [Element], with arriving: [(index: Int, value: Element)]) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(staying.count + arriving.count)
    var nextStaying = staying.makeIterator()
    var nextArriving = 0
    while true {
        if nextArriving < arriving.count, arriving[nextArriving].index == result.count {
            result.append(arriving[nextArriving].value)
            nextArriving += 1
        } else if let element = nextStaying.next() {
            result.append(element)
        } else {
            break
        }
    }
    precondition(nextArriving == arriving.count, "the diff does not fit these rows")
    return result
}
