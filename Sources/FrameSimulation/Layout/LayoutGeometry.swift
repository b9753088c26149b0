/// A point in a layout's coordinate space, in points, with the origin at the top left.
///
/// The layout types use `Double` and their own names so they never clash with Foundation's
/// `CGPoint` family and stay available on every platform without importing it.
package struct LayoutPoint: Hashable, Sendable {
    /// The horizontal coordinate, growing to the right.
    package var x: Double
    /// The vertical coordinate, growing downwards.
    package var y: Double

    /// The origin, `(0, 0)`.
    package static let zero = LayoutPoint(x: 0, y: 0)

    /// Creates a point.
    /// - Parameters:
    ///   - x: The horizontal coordinate.
    ///   - y: The vertical coordinate.
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A width and a height, in points.
package struct LayoutSize: Hashable, Sendable {
    /// The horizontal extent.
    package var width: Double
    /// The vertical extent.
    package var height: Double

    /// The empty size, `0 × 0`.
    package static let zero = LayoutSize(width: 0, height: 0)

    /// Creates a size.
    /// - Parameters:
    ///   - width: The horizontal extent.
    ///   - height: The vertical extent.
    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle: an origin at its top-left corner and a size.
///
/// ```swift
/// let avatar = LayoutRect(x: 12, y: 12, width: 48, height: 48)
/// avatar.maxX // 60
/// ```
package struct LayoutRect: Hashable, Sendable {
    /// The top-left corner.
    package var origin: LayoutPoint
    /// The extent.
    package var size: LayoutSize

    /// Creates a rectangle from its corner and size.
    /// - Parameters:
    ///   - origin: The top-left corner.
    ///   - size: The extent.
    package init(origin: LayoutPoint, size: LayoutSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from coordinates.
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: The horizontal extent.
    ///   - height: The vertical extent.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: LayoutPoint(x: x, y: y), size: LayoutSize(width: width, height: height))
    }

    /// The left edge.
    package var minX: Double { origin.x }
    /// The top edge.
    package var minY: Double { origin.y }
    /// The right edge.
    package var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    package var maxY: Double { origin.y + size.height }
    /// The vertical centre.
    package var midY: Double { origin.y + size.height / 2 }
    /// The horizontal extent.
    package var width: Double { size.width }
    /// The vertical extent.
    package var height: Double { size.height }
}

/// Distances inward from the four edges of a rectangle, in points.
///
/// In an ``InsetSpec`` an infinite inset has a meaning of its own, as in Texture: the child keeps
/// its own size on that axis and is pushed against the opposite edge.
package struct LayoutInsets: Hashable, Sendable {
    /// Inset from the top edge.
    package var top: Double
    /// Inset from the left edge.
    package var left: Double
    /// Inset from the bottom edge.
    package var bottom: Double
    /// Inset from the right edge.
    package var right: Double

    /// No inset on any edge.
    package static let zero = LayoutInsets(all: 0)

    /// Creates insets with a value per edge.
    /// - Parameters:
    ///   - top: Inset from the top edge.
    ///   - left: Inset from the left edge.
    ///   - bottom: Inset from the bottom edge.
    ///   - right: Inset from the right edge.
    package init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Creates insets that are the same on every edge.
    /// - Parameter inset: The inset for all four edges.
    package init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }
}
