/// The position of an item in a sectioned list: a section index and an item index inside it.
///
/// The list analogue of Foundation's `IndexPath`, as a plain value so diffing stays free of
/// Foundation. Paths order section first, then item, which is the order in which a batch update
/// visits rows.
///
/// ```swift
/// let path = ListIndexPath(section: 1, item: 4)
/// path < ListIndexPath(section: 2, item: 0)   // true
/// ```
package struct ListIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The index of the section.
    package var section: Int
    /// The index of the item inside its section.
    package var item: Int

    /// Creates a path.
    /// - Parameters:
    ///   - section: The index of the section.
    ///   - item: The index of the item inside the section.
    package init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders paths by section, then by item.
    /// - Parameters:
    ///   - lhs: A path.
    ///   - rhs: Another path.
    /// - Returns: Whether `lhs` comes before `rhs` in the list.
    package static func < (lhs: ListIndexPath, rhs: ListIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// The path as `[section, item]`, the way UIKit prints index paths.
    package var description: String { "[\(section), \(item)]" }
}
