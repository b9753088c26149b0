#if canImport(Glibc)
    import Glibc

    /// glibc's `malloc_trim`, which the `Glibc` module does not export (it lives in `malloc.h`).
    @_silgen_name("malloc_trim")
    private func mallocTrim(_ pad: Int) -> Int32
#elseif canImport(Darwin)
    /// libmalloc's `malloc_zone_pressure_relief` (`malloc/malloc.h`): with no zone, every zone.
    @_silgen_name("malloc_zone_pressure_relief")
    private func mallocZonePressureRelief(_ zone: OpaquePointer?, _ goal: Int) -> Int
#endif

/// The C heap's free memory, handed back to the system on request.
package enum FreedMemory {
    /// Returns the whole free pages of the C heap to the system: glibc's `malloc_trim(0)`, or on
    /// Apple platforms `malloc_zone_pressure_relief(nil, 0)`.
    ///
    /// Freeing many small blocks (a trace's argument lists are one array each) leaves their
    /// pages resident: glibc gives back only free memory at the top of its heap, and the blocks
    /// lie between strings that stay. Trimming releases every free page wherever it lies, so a
    /// large allocation that follows does not add to the process's peak. libmalloc keeps freed
    /// regions cached for reuse in the same way until asked for relief. Nothing happens on other
    /// C libraries. (Only the glibc path is measured: the project's machines run Linux.)
    /// - Complexity: O(*h*) in the heap's size.
    package static func returnToSystem() {
        #if canImport(Glibc)
            _ = mallocTrim(0)
        #elseif canImport(Darwin)
            _ = mallocZonePressureRelief(nil, 0)
        #endif
    }
}
