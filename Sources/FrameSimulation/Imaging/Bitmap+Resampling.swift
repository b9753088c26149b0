/// How `Bitmap.downsampled(toWidth:height:filter:)` computes each destination pixel.
package enum ResamplingFilter: Hashable, Sendable, CaseIterable {
    /// Area average: each destination pixel is the mean of the source area it covers, partly
    /// covered source pixels weighted by the covered fraction. Sharp and alias-free at any ratio;
    /// costs one multiply-add per source pixel per channel and axis.
    case box
    /// Bilinear: each destination pixel interpolates the two nearest source pixels along each
    /// axis around its centre. Cheaper at large ratios but skips source pixels, so fine detail
    /// aliases.
    case bilinear
}

extension Bitmap {
    /// Returns the image scaled down to the display size.
    ///
    /// Works on premultiplied pixels, so transparent pixels do not darken their neighbours. The
    /// two axes are resampled one after the other (separably), through a floating-point row buffer.
    ///
    /// ```swift
    /// let thumbnail = photo.downsampled(toWidth: 375, height: 281)
    /// ```
    /// - Parameters:
    ///   - width: The new width, `1...self.width`.
    ///   - height: The new height, `1...self.height`.
    ///   - filter: How to compute each pixel; area average when omitted.
    /// - Returns: The scaled image; `self` when the size is unchanged.
    /// - Complexity: O(source pixels × taps); box taps grow with the ratio, bilinear has two.
    package func downsampled(toWidth width: Int, height: Int, filter: ResamplingFilter = .box) -> Bitmap {
        precondition(
            (1...self.width).contains(width) && (1...self.height).contains(height),
            "downsampling cannot enlarge a \(self.width)×\(self.height) image to \(width)×\(height)")
        if width == self.width && height == self.height { return self }
        return WorkMeter.measure(.downsample) {
            (resample(toWidth: width, height: height, filter: filter), units: self.width * self.height)
        }
    }

    private func resample(toWidth width: Int, height: Int, filter: ResamplingFilter) -> Bitmap {
        let columns = ResamplingTaps(filter: filter, from: self.width, to: width)
        let rows = ResamplingTaps(filter: filter, from: self.height, to: height)

        // Horizontal pass: every source row, resampled to the new width.
        var narrowed = [Float](repeating: 0, count: width * 4 * self.height)
        pixels.withUnsafeBufferPointer { source in
            narrowed.withUnsafeMutableBufferPointer { target in
                for y in 0..<self.height {
                    let sourceRow = source.baseAddress! + y * bytesPerRow
                    let targetRow = target.baseAddress! + y * width * 4
                    for x in 0..<width {
                        var sums: SIMD4<Float> = .zero
                        columns.forEachTap(of: x) { column, weight in
                            let pixel = sourceRow + column * 4
                            sums += SIMD4(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3])) * weight
                        }
                        (targetRow + x * 4).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = sums }
                    }
                }
            }
        }

        // Vertical pass: each destination row is a weighted sum of whole narrowed rows.
        let rowLength = width * 4
        var result = [UInt8](repeating: 0, count: rowLength * height)
        var sums = [Float](repeating: 0, count: rowLength)
        narrowed.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<height {
                        sums.update(repeating: 0)
                        rows.forEachTap(of: y) { row, weight in
                            let sourceRow = source.baseAddress! + row * rowLength
                            for index in 0..<rowLength { sums[index] += sourceRow[index] * weight }
                        }
                        let targetRow = target.baseAddress! + y * rowLength
                        for index in 0..<rowLength { targetRow[index] = UInt8(min(sums[index] + 0.5, 255)) }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: result)
    }
}

/// For each destination index along one axis, the source indices that contribute and their
/// weights (which add up to 1).
private struct ResamplingTaps {
    /// The first contributing source index of each destination index.
    private var firstSource: [Int] = []
    /// Where each destination index's weights start in `weights`; one extra entry at the end.
    private var weightStarts: [Int] = [0]
    private var weights: [Float] = []

    init(filter: ResamplingFilter, from sourceCount: Int, to targetCount: Int) {
        let scale = Double(sourceCount) / Double(targetCount)
        for index in 0..<targetCount {
            switch filter {
            case .box:
                let low = Double(index) * scale
                let high = Double(index + 1) * scale
                let first = Int(low)
                let last = min(Int(high.rounded(.up)), sourceCount) - 1
                firstSource.append(first)
                for source in first...max(first, last) {
                    weights.append(Float((min(high, Double(source + 1)) - max(low, Double(source))) / scale))
                }
            case .bilinear:
                let center = min(max((Double(index) + 0.5) * scale - 0.5, 0), Double(sourceCount - 1))
                let first = Int(center)
                let fraction = Float(center - Double(first))
                firstSource.append(first)
                weights.append(1 - fraction)
                if first + 1 < sourceCount { weights.append(fraction) }
            }
            weightStarts.append(weights.count)
        }
    }

    /// Calls `body` with each contributing source index of `target` and its weight.
    @inline(__always)
    func forEachTap(of target: Int, _ body: (Int, Float) -> Void) {
        let first = firstSource[target]
        for slot in weightStarts[target]..<weightStarts[target + 1] {
            body(first + slot - weightStarts[target], weights[slot])
        }
    }
}
