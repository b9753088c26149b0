/// The ways to show an image with rounded corners, from the most to the least per-frame work
/// (DOMAIN.md, technique 3).
///
/// Which one fits depends on two questions: does the content behind or inside the corner change,
/// and does the corner overlap other views?
package enum CornerRoundingStrategy: String, Hashable, Sendable, CaseIterable {
    /// `cornerRadius` with clipping: every frame renders the image into an offscreen buffer
    /// through the rounded mask and blends that buffer into the frame, even when the image did
    /// not change. Fits static screens only.
    case offscreenClip
    /// Pre-render once, off the main thread, with an opaque background colour baked into the
    /// corners; every frame copies rows with no blending. Needs a solid, unchanging background.
    case prerenderedOpaque
    /// Pre-render once with transparent corners; every frame blends the whole image. Works over
    /// any background.
    case prerenderedTransparent
    /// Draw the image unclipped and lay a corner-mask overlay (the rectangle minus the rounded
    /// rectangle, filled with the background colour) on top; every frame copies the image and
    /// blends only the four corner squares. Lets the image change without re-rendering.
    case cornerMaskOverlay
}
