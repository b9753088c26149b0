import Testing

@testable import FrameSimulation

@Suite("Texture-style layout specs")
struct LayoutSpecTests {
    /// Boxes are told apart by arbitrary cell elements.
    let a = FeedCellElement.image0, b = FeedCellElement.image1, c = FeedCellElement.image2

    func frames(of element: any LayoutElement, in range: SizeRange) -> [FeedCellElement: LayoutRect] {
        var frames: [FeedCellElement: LayoutRect] = [:]
        element.layout(in: range).forEachFrame { frames[$0] = $1 }
        return frames
    }

    func range(width: Double, height: Double = .infinity) -> SizeRange {
        SizeRange(min: LayoutSize(width: width, height: 0), max: LayoutSize(width: width, height: height))
    }

    func row(
        _ children: [StackChild], spacing: Double = 0, justify: StackSpec.Justification = .start,
        align: StackSpec.Alignment = .start
    ) -> StackSpec {
        StackSpec(
            direction: .horizontal, spacing: spacing, justifyContent: justify, alignItems: align, children: children)
    }

    var threeBoxes: [StackChild] {
        [
            StackChild(BoxNode(element: a, width: 10, height: 10)),
            StackChild(BoxNode(element: b, width: 20, height: 20)),
            StackChild(BoxNode(element: c, width: 30, height: 30)),
        ]
    }

    @Test(
        "justifyContent places children along the stack",
        arguments: [
            (StackSpec.Justification.start, [0.0, 15, 40]), (.center, [15, 30, 55]), (.end, [30, 45, 70]),
            (.spaceBetween, [0, 30, 70]), (.spaceAround, [5, 30, 65]),
        ])
    func justification(justify: StackSpec.Justification, expectedX: [Double]) {
        let frames = frames(of: row(threeBoxes, spacing: 5, justify: justify), in: range(width: 100))
        #expect([frames[a]!.minX, frames[b]!.minX, frames[c]!.minX] == expectedX)
    }

    @Test(
        "alignItems places children across the stack",
        arguments: [
            (StackSpec.Alignment.start, [0.0, 0, 0], [10.0, 20, 30]), (.center, [10, 5, 0], [10, 20, 30]),
            (.end, [20, 10, 0], [10, 20, 30]), (.stretch, [0, 0, 0], [30, 30, 30]),
        ])
    func alignment(align: StackSpec.Alignment, expectedY: [Double], expectedHeights: [Double]) {
        let frames = frames(of: row(threeBoxes, align: align), in: range(width: 100))
        #expect([frames[a]!.minY, frames[b]!.minY, frames[c]!.minY] == expectedY)
        #expect([frames[a]!.height, frames[b]!.height, frames[c]!.height] == expectedHeights)
    }

    @Test("The stack is as long as its minimum and as thick as its thickest child")
    func stackSize() {
        let layout = row(threeBoxes, spacing: 5).layout(in: range(width: 100))
        #expect(layout.size == LayoutSize(width: 100, height: 30))
        let loose = row(threeBoxes, spacing: 5).layout(
            in: SizeRange(min: .zero, max: LayoutSize(width: 500, height: 500)))
        #expect(loose.size == LayoutSize(width: 70, height: 30))
    }

    @Test("flexGrow shares the leftover space by factor")
    func grow() {
        let frames = frames(
            of: row([
                StackChild(BoxNode(element: a, width: 10), flexGrow: 1),
                StackChild(BoxNode(element: b, width: 10), flexGrow: 3),
                StackChild(BoxNode(element: c, width: 20)),
            ]), in: range(width: 100))
        #expect(frames[a]!.width == 25)
        #expect(frames[b]!.width == 55)
        #expect(frames[c] == LayoutRect(x: 80, y: 0, width: 20, height: 0))
    }

    @Test("flexShrink takes an overflow in proportion to factor times length")
    func shrink() {
        let frames = frames(
            of: row([
                StackChild(BoxNode(element: a, width: 80), flexShrink: 1),
                StackChild(BoxNode(element: b, width: 40), flexShrink: 2),
                StackChild(BoxNode(element: c, width: 20)),
            ]), in: range(width: 100))
        #expect([frames[a]!.width, frames[b]!.width, frames[c]!.width] == [60, 20, 20])
    }

    @Test("A shrinking child stops at zero and the rest overflows")
    func shrinkStopsAtZero() {
        let spec = row([
            StackChild(BoxNode(element: a, width: 10), flexShrink: 1), StackChild(BoxNode(element: b, width: 200)),
        ])
        let frames = frames(of: spec, in: range(width: 100))
        #expect(frames[a]!.width == 0)
        #expect(frames[b] == LayoutRect(x: 0, y: 0, width: 200, height: 0))
    }

    @Test("A flex basis replaces the measured length")
    func basis() {
        let frames = frames(
            of: row(
                [
                    StackChild(BoxNode(element: a, width: 70), flexGrow: 1, flexBasis: 0),
                    StackChild(BoxNode(element: b), flexGrow: 1, flexBasis: 0),
                    StackChild(BoxNode(element: c, width: 50), flexBasis: 20),
                ], spacing: 10), in: range(width: 100))
        #expect([frames[a]!.width, frames[b]!.width, frames[c]!.width] == [30, 30, 20])
        #expect(frames[b]!.minX == 40)
    }

    @Test("spacingBefore and spacingAfter add to the stack's spacing")
    func childSpacing() {
        let spec = StackSpec(
            direction: .vertical, spacing: 2,
            children: [
                StackChild(BoxNode(element: a, height: 10), spacingAfter: 3),
                StackChild(BoxNode(element: b, height: 10), spacingBefore: 5),
            ])
        let layout = spec.layout(in: SizeRange(min: .zero, max: LayoutSize(width: 100, height: .infinity)))
        var frames: [FeedCellElement: LayoutRect] = [:]
        layout.forEachFrame { frames[$0] = $1 }
        #expect(frames[b]!.minY == 20)
        #expect(layout.size.height == 30)
    }

    @Test("A text node in a stretching column fills the column's width at its text's height")
    func textNodeStretches() {
        let label = TextLabel("aaaa aaaa aaaa", font: TextMeasurer(fontSize: 10, lineHeight: 12))
        let column = StackSpec(
            direction: .vertical, alignItems: .stretch, children: [StackChild(TextNode(element: .body, label: label))])
        #expect(frames(of: column, in: range(width: 50))[.body] == LayoutRect(x: 0, y: 0, width: 50, height: 24))
        let capped = TextNode(element: .name, label: label, maxWidth: 30)
        let loose = SizeRange(min: .zero, max: LayoutSize(width: 100, height: 100))
        #expect(capped.layout(in: loose).size == LayoutSize(width: 23, height: 36))
    }

    @Test("An inset spec lays its child out inside the insets")
    func inset() {
        let spec = InsetSpec(insets: LayoutInsets(top: 10, left: 20, bottom: 30, right: 40), child: BoxNode(element: a))
        let exact = SizeRange(exactly: LayoutSize(width: 100, height: 100))
        #expect(frames(of: spec, in: exact)[a] == LayoutRect(x: 20, y: 10, width: 40, height: 60))
        let sized = InsetSpec(insets: LayoutInsets(all: 5), child: BoxNode(element: a, width: 10, height: 10))
        #expect(
            sized.layout(in: SizeRange(min: .zero, max: LayoutSize(width: 100, height: 100))).size
                == LayoutSize(width: 20, height: 20))
    }

    @Test("Infinite insets push the child to the opposite edge, or centre it between two")
    func infiniteInsets() {
        let exact = SizeRange(exactly: LayoutSize(width: 100, height: 50))
        let bottom = InsetSpec(
            insets: LayoutInsets(top: .infinity, left: 30, bottom: 0, right: 0), child: BoxNode(element: a, height: 2))
        #expect(frames(of: bottom, in: exact)[a] == LayoutRect(x: 30, y: 48, width: 70, height: 2))
        let centred = InsetSpec(
            insets: LayoutInsets(top: 0, left: .infinity, bottom: 0, right: .infinity),
            child: BoxNode(element: a, width: 20)
        )
        #expect(frames(of: centred, in: exact)[a] == LayoutRect(x: 40, y: 0, width: 20, height: 50))
    }

    @Test("Overlay and background take the child's size and lay the other element out at it")
    func overlayAndBackground() {
        let child = BoxNode(element: a, width: 30, height: 20)
        let extra = BoxNode(element: b)
        let loose = SizeRange(min: .zero, max: LayoutSize(width: 100, height: 100))
        for spec in [
            OverlaySpec(child: child, overlay: extra) as any LayoutElement,
            BackgroundSpec(child: child, background: extra),
        ] {
            let layout = spec.layout(in: loose)
            #expect(layout.size == LayoutSize(width: 30, height: 20))
            #expect(frames(of: spec, in: loose)[b] == LayoutRect(x: 0, y: 0, width: 30, height: 20))
        }
        #expect(OverlaySpec(child: child, overlay: extra).layout(in: loose).sublayouts.map(\.element) == [a, b])
        #expect(BackgroundSpec(child: child, background: extra).layout(in: loose).sublayouts.map(\.element) == [b, a])
    }

    @Test(
        "A centre spec fills the space and centres its child, or shrinks to it",
        arguments: [
            (
                CenterSpec.Centering.xy, CenterSpec.Sizing.default, LayoutSize(width: 100, height: 80),
                LayoutRect(x: 40, y: 35, width: 20, height: 10)
            ),
            (.x, .default, LayoutSize(width: 100, height: 80), LayoutRect(x: 40, y: 0, width: 20, height: 10)),
            (.y, .minimumWidth, LayoutSize(width: 20, height: 80), LayoutRect(x: 0, y: 35, width: 20, height: 10)),
            (.xy, .minimumSize, LayoutSize(width: 20, height: 10), LayoutRect(x: 0, y: 0, width: 20, height: 10)),
        ])
    func center(centering: CenterSpec.Centering, sizing: CenterSpec.Sizing, size: LayoutSize, frame: LayoutRect) {
        let spec = CenterSpec(centering: centering, sizing: sizing, child: BoxNode(element: a, width: 20, height: 10))
        let loose = SizeRange(min: .zero, max: LayoutSize(width: 100, height: 80))
        #expect(spec.layout(in: loose).size == size)
        #expect(frames(of: spec, in: loose)[a] == frame)
    }

    @Test("A ratio spec sizes its child from the finite maximum, closest to the ratio")
    func ratio() {
        let spec = RatioSpec(ratio: 0.5, child: BoxNode(element: a))
        #expect(spec.layout(in: range(width: 200)).size == LayoutSize(width: 200, height: 100))
        let heightBound = SizeRange(min: .zero, max: LayoutSize(width: .infinity, height: 90))
        #expect(spec.layout(in: heightBound).size == LayoutSize(width: 180, height: 90))
        // Both finite: 200 wide gives 200 × 100, which is clamped to 200 × 60 (ratio 0.3); 60 tall gives 120 × 60.
        let both = SizeRange(min: .zero, max: LayoutSize(width: 200, height: 60))
        #expect(spec.layout(in: both).size == LayoutSize(width: 120, height: 60))
        let unbounded = SizeRange(
            min: LayoutSize(width: 7, height: 3), max: LayoutSize(width: .infinity, height: .infinity))
        #expect(spec.layout(in: unbounded).size == LayoutSize(width: 7, height: 3))
    }

    @Test(
        "An absolute spec places children at their positions and fills or fits",
        arguments: [
            (AbsoluteSpec.Sizing.default, LayoutSize(width: 100, height: 80)),
            (.sizeToFit, LayoutSize(width: 60, height: 45)),
        ])
    func absolute(sizing: AbsoluteSpec.Sizing, size: LayoutSize) {
        let spec = AbsoluteSpec(
            sizing: sizing,
            children: [
                AbsoluteSpec.Child(at: LayoutPoint(x: 10, y: 5), BoxNode(element: a, width: 20, height: 40)),
                AbsoluteSpec.Child(at: LayoutPoint(x: 50, y: 0), BoxNode(element: b, width: 10, height: 10)),
            ])
        let loose = SizeRange(min: .zero, max: LayoutSize(width: 100, height: 80))
        #expect(spec.layout(in: loose).size == size)
        let frames = frames(of: spec, in: loose)
        #expect(frames[a] == LayoutRect(x: 10, y: 5, width: 20, height: 40))
        #expect(frames[b] == LayoutRect(x: 50, y: 0, width: 10, height: 10))
    }

    @Test("An absolute spec limits each child to the space after its position")
    func absoluteLimitsChildren() {
        let spec = AbsoluteSpec(children: [
            AbsoluteSpec.Child(at: LayoutPoint(x: 70, y: 0), BoxNode(element: a, width: 50, height: 10))
        ])
        #expect(frames(of: spec, in: SizeRange(min: .zero, max: LayoutSize(width: 100, height: 100)))[a]!.width == 30)
    }

    @Test("Frames nest: a child's position adds to its parents'")
    func nestedFrames() {
        let spec = InsetSpec(
            insets: LayoutInsets(all: 10),
            child: row([
                StackChild(BoxNode(element: a, width: 5, height: 5)),
                StackChild(
                    InsetSpec(insets: LayoutInsets(all: 3), child: BoxNode(element: b, width: 4, height: 4)),
                    spacingBefore: 2),
            ]))
        #expect(frames(of: spec, in: range(width: 100))[b] == LayoutRect(x: 20, y: 13, width: 4, height: 4))
    }
}
