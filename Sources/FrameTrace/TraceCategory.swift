/// framescope's built-in categories, by name: the one declaration of the category vocabulary.
///
/// The recorder's built-in `Category` values are these, in this order (their ids are their
/// positions); the frame contract, the demo's columns and the HTML palette read their names from
/// here. A trace may hold any other category; these are the ones framescope itself writes.
public enum TraceCategory: String, Sendable, Hashable, CaseIterable {
    /// Measuring and placing views.
    case layout
    /// Decoding and downsampling images.
    case imageDecode = "image-decode"
    /// Rounding corners: masks, clips, pre-rendered images.
    case cornerRounding = "corner-rounding"
    /// Applying a list update: diffing, binding changed rows.
    case diffApply = "diff-apply"
    /// Frame spans: structure, not a cost.
    case frame
    /// Handling input.
    case input
    /// The render server's work.
    case render
    /// Anything else.
    case other
    /// Handing a frame to the render server.
    case commit
    /// The exported frame timeline tracks (async slices).
    case frameTimeline = "frame-timeline"

    /// The name every trace and output writes.
    public var name: String { rawValue }

    /// The work the five techniques move between lanes: the demo's category columns, in order.
    public static let techniqueWork: [TraceCategory] = [.layout, .imageDecode, .cornerRounding, .diffApply]
}
