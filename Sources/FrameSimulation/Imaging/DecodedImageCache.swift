/// A thread-safe cache of decoded, display-sized bitmaps, so an image shown a second time at the
/// same size costs a lookup instead of a decode.
///
/// Keyed by the image's identity and its size in pixels. Counts hits and misses; when full it
/// evicts the least recently used entry.
///
/// ```swift
/// let cache = DecodedImageCache(capacity: 100)
/// let key = DecodedImageCache.Key(imageID: "photo/7", width: 686, height: 458)
/// if let bitmap = cache.bitmap(for: key) { show(bitmap) } else { decodeInBackground(key) }
/// ```
package final class DecodedImageCache: Sendable {
    /// What a decoded bitmap is: a source image at a display size.
    package struct Key: Hashable, Sendable {
        /// The source image's identity, for example its URL.
        package var imageID: String
        /// The width in pixels.
        package var width: Int
        /// The height in pixels.
        package var height: Int

        /// Creates a key.
        package init(imageID: String, width: Int, height: Int) {
            self.imageID = imageID
            self.width = width
            self.height = height
        }
    }

    /// The cache's counters.
    package typealias Statistics = CacheStatistics

    private let storage: LRUCache<Key, Bitmap>

    /// The most entries the cache holds.
    package var capacity: Int { storage.capacity }

    /// Creates an empty cache.
    /// - Parameter capacity: The most entries to hold, at least 1.
    package init(capacity: Int) { storage = LRUCache(capacity: capacity) }

    /// Returns the bitmap for `key` and counts a hit, or counts a miss and returns nil.
    package func bitmap(for key: Key) -> Bitmap? { storage.value(for: key) }

    /// Returns the bitmap for `key` without counting a hit or a miss or changing which entry is
    /// evicted next: for checks and tools that must not disturb the statistics.
    package func peek(_ key: Key) -> Bitmap? { storage.peek(key) }

    /// Stores `bitmap` under `key`, evicting the least recently used entry when the cache is full.
    package func insert(_ bitmap: Bitmap, for key: Key) { storage.insert(bitmap, for: key) }

    /// The counters now.
    package var statistics: Statistics { storage.statistics }
}
