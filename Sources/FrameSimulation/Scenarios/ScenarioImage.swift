import FrameScope

/// The image work the scenarios share: decode a PNG file and downsample it to display size,
/// recorded as `decode PNG` and `downsample` spans (category `image-decode`) when a recorder is
/// given.
enum ScenarioImage {
    /// Decodes `file` and downsamples it to `width × height` pixels, fitted inside the source.
    /// - Returns: The bitmap, or `nil` when the file does not decode (never for the files the
    ///   scenarios make).
    static func decode(_ file: [UInt8], toWidth width: Int, height: Int, recorder: Recorder?) -> Bitmap? {
        func span<R>(_ name: StaticString, _ body: () -> R) -> R {
            guard let recorder else { return body() }
            return recorder.withSpan(name, category: .imageDecode, body)
        }
        guard let decoded = span("decode PNG", { try? PNGDecoder.decode(file) }) else { return nil }
        let size = fittedSize(
            displayWidth: width, displayHeight: height, sourceWidth: decoded.width, sourceHeight: decoded.height)
        return span("downsample") { decoded.downsampled(toWidth: size.width, height: size.height) }
    }

    /// The display size, scaled down uniformly when the source is smaller than it in either
    /// direction: decoding never enlarges (the compositor scales such an image up on screen).
    static func fittedSize(displayWidth: Int, displayHeight: Int, sourceWidth: Int, sourceHeight: Int) -> (
        width: Int, height: Int
    ) {
        let scale = min(1, Double(sourceWidth) / Double(displayWidth), Double(sourceHeight) / Double(displayHeight))
        guard scale < 1 else { return (displayWidth, displayHeight) }
        return (
            min(sourceWidth, max(1, Int((Double(displayWidth) * scale).rounded()))),
            min(sourceHeight, max(1, Int((Double(displayHeight) * scale).rounded())))
        )
    }
}
