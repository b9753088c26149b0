import FrameSupport
import FrameTrace
import Testing

@testable import FrameSimulation

@Suite("Feed cell layout engines")
struct LayoutEngineTests {
    static let engines: [any FeedCellLayoutEngine] = [
        ManualLayoutEngine(), SpecLayoutEngine(), ConstraintLayoutEngine(),
    ]
    static let widths: [Double] = [320, 375, 414, 768]
    static let tolerance = 0.001
    let metrics = FeedCellMetrics.standard

    static func sampleContents(count: Int = 100) -> [FeedCellContent] {
        var generator = SeededGenerator(seed: 7)
        return (0..<count).map { _ in FeedCellContent.random(using: &generator) }
    }

    @Test("A plain post lays out exactly as specified", arguments: engines)
    func handComputedCell(engine: any FeedCellLayoutEngine) throws {
        let content = FeedCellContent(
            displayName: "Ada Lovelace", handle: "@ada", timestamp: "3h", body: "", imageAspectRatios: [2])
        let layout = try engine.layout(content, width: 375)
        // Name: 6059 units at 16 pt = 96.944, ceiled to 97. Handle: 2683 units at 15 pt → 41. "3h": 1112 → 17.
        // Buttons without counts are icons, 18 wide; the gap is (293 − 4·18) / 3.
        let gap = (293.0 - 72) / 3
        let expected: [FeedCellElement: LayoutRect] = [
            .avatar: LayoutRect(x: 12, y: 12, width: 48, height: 48),
            .name: LayoutRect(x: 70, y: 12, width: 97, height: 20),
            .handle: LayoutRect(x: 171, y: 12, width: 41, height: 20),
            .timestamp: LayoutRect(x: 324, y: 12, width: 17, height: 20),
            .menu: LayoutRect(x: 347, y: 14, width: 16, height: 16),
            .body: LayoutRect(x: 70, y: 34, width: 293, height: 0),
            .image0: LayoutRect(x: 70, y: 42, width: 293, height: 146.5),
            .reply: LayoutRect(x: 70, y: 196.5, width: 18, height: 18),
            .repost: LayoutRect(x: 88 + gap, y: 196.5, width: 18, height: 18),
            .like: LayoutRect(x: 106 + 2 * gap, y: 196.5, width: 18, height: 18),
            .share: LayoutRect(x: 345, y: 196.5, width: 18, height: 18),
            .separator: LayoutRect(x: 70, y: 226, width: 305, height: 0.5),
        ]
        var reference = FeedCellLayout(size: LayoutSize(width: 375, height: 226.5))
        for (element, frame) in expected { reference[element] = frame }
        #expect(layout.isApproximatelyEqual(to: reference, tolerance: Self.tolerance), "\(engine.name): \(layout)")
    }

    @Test("A long name is capped and the handle shrinks to the space left", arguments: engines)
    func truncatedHeader(engine: any FeedCellLayoutEngine) throws {
        let content = FeedCellContent(
            displayName: "Anastasia-Konstantina Featherstonehaugh-Wolfeschlegel",
            handle: "@anastasiakonstantinafeatherstonehaughwolfeschlegel", timestamp: "Sep 30", body: "Hi"
        )
        let layout = try engine.layout(content, width: 320)
        let name = try #require(layout[.name])
        let handle = try #require(layout[.handle])
        let time = try #require(layout[.timestamp])
        #expect(abs(name.width - 0.6 * 238) <= Self.tolerance)
        #expect(abs(handle.minX - (name.maxX + 4)) <= Self.tolerance)
        #expect(abs(time.minX - (handle.maxX + 6)) <= Self.tolerance)
        #expect(handle.width > 0 && handle.width < metrics.label(.handle, of: content).intrinsicSize.width)
    }

    @Test("Frames stay inside the cell and its padding", arguments: engines, widths)
    func framesInsideCell(engine: any FeedCellLayoutEngine, width: Double) throws {
        for content in Self.sampleContents() {
            let layout = try engine.layout(content, width: width)
            #expect(layout.size.width == width)
            for element in layout.elements {
                let frame = layout[element]!
                let inset = element == .separator ? 0 : metrics.padding
                #expect(
                    frame.minX >= inset - Self.tolerance && frame.maxX <= width - inset + Self.tolerance, "\(element)")
                #expect(
                    frame.minY >= inset - Self.tolerance && frame.maxY <= layout.size.height - inset + Self.tolerance,
                    "\(element)")
                #expect(frame.width >= 0 && frame.height >= 0, "\(element)")
            }
        }
    }

    @Test(
        "The header is one line: name, handle, timestamp and menu in order with their spacing", arguments: engines,
        widths)
    func headerRow(engine: any FeedCellLayoutEngine, width: Double) throws {
        for content in Self.sampleContents() {
            let layout = try engine.layout(content, width: width)
            let name = layout[.name]!
            let handle = layout[.handle]!
            let time = layout[.timestamp]!
            let menu = layout[.menu]!
            #expect(name.minX == metrics.columnLeft && name.minY == metrics.padding)
            #expect(
                name.width <= metrics.maximumNameWidthFraction * metrics.columnWidth(forCellWidth: width)
                    + Self.tolerance)
            #expect(abs(handle.minX - (name.maxX + metrics.nameHandleSpacing)) <= Self.tolerance)
            #expect(time.minX >= handle.maxX + metrics.minimumHandleTimestampSpacing - Self.tolerance)
            #expect(abs(menu.minX - (time.maxX + metrics.timestampMenuSpacing)) <= Self.tolerance)
            #expect(abs(menu.maxX - (width - metrics.padding)) <= Self.tolerance)
            #expect(abs(menu.midY - name.midY) <= Self.tolerance)
            for label in [name, handle, time] { #expect(label.minY == metrics.padding && label.height == 20) }
        }
    }

    @Test("Sections stack top to bottom: header, body, media, buttons, then the padding", arguments: engines, widths)
    func sectionsStack(engine: any FeedCellLayoutEngine, width: Double) throws {
        for content in Self.sampleContents() {
            let layout = try engine.layout(content, width: width)
            let body = layout[.body]!
            let measured = metrics.label(.body, of: content).size(
                fittingWidth: metrics.columnWidth(forCellWidth: width))
            #expect(body.minX == metrics.columnLeft)
            #expect(abs(body.width - metrics.columnWidth(forCellWidth: width)) <= Self.tolerance)
            #expect(abs(body.height - measured.height) <= Self.tolerance)
            #expect(abs(body.minY - (layout[.name]!.maxY + metrics.headerBodySpacing)) <= Self.tolerance)

            let images = content.imageAspectRatios.indices.map { layout[.image($0)]! }
            let imageElements: Set<FeedCellElement> = [.image0, .image1, .image2, .image3]
            #expect(layout.elements.filter(imageElements.contains).count == images.count)
            let mediaBottom = images.map(\.maxY).max() ?? body.maxY
            if let top = images.map(\.minY).min() {
                #expect(abs(top - (body.maxY + metrics.sectionSpacing)) <= Self.tolerance)
            }
            let buttons = FeedAction.allCases.map { layout[$0.element]! }
            for button in buttons {
                #expect(abs(button.minY - (mediaBottom + metrics.sectionSpacing)) <= Self.tolerance)
            }
            #expect(
                abs(layout.size.height - (max(layout[.avatar]!.maxY, buttons[0].maxY) + metrics.padding))
                    <= Self.tolerance)
            #expect(abs(layout[.separator]!.maxY - layout.size.height) <= Self.tolerance)
        }
    }

    @Test("Images and buttons never overlap; buttons span the column with equal gaps", arguments: engines, widths)
    func rowsDoNotOverlap(engine: any FeedCellLayoutEngine, width: Double) throws {
        for content in Self.sampleContents() {
            let layout = try engine.layout(content, width: width)
            let images = content.imageAspectRatios.indices.map { layout[.image($0)]! }
            for (index, image) in images.enumerated() {
                #expect(image.minX >= metrics.columnLeft - Self.tolerance)
                for other in images[(index + 1)...] { #expect(!overlaps(image, other)) }
            }
            let buttons = FeedAction.allCases.map { layout[$0.element]! }
            let gaps = zip(buttons, buttons.dropFirst()).map { $1.minX - $0.maxX }
            #expect(gaps.allSatisfy { $0 > 0 && abs($0 - gaps[0]) <= Self.tolerance })
            #expect(buttons[0].minX == metrics.columnLeft)
            #expect(abs(buttons[3].maxX - (width - metrics.padding)) <= Self.tolerance)
        }
    }

    @Test("A single image keeps its aspect ratio up to a square; a grid is 16:9", arguments: engines)
    func imageSizes(engine: any FeedCellLayoutEngine) throws {
        for ratios in [[2.0], [0.5], [1.0, 1.0], [0.7, 1.3, 2.0], [1, 1, 1, 1]] {
            let content = FeedCellContent(
                displayName: "Grace", handle: "@grace", timestamp: "1m", body: "", imageAspectRatios: ratios)
            let layout = try engine.layout(content, width: 375)
            let frames = ratios.indices.map { layout[.image($0)]! }
            let top = frames.map(\.minY).min()!
            let bottom = frames.map(\.maxY).max()!
            let expectedHeight = ratios.count == 1 ? min(293 / ratios[0], 293) : 293 * 9 / 16
            #expect(abs(bottom - top - expectedHeight) <= Self.tolerance, "\(ratios)")
            #expect(abs(frames.map(\.maxX).max()! - 363) <= Self.tolerance, "\(ratios)")
        }
    }

    private func overlaps(_ first: LayoutRect, _ second: LayoutRect) -> Bool {
        first.minX < second.maxX - Self.tolerance && second.minX < first.maxX - Self.tolerance
            && first.minY < second.maxY - Self.tolerance && second.minY < first.maxY - Self.tolerance
    }
}
