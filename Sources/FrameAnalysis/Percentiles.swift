/// TEMPORARY until Statistics lands.
public struct Percentiles: Sendable, Hashable {
    public var count: Int
    public var p50: Int64
    public var p90: Int64
    public var p95: Int64
    public var p99: Int64
    public var max: Int64
    init(_ values: [Int64]) {
        let s = values.sorted()
        count = s.count
        func rank(_ p: Double) -> Int64 {
            guard !s.isEmpty else { return 0 }
            let r = Int((p / 100 * Double(s.count)).rounded(.up))
            return s[Swift.max(0, Swift.min(s.count - 1, r - 1))]
        }
        p50 = rank(50); p90 = rank(90); p95 = rank(95); p99 = rank(99); max = s.last ?? 0
    }
}
