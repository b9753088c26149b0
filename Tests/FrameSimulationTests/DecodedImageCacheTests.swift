import Testing

@testable import FrameSimulation

@Suite("decoded-image cache")
struct DecodedImageCacheTests {
    func bitmap(_ shade: UInt8) -> Bitmap {
        Bitmap(width: 2, height: 2, filledWith: Pixel(red: shade, green: shade, blue: shade))
    }
    func key(_ id: String, _ width: Int = 2) -> DecodedImageCache.Key { .init(imageID: id, width: width, height: 2) }

    @Test("Counts a miss, then hits once stored; a different size is a different entry")
    func hitsAndMisses() {
        let cache = DecodedImageCache(capacity: 4)
        #expect(cache.bitmap(for: key("a")) == nil)
        cache.insert(bitmap(1), for: key("a"))
        #expect(cache.bitmap(for: key("a")) == bitmap(1))
        #expect(cache.bitmap(for: key("a", 3)) == nil)
        let statistics = cache.statistics
        #expect(statistics.hits == 1 && statistics.misses == 2 && statistics.count == 1 && statistics.evictions == 0)
        #expect(statistics.hitRate == 1.0 / 3.0)
    }

    @Test("When full, evicts the least recently used entry")
    func evictsLeastRecentlyUsed() {
        let cache = DecodedImageCache(capacity: 2)
        cache.insert(bitmap(1), for: key("a"))
        cache.insert(bitmap(2), for: key("b"))
        _ = cache.bitmap(for: key("a"))  // b is now the least recently used
        cache.insert(bitmap(3), for: key("c"))
        #expect(cache.bitmap(for: key("b")) == nil)
        #expect(cache.bitmap(for: key("a")) == bitmap(1))
        #expect(cache.bitmap(for: key("c")) == bitmap(3))
        #expect(cache.statistics.evictions == 1 && cache.statistics.count == 2)
        cache.insert(bitmap(4), for: key("c"))  // replacing an entry evicts nothing
        #expect(cache.statistics.evictions == 1 && cache.bitmap(for: key("c")) == bitmap(4))
    }

    @Test("Peeking counts nothing and does not refresh an entry")
    func peekIsInvisible() {
        let cache = DecodedImageCache(capacity: 2)
        cache.insert(bitmap(1), for: key("a"))
        cache.insert(bitmap(2), for: key("b"))
        #expect(cache.peek(key("a")) == bitmap(1) && cache.peek(key("z")) == nil)
        #expect(cache.statistics.hits == 0 && cache.statistics.misses == 0)
        cache.insert(bitmap(3), for: key("c"))  // a is still the least recently used
        #expect(cache.peek(key("a")) == nil && cache.peek(key("b")) == bitmap(2))
    }
}
