/// Running per-category totals over the whole trace.
struct CategoryTotals {
    var spanCount = 0
    var main: Int64 = 0
    var background: Int64 = 0
    /// Main-thread self time inside the measured time.
    var mainMeasured: Int64 = 0

    mutating func add(_ duration: Int64, isMain: Bool) {
        if isMain { main = main.addingSaturating(duration) } else { background = background.addingSaturating(duration) }
    }
}
