/// The identifiers of a sectioned list: ordered sections, each holding ordered item identifiers.
///
/// A snapshot holds no models, only who is where, so it is cheap to build off the main thread
/// and cheap to compare. It follows `NSDiffableDataSourceSnapshot`: section identifiers are
/// unique, item identifiers are unique across the whole snapshot (not just within a section),
/// and items whose content changed while their identity did not are *marked for reconfigure*
/// instead of being replaced. ``SnapshotDiff`` turns two snapshots into a batch update.
///
/// Misuse (a duplicate identifier, an anchor that is not in the snapshot) is a precondition
/// failure, as it is in UIKit.
///
/// ```swift
/// var snapshot = ListSnapshot<String, Int>()
/// snapshot.appendSections(["starters", "mains"])
/// snapshot.appendItems([1, 2], toSection: "starters")
/// snapshot.appendItems([3])                       // to the last section, "mains"
/// snapshot.moveItem(3, beforeItem: 1)
/// snapshot.reconfigureItems([2])
/// snapshot.itemIdentifiers(inSection: "starters") // [3, 1, 2]
/// ```
package struct ListSnapshot<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Equatable, Sendable {
    /// The section identifiers, in display order.
    package private(set) var sectionIdentifiers: [SectionID] = []
    /// The items of each section, parallel to `sectionIdentifiers`.
    private(set) var itemsBySection: [[ItemID]] = []
    /// The items marked for reconfigure: same identity, changed content.
    package private(set) var reconfiguredItemIdentifiers: Set<ItemID> = []
    /// Index of every section identifier in `sectionIdentifiers`.
    private var sectionIndexes: [SectionID: Int] = [:]
    /// The section identifier holding each item.
    private var sectionOfItem: [ItemID: SectionID] = [:]

    /// Creates an empty snapshot.
    package init() {}

    /// Creates a snapshot from its parts; the parts must already satisfy the uniqueness rules.
    init(sectionIdentifiers: [SectionID], itemsBySection: [[ItemID]], reconfiguredItemIdentifiers: Set<ItemID>) {
        precondition(sectionIdentifiers.count == itemsBySection.count, "one item list per section")
        appendSections(sectionIdentifiers)
        for (section, items) in zip(sectionIdentifiers, itemsBySection) {
            appendItems(items, toSection: section)
        }
        reconfigureItems(Array(reconfiguredItemIdentifiers))
    }

    /// Two snapshots are equal when they hold the same sections and items in the same order and
    /// mark the same items for reconfigure.
    /// - Parameters:
    ///   - lhs: A snapshot.
    ///   - rhs: Another snapshot.
    /// - Returns: Whether the snapshots are equal.
    package static func == (lhs: ListSnapshot, rhs: ListSnapshot) -> Bool {
        // The two lookup tables are functions of the ordered lists, so they need no comparing.
        lhs.sectionIdentifiers == rhs.sectionIdentifiers && lhs.itemsBySection == rhs.itemsBySection
            && lhs.reconfiguredItemIdentifiers == rhs.reconfiguredItemIdentifiers
    }

    // MARK: Reading

    /// The number of sections.
    package var numberOfSections: Int { sectionIdentifiers.count }

    /// The number of items in all sections.
    package var numberOfItems: Int { sectionOfItem.count }

    /// All item identifiers, section by section, in display order.
    /// - Complexity: O(*n*) in the number of items.
    package var itemIdentifiers: [ItemID] { Array(itemsBySection.joined()) }

    /// The item identifiers of one section, in display order.
    /// - Parameter section: A section identifier in the snapshot.
    /// - Returns: The section's items.
    package func itemIdentifiers(inSection section: SectionID) -> [ItemID] {
        itemsBySection[requireIndex(of: section)]
    }

    /// The index of a section.
    /// - Parameter section: A section identifier.
    /// - Returns: Its index, or `nil` when the snapshot does not hold it.
    package func indexOfSection(_ section: SectionID) -> Int? {
        sectionIndexes[section]
    }

    /// The section that holds an item.
    /// - Parameter item: An item identifier.
    /// - Returns: Its section identifier, or `nil` when the snapshot does not hold the item.
    package func sectionIdentifier(containingItem item: ItemID) -> SectionID? {
        sectionOfItem[item]
    }

    /// The position of an item.
    /// - Parameter item: An item identifier.
    /// - Returns: Its index path, or `nil` when the snapshot does not hold the item.
    /// - Complexity: O(*m*) in the number of items of the item's section.
    package func indexPath(of item: ItemID) -> ListIndexPath? {
        guard let section = sectionOfItem[item], let sectionIndex = sectionIndexes[section],
            let row = itemsBySection[sectionIndex].firstIndex(of: item)
        else { return nil }
        return ListIndexPath(section: sectionIndex, item: row)
    }

    // MARK: Sections

    /// Appends sections at the end.
    /// - Parameter sections: Identifiers not yet in the snapshot.
    package mutating func appendSections(_ sections: [SectionID]) {
        insertSections(sections, at: sectionIdentifiers.count)
    }

    /// Inserts sections just before an existing section.
    /// - Parameters:
    ///   - sections: Identifiers not yet in the snapshot.
    ///   - anchor: A section identifier in the snapshot.
    package mutating func insertSections(_ sections: [SectionID], beforeSection anchor: SectionID) {
        insertSections(sections, at: requireIndex(of: anchor))
    }

    /// Inserts sections just after an existing section.
    /// - Parameters:
    ///   - sections: Identifiers not yet in the snapshot.
    ///   - anchor: A section identifier in the snapshot.
    package mutating func insertSections(_ sections: [SectionID], afterSection anchor: SectionID) {
        insertSections(sections, at: requireIndex(of: anchor) + 1)
    }

    /// Deletes sections together with their items.
    /// - Parameter sections: Section identifiers in the snapshot.
    /// - Complexity: O(*s* + *d*) in the number of sections and of deleted items.
    package mutating func deleteSections(_ sections: [SectionID]) {
        var doomed = Set<Int>()
        for section in sections {
            let index = requireIndex(of: section)
            doomed.insert(index)
            sectionIndexes[section] = nil
            for item in itemsBySection[index] {
                sectionOfItem[item] = nil
                reconfiguredItemIdentifiers.remove(item)
            }
        }
        for index in doomed.sorted(by: >) {
            sectionIdentifiers.remove(at: index)
            itemsBySection.remove(at: index)
        }
        reindexSections(from: doomed.min() ?? sectionIdentifiers.count)
    }

    /// Moves a section, with its items, just before another section.
    /// - Parameters:
    ///   - section: A section identifier in the snapshot.
    ///   - anchor: Another section identifier in the snapshot.
    package mutating func moveSection(_ section: SectionID, beforeSection anchor: SectionID) {
        moveSection(section, nextTo: anchor, offset: 0)
    }

    /// Moves a section, with its items, just after another section.
    /// - Parameters:
    ///   - section: A section identifier in the snapshot.
    ///   - anchor: Another section identifier in the snapshot.
    package mutating func moveSection(_ section: SectionID, afterSection anchor: SectionID) {
        moveSection(section, nextTo: anchor, offset: 1)
    }

    // MARK: Items

    /// Appends items at the end of a section.
    /// - Parameters:
    ///   - items: Identifiers not yet in the snapshot.
    ///   - section: A section identifier in the snapshot; `nil` (the default) means the last
    ///     section, which must exist.
    package mutating func appendItems(_ items: [ItemID], toSection section: SectionID? = nil) {
        let index = section.map(requireIndex(of:)) ?? sectionIdentifiers.count - 1
        precondition(index >= 0, "appendItems needs a section to append to")
        insertItems(items, at: ListIndexPath(section: index, item: itemsBySection[index].count))
    }

    /// Inserts items just before an existing item, in the same section.
    /// - Parameters:
    ///   - items: Identifiers not yet in the snapshot.
    ///   - anchor: An item identifier in the snapshot.
    package mutating func insertItems(_ items: [ItemID], beforeItem anchor: ItemID) {
        insertItems(items, at: requirePath(of: anchor))
    }

    /// Inserts items just after an existing item, in the same section.
    /// - Parameters:
    ///   - items: Identifiers not yet in the snapshot.
    ///   - anchor: An item identifier in the snapshot.
    package mutating func insertItems(_ items: [ItemID], afterItem anchor: ItemID) {
        var path = requirePath(of: anchor)
        path.item += 1
        insertItems(items, at: path)
    }

    /// Deletes items.
    /// - Parameter items: Item identifiers in the snapshot.
    /// - Complexity: O(*d* + *m*) in the number of deleted items and the items of the sections
    ///   they were in.
    package mutating func deleteItems(_ items: [ItemID]) {
        var doomed = Set<ItemID>()
        var touchedSections = Set<Int>()
        for item in items {
            guard let section = sectionOfItem.removeValue(forKey: item) else {
                preconditionFailure("deleteItems: \(item) is not in the snapshot")
            }
            doomed.insert(item)
            touchedSections.insert(sectionIndexes[section]!)
            reconfiguredItemIdentifiers.remove(item)
        }
        for index in touchedSections {
            itemsBySection[index].removeAll { doomed.contains($0) }
        }
    }

    /// Moves an item just before another item, possibly into another section.
    /// - Parameters:
    ///   - item: An item identifier in the snapshot.
    ///   - anchor: Another item identifier in the snapshot.
    package mutating func moveItem(_ item: ItemID, beforeItem anchor: ItemID) {
        moveItem(item, nextTo: anchor, offset: 0)
    }

    /// Moves an item just after another item, possibly into another section.
    /// - Parameters:
    ///   - item: An item identifier in the snapshot.
    ///   - anchor: Another item identifier in the snapshot.
    package mutating func moveItem(_ item: ItemID, afterItem anchor: ItemID) {
        moveItem(item, nextTo: anchor, offset: 1)
    }

    /// Marks items whose content changed while their identity did not.
    ///
    /// A diff turns a mark into a reconfigure when the item was also in the old snapshot; an item
    /// new to the list is inserted (and bound from scratch) whether it is marked or not.
    /// Deleting an item clears its mark.
    /// - Parameter items: Item identifiers in the snapshot.
    package mutating func reconfigureItems(_ items: [ItemID]) {
        for item in items {
            precondition(sectionOfItem[item] != nil, "reconfigureItems: \(item) is not in the snapshot")
            reconfiguredItemIdentifiers.insert(item)
        }
    }

    // MARK: Helpers

    private func requireIndex(of section: SectionID) -> Int {
        guard let index = sectionIndexes[section] else {
            preconditionFailure("section \(section) is not in the snapshot")
        }
        return index
    }

    private func requirePath(of item: ItemID) -> ListIndexPath {
        guard let path = indexPath(of: item) else { preconditionFailure("item \(item) is not in the snapshot") }
        return path
    }

    private mutating func insertSections(_ sections: [SectionID], at index: Int) {
        for section in sections {
            precondition(sectionIndexes[section] == nil, "section \(section) is already in the snapshot")
            sectionIndexes[section] = -1
        }
        sectionIdentifiers.insert(contentsOf: sections, at: index)
        itemsBySection.insert(contentsOf: repeatElement([], count: sections.count), at: index)
        reindexSections(from: index)
    }

    private mutating func moveSection(_ section: SectionID, nextTo anchor: SectionID, offset: Int) {
        precondition(section != anchor, "a section cannot move next to itself")
        let from = requireIndex(of: section)
        let anchorIndex = requireIndex(of: anchor)
        let items = itemsBySection.remove(at: from)
        sectionIdentifiers.remove(at: from)
        let to = (anchorIndex > from ? anchorIndex - 1 : anchorIndex) + offset
        sectionIdentifiers.insert(section, at: to)
        itemsBySection.insert(items, at: to)
        reindexSections(from: Swift.min(from, to))
    }

    private mutating func reindexSections(from start: Int) {
        for index in start..<sectionIdentifiers.count {
            sectionIndexes[sectionIdentifiers[index]] = index
        }
    }

    private mutating func insertItems(_ items: [ItemID], at path: ListIndexPath) {
        let section = sectionIdentifiers[path.section]
        for item in items {
            precondition(
                sectionOfItem.updateValue(section, forKey: item) == nil, "item \(item) is already in the snapshot")
        }
        itemsBySection[path.section].insert(contentsOf: items, at: path.item)
    }

    private mutating func moveItem(_ item: ItemID, nextTo anchor: ItemID, offset: Int) {
        precondition(item != anchor, "an item cannot move next to itself")
        let from = requirePath(of: item)
        itemsBySection[from.section].remove(at: from.item)
        var to = requirePath(of: anchor)
        to.item += offset
        itemsBySection[to.section].insert(item, at: to.item)
        sectionOfItem[item] = sectionIdentifiers[to.section]
    }
}
