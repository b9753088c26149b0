/// Tells kept argument keys from the rest by their bytes, without making a string: most keys
/// differ from every kept one in their first byte or their length, which one table lookup
/// rules out. Keys compare as Swift strings do (by canonical equivalence, so the Kelvin sign
/// is a `K`): bytes decide only when both sides are ASCII, where the two agree.
///
/// The readers match keys with it while they read (`TraceReader.ArgumentSelection`), and the
/// analysis when it narrows a trace's argument lists to the keys it reads, so it lives here with the
/// arguments rather than in a reader: the analysis needs no reader to use it. `package`, not public:
/// it is not part of FrameTrace's API. `@inlinable`, so the readers' per-argument check is inlined
/// as it was when the matcher was theirs.
package struct ArgumentKeyMatcher {
    /// The kept keys.
    package let keys: Set<String>
    /// The kept keys' bytes, when every kept key is ASCII.
    @usableFromInline let asciiKeys: [[UInt8]]?
    /// Per first byte, a bit for each length (below 63) of a kept key with that first byte;
    /// bit 63 stands for every length of 63 or more.
    @usableFromInline let shapes: [UInt64]

    @inlinable package init(_ keys: Set<String>) {
        self.keys = keys
        let bytes = keys.map { Array($0.utf8) }
        asciiKeys = bytes.allSatisfy { $0.allSatisfy { $0 < 0x80 } } ? bytes : nil
        var shapes = [UInt64](repeating: 0, count: 256)
        for key in bytes { shapes[Int(key.first ?? 0)] |= ArgumentKeyMatcher.lengthBit(key.count) }
        self.shapes = shapes
    }

    @inline(__always)
    @inlinable static func lengthBit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }

    /// Whether `key` is a kept key.
    @inline(__always)
    @inlinable package func matches(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { matches($0) }
    }

    /// Whether these bytes (decoded UTF-8) are a kept key.
    @inline(__always)
    @inlinable package func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let asciiKeys, let first = bytes.first, first < 0x80 else {
            return keys.contains(String(decoding: bytes, as: UTF8.self))
        }
        guard shapes[Int(first)] & ArgumentKeyMatcher.lengthBit(bytes.count) != 0 else {
            // Only a key with a byte past ASCII can still equal a kept key.
            return bytes.contains { $0 >= 0x80 } && keys.contains(String(decoding: bytes, as: UTF8.self))
        }
        if bytes.contains(where: { $0 >= 0x80 }) { return keys.contains(String(decoding: bytes, as: UTF8.self)) }
        return asciiKeys.contains { $0.count == bytes.count && $0.withUnsafeBufferPointer { $0.elementsEqual(bytes) } }
    }
}
