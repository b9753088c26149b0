/// An image prepared for showing with rounded corners by one `CornerRoundingStrategy`.
///
/// Creating it is the one-time work, meant for a background thread: the pre-rendering
/// strategies clip (and, for `prerenderedOpaque`, flatten onto the background) here, and the
/// overlay strategy builds its corner overlay here. `draw(into:atX:y:)` is the per-frame work on
/// the render lane. The value is `Sendable`, so it can be made on one thread, cached in a
/// `RoundedImageCache`, and drawn on another.
///
/// All four strategies put the same pixels on screen (within 1 per channel) when the framebuffer
/// behind the image is the `background` colour; they differ in how much work each frame does.
///
/// ```swift
/// let avatar = RoundedImage(image: decoded, cornerRadius: 60, strategy: .prerenderedOpaque, background: white)
/// let work = avatar.draw(into: &framebuffer, atX: 16, y: scrollOffset + 200)
/// ```
package struct RoundedImage: Sendable {
    /// The strategy this image was prepared for.
    package let strategy: CornerRoundingStrategy
    /// The corner radius in pixels, as requested.
    package let cornerRadius: Double
    /// The colour the strategy assumes behind the corners.
    package let background: Pixel
    /// The width in pixels.
    package let width: Int
    /// The height in pixels.
    package let height: Int
    private let prepared: Prepared

    /// What the one-time work left for every frame to draw.
    private enum Prepared {
        /// `offscreenClip`: the original image, clipped anew every frame.
        case unclipped(Bitmap)
        /// The pre-rendering strategies: the rounded image, copied when opaque, else blended.
        case rounded(Bitmap, isOpaque: Bool)
        /// `cornerMaskOverlay`: the original image, and the overlay (the background colour where
        /// the mask does not cover, transparent elsewhere) with the corner squares it affects.
        case overlaid(Bitmap, isOpaque: Bool, overlay: Bitmap, corners: [PixelRegion])
    }

    /// Prepares `image`: the strategy's one-time work.
    /// - Parameters:
    ///   - image: The image at display size.
    ///   - cornerRadius: The corner radius in pixels, not negative.
    ///   - strategy: How the corners will be rounded.
    ///   - background: The colour behind the image; it must be opaque for `prerenderedOpaque`.
    /// - Complexity: O(*n*) in the pixel count; O(1) for `offscreenClip`, which defers its work
    ///   to every frame.
    package init(image: Bitmap, cornerRadius: Double, strategy: CornerRoundingStrategy, background: Pixel) {
        precondition(
            strategy != .prerenderedOpaque || background.alpha == 255, "prerenderedOpaque needs an opaque background")
        self.strategy = strategy
        self.cornerRadius = cornerRadius
        self.background = background
        width = image.width
        height = image.height
        if strategy == .offscreenClip {
            prepared = .unclipped(image)  // the work is deferred to every frame
        } else {
            prepared = WorkMeter.measure(.roundCorners) {
                (
                    Self.prepare(image, cornerRadius: cornerRadius, strategy: strategy, background: background),
                    units: image.width * image.height
                )
            }
        }
    }

    /// The strategy's one-time work on `image`.
    private static func prepare(
        _ image: Bitmap, cornerRadius: Double, strategy: CornerRoundingStrategy, background: Pixel
    ) -> Prepared {
        let mask = { RoundedRectMask(width: image.width, height: image.height, radius: cornerRadius) }
        switch strategy {
        case .offscreenClip:
            return .unclipped(image)
        case .prerenderedOpaque:
            var flattened = Bitmap(width: image.width, height: image.height, filledWith: background)
            let clipped = image.masked(byCoverage: mask().coverage)
            flattened.blend(clipped.bounds, of: clipped, atX: 0, y: 0)
            return .rounded(flattened, isOpaque: true)
        case .prerenderedTransparent:
            let clipped = image.masked(byCoverage: mask().coverage)
            return .rounded(clipped, isOpaque: clipped.isOpaque)
        case .cornerMaskOverlay:
            // The rectangle minus the rounded rectangle: the background where the mask leaves a
            // pixel uncovered, in proportion.
            let mask = mask()
            let fill = Bitmap(width: image.width, height: image.height, filledWith: background)
            let overlay = fill.masked(byCoverage: mask.coverage.map { 255 - $0 })
            return .overlaid(image, isOpaque: image.isOpaque, overlay: overlay, corners: mask.cornerRegions)
        }
    }

    /// Composites the image into `framebuffer` with its top-left corner at (`x`, `y`): the
    /// strategy's per-frame work. Parts outside the framebuffer are skipped, as when a cell is
    /// scrolled partly off screen.
    /// - Parameters:
    ///   - framebuffer: The frame being drawn.
    ///   - x: The column of the image's left edge; may be negative.
    ///   - y: The row of the image's top edge; may be negative.
    /// - Returns: The pixels this frame copied, blended and rendered offscreen.
    /// - Complexity: O(*n*) in the visible pixel count; `offscreenClip` also rasterizes the mask
    ///   and renders the whole image offscreen.
    @discardableResult
    package func draw(into framebuffer: inout Bitmap, atX x: Int, y: Int) -> CompositingWork {
        let kind: WorkKind =
            switch prepared {
            case .unclipped: .drawOffscreen
            case .rounded(_, let isOpaque): isOpaque ? .drawCopy : .drawBlend
            case .overlaid: .drawCornerOverlay
            }
        return WorkMeter.measure(kind) {
            let work = composite(into: &framebuffer, atX: x, y: y)
            return (work, units: work.offscreenPixels + work.copiedPixels + work.blendedPixels)
        }
    }

    private func composite(into framebuffer: inout Bitmap, atX x: Int, y: Int) -> CompositingWork {
        var work = CompositingWork()
        switch prepared {
        case .unclipped(let image):
            let mask = RoundedRectMask(width: width, height: height, radius: cornerRadius)
            let offscreen = image.masked(byCoverage: mask.coverage)
            work.offscreenPixels = width * height
            work.offscreenPasses = 1
            work.blendedPixels = framebuffer.blend(offscreen.bounds, of: offscreen, atX: x, y: y)
        case .rounded(let image, let isOpaque):
            Self.draw(image, isOpaque: isOpaque, into: &framebuffer, atX: x, y: y, work: &work)
        case .overlaid(let image, let isOpaque, let overlay, let corners):
            Self.draw(image, isOpaque: isOpaque, into: &framebuffer, atX: x, y: y, work: &work)
            for region in corners {
                work.blendedPixels += framebuffer.blend(region, of: overlay, atX: x, y: y)
            }
        }
        return work
    }

    /// Copies an opaque image, blends any other.
    private static func draw(
        _ image: Bitmap, isOpaque: Bool, into framebuffer: inout Bitmap, atX x: Int, y: Int, work: inout CompositingWork
    ) {
        if isOpaque {
            work.copiedPixels += framebuffer.copy(image.bounds, of: image, atX: x, y: y)
        } else {
            work.blendedPixels += framebuffer.blend(image.bounds, of: image, atX: x, y: y)
        }
    }
}
