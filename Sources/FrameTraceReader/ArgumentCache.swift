#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recent `args` texts and the argument lists made from them, so an event whose `args` repeat a
/// recent one's byte for byte shares its list. Direct-mapped and fixed in size (4,096 entries of
/// at most 128 bytes), so it costs about 640 kB whatever the input.
///
/// A `tag` tells apart texts that read differently in different contexts: the Perfetto reader
/// gives each version of a packet sequence's interned strings its own tag, since the same
/// annotation bytes name other strings once the sequence's state changes. JSON's texts stand
/// alone (tag 0).
struct ArgumentCache {
    static let maximumLength = 128
    private static let slotCount = 4096

    // Allocated on first use, so reading a small trace does not pay for them.
    private var hashes: [UInt64] = []
    private var tags: [UInt64] = []
    private var indexes: [UInt32] = []
    private var lengths: [Int] = []
    private var texts: [UInt8] = []

    /// The list index remembered for exactly this text, if any.
    @inline(__always)
    func index(for text: UnsafeBufferPointer<UInt8>, hash: UInt64, tag: UInt64 = 0) -> UInt32? {
        guard !hashes.isEmpty else { return nil }
        let slot = Int(truncatingIfNeeded: hash >> 52)
        guard hashes[slot] == hash, lengths[slot] == text.count, tags[slot] == tag else { return nil }
        guard let bytes = text.baseAddress, !text.isEmpty else { return indexes[slot] }
        let offset = slot * ArgumentCache.maximumLength
        let same = texts.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes, text.count) == 0 }
        return same ? indexes[slot] : nil
    }

    /// Remembers the list made from `text`, replacing whatever shared its slot.
    mutating func remember(_ text: UnsafeBufferPointer<UInt8>, hash: UInt64, index: UInt32, tag: UInt64 = 0) {
        if hashes.isEmpty {
            hashes = Array(repeating: 0, count: ArgumentCache.slotCount)
            tags = Array(repeating: 0, count: ArgumentCache.slotCount)
            indexes = Array(repeating: 0, count: ArgumentCache.slotCount)
            lengths = Array(repeating: -1, count: ArgumentCache.slotCount)
            texts = Array(repeating: 0, count: ArgumentCache.slotCount * ArgumentCache.maximumLength)
        }
        let slot = Int(truncatingIfNeeded: hash >> 52)
        hashes[slot] = hash
        tags[slot] = tag
        indexes[slot] = index
        lengths[slot] = text.count
        let offset = slot * ArgumentCache.maximumLength
        guard let bytes = text.baseAddress, !text.isEmpty else { return }
        texts.withUnsafeMutableBufferPointer { _ = memcpy($0.baseAddress! + offset, bytes, text.count) }
    }
}
