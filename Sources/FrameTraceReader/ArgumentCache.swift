#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recent `args` texts and the argument lists made from them, so an event whose `args` repeat a
/// recent one's byte for byte shares its list. Direct-mapped and fixed in size (4,096 entries of
/// at most 128 bytes, and 32 bytes of facts each), so it costs 640 kB whatever the input.
///
/// A `tag` tells apart texts that read differently in different contexts: the Perfetto reader
/// gives each version of a packet sequence's interned strings its own tag, since the same
/// annotation bytes name other strings once the sequence's state changes. JSON's texts stand
/// alone (tag 0).
struct ArgumentCache {
    static let maximumLength = 128
    private static let slotCount = 4096

    /// One slot's facts, 32 bytes, so that looking up or replacing a slot touches one cache line
    /// besides its text: a cold store to each of five arrays stalled the next atomic operation
    /// (a retain or release drains the store buffer) on every event with new arguments.
    private struct Entry {
        var hash: UInt64 = 0
        var tag: UInt64 = 0
        var index: UInt32 = 0
        /// The text's length; -1 for an empty slot.
        var length: Int32 = -1
        var padding: UInt64 = 0
    }

    // Allocated on first use, so reading a small trace does not pay for them.
    private var entries: [Entry] = []
    private var texts: [UInt8] = []

    /// The list index remembered for exactly this text, if any.
    @inline(__always)
    func index(for text: UnsafeBufferPointer<UInt8>, hash: UInt64, tag: UInt64 = 0) -> UInt32? {
        guard !entries.isEmpty else { return nil }
        let slot = Int(truncatingIfNeeded: hash >> 52)
        let entry = entries[slot]
        guard entry.hash == hash, Int(entry.length) == text.count, entry.tag == tag else { return nil }
        guard let bytes = text.baseAddress, !text.isEmpty else { return entry.index }
        let offset = slot * ArgumentCache.maximumLength
        let same = texts.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes, text.count) == 0 }
        return same ? entry.index : nil
    }

    /// Remembers the list made from `text`, replacing whatever shared its slot; a text longer
    /// than ``maximumLength`` is not remembered.
    mutating func remember(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64, index: UInt32, tag: UInt64 = 0) {
        guard text.count <= ArgumentCache.maximumLength else { return }
        if entries.isEmpty {
            entries = Array(repeating: Entry(), count: ArgumentCache.slotCount)
            texts = Array(repeating: 0, count: ArgumentCache.slotCount * ArgumentCache.maximumLength)
        }
        let slot = Int(truncatingIfNeeded: hash >> 52)
        entries[slot] = Entry(hash: hash, tag: tag, index: index, length: Int32(text.count))
        let offset = slot * ArgumentCache.maximumLength
        guard let bytes = text.baseAddress, !text.isEmpty else { return }
        texts.withUnsafeMutableBufferPointer { _ = memcpy($0.baseAddress! + offset, bytes, text.count) }
    }
}
