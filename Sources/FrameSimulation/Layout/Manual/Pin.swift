/// A PinLayout-style frame builder: pin edges to the container or to neighbours, then read the frame.
///
/// Manual layout computes each frame with sequential code relative to frames computed before
/// it. `Pin` gives that code PinLayout's vocabulary as a value: each call returns a new pin with
/// one more rule, and ``frame`` resolves the rules. Horizontally, a pinned left edge wins; a
/// width comes from ``width(_:)``, from both edges, or from ``sizeToFit(_:_:)``; a right edge
/// alone places the frame to its left. Vertically, a top edge wins over a bottom edge, which
/// wins over ``vCenter(to:)``. Margins move pinned edges inward.
///
/// ```swift
/// let bounds = LayoutSize(width: 375, height: .infinity)
/// let avatar = Pin(in: bounds).top(12).left(12).size(LayoutSize(width: 48, height: 48)).frame
/// let name = Pin(in: bounds).top(12).after(of: avatar).marginLeft(10)
///     .sizeToFit(.widthFlexible, TextLabel("Ada Lovelace", font: font, maxLines: 1)).frame
/// ```
package struct Pin: Sendable {
    /// How ``sizeToFit(_:_:)`` uses the label's measured size.
    package enum FitMode: Sendable {
        /// Keep the reference width (from the width or both edges) and take the measured height.
        case width
        /// Take the measured width, at most the reference width, and the measured height.
        case widthFlexible
    }

    private let bounds: LayoutSize
    private var leftEdge: Double?
    private var rightEdge: Double?
    private var topEdge: Double?
    private var bottomEdge: Double?
    private var centerY: Double?
    private var margins = LayoutInsets.zero
    private var fixedWidth: Double?
    private var fixedHeight: Double?
    private var widthLimit: Double?
    private var heightLimit: Double?
    private var ratio: Double?
    private var fit: (mode: FitMode, label: TextLabel)?

    /// Starts a frame inside a container.
    /// - Parameter bounds: The container's size; the height may be infinite while it is not known.
    package init(in bounds: LayoutSize) {
        self.bounds = bounds
    }

    /// Pins the top edge `inset` below the container's top.
    /// - Parameter inset: The distance from the container's top edge.
    /// - Returns: The pin with the rule added.
    package func top(_ inset: Double = 0) -> Pin {
        with { $0.topEdge = inset }
    }

    /// Pins the left edge `inset` right of the container's left edge.
    /// - Parameter inset: The distance from the container's left edge.
    /// - Returns: The pin with the rule added.
    package func left(_ inset: Double = 0) -> Pin {
        with { $0.leftEdge = inset }
    }

    /// Pins the right edge `inset` left of the container's right edge.
    /// - Parameter inset: The distance from the container's right edge.
    /// - Returns: The pin with the rule added.
    package func right(_ inset: Double = 0) -> Pin {
        with { $0.rightEdge = bounds.width - inset }
    }

    /// Pins the bottom edge `inset` above the container's bottom; the container's height must be known.
    /// - Parameter inset: The distance from the container's bottom edge.
    /// - Returns: The pin with the rule added.
    package func bottom(_ inset: Double = 0) -> Pin {
        precondition(bounds.height.isFinite, "bottom(_:) needs a container of known height")
        return with { $0.bottomEdge = bounds.height - inset }
    }

    /// Pins the top edge to another frame's bottom edge.
    /// - Parameter frame: The frame above.
    /// - Returns: The pin with the rule added.
    package func below(of frame: LayoutRect) -> Pin {
        with { $0.topEdge = frame.maxY }
    }

    /// Pins the left edge to another frame's right edge.
    /// - Parameter frame: The frame to the left.
    /// - Returns: The pin with the rule added.
    package func after(of frame: LayoutRect) -> Pin {
        with { $0.leftEdge = frame.maxX }
    }

    /// Pins the right edge to another frame's left edge.
    /// - Parameter frame: The frame to the right.
    /// - Returns: The pin with the rule added.
    package func before(of frame: LayoutRect) -> Pin {
        with { $0.rightEdge = frame.minX }
    }

    /// Centres the frame vertically on another frame.
    /// - Parameter frame: The frame to centre on.
    /// - Returns: The pin with the rule added.
    package func vCenter(to frame: LayoutRect) -> Pin {
        with { $0.centerY = frame.midY }
    }

    /// Sets the width.
    /// - Parameter width: The width in points.
    /// - Returns: The pin with the rule added.
    package func width(_ width: Double) -> Pin {
        with { $0.fixedWidth = width }
    }

    /// Sets the height.
    /// - Parameter height: The height in points.
    /// - Returns: The pin with the rule added.
    package func height(_ height: Double) -> Pin {
        with { $0.fixedHeight = height }
    }

    /// Sets the width and the height.
    /// - Parameter size: The size in points.
    /// - Returns: The pin with the rule added.
    package func size(_ size: LayoutSize) -> Pin {
        width(size.width).height(size.height)
    }

    /// Limits the width; a label sized to fit is measured within the limit.
    /// - Parameter limit: The largest width in points.
    /// - Returns: The pin with the rule added.
    package func maxWidth(_ limit: Double) -> Pin {
        with { $0.widthLimit = limit }
    }

    /// Limits the height, after any aspect ratio is applied.
    /// - Parameter limit: The largest height in points.
    /// - Returns: The pin with the rule added.
    package func maxHeight(_ limit: Double) -> Pin {
        with { $0.heightLimit = limit }
    }

    /// Derives a missing height from the width.
    /// - Parameter ratio: Width / height.
    /// - Returns: The pin with the rule added.
    package func aspectRatio(_ ratio: Double) -> Pin {
        with { $0.ratio = ratio }
    }

    /// Moves a pinned top edge down.
    /// - Parameter margin: The distance in points.
    /// - Returns: The pin with the rule added.
    package func marginTop(_ margin: Double) -> Pin {
        with { $0.margins.top = margin }
    }

    /// Moves a pinned left edge right.
    /// - Parameter margin: The distance in points.
    /// - Returns: The pin with the rule added.
    package func marginLeft(_ margin: Double) -> Pin {
        with { $0.margins.left = margin }
    }

    /// Moves a pinned right edge left.
    /// - Parameter margin: The distance in points.
    /// - Returns: The pin with the rule added.
    package func marginRight(_ margin: Double) -> Pin {
        with { $0.margins.right = margin }
    }

    /// Sizes the frame to a label, measured at the reference width: the width set, else the
    /// space between both pinned edges, else the width limit, else unlimited.
    /// - Parameters:
    ///   - mode: Whether the frame keeps the reference width or takes the measured one.
    ///   - label: The label whose `sizeThatFits` decides the size.
    /// - Returns: The pin with the rule added.
    package func sizeToFit(_ mode: FitMode, _ label: TextLabel) -> Pin {
        with { $0.fit = (mode, label) }
    }

    /// The frame the rules describe.
    /// - Complexity: O(1), plus measuring the label if ``sizeToFit(_:_:)`` was used.
    package var frame: LayoutRect {
        let left = leftEdge.map { $0 + margins.left }
        let right = rightEdge.map { $0 - margins.right }
        var width = fixedWidth ?? left.flatMap { left in right.map { max(0, $0 - left) } }
        var height = fixedHeight
        if let fit {
            let reference = min(width ?? .infinity, widthLimit ?? .infinity)
            precondition(fit.mode == .widthFlexible || reference.isFinite, "sizeToFit(.width) needs a width")
            let fitted = fit.label.size(fittingWidth: reference)
            width = fit.mode == .width ? reference : fitted.width
            height = fitted.height
        }
        let resolvedWidth = min(width ?? 0, widthLimit ?? .infinity)
        if height == nil, let ratio { height = resolvedWidth / ratio }
        let resolvedHeight = min(height ?? 0, heightLimit ?? .infinity)

        let x = left ?? right.map { $0 - resolvedWidth } ?? 0
        let y: Double
        if let top = topEdge {
            y = top + margins.top
        } else if let bottom = bottomEdge {
            y = bottom - resolvedHeight
        } else if let centerY {
            y = centerY - resolvedHeight / 2
        } else {
            y = 0
        }
        return LayoutRect(x: x, y: y, width: resolvedWidth, height: resolvedHeight)
    }

    private func with(_ change: (inout Pin) -> Void) -> Pin {
        var copy = self
        change(&copy)
        return copy
    }
}
