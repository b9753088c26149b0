import CFrameScope
import Synchronization

extension Mutex where Value: Sendable {
    /// Runs `body` with the lock held, like `withLock`, and tells ThreadSanitizer so.
    ///
    /// On Linux, `Mutex` locks and waits inside the standard library, which is not instrumented, so
    /// ThreadSanitizer does not see that the lock orders the accesses it guards and reports them as
    /// races (`swift test --sanitize=thread` fails on correct code). Announcing the acquire and the
    /// release on the mutex's address gives it exactly the ordering the lock provides, so real
    /// races elsewhere are still reported. Without `-sanitize=thread` the announcements are empty
    /// calls. Recording without arguments takes no lock at all; this serves the paths that do
    /// (arguments, thread setup, names, export).
    @inline(__always)
    borrowing func withLockAnnounced<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        // The announcements use the mutex's own address: the guarded value must not be touched
        // (not even to take its address) before the acquire is announced.
        withUnsafePointer(to: self) { mutex in
            let address = UnsafeMutableRawPointer(mutating: mutex)
            return withLock { (value: inout sending Value) -> Result in
                fs_tsan_acquire(address)
                defer { fs_tsan_release(address) }
                return body(&value)
            }
        }
    }
}
