import FrameSupport

/// What one feed cell shows: author, time, text, images and action counts.
///
/// The content decides which elements exist (only as many image elements as images) and the
/// sizes of the text; ``FeedCellMetrics`` decides everything else.
///
/// ```swift
/// var generator = SeededGenerator(seed: 42)
/// let cells = (0..<100).map { _ in FeedCellContent.random(using: &generator) }
/// ```
package struct FeedCellContent: Hashable, Sendable {
    /// The most images a post carries.
    package static let maximumImageCount = 4

    /// The author's display name; never empty.
    package var displayName: String
    /// The author's handle, such as `@ada`; never empty.
    package var handle: String
    /// The post's age as shown, such as `3h` or `Mar 4`; never empty.
    package var timestamp: String
    /// The post text; may be empty (an image-only post).
    package var body: String
    /// The aspect ratio (width / height) of each image, at most four.
    package var imageAspectRatios: [Double]
    /// The count shown beside each action button.
    package var actionCounts: [FeedAction: Int]

    /// Creates content.
    /// - Parameters:
    ///   - displayName: The author's display name; must not be empty.
    ///   - handle: The author's handle; must not be empty.
    ///   - timestamp: The post's age as shown; must not be empty.
    ///   - body: The post text.
    ///   - imageAspectRatios: Width / height of each image: at most four, each positive.
    ///   - actionCounts: Counts per action; missing actions count zero, negative counts are
    ///     not allowed.
    package init(
        displayName: String, handle: String, timestamp: String, body: String,
        imageAspectRatios: [Double] = [], actionCounts: [FeedAction: Int] = [:]
    ) {
        precondition(
            !displayName.isEmpty && !handle.isEmpty && !timestamp.isEmpty, "a post always shows its author and age")
        precondition(imageAspectRatios.count <= Self.maximumImageCount, "a post has at most four images")
        precondition(imageAspectRatios.allSatisfy { $0 > 0 && $0.isFinite }, "aspect ratios must be positive")
        precondition(actionCounts.values.allSatisfy { $0 >= 0 }, "counts cannot be negative")
        self.displayName = displayName
        self.handle = handle
        self.timestamp = timestamp
        self.body = body
        self.imageAspectRatios = imageAspectRatios
        self.actionCounts = actionCounts
    }

    /// The characters a layout measures: the name, handle, age and body, in Unicode scalars (the
    /// unit layout work is counted in, see ``WorkKind``).
    package var measuredCharacters: Int {
        displayName.unicodeScalars.count + handle.unicodeScalars.count + timestamp.unicodeScalars.count
            + body.unicodeScalars.count
    }

    /// The count shown for one action, zero when none was given.
    /// - Parameter action: The action.
    /// - Returns: Its count.
    package func count(for action: FeedAction) -> Int {
        actionCounts[action] ?? 0
    }

    /// A count as a button shows it: empty for zero, then `999`, `1.2K`, `34K`, `5.6M`.
    /// - Parameter count: A non-negative count.
    /// - Returns: At most four characters below ten million.
    package static func compactCount(_ count: Int) -> String {
        switch count {
        case 0: ""
        case 1..<1_000: String(count)
        case 1_000..<10_000: "\(count / 1_000).\(count % 1_000 / 100)K"
        case 10_000..<1_000_000: "\(count / 1_000)K"
        default: "\(count / 1_000_000).\(count % 1_000_000 / 100_000)M"
        }
    }

    /// Makes plausible, varied content from a random source.
    ///
    /// The mix is chosen to reach every branch of the layouts: long names that must be
    /// truncated, long handles that must shrink, empty bodies, unbreakable links wider than a
    /// line, non-ASCII text, zero to four images of aspect ratios from 1:2 to 2:1, and counts from
    /// none to hundreds of thousands. Equal generator states give equal content.
    /// - Parameter generator: The random source, such as a `SeededGenerator`.
    /// - Returns: New content.
    package static func random(using generator: inout some RandomNumberGenerator) -> FeedCellContent {
        let first = firstNames.randomElement(using: &generator)!
        let last = lastNames.randomElement(using: &generator)!
        var handle = "@" + first.lowercased()
        if Bool.random(using: &generator) { handle += last.lowercased().filter { $0 != "-" } }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            handle += String(Int.random(in: 1...9999, using: &generator))
        }

        let timestamp =
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: "\(Int.random(in: 1...59, using: &generator))m"
            case 1: "\(Int.random(in: 1...23, using: &generator))h"
            default: "\(months.randomElement(using: &generator)!) \(Int.random(in: 1...28, using: &generator))"
            }

        var words: [String] = []
        if Int.random(in: 0..<10, using: &generator) != 0 {
            for _ in 0..<Int.random(in: 1...45, using: &generator) {
                words.append(vocabulary.randomElement(using: &generator)!)
            }
            if Int.random(in: 0..<8, using: &generator) == 0 {
                let path = (0..<Int.random(in: 3...8, using: &generator)).map { _ in
                    vocabulary.randomElement(using: &generator)!
                }
                words.insert(
                    "https://example.com/" + path.joined(separator: "/"),
                    at: Int.random(in: 0...words.count, using: &generator))
            }
        }

        let imageCount = [0, 0, 0, 0, 1, 1, 1, 2, 3, 4].randomElement(using: &generator)!
        let ratios = (0..<imageCount).map { _ in Double.random(in: 0.5...2.0, using: &generator) }

        var counts: [FeedAction: Int] = [:]
        for action in FeedAction.allCases {
            let digits = Int.random(in: 0...6, using: &generator)
            counts[action] = digits == 0 ? 0 : Int.random(in: 1..<tenToThe(digits), using: &generator)
        }
        return FeedCellContent(
            displayName: "\(first) \(last)", handle: handle, timestamp: timestamp, body: words.joined(separator: " "),
            imageAspectRatios: ratios, actionCounts: counts
        )
    }
}

private func tenToThe(_ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { power, _ in power * 10 }
}

private let firstNames = [
    "Ada", "Grace", "Linus", "Margaret", "Barbara", "Dennis", "Ken", "Radia", "Edsger", "Frances", "Jo", "Xi",
    "Bartholomew", "Maximiliana", "Søren", "Zoë", "Anastasia-Konstantina",
]
private let lastNames = [
    "Lovelace", "Hopper", "Torvalds", "Hamilton", "Liskov", "Ritchie", "Thompson", "Perlman", "Dijkstra", "Allen",
    "Wu", "Featherstonehaugh-Wolfeschlegel", "Oyelaran-Montgomery",
]
private let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
private let vocabulary = [
    "the", "frame", "budget", "is", "sixteen", "milliseconds", "and", "every", "layout", "pass", "counts", "when",
    "scrolling", "a", "long", "feed", "of", "cells", "with", "images", "text", "buttons", "we", "measured", "main",
    "thread", "work", "background", "decode", "corner", "radius", "offscreen", "render", "server", "commit",
    "vsync", "hitch", "dropped", "smooth", "120Hz", "ProMotion", "#perf", "@framescope", "🎉", "naïve", "café",
    "Auto", "Layout", "constraints", "solver", "Cassowary", "PinLayout", "Texture", "nodes", "diffable", "snapshot",
    "WWWWWW", "iiiiii", "—", "😀", "漢字",
]
