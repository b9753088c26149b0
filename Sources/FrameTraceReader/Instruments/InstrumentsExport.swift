import FrameTrace

/// The values of one `xctrace export` document, as its rows are read: every typed cell (a
/// `<start-time>`, a `<thread>` holding a `<tid>` and a `<process>`), and the ids that later rows
/// refer back to with `ref`.
///
/// xctrace writes a value once, `<duration id="2" fmt="1 ns">1</duration>`, and after that only
/// `<duration ref="2"/>`, in any table of the same document: ids belong to the document. A cell
/// is kept compactly (a number, interned text and display text, its children by index), so a
/// 300,000-row export holds a few tens of bytes per value, not a tree of the file.
struct InstrumentsValues {
    /// One value.
    struct Cell {
        /// The number its text spells, when it is an integer.
        var number: Int64 = 0
        /// Its text, interned (0: none kept).
        var text: UInt32 = 0
        /// Its `fmt` display text, interned (0: none kept).
        var format: UInt32 = 0
        /// Its first child's position in ``InstrumentsValues/childLinks``.
        var firstChild: UInt32 = 0
        /// The element's name, interned.
        var tag: UInt16 = 0
        var childCount: UInt8 = 0
        var flags: UInt8 = 0

        static let hasNumber: UInt8 = 1
        static let overflows: UInt8 = 2
        static let isSentinel: UInt8 = 4
    }

    var cells: [Cell] = [Cell(flags: Cell.isSentinel)]  // cell 0: `<sentinel/>`, an empty cell
    var childLinks: [UInt32] = []
    /// Cell by id, for ids up to ``denseIDLimit``; beyond, ``sparseIDs``.
    private var denseIDs: [UInt32] = []
    private var sparseIDs: [Int64: UInt32] = [:]
    static let denseIDLimit: Int64 = 1 << 26
    var strings: [String] = [""]
    private var stringIndex: [String: UInt32] = ["": 0]
    var tags: [String] = []
    private var tagIndex: [String: UInt16] = [:]

    /// Tags whose text is a number only: their text is not interned.
    static let numericTags: Set<String> = [
        "start-time", "event-time", "duration", "uint64", "uint32", "int64", "int32", "uint16", "uint8", "pid", "tid",
        "boolean", "address", "layout-id", "os-signpost-identifier", "sample-time", "connection-uuid64",
        "displayed-surface-swap", "render-buffer-depth", "metal-nesting-level", "metal-workload-priority",
        "fixed-decimal", "containment-level", "kdebug-func",
    ]
    /// Tags whose `fmt` is their name for people (a thread's, a process's): kept.
    static let formattedTags: Set<String> = ["thread", "process", "narrative", "text-backtrace"]
    private var numericTagIDs: Set<UInt16> = []
    private var formattedTagIDs: Set<UInt16> = []

    func cell(_ index: UInt32) -> Cell { cells[Int(index)] }

    func tag(of index: UInt32) -> String { tags[Int(cells[Int(index)].tag)] }

    /// The number a cell holds, if any.
    func number(_ index: UInt32) -> Int64? {
        let cell = cells[Int(index)]
        return cell.flags & Cell.hasNumber != 0 ? cell.number : nil
    }

    /// Whether a cell's text is digits that do not fit in 64 bits.
    func overflows(_ index: UInt32) -> Bool { cells[Int(index)].flags & Cell.overflows != 0 }

    /// The text a cell holds, or its number spelled out; `nil` for an empty cell.
    func text(_ index: UInt32) -> String? {
        let cell = cells[Int(index)]
        if cell.text != 0 { return strings[Int(cell.text)] }
        if cell.flags & Cell.hasNumber != 0 { return String(cell.number) }
        return nil
    }

    /// The display text of a cell (kept for threads, processes and narratives).
    func format(_ index: UInt32) -> String? {
        let cell = cells[Int(index)]
        return cell.format == 0 ? nil : strings[Int(cell.format)]
    }

    /// The first child of a cell with the tag `tag`.
    func child(_ index: UInt32, _ tag: String) -> UInt32? {
        let cell = cells[Int(index)]
        guard let id = tagIndex[tag] else { return nil }
        for link in Int(cell.firstChild)..<(Int(cell.firstChild) + Int(cell.childCount)) {
            if cells[Int(childLinks[link])].tag == id { return childLinks[link] }
        }
        return nil
    }

    mutating func intern(_ string: String) -> UInt32 {
        // Long texts (log messages) are mostly unique: kept without the lookup that would dedupe them.
        if string.utf8.count > 24 {
            strings.append(string)
            return UInt32(truncatingIfNeeded: strings.count - 1)
        }
        if let index = stringIndex[string] { return index }
        let index = UInt32(truncatingIfNeeded: strings.count)
        strings.append(string)
        stringIndex[string] = index
        return index
    }

    /// The most distinct element names a document may use (real exports use a few dozen): a
    /// bound on the lookup below, which compares a name with the known ones.
    static let maximumTags = 1024

    /// The tag spelled by `bytes`, found without making a string when it is already known; `nil`
    /// for a new name past ``maximumTags``.
    mutating func internTag(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16? {
        if Int(lastTag) < tagBytes.count, tagBytes[Int(lastTag)].elementsEqual(bytes) { return lastTag }
        for (index, known) in tagBytes.enumerated() where known.count == bytes.count && known.elementsEqual(bytes) {
            lastTag = UInt16(truncatingIfNeeded: index)
            return lastTag
        }
        guard tags.count < Self.maximumTags else { return nil }
        let tag = internTag(String(decoding: bytes, as: UTF8.self))
        lastTag = tag
        return tag
    }
    private var tagBytes: [[UInt8]] = []
    private var lastTag: UInt16 = 0

    mutating func internTag(_ tag: String) -> UInt16 {
        if let index = tagIndex[tag] { return index }
        let index = UInt16(truncatingIfNeeded: tags.count)
        tags.append(tag)
        tagBytes.append(Array(tag.utf8))
        tagIndex[tag] = index
        if Self.numericTags.contains(tag) { numericTagIDs.insert(index) }
        if Self.formattedTags.contains(tag) { formattedTagIDs.insert(index) }
        return index
    }

    func isNumeric(_ tag: UInt16) -> Bool { numericTagIDs.contains(tag) }
    func keepsFormat(_ tag: UInt16) -> Bool { formattedTagIDs.contains(tag) }

    /// The cell an id names; `nil` when no value took that id yet.
    func cell(id: Int64) -> UInt32? {
        if id >= 0, id < Int64(denseIDs.count) {
            let cell = denseIDs[Int(id)]
            return cell == 0 ? nil : cell
        }
        return sparseIDs[id]
    }

    /// Gives `cell` the id `id`.
    mutating func define(id: Int64, cell: UInt32) {
        if id >= 0, id < Self.denseIDLimit, id <= Int64(denseIDs.count) + 4096 {
            if id >= Int64(denseIDs.count) {
                denseIDs.append(contentsOf: repeatElement(0, count: Int(id) - denseIDs.count + 1))
            }
            denseIDs[Int(id)] = cell
        } else {
            sparseIDs[id] = cell
        }
    }

    /// Forgets the ids of the document read so far: the next document's ids are its own.
    mutating func startDocument() {
        denseIDs.removeAll(keepingCapacity: true)
        sparseIDs.removeAll()
    }
}

/// One table of an export: its schema's name and columns.
struct InstrumentsSchema {
    /// The schema name (`hitches`, `os-signpost-interval`, ...).
    var name: String
    /// The columns' mnemonics, in order.
    var mnemonics: [String]
    /// The columns' names for people (`Potential Issue`), in order.
    var names: [String]

    /// The position of the column with `mnemonic`.
    func column(_ mnemonic: String) -> Int? { mnemonics.firstIndex(of: mnemonic) }
}
