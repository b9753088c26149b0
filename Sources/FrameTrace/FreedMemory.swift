#if canImport(Glibc)
import Glibc

/// glibc's `malloc_trim`, which the `Glibc` module does not export (it lives in `malloc.h`).
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
#endif

/// The C heap's free memory, handed back to the system on request.
package enum FreedMemory {
    /// Returns the whole free pages of the C heap to the system (glibc's `malloc_trim(0)`).
    ///
    /// Freeing many small blocks (a trace's argument lists are one array each) leaves their
    /// pages resident: glibc gives back only free memory at the top of its heap, and the blocks
    /// lie between strings that stay. Trimming releases every free page wherever it lies, so a
    /// large allocation that follows does not add to the process's peak. Nothing happens on other
    /// C libraries, whose allocators return free pages on their own schedule.
    /// - Complexity: O(*h*) in the heap's size.
    package static func returnToSystem() {
        #if canImport(Glibc)
        _ = mallocTrim(0)
        #endif
    }
}
