/// CRC-32 as PNG and gzip define it (reflected polynomial 0xEDB88320).
///
/// PNG stores one after every chunk; the decoder recomputes it over the chunk type and data.
///
/// ```swift
/// var crc = CRC32()
/// crc.update(Array("123456789".utf8)[...])
/// crc.value // 0xCBF43926
/// ```
struct CRC32 {
    /// The checksum of everything passed to `update` so far.
    var value: UInt32 { ~state }
    private var state: UInt32 = 0xFFFF_FFFF

    /// Feeds `bytes` into the checksum.
    ///
    /// Slicing-by-8: eight bytes per step through eight tables, where table `k` gives a byte's
    /// contribution after `k` more zero bytes, so the eight lookups are independent.
    /// - Complexity: O(*n*).
    mutating func update(_ bytes: ArraySlice<UInt8>) {
        var crc = state
        bytes.withUnsafeBufferPointer { bytes in
            crc32Tables.withUnsafeBufferPointer { tables in
                // Table `table`'s entry for the low byte of `byte`. Written inline as eight
                // `tables[k * 256 + Int(... & 0xFF)]` joined by `^`, the step took 80 ms to type-check.
                func entry(_ table: Int, _ byte: UInt32) -> UInt32 { tables[table * 256 + Int(byte & 0xFF)] }
                var index = 0
                while index + 8 <= bytes.count {
                    let low =
                        crc
                        ^ UInt32(
                            littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt32.self))
                    let high = UInt32(
                        littleEndian: UnsafeRawPointer(bytes.baseAddress! + index + 4).loadUnaligned(as: UInt32.self))
                    crc =
                        entry(7, low) ^ entry(6, low >> 8) ^ entry(5, low >> 16) ^ entry(4, low >> 24)
                        ^ entry(3, high) ^ entry(2, high >> 8) ^ entry(1, high >> 16) ^ entry(0, high >> 24)
                    index += 8
                }
                while index < bytes.count {
                    crc = tables[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                    index += 1
                }
            }
        }
        state = crc
    }
}

/// Eight 256-entry tables for slicing-by-8; the first is the classic byte-at-a-time table.
private let crc32Tables: [UInt32] = {
    var tables = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
    for slice in 1..<8 {
        for index in 0..<256 {
            let previous = tables[(slice - 1) * 256 + index]
            tables.append(tables[Int(previous & 0xFF)] ^ (previous >> 8))
        }
    }
    return tables
}()

/// Adler-32 as the zlib format defines it: two running sums modulo 65521.
struct Adler32 {
    /// The checksum of everything passed to `update` so far.
    var value: UInt32 { b << 16 | a }
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    /// Feeds `bytes` into the checksum.
    /// - Complexity: O(*n*); the modulo runs once per 5,552 bytes, the most that cannot overflow.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < bytes.count {
            let end = min(index + 5552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
    }
}
