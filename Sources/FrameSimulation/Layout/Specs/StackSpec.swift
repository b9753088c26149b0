/// A row or column of children with flexbox rules, like Texture's `ASStackLayoutSpec`.
///
/// Layout runs in Texture's order:
/// 1. Each child without a flex basis is measured with an unbounded length along the stack
///    (and, across it, up to the stack's width or height); a child with a basis starts at it.
/// 2. If the children and spacing fall short of the stack's minimum length, the shortfall is
///    shared among children by ``StackChild/flexGrow``; if they overflow its maximum, the
///    excess is taken from children in proportion to ``StackChild/flexShrink`` × their length
///    (never below zero). Children whose length changed are laid out again at exactly it.
/// 3. The stack's cross size is its largest child's, within the range; with ``Alignment/stretch``
///    every child is laid out again to exactly that cross size.
/// 4. Children are placed along the stack by ``Justification`` and across it by ``Alignment``.
///
/// ```swift
/// StackSpec(direction: .horizontal, spacing: 8, alignItems: .center, children: [
///     StackChild(BoxNode(element: .avatar, width: 48, height: 48)),
///     StackChild(TextNode(element: .name, label: name), flexShrink: 1),
/// ])
/// ```
package struct StackSpec: LayoutElement {
    /// The axis children are stacked along.
    package enum Direction: Hashable, Sendable {
        /// Left to right.
        case horizontal
        /// Top to bottom.
        case vertical
    }

    /// Where children go along the stack when there is space left (`justifyContent`).
    package enum Justification: Hashable, Sendable {
        /// Packed at the start.
        case start
        /// Packed in the middle.
        case center
        /// Packed at the end.
        case end
        /// The first at the start, the last at the end, the space shared equally between them.
        case spaceBetween
        /// Equal space around each child: half of it before the first and after the last.
        case spaceAround
    }

    /// Where children go across the stack (`alignItems`).
    package enum Alignment: Hashable, Sendable {
        /// At the start (top or left).
        case start
        /// Centred.
        case center
        /// At the end (bottom or right).
        case end
        /// Laid out again to fill the stack's cross size.
        case stretch
    }

    /// The axis children are stacked along.
    package var direction: Direction
    /// Space between adjacent children.
    package var spacing: Double
    /// Placement along the stack.
    package var justifyContent: Justification
    /// Placement across the stack.
    package var alignItems: Alignment
    /// The children, in order.
    package var children: [StackChild]

    /// Creates a stack.
    /// - Parameters:
    ///   - direction: The axis children are stacked along.
    ///   - spacing: Space between adjacent children.
    ///   - justifyContent: Placement along the stack.
    ///   - alignItems: Placement across the stack.
    ///   - children: The children, in order.
    package init(
        direction: Direction, spacing: Double = 0, justifyContent: Justification = .start,
        alignItems: Alignment = .start, children: [StackChild]
    ) {
        self.direction = direction
        self.spacing = spacing
        self.justifyContent = justifyContent
        self.alignItems = alignItems
        self.children = children
    }

    /// Lays out the children along the stack; see the type's description for the steps.
    /// - Parameter range: The sizes the parent accepts.
    /// - Returns: The stack's size and its children's positioned layouts.
    /// - Complexity: Each child is laid out once, twice if flexing or stretching changes its size.
    package func layout(in range: SizeRange) -> SpecLayout {
        let bounds = StackBounds(axis: Axis(direction), range: range, stretches: alignItems == .stretch)
        let axis = bounds.axis
        // 1. Hypothetical lengths: measured, or the flex basis (laid out once its length is final).
        var (layouts, lengths) = hypotheticalLengths(bounds)
        let totalSpacing =
            spacing * Double(max(0, children.count - 1))
            + children.reduce(0) { $0 + $1.spacingBefore + $1.spacingAfter }
        // 2. Flex: share the shortfall by grow factors, or take the excess by scaled shrink factors.
        flex(&lengths, layouts: &layouts, content: lengths.reduce(0, +) + totalSpacing, bounds: bounds)
        for index in children.indices where layouts[index] == nil {
            layouts[index] = layoutChild(
                index, length: lengths[index]...lengths[index], cross: bounds.childCrossMin...bounds.crossMax,
                axis: axis)
        }
        var sublayouts = layouts.map { $0! }

        // 3. Cross size, and stretching to it.
        let tallest = sublayouts.reduce(0) { max($0, axis.across($1.size)) }
        let crossSize = max(bounds.crossMin, min(bounds.crossMax, tallest))
        if alignItems == .stretch {
            for index in sublayouts.indices where axis.across(sublayouts[index].size) != crossSize {
                let length = axis.along(sublayouts[index].size)
                sublayouts[index] = layoutChild(
                    index, length: length...length, cross: crossSize...crossSize, axis: axis)
            }
        }

        // 4. Positions.
        let used = sublayouts.reduce(totalSpacing) { $0 + axis.along($1.size) }
        let stackLength = max(bounds.stackMin, min(bounds.stackMax, used))
        position(&sublayouts, free: stackLength - used, crossSize: crossSize, axis: axis)
        return SpecLayout(size: axis.size(along: stackLength, across: crossSize), sublayouts: sublayouts)
    }

    /// The sizes the stack accepts along its axis and across it.
    private struct StackBounds {
        let axis: Axis
        let stackMin: Double
        let stackMax: Double
        let crossMin: Double
        let crossMax: Double
        /// The least cross size a child is measured at: the stack's when children stretch.
        let childCrossMin: Double

        init(axis: Axis, range: SizeRange, stretches: Bool) {
            self.axis = axis
            stackMin = axis.along(range.min)
            stackMax = axis.along(range.max)
            crossMin = axis.across(range.min)
            crossMax = axis.across(range.max)
            childCrossMin = stretches ? crossMin : 0
        }
    }

    /// Child `index` laid out at a length along the axis and a size across it in these ranges.
    private func layoutChild(_ index: Int, length: ClosedRange<Double>, cross: ClosedRange<Double>, axis: Axis)
        -> SpecLayout
    {
        children[index].element.layout(
            in: SizeRange(
                min: axis.size(along: length.lowerBound, across: cross.lowerBound),
                max: axis.size(along: length.upperBound, across: cross.upperBound)
            ))
    }

    /// Each child's layout when measured (`nil` for a child with a flex basis) and its
    /// hypothetical length along the axis.
    private func hypotheticalLengths(_ bounds: StackBounds) -> (layouts: [SpecLayout?], lengths: [Double]) {
        var layouts: [SpecLayout?] = []
        var lengths: [Double] = []
        layouts.reserveCapacity(children.count)
        lengths.reserveCapacity(children.count)
        for (index, child) in children.enumerated() {
            if let basis = child.flexBasis {
                layouts.append(nil)
                lengths.append(basis)
            } else {
                let measured = layoutChild(
                    index, length: 0...Double.infinity, cross: bounds.childCrossMin...bounds.crossMax, axis: bounds.axis
                )
                layouts.append(measured)
                lengths.append(bounds.axis.along(measured.size))
            }
        }
        return (layouts, lengths)
    }

    /// Grows or shrinks the lengths so that `content` (their sum and the spacing) fits the stack;
    /// each child whose length changes loses its layout, to be laid out again.
    private func flex(_ lengths: inout [Double], layouts: inout [SpecLayout?], content: Double, bounds: StackBounds) {
        let (stackMin, stackMax) = (bounds.stackMin, bounds.stackMax)
        let violation = content < stackMin ? stackMin - content : (content > stackMax ? stackMax - content : 0)
        if violation > 0 {
            let totalGrow = children.reduce(0) { $0 + $1.flexGrow }
            if totalGrow > 0 {
                for index in children.indices where children[index].flexGrow > 0 {
                    lengths[index] += violation * (children[index].flexGrow / totalGrow)
                    layouts[index] = nil
                }
            }
        } else if violation < 0 {
            let totalShrink = children.indices.reduce(0) { $0 + children[$1].flexShrink * lengths[$1] }
            if totalShrink > 0 {
                for index in children.indices where children[index].flexShrink > 0 {
                    let share = children[index].flexShrink * lengths[index] / totalShrink
                    lengths[index] = max(0, lengths[index] + violation * share)
                    layouts[index] = nil
                }
            }
        }
    }

    /// Places the children along the axis by ``justifyContent`` (`free` is the length left over)
    /// and across it by ``alignItems``.
    private func position(_ sublayouts: inout [SpecLayout], free: Double, crossSize: Double, axis: Axis) {
        let count = Double(children.count)
        let (leading, between): (Double, Double) =
            switch justifyContent {
            case .start: (0, 0)
            case .center: (free / 2, 0)
            case .end: (free, 0)
            case .spaceBetween: children.count > 1 ? (0, free / (count - 1)) : (0, 0)
            case .spaceAround: (free / count / 2, free / count)
            }
        var cursor = leading
        for index in sublayouts.indices {
            if index > 0 { cursor += spacing + between }
            cursor += children[index].spacingBefore
            let childCross = axis.across(sublayouts[index].size)
            let crossOffset =
                switch alignItems {
                case .start, .stretch: 0.0
                case .center: (crossSize - childCross) / 2
                case .end: crossSize - childCross
                }
            sublayouts[index].position = axis.point(along: cursor, across: crossOffset)
            cursor += axis.along(sublayouts[index].size) + children[index].spacingAfter
        }
    }
}

/// A stack's child with its flex properties, the stack-related part of Texture's `style`.
package struct StackChild: Sendable {
    /// The child.
    package var element: any LayoutElement
    /// Its share of space left over along the stack; `0` means it does not grow.
    package var flexGrow: Double
    /// How much it gives up, times its length, when the stack overflows; `0` means it does not shrink.
    package var flexShrink: Double
    /// Its starting length along the stack instead of its measured one; `nil` to measure it.
    package var flexBasis: Double?
    /// Extra space before it along the stack.
    package var spacingBefore: Double
    /// Extra space after it along the stack.
    package var spacingAfter: Double

    /// Wraps an element for a stack.
    /// - Parameters:
    ///   - element: The child.
    ///   - flexGrow: Its share of leftover space; `0` by default, as in Texture.
    ///   - flexShrink: Its shrink factor; `0` by default, as in Texture.
    ///   - flexBasis: Its starting length; `nil` (measure it) by default.
    ///   - spacingBefore: Extra space before it.
    ///   - spacingAfter: Extra space after it.
    package init(
        _ element: any LayoutElement, flexGrow: Double = 0, flexShrink: Double = 0, flexBasis: Double? = nil,
        spacingBefore: Double = 0, spacingAfter: Double = 0
    ) {
        self.element = element
        self.flexGrow = flexGrow
        self.flexShrink = flexShrink
        self.flexBasis = flexBasis
        self.spacingBefore = spacingBefore
        self.spacingAfter = spacingAfter
    }
}

/// Maps "along the stack" and "across it" onto width and height.
private struct Axis {
    let isHorizontal: Bool

    init(_ direction: StackSpec.Direction) {
        isHorizontal = direction == .horizontal
    }

    func along(_ size: LayoutSize) -> Double { isHorizontal ? size.width : size.height }
    func across(_ size: LayoutSize) -> Double { isHorizontal ? size.height : size.width }

    func size(along: Double, across: Double) -> LayoutSize {
        isHorizontal ? LayoutSize(width: along, height: across) : LayoutSize(width: across, height: along)
    }

    func point(along: Double, across: Double) -> LayoutPoint {
        isHorizontal ? LayoutPoint(x: along, y: across) : LayoutPoint(x: across, y: along)
    }
}
