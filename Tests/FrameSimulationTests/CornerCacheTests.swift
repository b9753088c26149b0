import Testing

@testable import FrameSimulation

@Suite("Rounded image cache")
struct CornerCacheTests {
    static let white = Pixel(red: 255, green: 255, blue: 255)
    static let image = Bitmap(width: 8, height: 8, filledWith: Pixel(red: 10, green: 20, blue: 30))

    private func key(
        _ id: String, radius: Double = 4, strategy: CornerRoundingStrategy = .prerenderedOpaque,
        background: Pixel = white
    ) -> RoundedImageCache.Key {
        RoundedImageCache.Key(
            imageID: id, width: 8, height: 8, cornerRadius: radius, strategy: strategy, background: background)
    }

    private func make(_ key: RoundedImageCache.Key) -> RoundedImage {
        RoundedImage(
            image: Self.image, cornerRadius: key.cornerRadius, strategy: key.strategy, background: key.background)
    }

    @Test("A second appearance is a hit and does not pre-render again")
    func secondAppearanceHits() {
        let cache = RoundedImageCache(capacity: 10)
        var renders = 0
        for _ in 0..<2 {
            _ = cache.roundedImage(for: key("a")) {
                renders += 1
                return make(key("a"))
            }
        }
        #expect(renders == 1)
        let statistics = cache.statistics
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 1)
        #expect(statistics.count == 1)
        #expect(statistics.hitRate == 0.5)
    }

    @Test("Radius, strategy and background are part of the key")
    func keyIncludesEveryInput() {
        let cache = RoundedImageCache(capacity: 10)
        cache.insert(make(key("a")), for: key("a"))
        #expect(cache.cachedImage(for: key("a", radius: 3)) == nil)
        #expect(cache.cachedImage(for: key("a", strategy: .cornerMaskOverlay)) == nil)
        #expect(cache.cachedImage(for: key("a", background: Pixel(red: 0, green: 0, blue: 0))) == nil)
        #expect(cache.cachedImage(for: key("b")) == nil)
        #expect(cache.cachedImage(for: key("a")) != nil)
        #expect(cache.statistics.hitRate == 0.2)
    }

    @Test("A full cache evicts the least recently used entry")
    func evictsLeastRecentlyUsed() {
        let cache = RoundedImageCache(capacity: 2)
        cache.insert(make(key("a")), for: key("a"))
        cache.insert(make(key("b")), for: key("b"))
        _ = cache.cachedImage(for: key("a"))
        cache.insert(make(key("c")), for: key("c"))
        #expect(cache.cachedImage(for: key("b")) == nil)
        #expect(cache.cachedImage(for: key("a")) != nil)
        #expect(cache.cachedImage(for: key("c")) != nil)
        #expect(cache.statistics.evictions == 1)
        #expect(cache.statistics.count == 2)
    }

    @Test("Lookups from many tasks at once are all counted")
    func concurrentLookups() async {
        let cache = RoundedImageCache(capacity: 100)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        let key = key("image-\((task + index) % 10)")
                        _ = cache.roundedImage(for: key) { make(key) }
                    }
                }
            }
        }
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == 400)
        #expect(statistics.misses >= 10)
        #expect(statistics.count == 10)
    }
}
