/// Slots for threads: each thread is numbered as it first appears, so per-thread state can live
/// in arrays. The reader and the analysis both number threads this way.
///
/// Events come in runs of a few threads taking turns, so a lookup tries the last thread, then a
/// small direct-mapped cache of recent threads (its line picked by multiplying the ids, no
/// `Hasher`), and hashes only on a miss. The cache holds whole keys, so a collision costs a miss,
/// never a wrong slot; a slot never changes once made, so an entry never goes stale.
///
/// Public only under the `FramescopeInternals` SPI, not API: this toolchain inlines an
/// `@inlinable` function into another module only when it is public (a `package` one stays a call),
/// and this one sits in the reader's and the analysis's per-event loops.
@_spi(FramescopeInternals) public struct ThreadSlots: Sendable {
    /// The thread of each slot.
    public private(set) var threads: [ThreadKey] = []
    @usableFromInline var slotOfThread: [ThreadKey: Int] = [:]
    /// The last thread looked up and its slot (-1 before the first lookup: any key, even
    /// pid and tid -2^63, may be a trace's thread).
    @usableFromInline var lastThread = ThreadKey(processID: 0, threadID: 0)
    @usableFromInline var lastSlot = -1
    @usableFromInline var cache = [CacheLine](repeating: CacheLine(), count: cacheLines)

    @usableFromInline static var cacheLines: Int { 64 }

    /// One line of the cache (slot -1: empty).
    @usableFromInline struct CacheLine: Sendable {
        @usableFromInline var thread = ThreadKey(processID: 0, threadID: 0)
        @usableFromInline var slot = -1

        @usableFromInline init() {}
        @usableFromInline init(thread: ThreadKey, slot: Int) {
            self.thread = thread
            self.slot = slot
        }
    }

    public init() {}

    /// The number of threads numbered so far.
    public var count: Int { threads.count }

    /// The slot of `thread`, numbering it if it is new (its slot is then the old ``count``).
    @inlinable @inline(__always)
    public mutating func slot(of thread: ThreadKey) -> Int {
        if lastSlot >= 0, thread.threadID == lastThread.threadID, thread.processID == lastThread.processID {
            return lastSlot
        }
        let mixed =
            (UInt64(bitPattern: thread.processID) &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bitPattern: thread.threadID)
        let line = Int(truncatingIfNeeded: (mixed &* 0xBF58_476D_1CE4_E5B9) &>> 58)  // top six bits: 64 lines
        var slot = cache[line].slot
        if slot < 0 || cache[line].thread.threadID != thread.threadID
            || cache[line].thread.processID != thread.processID
        {
            slot = hashedSlot(of: thread)
            cache[line] = CacheLine(thread: thread, slot: slot)
        }
        lastThread = thread
        lastSlot = slot
        return slot
    }

    /// The slot of `thread` through the dictionary, numbering it if it is new.
    @usableFromInline @inline(never)
    mutating func hashedSlot(of thread: ThreadKey) -> Int {
        if let known = slotOfThread[thread] { return known }
        let slot = threads.count
        threads.append(thread)
        slotOfThread[thread] = slot
        return slot
    }

    /// The slot of `thread`, if it has one.
    public func existingSlot(of thread: ThreadKey) -> Int? { slotOfThread[thread] }
}
