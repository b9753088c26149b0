@_spi(FramescopeInternals) import FrameTrace

/// The names the report gives a trace's categories (``CategoryIndex``): a frame span's own time
/// is `(unattributed)`, not a category called `frame`. Per-frame sums are keyed by name, so each
/// category maps to the number of its name; two categories share one only when a trace names a
/// category `(unattributed)` beside its frame spans.
struct CategoryNames {
    /// The distinct names.
    private(set) var names: [String] = []
    /// Per category number, the number of its name in ``names``.
    private(set) var nameOfCategory: [Int] = []

    init(_ categories: CategoryIndex, frameCategory: Symbol?, trace: Trace) {
        var numbers: [String: Int] = [:]
        for symbol in categories.symbols {
            let name = FrameAnalyzer.categoryName(symbol, frameCategory: frameCategory, trace: trace)
            if let number = numbers[name] {
                nameOfCategory.append(number)
            } else {
                numbers[name] = names.count
                nameOfCategory.append(names.count)
                names.append(name)
            }
        }
    }
}
