import Synchronization

/// The PNG files scenarios draw and encode, made once per process for each set of parameters.
///
/// The demo builds six feed-scroll scenarios, four corner-rounding ones and two paper-transition
/// ones with one seed; each set of files is the same bytes every time, and drawing and encoding
/// them is most of a short run's setup (seconds in a debug build). Setup is never measured, so the
/// runs' figures do not change.
///
/// ```swift
/// let files = EncodedFiles.cached("corner-rounding photos seed=1 count=30 side=600") {
///     (0..<30).map { _ in PNGEncoder.encodeOpaque(...) }
/// }
/// ```
enum EncodedFiles {
    private static let sets = Mutex<[String: [[UInt8]]]>([:])

    /// The files `key` names, made by `make` the first time the key is asked for. Two threads
    /// asking at once may both make them; the bytes are the same.
    /// - Parameters:
    ///   - key: Every parameter the files depend on, written out.
    ///   - make: Draws and encodes the files.
    static func cached(_ key: String, make: () -> [[UInt8]]) -> [[UInt8]] {
        if let files = sets.withLock({ $0[key] }) { return files }
        let files = make()
        sets.withLock { $0[key] = files }
        return files
    }
}
