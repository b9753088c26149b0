/// The two collection layouts of a Paper-style zoom and the frames in between.
///
/// - The **row** layout: small cards (a third of the screen wide, with the screen's aspect ratio)
///   in one horizontal row along the bottom, the focused card second from the left.
/// - The **zoomed** layout: every card the size of the screen, side by side, the focused card
///   filling it.
///
/// A transition at progress `p` puts every card at the linear interpolation of its two frames
/// (`p = 0` the row, `p = 1` zoomed). A spring may carry `p` a little past either end; the frames
/// then extrapolate, as an overshooting zoom does.
///
/// ```swift
/// let layouts = CardLayouts(cardCount: 24, viewport: LayoutSize(width: 375, height: 667))
/// let halfway = layouts.frames(focus: 5, progress: 0.5)
/// ```
package struct CardLayouts: Sendable, Hashable {
    /// How many cards there are.
    package let cardCount: Int
    /// The screen, in points.
    package let viewport: LayoutSize
    /// The width of a card in the row, in points.
    package var smallWidth: Double { (viewport.width / 3).rounded(.down) }
    /// The height of a card in the row, in points (the screen's aspect ratio).
    package var smallHeight: Double { (smallWidth * viewport.height / viewport.width).rounded() }
    /// The space between cards in the row and below the row, in points.
    package let spacing = 8.0

    /// Creates the layouts.
    /// - Precondition: `cardCount` is at least 1 and the viewport is not empty.
    package init(cardCount: Int, viewport: LayoutSize) {
        precondition(cardCount >= 1 && viewport.width > 0 && viewport.height > 0, "the layouts need cards and a screen")
        self.cardCount = cardCount
        self.viewport = viewport
    }

    /// The row's top edge, in points: how far the focused card's top travels to fill the screen.
    package var rowTop: Double { viewport.height - smallHeight - 2 * spacing }

    /// Every card's frame in the row layout.
    package func rowFrames(focus: Int) -> [LayoutRect] {
        (0..<cardCount).map { card in
            LayoutRect(
                x: spacing + Double(card - focus + 1) * (smallWidth + spacing), y: rowTop, width: smallWidth,
                height: smallHeight)
        }
    }

    /// Every card's frame in the zoomed layout.
    package func zoomedFrames(focus: Int) -> [LayoutRect] {
        (0..<cardCount).map { card in
            LayoutRect(x: Double(card - focus) * viewport.width, y: 0, width: viewport.width, height: viewport.height)
        }
    }

    /// Every card's frame at `progress` between the row (0) and zoomed (1) layouts; exactly the
    /// row frames at 0 and the zoomed frames at 1.
    /// - Complexity: O(`cardCount`).
    package func frames(focus: Int, progress: Double) -> [LayoutRect] {
        zip(rowFrames(focus: focus), zoomedFrames(focus: focus)).map { row, zoomed in
            func mix(_ a: Double, _ b: Double) -> Double { (1 - progress) * a + progress * b }
            return LayoutRect(
                x: mix(row.minX, zoomed.minX), y: mix(row.minY, zoomed.minY), width: mix(row.width, zoomed.width),
                height: mix(row.height, zoomed.height))
        }
    }

    /// The cards whose frames intersect the screen, in order.
    package func visibleCards(in frames: [LayoutRect]) -> [Int] {
        frames.indices.filter { card in
            let frame = frames[card]
            return frame.maxX > 0 && frame.minX < viewport.width && frame.maxY > 0 && frame.minY < viewport.height
        }
    }

    /// The cards a transition around `focus` can show: those on screen in the row, and the
    /// focused card with its neighbours in the zoomed layout (where a swipe pages to them).
    package func cardsShown(aroundFocus focus: Int) -> [Int] {
        let row = visibleCards(in: rowFrames(focus: focus))
        let zoomed = (focus - 1...focus + 1).filter { (0..<cardCount).contains($0) }
        return Array(Set(row + zoomed)).sorted()
    }
}
