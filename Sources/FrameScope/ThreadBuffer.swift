import CFrameScope
import FrameTrace
import Synchronization

/// What a record carries beyond its 32 bytes: arguments, and for a span that ended on another
/// thread than it began on, the thread it began on. Rare, so it lives in a locked side table.
struct Attachment: Sendable {
    var arguments: [Argument]
    var beginSerial: UInt64?
    /// An actual frame timeline slice's hitch cause, kept as the value the display loop decided
    /// so that export names the outcome slice from it, not from the argument's text.
    var timelineCause: HitchCause? = nil
}

/// One thread's recording state inside one recorder: its ring of records (in chunks from the
/// recorder's pool), its name, and the attachments its records refer to.
///
/// The owning thread is the only producer of the ring and of `nextAttachmentIndex`; consumers take
/// the recorder's export lock before reading, so the ring is single-producer/single-consumer.
final class ThreadBuffer: @unchecked Sendable {
    // @unchecked: `ring` is a C SPSC ring whose head/tail are atomics (see framescope.h);
    // `nextAttachmentIndex` is touched only by the owning thread; everything else is a `let` or
    // guarded by a Mutex.
    let ring: UnsafeMutablePointer<fs_ring>
    let serial: UInt64
    let name: Mutex<String>
    let attachments = Mutex<[UInt32: Attachment]>([:])
    var nextAttachmentIndex: UInt32 = 1

    /// - Parameter ring: A ring whose reference the buffer takes over.
    init(ring: UnsafeMutablePointer<fs_ring>, serial: UInt64, name: String) {
        self.ring = ring
        self.serial = serial
        self.name = Mutex(name)
    }

    /// Takes over one reference to `ring`.
    deinit { fs_ring_release_reference(ring) }

    /// Stores an attachment for a record this thread is about to push and returns the index the
    /// record refers to it by. Producer only.
    func store(_ attachment: Attachment) -> UInt32 {
        let index = nextAttachmentIndex
        nextAttachmentIndex = index == UInt32.max ? 1 : index + 1
        attachments.withLockAnnounced { $0[index] = attachment }
        return index
    }
}

/// A recorder's pool of record chunks, which its threads' rings grow from and hand back to.
///
/// Every chunk holds ``chunkRecords`` records (32 bytes each), or the per-thread capacity when
/// that is smaller. 256 records (8 KiB plus a 64-byte header, two pages) keep a thread that
/// records a handful of spans small, while one that records fast takes the pool's lock once per
/// 256 records, a few nanoseconds spread over thousands.
final class BufferPool: @unchecked Sendable {
    // @unchecked: `pool` is a C pool whose state is guarded by its own mutex (see framescope.c);
    // the pointer itself never changes.
    static let chunkRecords: UInt64 = 256

    let pool: OpaquePointer

    /// - Parameters:
    ///   - capacity: The per-thread capacity, a power of two.
    ///   - totalCapacity: Records the pool may allocate in all, rounded up to whole chunks; `nil`
    ///     for no cap.
    init(capacity: UInt64, totalCapacity: Int?) {
        let chunkRecords = min(BufferPool.chunkRecords, capacity)
        let maximumChunks = totalCapacity.map { (UInt64($0) + chunkRecords - 1) / chunkRecords } ?? 0
        guard let pool = fs_pool_create(chunkRecords, maximumChunks) else {
            fatalError("framescope: out of memory creating a recorder's buffer pool")
        }
        self.pool = pool
    }

    deinit { fs_pool_release(pool) }

    var statistics: BufferPoolStatistics {
        let raw = fs_pool_read_statistics(pool)
        return BufferPoolStatistics(
            chunkRecords: Int(raw.chunk_records), chunkBytes: Int(raw.chunk_bytes), chunksAllocated: Int(raw.allocated),
            peakChunksAllocated: Int(raw.peak), chunksInPool: Int(raw.free))
    }
}

/// What a recorder's buffer pool holds: for tests and the benchmark.
package struct BufferPoolStatistics: Sendable, Equatable {
    /// Records per chunk.
    package var chunkRecords: Int
    /// Bytes of one chunk's allocation, its header included.
    package var chunkBytes: Int
    /// Chunks allocated, in threads' rings or in the pool.
    package var chunksAllocated: Int
    /// The most chunks allocated at once.
    package var peakChunksAllocated: Int
    /// Chunks in the pool, ready for the next ring that needs one.
    package var chunksInPool: Int
    /// Chunks held by threads' rings.
    package var chunksInRings: Int { chunksAllocated - chunksInPool }
    /// Bytes of chunks allocated now.
    package var bytesAllocated: Int { chunksAllocated * chunkBytes }
    /// Bytes of chunks allocated at the peak.
    package var peakBytesAllocated: Int { peakChunksAllocated * chunkBytes }
}

/// A recorder's per-thread buffers: those of threads that recorded and whose buffers were not
/// handed back yet, rings handed back for reuse, and the drop counts of buffers handed back.
struct ThreadBuffers: @unchecked Sendable {
    // @unchecked: the spare rings are C pointers, each holding a reference of its own; the
    // struct lives in the recorder's Mutex.
    var bySerial: [UInt64: ThreadBuffer] = [:]
    var spare: [UnsafeMutablePointer<fs_ring>] = []
    var retiredDrops: [UInt64: Int64] = [:]

    /// Hands back the buffer of an exited thread whose records were all drained: its chunks go back
    /// to the pool, and its empty ring is kept for the next new thread. Under the export lock.
    mutating func retire(_ buffer: ThreadBuffer) {
        guard bySerial[buffer.serial] === buffer else { return }
        bySerial[buffer.serial] = nil
        let dropped = Int64(fs_ring_dropped(buffer.ring))
        if dropped > 0 { retiredDrops[buffer.serial, default: 0] += dropped }
        fs_ring_recycle(buffer.ring)
        fs_ring_retain(buffer.ring)
        spare.append(buffer.ring)
    }

    mutating func releaseSpareRings() {
        for ring in spare { fs_ring_release_reference(ring) }
        spare = []
    }
}

/// The packed `meta` field of a record: kind (bits 0-2), whether its times are already nanoseconds
/// rather than clock ticks (bit 3), category (bits 4-15) and static-name length (bits 16-31).
@usableFromInline
enum RecordKind: UInt32 {
    case span = 0
    case instant = 1
    case counter = 2
    case flowStart = 3
    case flowEnd = 4
    case crossThreadSpan = 5
    /// A frame timeline slice (``Recorder/recordFrameTimeline(_:)``): `start` and `end` in
    /// nanoseconds, the track's name as the record's name; exported as an async pair.
    case timelineSlice = 6
}

@usableFromInline
@inline(__always)
func packMeta(_ kind: RecordKind, _ category: Category, nameLength: Int) -> UInt32 {
    kind.rawValue | UInt32(category.id) << 4 | UInt32(truncatingIfNeeded: nameLength) << 16
}

/// Marks a record whose times the caller gave in nanoseconds (``Recorder/recordSpan(_:category:start:end:arguments:)``),
/// which export leaves as they are even when the recorder's clock records counter ticks.
@usableFromInline
let nanosecondsFlag: UInt32 = 1 << 3

/// Bit 63 of a record's name marks a dynamic name id; otherwise it is a static string's address.
@usableFromInline
let dynamicNameTag: UInt64 = 1 << 63
