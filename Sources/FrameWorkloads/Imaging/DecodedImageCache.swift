import Synchronization

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
public final class DecodedImageCache: Sendable {
    /// What a decoded bitmap is: a source image at a display size.
    public struct Key: Hashable, Sendable {
        /// The source image's identity, for example its URL.
        public var imageID: String
        /// The width in pixels.
        public var width: Int
        /// The height in pixels.
        public var height: Int

        /// Creates a key.
        public init(imageID: String, width: Int, height: Int) {
            self.imageID = imageID
            self.width = width
            self.height = height
        }
    }

    /// The cache's counters.
    public struct Statistics: Hashable, Sendable {
        /// Lookups that found an entry.
        public var hits = 0
        /// Lookups that found none.
        public var misses = 0
        /// Entries removed to make room.
        public var evictions = 0
        /// Entries held now.
        public var count = 0

        /// Hits divided by lookups; 0 before the first lookup.
        public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    }

    private struct State {
        var entries: [Key: (bitmap: Bitmap, lastUse: Int)] = [:]
        var clock = 0
        var statistics = Statistics()
    }

    /// The most entries the cache holds.
    public let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache.
    /// - Parameter capacity: The most entries to hold, at least 1.
    public init(capacity: Int) {
        precondition(capacity > 0, "a cache needs room for at least one entry")
        self.capacity = capacity
    }

    /// Returns the bitmap for `key` and counts a hit, or counts a miss and returns nil.
    public func bitmap(for key: Key) -> Bitmap? {
        state.withLock { state in
            guard let entry = state.entries[key] else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            state.clock += 1
            state.entries[key] = (entry.bitmap, state.clock)
            return entry.bitmap
        }
    }

    /// Stores `bitmap` under `key`, evicting the least recently used entry when the cache is full.
    /// - Complexity: O(1), or O(*capacity*) when it evicts.
    public func insert(_ bitmap: Bitmap, for key: Key) {
        state.withLock { state in
            if state.entries[key] == nil && state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries[oldest] = nil
                state.statistics.evictions += 1
            }
            state.clock += 1
            state.entries[key] = (bitmap, state.clock)
            state.statistics.count = state.entries.count
        }
    }

    /// The counters now.
    public var statistics: Statistics { state.withLock { $0.statistics } }
}
