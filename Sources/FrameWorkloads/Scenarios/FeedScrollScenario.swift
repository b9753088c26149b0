import FrameScope
import FrameTrace

/// Techniques 1 and 2: a feed of rich cells (about 15 subviews each) scrolled at a brisk, steady
/// fling, laid out three ways.
///
/// - `constraints-main`: each cell is laid out by the Cassowary constraint solver on the main
///   thread as it comes on screen, as Auto Layout does for self-sizing cells.
/// - `manual-main`: each cell is laid out by sequential pin-style code on the main thread as it
///   comes on screen, as PinLayout does.
/// - `specs-background`: Texture-style layout specs are computed on background workers, in
///   batches of ``batchSize``, for every cell within two screens below the visible area; the main
///   thread only applies finished layouts. A cell that reaches the screen before its background
///   layout has finished is laid out on the main thread (and the trace says so).
///
/// Every frame the main thread handles the pan, moves the content and positions the visible
/// cells' subviews; cells below the laid-out ones are placed with an estimated height until their
/// real height is known, as table views with estimated heights do.
public final class FeedScrollScenario: Scenario {
    /// How cells are laid out.
    public enum Strategy: String, CaseIterable, Sendable {
        /// Constraint solving on the main thread.
        case constraintsMain = "constraints-main"
        /// Manual layout on the main thread.
        case manualMain = "manual-main"
        /// Layout specs on background workers with a two-screen prefetch window.
        case specsBackground = "specs-background"
    }

    static let descriptor = ScenarioDescriptor(
        name: "feed-scroll",
        summary: "a feed of ~15-subview cells scrolled at 3,000 pt/s on a 375 x 667 pt screen",
        strategies: [
            .init(name: Strategy.constraintsMain.rawValue, summary: "Cassowary constraint layout of each cell on the main thread"),
            .init(name: Strategy.manualMain.rawValue, summary: "pin-style manual layout of each cell on the main thread"),
            .init(name: Strategy.specsBackground.rawValue, summary: "layout specs on workers, prefetching two screens ahead"),
        ],
        make: { name, seed in Strategy(rawValue: name).map { FeedScrollScenario(strategy: $0, seed: seed) } })

    /// Cells per background layout job.
    public static let batchSize = 8
    /// The screen: an iPhone-sized viewport in points.
    public static let viewport = LayoutSize(width: 375, height: 667)
    /// Scroll speed in points per second.
    public static let scrollSpeed = 3_000.0
    /// Height assumed for a cell whose layout is not known yet.
    public static let estimatedHeight = 300.0

    /// The strategy in use.
    public let strategy: Strategy
    /// Cells laid out so far, by index.
    public private(set) var layouts: [Int: FeedCellLayout] = [:]
    /// Cells laid out on the main thread because their background layout was late.
    public private(set) var lateCells = 0
    private var contents: [FeedCellContent] = []
    private var requested: Set<Int> = []
    private var generator: SeededGenerator
    private var offset = 0.0
    private let constraintEngine = ConstraintLayoutEngine()
    private let manualEngine = ManualLayoutEngine()
    private let specEngine = SpecLayoutEngine()

    /// Creates the scenario at the top of the feed.
    public init(strategy: Strategy, seed: UInt64) {
        self.strategy = strategy
        generator = SeededGenerator(seed: seed)
    }

    /// The content of cell `index`, generated in order from the seed.
    public func content(at index: Int) -> FeedCellContent {
        while contents.count <= index { contents.append(FeedCellContent.random(using: &generator)) }
        return contents[index]
    }

    public func frame(_ context: FrameContext) {
        let recorder = context.recorder
        recorder.instant("pan", category: .input)
        offset += Self.scrollSpeed * Double(context.interval) / 1e9
        let width = Self.viewport.width
        if strategy == .specsBackground { prefetch(context, width: width) }

        let visible = visibleCells()
        for index in visible where layouts[index] == nil {
            let content = content(at: index)
            switch strategy {
            case .constraintsMain:
                layouts[index] = recorder.withSpan("layout cell (constraints)", category: .layout) {
                    layoutWithConstraints(content, width: width, recorder: recorder)
                }
            case .manualMain:
                layouts[index] = recorder.withSpan("layout cell (manual)", category: .layout) {
                    manualEngine.layout(content, width: width)
                }
            case .specsBackground:
                lateCells += 1
                layouts[index] = recorder.withSpan("layout cell (specs, not prefetched)", category: .layout) {
                    specEngine.layout(content, width: width)
                }
            }
        }
        let positioned = recorder.withSpan("position visible subviews", category: .layout) { positionSubviews(of: visible) }
        recorder.counter("visible subviews", value: Double(positioned), category: .layout)
    }

    /// Lays out with constraints; an unsolvable system (which the engine's tests rule out) is
    /// recorded in the trace and the cell falls back to manual layout rather than vanishing.
    private func layoutWithConstraints(_ content: FeedCellContent, width: Double, recorder: Recorder) -> FeedCellLayout {
        do {
            return try constraintEngine.layout(content, width: width)
        } catch {
            recorder.instant("constraint layout failed", category: .layout, arguments: ["error": .string("\(error)")])
            return manualEngine.layout(content, width: width)
        }
    }

    /// Submits background layout for cells within two screens below the visible area.
    private func prefetch(_ context: FrameContext, width: Double) {
        let horizon = offset + 3 * Self.viewport.height
        var index = 0
        var y = 0.0
        var batch: [Int] = []
        while y < horizon {
            if layouts[index] == nil, !requested.contains(index) { batch.append(index) }
            y += layouts[index]?.size.height ?? Self.estimatedHeight
            index += 1
        }
        for start in stride(from: 0, to: batch.count, by: Self.batchSize) {
            let indexes = Array(batch[start..<min(start + Self.batchSize, batch.count)])
            let contents = indexes.map(content(at:))
            requested.formUnion(indexes)
            let engine = specEngine
            context.inBackground("layout specs batch", category: .layout) {
                contents.map { engine.layout($0, width: width) }
            } then: { [self] results in
                for (index, layout) in zip(indexes, results) where layouts[index] == nil {
                    layouts[index] = layout
                }
            }
        }
    }

    /// Indexes of cells intersecting the viewport at the current offset.
    private func visibleCells() -> [Int] {
        var visible: [Int] = []
        var index = 0
        var y = 0.0
        let bottom = offset + Self.viewport.height
        while y < bottom {
            let height = layouts[index]?.size.height ?? Self.estimatedHeight
            if y + height > offset { visible.append(index) }
            y += height
            index += 1
        }
        return visible
    }

    /// Computes every visible subview's frame on screen, as setting view frames would; returns
    /// how many subviews were positioned.
    private func positionSubviews(of visible: [Int]) -> Int {
        var y = 0.0
        var next = 0
        var positioned = 0
        var checksum = 0.0
        for index in visible {
            while next < index {
                y += layouts[next]?.size.height ?? Self.estimatedHeight
                next += 1
            }
            guard let layout = layouts[index] else { continue }
            let top = y - offset
            for element in layout.elements {
                if let frame = layout[element] {
                    checksum += frame.origin.y + top + frame.size.width
                    positioned += 1
                }
            }
        }
        return checksum.isNaN ? 0 : positioned
    }
}
