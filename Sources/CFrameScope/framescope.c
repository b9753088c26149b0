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

fs_ring *fs_ring_create(uint64_t capacity) {
    fs_ring *ring = aligned_alloc(64, sizeof(fs_ring));
    if (!ring) return 0;
    memset(ring, 0, sizeof(fs_ring));
    ring->records = malloc(sizeof(fs_record) * capacity);
    if (!ring->records) {
        free(ring);
        return 0;
    }
    ring->mask = capacity - 1;
    atomic_store_explicit(&ring->references, 1, memory_order_relaxed);
    return ring;
}

void fs_ring_retain(fs_ring *ring) { atomic_fetch_add_explicit(&ring->references, 1, memory_order_relaxed); }

void fs_ring_release_reference(fs_ring *ring) {
    if (!ring) return;
    if (atomic_fetch_sub_explicit(&ring->references, 1, memory_order_acq_rel) != 1) return;
    free(ring->records);
    free(ring);
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
