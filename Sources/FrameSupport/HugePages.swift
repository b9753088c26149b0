#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Array {
    /// Asks Linux to back this array's storage with transparent huge pages where the system allows
    /// them (`madvise` mode), so that filling a large array takes one page fault per 2 MiB instead
    /// of one per 4 KiB. Call it right after reserving the capacity the array will fill.
    ///
    /// Advice only: nothing about the array changes, nothing happens below 4 MiB of capacity, if
    /// the kernel declines, or on other systems. Only whole 2 MiB pages inside the storage are
    /// advised, so the advice never reaches memory the array does not own.
    package mutating func adviseHugePages() {
        #if os(Linux)
            let bytes = capacity &* MemoryLayout<Element>.stride
            guard bytes >= 4 << 20 else { return }
            withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let hugePage = 2 << 20
                let address = Int(bitPattern: UnsafeMutableRawPointer(base))
                let start = (address &+ hugePage &- 1) & ~(hugePage &- 1)
                let end = (address &+ bytes) & ~(hugePage &- 1)
                guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
                _ = madvise(pointer, end &- start, MADV_HUGEPAGE)
            }
        #endif
    }
}
