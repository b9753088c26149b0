/// The pixel work one composite did, by kind: what a strategy costs per frame, in pixels.
///
/// ```swift
/// let work = avatar.draw(into: &framebuffer, atX: 16, y: 200)
/// work.blendedPixels // 0 for a pre-rendered opaque image
/// ```
package struct CompositingWork: Hashable, Sendable {
    /// Pixels written into the framebuffer without blending (row copies).
    package var copiedPixels: Int
    /// Pixels source-over blended into the framebuffer.
    package var blendedPixels: Int
    /// Pixels rendered into an offscreen buffer before reaching the framebuffer.
    package var offscreenPixels: Int
    /// Offscreen passes: one per image rendered through its mask into an offscreen buffer (on a
    /// device, a render-target switch each, whatever the image's size).
    package var offscreenPasses: Int

    /// Creates a tally.
    /// - Parameters:
    ///   - copiedPixels: Pixels copied without blending.
    ///   - blendedPixels: Pixels blended.
    ///   - offscreenPixels: Pixels rendered offscreen.
    ///   - offscreenPasses: Offscreen passes.
    package init(copiedPixels: Int = 0, blendedPixels: Int = 0, offscreenPixels: Int = 0, offscreenPasses: Int = 0) {
        self.copiedPixels = copiedPixels
        self.blendedPixels = blendedPixels
        self.offscreenPixels = offscreenPixels
        self.offscreenPasses = offscreenPasses
    }

    /// Adds another composite's work to this tally.
    package static func += (total: inout CompositingWork, work: CompositingWork) {
        total.copiedPixels += work.copiedPixels
        total.blendedPixels += work.blendedPixels
        total.offscreenPixels += work.offscreenPixels
        total.offscreenPasses += work.offscreenPasses
    }
}
