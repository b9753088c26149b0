import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps byte strings (raw JSON string contents) to small integers, so a reader can recognise a
/// name it has seen before without making a `String` for it.
///
/// Open addressing with linear probing over a power-of-two table; keys are copied into one byte
/// arena, so the table never refers back into the input (which the reader releases as it goes).
struct JSONStringInterner {
    private struct Slot {
        var hash: UInt64 = 0
        var offset: Int = 0
        var length: Int32 = 0
        var value: UInt32 = .max
    }

    private var slots: [Slot] = Array(repeating: Slot(), count: 256)
    private var arena: [UInt8] = []
    /// The number of distinct keys.
    private(set) var count = 0

    /// Where a key is, or would go, in the table.
    struct Probe {
        /// The key's value, if it is in the table.
        var value: UInt32?
        fileprivate var slot: Int
        fileprivate var hash: UInt64
    }

    /// Looks `bytes` up; pass the probe to ``insert(_:at:value:)`` if it was not found, before
    /// any other call on this interner.
    /// - Complexity: Amortized O(length of `bytes`).
    @inline(__always)
    mutating func probe(_ bytes: UnsafeBufferPointer<UInt8>) -> Probe {
        if (count + 1) * 2 > slots.count { grow() }
        let hash = JSONStringInterner.hash(bytes)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot.value == .max { return Probe(value: nil, slot: index, hash: hash) }
            if slot.hash == hash, Int(slot.length) == bytes.count, equals(slot, bytes) {
                return Probe(value: slot.value, slot: index, hash: hash)
            }
            index = (index + 1) & mask
        }
    }

    /// Stores `value` for the key that `probe` did not find.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, at probe: Probe, value: UInt32) {
        let offset = arena.count
        arena.append(contentsOf: bytes)
        slots[probe.slot] = Slot(
            hash: probe.hash, offset: offset, length: Int32(truncatingIfNeeded: bytes.count), value: value)
        count += 1
    }

    private func equals(_ slot: Slot, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + slot.offset, base, bytes.count) == 0 }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.value != .max {
            var index = Int(truncatingIfNeeded: slot.hash) & mask
            while slots[index].value != .max { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// A fast 64-bit hash of a byte string (multiply-xorshift over 8-byte words).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
            index += 8
        }
        let rest = bytes.count &- index
        if rest > 0 {
            // The last 1 to 7 bytes as a little-endian integer, read four, two and one at a time.
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            var pointer = UnsafeRawPointer(base + index)
            if rest & 4 != 0 {
                tail = UInt64(UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)))
                pointer += 4
                shift = 32
            }
            if rest & 2 != 0 {
                tail |= UInt64(UInt16(littleEndian: pointer.loadUnaligned(as: UInt16.self))) &<< shift
                pointer += 2
                shift &+= 16
            }
            if rest & 1 != 0 {
                tail |= UInt64(pointer.load(as: UInt8.self)) &<< shift
            }
            hash = (hash ^ tail) &* multiplier
        }
        hash ^= hash >> 32
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        return hash
    }
}
