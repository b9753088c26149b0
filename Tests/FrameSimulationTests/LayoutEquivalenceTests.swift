import FrameSupport
import FrameTrace
import Testing

@testable import FrameSimulation

@Suite("Layout engines agree")
struct LayoutEquivalenceTests {
    static let widths: [Double] = [320, 375, 414, 768]
    static let cellCount = 200

    static func contents() -> [FeedCellContent] {
        var generator = SeededGenerator(seed: 2024)
        return (0..<cellCount).map { _ in FeedCellContent.random(using: &generator) }
    }

    @Test("Manual, spec and constraint layout produce the same frames for 200 seeded cells", arguments: widths)
    func enginesAgree(width: Double) throws {
        let manual = ManualLayoutEngine()
        let spec = SpecLayoutEngine()
        let constraint = ConstraintLayoutEngine()
        for (index, content) in Self.contents().enumerated() {
            let reference = manual.layout(content, width: width)
            let others = [
                ("spec", spec.layout(content, width: width)),
                ("constraint", try constraint.layout(content, width: width)),
            ]
            for (name, layout) in others {
                let deviation = reference.maximumDeviation(from: layout)
                #expect(
                    deviation <= 0.001,
                    "cell \(index) at width \(width): \(name) deviates from manual by \(deviation) pt")
            }
        }
    }

    @Test("At the narrowest width the seeded cells reach every branch the engines must agree on")
    func samplesCoverEdgeCases() {
        let width = Self.widths[0]
        let metrics = FeedCellMetrics.standard
        let contents = Self.contents()
        let layouts = contents.map { ManualLayoutEngine().layout($0, width: width) }
        let columnWidth = metrics.columnWidth(forCellWidth: width)
        let truncatedNames = contents.filter { metrics.label(.name, of: $0).intrinsicSize.width > 0.6 * columnWidth }
        let shrunkHandles = zip(contents, layouts).filter { content, layout in
            layout[.handle]!.width < metrics.label(.handle, of: content).intrinsicSize.width
        }
        let brokenWords = contents.filter {
            $0.body.split(separator: " ").contains { word in
                metrics.bodyFont.size(of: String(word)).width > columnWidth
            }
        }
        #expect(!truncatedNames.isEmpty)
        #expect(!shrunkHandles.isEmpty)
        #expect(contents.contains { $0.body.isEmpty })
        #expect(Set(contents.map(\.imageAspectRatios.count)) == [0, 1, 2, 3, 4])
        #expect(contents.contains { $0.imageAspectRatios.count == 1 && $0.imageAspectRatios[0] < 1 })
        #expect(!brokenWords.isEmpty)
    }
}
