public import FrameTrace
import Synchronization

/// The frame-budget category a span belongs to: where the time went.
///
/// The built-in categories name the work the five techniques move around (`layout`,
/// `imageDecode`, `cornerRounding`, `diffApply`) and the frame's own structure (`frame`, `input`,
/// `render`). Apps add their own by name, once, and keep them in a static:
///
/// ```swift
/// extension Category {
///     static let networking = Category.named("networking")
/// }
/// recorder.withSpan("fetch", category: .networking) { ... }
/// ```
///
/// A category is a small integer on the recording path; its name is looked up only on export.
public struct Category: Hashable, Sendable {
    /// The category's index in the process-wide registry.
    public let id: UInt16

    @usableFromInline
    init(id: UInt16) { self.id = id }

    /// The recorder's category for one of framescope's built-in categories: its id is the
    /// built-in's position in `TraceCategory.allCases`, which is also where the registry puts its
    /// name, so the vocabulary is declared once, in FrameTrace.
    /// - Parameter builtIn: The built-in category.
    public init(_ builtIn: TraceCategory) {
        // allCases is the declaration order; ten entries, searched once per static below.
        id = UInt16(TraceCategory.allCases.firstIndex(of: builtIn)!)
    }

    /// Laying out views or nodes: measuring text, solving constraints, computing frames.
    public static let layout = Category(.layout)
    /// Decoding compressed images into bitmaps.
    public static let imageDecode = Category(.imageDecode)
    /// Rounding corners: clipping, masking or pre-rendering rounded images.
    public static let cornerRounding = Category(.cornerRounding)
    /// Computing or applying list updates: diffs, snapshots, reloads.
    public static let diffApply = Category(.diffApply)
    /// One frame's main-thread pass, from its vsync to its commit: structure, not a cost. Record
    /// frames with ``Recorder/withFrame(sinceVsync:budget:index:_:)``.
    public static let frame = Category(.frame)
    /// Handling user input.
    public static let input = Category(.input)
    /// The render server's lane: compositing and offscreen passes.
    public static let render = Category(.render)
    /// Work given no category.
    public static let other = Category(.other)
    /// Committing a frame's layer tree to the render server.
    public static let commit = Category(.commit)
    /// The frame timeline tracks (FrameTrace's `FrameContract.Timeline`): structure, not a cost.
    /// Record them with ``Recorder/recordFrameTimeline(_:)``.
    public static let frameTimeline = Category(.frameTimeline)

    /// Returns the category with this name, registering it on first use.
    ///
    /// Registration takes a lock; call it once and keep the result.
    /// - Parameter name: The name the trace will show, e.g. `networking`.
    /// - Returns: The category registered under `name`: the same value for the same name, every
    ///   time, in the whole process.
    /// - Precondition: At most 4,096 distinct categories exist in a process.
    public static func named(_ name: String) -> Category {
        CategoryRegistry.shared.category(named: name)
    }

    /// The name the trace shows for this category (`image-decode` for ``imageDecode``).
    public var name: String { CategoryRegistry.shared.name(of: self) }
}

/// The process-wide table of category names. Built-ins occupy the first ids.
final class CategoryRegistry: Sendable {
    static let shared = CategoryRegistry()
    static let builtInNames = TraceCategory.allCases.map(\.name)
    static let limit = 4096

    private let names = Mutex<[String]>(CategoryRegistry.builtInNames)

    func category(named name: String) -> Category {
        names.withLockAnnounced { names in
            if let index = names.firstIndex(of: name) { return Category(id: UInt16(index)) }
            precondition(names.count < CategoryRegistry.limit, "framescope supports at most 4,096 categories")
            names.append(name)
            return Category(id: UInt16(names.count - 1))
        }
    }

    func name(of category: Category) -> String {
        names.withLockAnnounced { $0[Int(category.id)] }
    }

    func allNames() -> [String] { names.withLockAnnounced { $0 } }
}
