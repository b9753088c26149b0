// The recording hot path's C half: a per-thread cache of recorders' rings, a single-producer/
// single-consumer ring of fixed-size records in chunks from a per-recorder pool, the thread-exit
// hook that hands rings back, and the clocks. The common path is `static inline` so the
// Swift compiler inlines it into `withSpan`; the rare paths are out of line in framescope.c.
#ifndef FRAMESCOPE_H
#define FRAMESCOPE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#if defined(__APPLE__)
#include <mach/mach_time.h>
#endif

/// One recorded event: 32 bytes, written by one thread, read by the drainer.
/// `meta` packs kind (bits 0-2), a nanoseconds flag (bit 3), category (bits 4-15) and static-name
/// length (bits 16-31).
typedef struct fs_record {
    int64_t start;   // the recorder clock's raw reading: counter ticks, or nanoseconds
    int64_t end;     // the same, or a counter value's bits, or a flow id
    uint64_t name;   // static name address, or (1 << 63) | dynamic name id
    uint32_t meta;
    uint32_t extra;  // argument list index (0: none), or the begin thread's serial
} fs_record;

/// One chunk of a thread's records: the pool's `chunk_records` records (a power of two) and the
/// link to the chunk written after it.
typedef struct fs_chunk {
    _Atomic(struct fs_chunk *) next;  // stored (release) by the producer before it publishes a record past this chunk
    char pad[56];
    fs_record records[];
} fs_chunk;

/// A recorder's pool of chunks, shared by its threads' rings (opaque; see framescope.c). A ring
/// takes a chunk when the one it writes into is full, and its consumer hands chunks back once it
/// has read every record in them.
typedef struct fs_pool fs_pool;

/// A bounded single-producer/single-consumer queue of records in chunks taken from a pool. The
/// producer is the owning thread; the consumer is whoever drains, serialised by the recorder.
/// Positions count records since the ring was last recycled: `tail` is published with release
/// ordering after the record is written, so a consumer that loads it with acquire ordering never
/// sees a torn record. A chunk's `next` is stored before the tail passes into that next chunk, so a
/// consumer below the tail always finds it. Producer and consumer fields live on separate cache
/// lines.
///
/// The common push writes into the current chunk with no lock and no check beyond `write_end`;
/// reaching `write_end` takes the slow path (fs_ring_push_slow), which checks the capacity and
/// takes a new chunk from the pool. The consumer hands back each chunk it has read past once the
/// producer has moved on from it (its `next` is set); so a live thread always holds at least the
/// chunk it writes into, and at most `capacity` records plus one chunk.
///
/// A ring belongs to one thread at a time. It is reference counted: one reference for the thread
/// that records into it (dropped by the thread-exit hook, which first sets `exited`), the others
/// held by the recorder. A recorder that finds a ring `exited` and drained recycles it (every
/// chunk back to the pool) and hands it to the next new thread.
typedef struct fs_ring {
    // The producer's line.
    _Atomic(uint64_t) tail;
    uint64_t write_end;        // pushes below this position go straight into `write`
    fs_chunk *write;           // the chunk `tail` falls in; NULL before the first push
    uint64_t chunk_mask;       // chunk_records - 1
    uint64_t write_chunk_end;  // the position just past `write`
    _Atomic(uint64_t) dropped;
    char pad0[16];
    // The consumer's line.
    _Atomic(uint64_t) head;
    fs_chunk *read;            // the chunk `head` falls in; NULL until the consumer first reads
    uint64_t read_base;        // the position of read->records[0]
    char pad1[40];
    // Set once, or rarely.
    _Atomic(fs_chunk *) first;      // the first chunk since the last recycle, stored (release) by the producer
    uint64_t capacity;              // records the ring may hold at once (a power of two)
    fs_pool *pool;
    _Atomic(uint32_t) exited;       // set (release) by the owner's thread-exit hook
    _Atomic(uint32_t) references;
    struct fs_ring *next_owned;     // the owner thread's list of its rings, for the exit hook
} fs_ring;

/// One entry of a thread's recorder cache.
typedef struct fs_cache_entry {
    uint64_t recorder_id;  // 0: empty (recorder ids start at 1 and are never reused)
    fs_ring *ring;
    void *buffer;          // the recorder's per-thread buffer object (unretained; the recorder owns it)
} fs_cache_entry;

#define FS_CACHE_ENTRIES 4

/// The thread's cache of the recorders it recorded into last, most recent first: a thread that
/// records into up to four recorders in turn finds each ring without a lock.
typedef struct fs_thread_slot {
    fs_cache_entry entries[FS_CACHE_ENTRIES];
    uint64_t serial;  // this thread's process-unique serial number, 0 until assigned
} fs_thread_slot;

// initial-exec: the slot is reached by a fixed offset from the thread pointer, with no call to
// __tls_get_addr, which position-independent code would otherwise make on every access.
extern _Thread_local fs_thread_slot fs_slot __attribute__((tls_model("initial-exec")));

/// Finds `recorder_id` past the first entry and moves it to the front; returns its index 0, or -1.
static inline int fs_slot_find(uint64_t recorder_id) {
    for (int index = 1; index < FS_CACHE_ENTRIES; index++) {
        if (fs_slot.entries[index].recorder_id == recorder_id) {
            fs_cache_entry found = fs_slot.entries[index];
            for (int move = index; move > 0; move--) fs_slot.entries[move] = fs_slot.entries[move - 1];
            fs_slot.entries[0] = found;
            return 0;
        }
    }
    return -1;
}

/// Returns the ring of `recorder_id` for the calling thread, or NULL when the cache lacks it.
static inline fs_ring *fs_slot_ring(uint64_t recorder_id) {
    if (__builtin_expect(fs_slot.entries[0].recorder_id == recorder_id, 1)) return fs_slot.entries[0].ring;
    return fs_slot_find(recorder_id) == 0 ? fs_slot.entries[0].ring : (fs_ring *)0;
}

/// Returns the buffer object cached with the ring of `recorder_id`, or NULL when the cache lacks it.
static inline void *fs_slot_buffer(uint64_t recorder_id) {
    if (fs_slot.entries[0].recorder_id == recorder_id) return fs_slot.entries[0].buffer;
    return fs_slot_find(recorder_id) == 0 ? fs_slot.entries[0].buffer : (void *)0;
}

/// Caches a recorder's ring at the front, evicting the least recently used entry.
static inline void fs_slot_set(uint64_t recorder_id, fs_ring *ring, void *buffer) {
    for (int move = FS_CACHE_ENTRIES - 1; move > 0; move--) fs_slot.entries[move] = fs_slot.entries[move - 1];
    fs_slot.entries[0].recorder_id = recorder_id;
    fs_slot.entries[0].ring = ring;
    fs_slot.entries[0].buffer = buffer;
}

/// Copies the calling thread's system name into `buffer` and returns true when it has one of its
/// own (on Linux, threads inherit the process name, which says nothing about the thread).
bool fs_thread_own_name(char *buffer, size_t length);

/// Whether the calling thread is the process's main thread.
bool fs_is_main_thread(void);

/// The calling thread's serial number (1 for the main thread), assigned on first use from a process-wide counter.
uint64_t fs_thread_serial_slow(void);
static inline uint64_t fs_thread_serial(void) {
    uint64_t serial = fs_slot.serial;
    return serial != 0 ? serial : fs_thread_serial_slow();
}

/// Appends a record past the current chunk: checks the capacity, takes a chunk from the pool
/// when the current one is full, and counts the record as dropped when either fails. Producer only.
bool fs_ring_push_slow(fs_ring *ring, const fs_record *record);

/// Appends a record, or counts it as dropped when the ring is full. Producer only.
static inline bool fs_ring_push(fs_ring *ring, int64_t start, int64_t end, uint64_t name, uint32_t meta, uint32_t extra) {
    uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    if (__builtin_expect(tail >= ring->write_end, 0)) {
        fs_record record = {start, end, name, meta, extra};
        return fs_ring_push_slow(ring, &record);
    }
    fs_record *slot = &ring->write->records[tail & ring->chunk_mask];
    slot->start = start;
    slot->end = end;
    slot->name = name;
    slot->meta = meta;
    slot->extra = extra;
    atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
    return true;
}

static inline uint64_t fs_ring_head(fs_ring *ring) { return atomic_load_explicit(&ring->head, memory_order_relaxed); }
static inline uint64_t fs_ring_tail_acquire(fs_ring *ring) { return atomic_load_explicit(&ring->tail, memory_order_acquire); }
static inline uint64_t fs_ring_dropped(fs_ring *ring) { return atomic_load_explicit(&ring->dropped, memory_order_relaxed); }
/// Releases records up to `head` back to the producer and hands the chunks read past back to the
/// pool. Consumer only.
void fs_ring_release(fs_ring *ring, uint64_t head);

/// Reads a ring's records in order across its chunks. Consumer only.
typedef struct fs_ring_cursor {
    fs_chunk *chunk;
    uint64_t position;
    uint64_t chunk_end;  // the position just past `chunk`
    uint64_t chunk_records;
} fs_ring_cursor;

/// A cursor at the ring's head. Only call it when the head is below the tail.
fs_ring_cursor fs_ring_cursor_at_head(fs_ring *ring);

/// Returns the record at the cursor and moves past it. Only call it below a tail read with
/// fs_ring_tail_acquire.
static inline fs_record fs_ring_cursor_next(fs_ring_cursor *cursor) {
    if (__builtin_expect(cursor->position == cursor->chunk_end, 0)) {
        cursor->chunk = atomic_load_explicit(&cursor->chunk->next, memory_order_acquire);
        cursor->chunk_end += cursor->chunk_records;
    }
    fs_record record = cursor->chunk->records[cursor->position & (cursor->chunk_records - 1)];
    cursor->position += 1;
    return record;
}

/// Tells ThreadSanitizer that the lock guarding the memory at `address` was just acquired, or is
/// about to be released. Swift's `Mutex` waits inside the uninstrumented standard library on Linux,
/// so without these ThreadSanitizer cannot see the ordering a `Mutex` provides and reports every
/// access it guards as a race. Empty unless this target is built with `-sanitize=thread`.
void fs_tsan_acquire(void *address);
void fs_tsan_release(void *address);

/// Creates a pool of chunks of `chunk_records` records each (a power of two), holding one
/// reference. `max_chunks` caps the chunks it allocates in all (0: no cap); a ring that needs a
/// chunk beyond the cap drops the record and counts it. Returns NULL when memory is short.
fs_pool *fs_pool_create(uint64_t chunk_records, uint64_t max_chunks);
/// Drops a reference; the last one frees the pool and every chunk in it.
void fs_pool_release(fs_pool *pool);

/// What a pool holds, read under its lock.
typedef struct fs_pool_statistics {
    uint64_t chunk_records;  // records per chunk
    uint64_t chunk_bytes;    // bytes of one chunk's allocation, its header included
    uint64_t allocated;      // chunks allocated (in rings or in the pool)
    uint64_t peak;           // the most chunks allocated at once
    uint64_t free;           // chunks in the pool, ready for the next ring that needs one
} fs_pool_statistics;
fs_pool_statistics fs_pool_read_statistics(fs_pool *pool);

/// Allocates an empty ring that holds up to `capacity` records (a power of two, at least the
/// pool's chunk size) in chunks from `pool`, holding one reference to the ring and taking one to
/// the pool. Returns NULL when memory is short.
fs_ring *fs_ring_create(fs_pool *pool, uint64_t capacity);
void fs_ring_retain(fs_ring *ring);
/// Drops a reference; the last one hands the ring's chunks back to its pool and frees it.
void fs_ring_release_reference(fs_ring *ring);
/// Hands every chunk of an exited, drained ring back to the pool and empties it for the next
/// thread. Consumer only.
void fs_ring_recycle(fs_ring *ring);

/// Makes the calling thread the owner of `ring` (taking a reference for it) and arranges for the
/// thread's exit to mark the ring `exited` and drop that reference. The ring must be drained.
void fs_ring_adopt(fs_ring *ring);
/// Whether the ring's owner thread has exited; acquire ordering, so every record the owner
/// pushed is visible to a consumer that reads the tail afterwards.
static inline bool fs_ring_exited(fs_ring *ring) {
    return atomic_load_explicit(&ring->exited, memory_order_acquire) != 0;
}

/// Monotonic nanoseconds since an arbitrary start.
static inline int64_t fs_monotonic_ns(void) {
#if defined(__APPLE__)
    return (int64_t)clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
#endif
}

/// What `fs_counter_ticks` reads on this machine.
typedef enum fs_counter_kind {
    FS_COUNTER_NONE = 0,           // no invariant counter: fs_counter_ticks reads the monotonic clock
    FS_COUNTER_TSC = 1,            // x86-64 time-stamp counter, invariant per CPUID
    FS_COUNTER_CNTVCT = 2,         // arm64 virtual counter (Linux)
    FS_COUNTER_MACH_ABSOLUTE = 3,  // Apple's mach_absolute_time
} fs_counter_kind;

/// The invariant counter this machine offers, checked once (CPUID on x86-64).
fs_counter_kind fs_counter_available(void);

/// Reads the cheapest invariant counter, in its own ticks; callers use it only when
/// `fs_counter_available()` is not FS_COUNTER_NONE, and convert ticks to nanoseconds off the hot path.
/// Not serialising (no `lfence`, no `isb`): like Tracy, a span pays only for the reads themselves.
static inline int64_t fs_counter_ticks(void) {
#if defined(__APPLE__)
    return (int64_t)mach_absolute_time();
#elif defined(__x86_64__)
    uint32_t low, high;
    __asm__ __volatile__("rdtsc" : "=a"(low), "=d"(high));
    return (int64_t)(((uint64_t)high << 32) | low);
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
    return (int64_t)value;
#else
    return fs_monotonic_ns();
#endif
}

#endif
