import Testing

@testable import FrameSimulation

@Suite("Pin-style manual layout")
struct LayoutPinTests {
    let bounds = LayoutSize(width: 300, height: .infinity)
    let anchor = LayoutRect(x: 10, y: 20, width: 40, height: 30)
    /// 10 pt type: "aaaa" is 22.24 pt wide, "aaaa aaaa" 47.26 pt.
    let label = TextLabel("aaaa aaaa", font: TextMeasurer(fontSize: 10, lineHeight: 12))

    @Test("Edges pin to the container with insets")
    func containerEdges() {
        let size = LayoutSize(width: 20, height: 10)
        #expect(Pin(in: bounds).top(5).left(7).size(size).frame == LayoutRect(x: 7, y: 5, width: 20, height: 10))
        #expect(
            Pin(in: bounds).top().right(12).width(50).height(10).frame
                == LayoutRect(x: 238, y: 0, width: 50, height: 10))
        #expect(Pin(in: bounds).left(10).right(10).height(1).frame.width == 280)
        let finite = LayoutSize(width: 300, height: 200)
        #expect(
            Pin(in: finite).bottom(4).left().width(300).height(0.5).frame
                == LayoutRect(x: 0, y: 195.5, width: 300, height: 0.5))
    }

    @Test("Relative edges pin to neighbours, and margins move them inward")
    func relativeEdges() {
        let after = Pin(in: bounds).after(of: anchor).marginLeft(6).below(of: anchor).marginTop(2).width(5).height(5)
            .frame
        #expect(after == LayoutRect(x: 56, y: 52, width: 5, height: 5))
        let before = Pin(in: bounds).before(of: anchor).marginRight(3).top().width(5).height(5).frame
        #expect(before.minX == 2)
        let between = Pin(in: bounds).after(of: anchor).marginLeft(4).right(10).marginRight(6).top().height(1).frame
        #expect(between == LayoutRect(x: 54, y: 0, width: 230, height: 1))
    }

    @Test("vCenter centres the frame on a neighbour")
    func verticalCentre() {
        #expect(Pin(in: bounds).vCenter(to: anchor).left().size(LayoutSize(width: 10, height: 10)).frame.minY == 30)
    }

    @Test("sizeToFit(.width) keeps the reference width and takes the measured height")
    func fitWidth() {
        let frame = Pin(in: bounds).left(10).right(260).top().sizeToFit(.width, label).frame
        #expect(frame == LayoutRect(x: 10, y: 0, width: 30, height: 24))
    }

    @Test("sizeToFit(.widthFlexible) takes the measured width, at most the reference width")
    func fitFlexible() {
        #expect(
            Pin(in: bounds).left().top().sizeToFit(.widthFlexible, label).frame.size
                == LayoutSize(width: 48, height: 12))
        #expect(
            Pin(in: bounds).left().top().maxWidth(30).sizeToFit(.widthFlexible, label).frame.size
                == LayoutSize(width: 23, height: 24))
        let oneLine = TextLabel("aaaa aaaa", font: label.font, maxLines: 1)
        let squeezed = Pin(in: bounds).left(100).right(170).top().sizeToFit(.widthFlexible, oneLine).frame
        #expect(squeezed == LayoutRect(x: 100, y: 0, width: 30, height: 12))
        let pinnedRight = Pin(in: bounds).right(10).top().sizeToFit(.widthFlexible, oneLine).frame
        #expect(pinnedRight.minX == 242)
    }

    @Test("Edges that cross leave a zero width")
    func crossedEdges() {
        #expect(Pin(in: bounds).left(200).right(200).top().height(1).frame.width == 0)
    }

    @Test("aspectRatio derives the height from the width, within maxHeight")
    func aspectRatio() {
        #expect(Pin(in: bounds).left().width(120).top().aspectRatio(1.5).frame.height == 80)
        #expect(Pin(in: bounds).left().width(120).top().aspectRatio(0.5).maxHeight(120).frame.height == 120)
    }
}
