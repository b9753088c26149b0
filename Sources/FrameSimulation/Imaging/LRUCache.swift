import Synchronization

/// Hit, miss and eviction counters of an ``LRUCache``.
package struct CacheStatistics: Hashable, Sendable {
    /// Lookups that found an entry.
    package var hits = 0
    /// Lookups that found none.
    package var misses = 0
    /// Entries removed to make room.
    package var evictions = 0
    /// Entries held now.
    package var count = 0

    /// Hits divided by lookups; 0 before the first lookup.
    package var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
}

/// A thread-safe, bounded cache that counts hits and misses and, when full, evicts the least
/// recently used entry: the one mechanism behind ``RoundedImageCache`` and ``DecodedImageCache``.
package final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: (value: Value, lastUse: Int)] = [:]
        var clock = 0
        var statistics = CacheStatistics()
    }

    /// The most entries the cache holds.
    package let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache.
    /// - Parameter capacity: The most entries to hold, at least 1.
    package init(capacity: Int) {
        precondition(capacity > 0, "a cache needs room for at least one entry")
        self.capacity = capacity
    }

    /// Returns the value for `key` and counts a hit, or counts a miss and returns nil.
    /// - Complexity: O(1).
    package func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let entry = state.entries[key] else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            state.clock += 1
            state.entries[key] = (entry.value, state.clock)
            return entry.value
        }
    }

    /// Returns the value for `key` without counting a hit or a miss and without making it the most
    /// recently used: a look that does not change what the cache reports or evicts next.
    /// - Complexity: O(1).
    package func peek(_ key: Key) -> Value? {
        state.withLock { $0.entries[key]?.value }
    }

    /// Stores `value` under `key`, evicting the least recently used entry when the cache is full.
    /// - Complexity: O(1), or O(*capacity*) when it evicts.
    package func insert(_ value: Value, for key: Key) {
        state.withLock { state in
            if state.entries[key] == nil && state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries[oldest] = nil
                state.statistics.evictions += 1
            }
            state.clock += 1
            state.entries[key] = (value, state.clock)
            state.statistics.count = state.entries.count
        }
    }

    /// The counters so far.
    package var statistics: CacheStatistics { state.withLock { $0.statistics } }
}
