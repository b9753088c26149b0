/// A thread-safe cache of prepared rounded images, so an image that appears a second time
/// costs a lookup instead of a pre-render.
///
/// Keyed by image identity, display size, corner radius, strategy and background (every input
/// that changes the prepared pixels). Counts hits and misses; when full it evicts the least
/// recently used entry.
///
/// ```swift
/// let cache = RoundedImageCache(capacity: 200)
/// let key = RoundedImageCache.Key(imageID: "avatar/42", width: 120, height: 120, cornerRadius: 60,
///                                 strategy: .prerenderedOpaque, background: white)
/// let avatar = cache.roundedImage(for: key) { RoundedImage(image: decoded(), cornerRadius: 60, strategy: .prerenderedOpaque, background: white) }
/// print(cache.statistics.hitRate)
/// ```
package final class RoundedImageCache: Sendable {
    /// Everything that decides a prepared image's pixels.
    package struct Key: Hashable, Sendable {
        /// The source image's identity, for example its URL or asset name.
        package var imageID: String
        /// The display width in pixels.
        package var width: Int
        /// The display height in pixels.
        package var height: Int
        /// The corner radius in pixels.
        package var cornerRadius: Double
        /// The rounding strategy.
        package var strategy: CornerRoundingStrategy
        /// The background colour behind the corners.
        package var background: Pixel

        /// Creates a key.
        /// - Parameters:
        ///   - imageID: The source image's identity.
        ///   - width: The display width in pixels.
        ///   - height: The display height in pixels.
        ///   - cornerRadius: The corner radius in pixels.
        ///   - strategy: The rounding strategy.
        ///   - background: The background colour behind the corners.
        package init(
            imageID: String, width: Int, height: Int, cornerRadius: Double, strategy: CornerRoundingStrategy,
            background: Pixel
        ) {
            self.imageID = imageID
            self.width = width
            self.height = height
            self.cornerRadius = cornerRadius
            self.strategy = strategy
            self.background = background
        }
    }

    /// The cache's counters.
    package typealias Statistics = CacheStatistics

    private let storage: LRUCache<Key, RoundedImage>

    /// The most entries the cache holds.
    package var capacity: Int { storage.capacity }

    /// Creates an empty cache.
    /// - Parameter capacity: The most entries to hold, at least 1.
    package init(capacity: Int) { storage = LRUCache(capacity: capacity) }

    /// Returns the cached image for `key` and counts a hit, or counts a miss and returns nil.
    /// - Complexity: O(1).
    package func cachedImage(for key: Key) -> RoundedImage? { storage.value(for: key) }

    /// Stores `image` under `key`, evicting the least recently used entry when the cache is full.
    /// - Complexity: O(1), or O(*capacity*) when it evicts.
    package func insert(_ image: RoundedImage, for key: Key) { storage.insert(image, for: key) }

    /// Returns the cached image for `key`, or makes, stores and returns it.
    ///
    /// `make` runs outside the lock, so other threads are not blocked while it pre-renders; two
    /// threads that miss the same key at once both make it, and the later one's result is kept.
    /// - Parameters:
    ///   - key: What the image is.
    ///   - make: The one-time work, called only on a miss.
    /// - Returns: The prepared image.
    /// - Throws: What `make` throws; nothing is stored then.
    package func roundedImage<Failure: Error>(
        for key: Key, orMake make: () throws(Failure) -> RoundedImage
    ) throws(Failure) -> RoundedImage {
        if let cached = cachedImage(for: key) { return cached }
        let image = try make()
        insert(image, for: key)
        return image
    }

    /// The counters so far.
    package var statistics: Statistics { storage.statistics }
}
