#if !defined(__APPLE__)
#define _GNU_SOURCE
#endif
#include "framescope.h"
#include <stdlib.h>
#include <string.h>

_Thread_local fs_thread_slot fs_slot __attribute__((tls_model("initial-exec"))) = {{{0, 0, 0}}, 0};

#include <pthread.h>
#include <stdio.h>
#if !defined(__APPLE__)
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__x86_64__) && !defined(__APPLE__)
#include <cpuid.h>
#endif

// Serial 1 is reserved for the main thread, so it has the same id in every trace.
static _Atomic(uint64_t) fs_next_serial = 2;

bool fs_is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#else
    return (pid_t)syscall(SYS_gettid) == getpid();
#endif
}

uint64_t fs_thread_serial_slow(void) {
    uint64_t serial = fs_is_main_thread() ? 1 : atomic_fetch_add_explicit(&fs_next_serial, 1, memory_order_relaxed);
    fs_slot.serial = serial;
    return serial;
}

// A recorder's pool of chunks. A plain mutex guards the free list: a ring takes a chunk once per
// `chunk_records` records, and a drain hands back each ring's read chunks as one list, so the lock
// is rare next to the records; a lock-free stack would need ABA protection for no measurable gain.
// Chunks stay in the pool until the pool is freed: a program that needed them once is likely to
// need them again (the next burst of threads), and the pool's peak bounds them.
struct fs_pool {
    pthread_mutex_t lock;
    fs_chunk *free_list;        // guarded by lock
    uint64_t chunk_records;
    uint64_t chunk_bytes;
    uint64_t max_chunks;        // 0: no cap
    uint64_t allocated;         // guarded by lock
    uint64_t peak;              // guarded by lock
    uint64_t free_count;        // guarded by lock
    _Atomic(uint32_t) references;
};

fs_pool *fs_pool_create(uint64_t chunk_records, uint64_t max_chunks) {
    fs_pool *pool = malloc(sizeof(fs_pool));
    if (!pool) return 0;
    memset(pool, 0, sizeof(fs_pool));
    pthread_mutex_init(&pool->lock, 0);
    pool->chunk_records = chunk_records;
    // Rounded up to the alignment, as aligned_alloc requires.
    pool->chunk_bytes = (sizeof(fs_chunk) + sizeof(fs_record) * chunk_records + 63) & ~(uint64_t)63;
    pool->max_chunks = max_chunks;
    atomic_store_explicit(&pool->references, 1, memory_order_relaxed);
    return pool;
}

static void fs_pool_retain(fs_pool *pool) { atomic_fetch_add_explicit(&pool->references, 1, memory_order_relaxed); }

void fs_pool_release(fs_pool *pool) {
    if (!pool) return;
    if (atomic_fetch_sub_explicit(&pool->references, 1, memory_order_acq_rel) != 1) return;
    for (fs_chunk *chunk = pool->free_list; chunk;) {
        fs_chunk *next = atomic_load_explicit(&chunk->next, memory_order_relaxed);
        free(chunk);
        chunk = next;
    }
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

fs_pool_statistics fs_pool_read_statistics(fs_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    fs_pool_statistics statistics = {pool->chunk_records, pool->chunk_bytes, pool->allocated, pool->peak, pool->free_count};
    pthread_mutex_unlock(&pool->lock);
    return statistics;
}

// A chunk from the free list, or a new one while the cap allows; NULL when there is none.
static fs_chunk *fs_pool_take(fs_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    fs_chunk *chunk = pool->free_list;
    if (chunk) {
        pool->free_list = atomic_load_explicit(&chunk->next, memory_order_relaxed);
        pool->free_count -= 1;
        pthread_mutex_unlock(&pool->lock);
        atomic_store_explicit(&chunk->next, 0, memory_order_relaxed);
        return chunk;
    }
    if (pool->max_chunks != 0 && pool->allocated >= pool->max_chunks) {
        pthread_mutex_unlock(&pool->lock);
        return 0;
    }
    // Counted before the allocation, outside the lock, so the cap holds while it runs.
    pool->allocated += 1;
    if (pool->allocated > pool->peak) pool->peak = pool->allocated;
    pthread_mutex_unlock(&pool->lock);
    chunk = aligned_alloc(64, pool->chunk_bytes);
    if (!chunk) {
        pthread_mutex_lock(&pool->lock);
        pool->allocated -= 1;
        pthread_mutex_unlock(&pool->lock);
        return 0;
    }
    atomic_store_explicit(&chunk->next, 0, memory_order_relaxed);
    return chunk;
}

// Hands back the `count` chunks linked from `first` to `last`.
static void fs_pool_put(fs_pool *pool, fs_chunk *first, fs_chunk *last, uint64_t count) {
    if (count == 0) return;
    pthread_mutex_lock(&pool->lock);
    atomic_store_explicit(&last->next, pool->free_list, memory_order_relaxed);
    pool->free_list = first;
    pool->free_count += count;
    pthread_mutex_unlock(&pool->lock);
}

fs_ring *fs_ring_create(fs_pool *pool, uint64_t capacity) {
    fs_ring *ring = aligned_alloc(64, (sizeof(fs_ring) + 63) & ~(size_t)63);
    if (!ring) return 0;
    memset(ring, 0, sizeof(fs_ring));
    ring->chunk_mask = pool->chunk_records - 1;
    ring->capacity = capacity;
    ring->pool = pool;
    fs_pool_retain(pool);
    atomic_store_explicit(&ring->references, 1, memory_order_relaxed);
    return ring;
}

void fs_ring_retain(fs_ring *ring) { atomic_fetch_add_explicit(&ring->references, 1, memory_order_relaxed); }

// Hands every chunk back to the pool and empties the ring. Only when no producer can push and no
// consumer is reading: the owner exited (or never recorded) and the caller is the consumer, or
// the last reference is going.
static void fs_ring_return_chunks(fs_ring *ring) {
    fs_chunk *chunk = ring->read ? ring->read : atomic_load_explicit(&ring->first, memory_order_acquire);
    if (chunk) {
        fs_chunk *last = chunk;
        uint64_t count = 1;
        for (fs_chunk *next; (next = atomic_load_explicit(&last->next, memory_order_acquire));) {
            last = next;
            count += 1;
        }
        fs_pool_put(ring->pool, chunk, last, count);
    }
    atomic_store_explicit(&ring->tail, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->head, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->first, 0, memory_order_relaxed);
    ring->write = 0;
    ring->write_end = 0;
    ring->write_chunk_end = 0;
    ring->read = 0;
    ring->read_base = 0;
}

void fs_ring_recycle(fs_ring *ring) { fs_ring_return_chunks(ring); }

void fs_ring_release_reference(fs_ring *ring) {
    if (!ring) return;
    if (atomic_fetch_sub_explicit(&ring->references, 1, memory_order_acq_rel) != 1) return;
    fs_ring_return_chunks(ring);
    fs_pool_release(ring->pool);
    free(ring);
}

bool fs_ring_push_slow(fs_ring *ring, const fs_record *record) {
    uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_acquire);
    if (tail - head >= ring->capacity) goto drop;
    if (!ring->write || tail == ring->write_chunk_end) {
        fs_chunk *chunk = fs_pool_take(ring->pool);
        if (!chunk) goto drop;
        // Linked before the tail passes into it (the release store below publishes both).
        if (ring->write) {
            atomic_store_explicit(&ring->write->next, chunk, memory_order_release);
        } else {
            atomic_store_explicit(&ring->first, chunk, memory_order_release);
        }
        ring->write = chunk;
        ring->write_chunk_end = tail + ring->chunk_mask + 1;
    }
    // The fast path may run to the chunk's end or to where the capacity ran out at this head,
    // whichever comes first; a later head lets the slow path move the limit on.
    uint64_t limit = head + ring->capacity;
    ring->write_end = limit < ring->write_chunk_end ? limit : ring->write_chunk_end;
    ring->write->records[tail & ring->chunk_mask] = *record;
    atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
    return true;
drop:
    atomic_store_explicit(&ring->dropped, atomic_load_explicit(&ring->dropped, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    return false;
}

fs_ring_cursor fs_ring_cursor_at_head(fs_ring *ring) {
    if (!ring->read) {
        ring->read = atomic_load_explicit(&ring->first, memory_order_acquire);
        ring->read_base = 0;
    }
    uint64_t chunk_records = ring->chunk_mask + 1;
    fs_ring_cursor cursor = {ring->read, atomic_load_explicit(&ring->head, memory_order_relaxed),
                             ring->read_base + chunk_records, chunk_records};
    return cursor;
}

void fs_ring_release(fs_ring *ring, uint64_t head) {
    atomic_store_explicit(&ring->head, head, memory_order_release);
    if (!ring->read) {
        ring->read = atomic_load_explicit(&ring->first, memory_order_acquire);
        ring->read_base = 0;
        if (!ring->read) return;
    }
    // Every chunk read to its end that the producer has moved on from (its `next` is set) goes
    // back; the chunk the producer writes into stays, even when read to its end.
    uint64_t chunk_records = ring->chunk_mask + 1;
    fs_chunk *first = ring->read;
    fs_chunk *last = 0;
    uint64_t count = 0;
    while (head >= ring->read_base + chunk_records) {
        fs_chunk *next = atomic_load_explicit(&ring->read->next, memory_order_acquire);
        if (!next) break;
        last = ring->read;
        count += 1;
        ring->read = next;
        ring->read_base += chunk_records;
    }
    if (count > 0) fs_pool_put(ring->pool, first, last, count);
}

// The thread-exit hook: a pthread key whose value is the head of the thread's list of rings.
static pthread_key_t fs_exit_key;
static pthread_once_t fs_exit_key_once = PTHREAD_ONCE_INIT;

static void fs_thread_exited(void *head) {
    // Records pushed from here on (by later destructors) must not reach a ring handed back.
    memset(fs_slot.entries, 0, sizeof fs_slot.entries);
    for (fs_ring *ring = head; ring;) {
        fs_ring *next = ring->next_owned;
        ring->next_owned = 0;
        atomic_store_explicit(&ring->exited, 1, memory_order_release);
        fs_ring_release_reference(ring);
        ring = next;
    }
}

static void fs_make_exit_key(void) { pthread_key_create(&fs_exit_key, fs_thread_exited); }

void fs_ring_adopt(fs_ring *ring) {
    pthread_once(&fs_exit_key_once, fs_make_exit_key);
    fs_ring_retain(ring);
    atomic_store_explicit(&ring->dropped, 0, memory_order_relaxed);
    atomic_store_explicit(&ring->exited, 0, memory_order_relaxed);
    ring->next_owned = pthread_getspecific(fs_exit_key);
    pthread_setspecific(fs_exit_key, ring);
}

bool fs_thread_own_name(char *buffer, size_t length) {
    if (length == 0) return false;
    buffer[0] = 0;
    if (pthread_getname_np(pthread_self(), buffer, length) != 0 || buffer[0] == 0) return false;
#if !defined(__APPLE__)
    char process[64] = {0};
    FILE *comm = fopen("/proc/self/comm", "r");
    if (comm) {
        if (fgets(process, sizeof process, comm)) process[strcspn(process, "\n")] = 0;
        fclose(comm);
    }
    if (strcmp(buffer, process) == 0) return false;
#endif
    return true;
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FS_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define FS_THREAD_SANITIZER 1
#endif

#if defined(FS_THREAD_SANITIZER)
// From the ThreadSanitizer runtime (sanitizer/tsan_interface.h), linked in sanitized builds.
void __tsan_acquire(void *address);
void __tsan_release(void *address);
void fs_tsan_acquire(void *address) { __tsan_acquire(address); }
void fs_tsan_release(void *address) { __tsan_release(address); }
#else
void fs_tsan_acquire(void *address) { (void)address; }
void fs_tsan_release(void *address) { (void)address; }
#endif

fs_counter_kind fs_counter_available(void) {
#if defined(__APPLE__)
    return FS_COUNTER_MACH_ABSOLUTE;
#elif defined(__x86_64__)
    // CPUID 0x80000007, EDX bit 8: the TSC runs at a constant rate in every P-, C- and T-state.
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0x80000000, 0) < 0x80000007) return FS_COUNTER_NONE;
    if (!__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) return FS_COUNTER_NONE;
    return (edx & (1u << 8)) ? FS_COUNTER_TSC : FS_COUNTER_NONE;
#elif defined(__aarch64__)
    // The generic timer's virtual count runs at a fixed frequency by the architecture, and Linux
    // lets user space read it.
    return FS_COUNTER_CNTVCT;
#else
    return FS_COUNTER_NONE;
#endif
}
