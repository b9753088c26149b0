import FrameSupport

/// A restaurant-detail screen's data: a header, menu categories of dishes, and reviews.
///
/// The model behind the list workloads of technique 5. It is generated from a seed, and
/// ``applyingRandomUpdate(changing:using:)`` makes the kind of state change such a screen
/// receives (price changes, sold-out toggles, new reviews, removed dishes), so a scenario can
/// compare a full reload against diffing snapshots on the same sequence of updates.
///
/// Every model carries the ``revision`` at which it last changed, the way a store stamps
/// records, so the snapshot strategy can mark changed rows without comparing contents.
///
/// The list shows section 0 with one header row, then one section per category with its
/// dishes, then one section with the reviews; ``row(at:)`` maps an index path back to the
/// model.
///
/// ```swift
/// var rng = SeededGenerator(seed: 7)
/// let menu = RestaurantMenu(rowCount: 1_000, using: &rng)
/// let next = menu.applyingRandomUpdate(using: &rng)   // about 5% of rows change
/// ```
package struct RestaurantMenu: Equatable, Sendable {
    /// The identifier of a section of the list.
    package enum SectionID: Hashable, Sendable {
        /// The section holding the header row.
        case header
        /// The section of one menu category.
        case category(Int)
        /// The section holding the reviews.
        case reviews
    }

    /// The identifier of a row of the list.
    package enum RowID: Hashable, Sendable {
        /// The restaurant's header row.
        case header
        /// A dish's row.
        case dish(Int)
        /// A review's row.
        case review(Int)
    }

    /// What one row shows.
    package enum Row: Equatable, Sendable {
        /// The header.
        case header
        /// A dish.
        case dish(Dish)
        /// A review.
        case review(Review)
    }

    /// A dish on the menu.
    package struct Dish: Equatable, Sendable {
        /// Identifier, unique among dishes.
        package var id: Int
        /// Display name.
        package var name: String
        /// One or two sentences under the name.
        package var details: String
        /// Price in cents.
        package var priceCents: Int
        /// Whether the kitchen ran out; sold-out dishes sort to the end of their category.
        package var isSoldOut: Bool
        /// The menu revision at which this dish last changed.
        package var revision: Int
    }

    /// A menu category: a titled group of dishes.
    package struct Category: Equatable, Sendable {
        /// Identifier, unique among categories.
        package var id: Int
        /// Display title.
        package var title: String
        /// The dishes, available ones first.
        package var dishes: [Dish]
    }

    /// A guest review.
    package struct Review: Equatable, Sendable {
        /// Identifier, unique among reviews.
        package var id: Int
        /// The reviewer's display name.
        package var author: String
        /// Stars, 1 through 5.
        package var rating: Int
        /// The review text.
        package var text: String
        /// The menu revision at which this review was written.
        package var revision: Int
    }

    /// The restaurant's name.
    package var name: String
    /// The restaurant's address.
    package var address: String
    /// The menu revision at which the header's content last changed.
    package var headerRevision: Int
    /// The menu categories in display order.
    package var categories: [Category]
    /// The reviews, oldest first.
    package var reviews: [Review]
    /// The latest revision; each update increments it.
    package var revision: Int
    /// The next identifier to hand out for a new review.
    var nextReviewID: Int

    /// The number of rows the list shows: the header, every dish and every review.
    /// - Complexity: O(*c*) in the number of categories.
    package var rowCount: Int {
        1 + categories.reduce(0) { $0 + $1.dishes.count } + reviews.count
    }

    /// Generates a menu that fills a list of about `rowCount` rows: a fifth reviews, the rest
    /// dishes in categories of 8 to 16.
    /// - Parameters:
    ///   - rowCount: The number of rows, at least 1.
    ///   - rng: The source of randomness; a seeded generator makes the menu reproducible.
    package init(rowCount: Int, using rng: inout some RandomNumberGenerator) {
        precondition(rowCount >= 1, "a menu has at least its header row")
        let reviewCount = (rowCount - 1) / 5
        var dishesLeft = rowCount - 1 - reviewCount
        name = Words.phrase(from: Words.adjectives, Words.ingredients, using: &rng) + " Kitchen"
        address =
            "\(Int.random(in: 1...999, using: &rng)) " + Words.phrase(from: Words.ingredients, using: &rng) + " Street"
        headerRevision = 0
        revision = 0
        categories = []
        var nextDishID = 0
        while dishesLeft > 0 {
            let count = Swift.min(dishesLeft, Int.random(in: 8...16, using: &rng))
            let dishes = (0..<count).map { offset in Dish.random(id: nextDishID + offset, using: &rng) }
            nextDishID += count
            dishesLeft -= count
            let title = Words.phrase(from: Words.adjectives, Words.forms, using: &rng)
            categories.append(Category(id: categories.count, title: title, dishes: dishes))
        }
        reviews = (0..<reviewCount).map { Review.random(id: $0, revision: 0, using: &rng) }
        nextReviewID = reviewCount
    }

    /// The model a row of the list shows.
    /// - Parameter path: An index path of the list (see the layout in the type's discussion).
    /// - Returns: The row's model.
    /// - Complexity: O(1).
    package func row(at path: ListIndexPath) -> Row {
        switch path.section {
        case 0: .header
        case categories.count + 1: .review(reviews[path.item])
        default: .dish(categories[path.section - 1].dishes[path.item])
        }
    }

    /// Returns the menu after one random state change touching about `fraction` of the rows.
    ///
    /// Each change is, with equal chance, a price change, a sold-out toggle (a dish that sells
    /// out moves to the end of its category, one back in stock moves before the first sold-out
    /// dish), a new review (which also changes the header's review count) or a removed dish.
    /// Everything changed is stamped with the new ``revision``.
    ///
    /// - Parameters:
    ///   - fraction: The share of rows to change; at least one change is made.
    ///   - rng: The source of randomness.
    /// - Returns: The updated menu.
    package func applyingRandomUpdate(changing fraction: Double = 0.05, using rng: inout some RandomNumberGenerator)
        -> RestaurantMenu
    {
        WorkMeter.measure(.updateModel) {
            var menu = self
            menu.revision += 1
            let changes = Swift.max(1, Int((Double(rowCount) * fraction).rounded()))
            for _ in 0..<changes {
                let kind = Int.random(in: 0..<4, using: &rng)
                guard kind < 3, let (category, index) = menu.randomDishPosition(using: &rng) else {
                    menu.appendRandomReview(using: &rng)
                    continue
                }
                switch kind {
                case 0: menu.changePrice(category: category, index: index, using: &rng)
                case 1: menu.toggleSoldOut(category: category, index: index)
                default: menu.categories[category].dishes.remove(at: index)
                }
            }
            return (menu, units: rowCount)
        }
    }

    /// A random dish's category and index, or `nil` when every category is empty.
    private func randomDishPosition(using rng: inout some RandomNumberGenerator) -> (Int, Int)? {
        guard !categories.isEmpty else { return nil }
        let start = Int.random(in: 0..<categories.count, using: &rng)
        for step in 0..<categories.count {
            let category = (start + step) % categories.count
            let count = categories[category].dishes.count
            if count > 0 { return (category, Int.random(in: 0..<count, using: &rng)) }
        }
        return nil
    }

    private mutating func changePrice(category: Int, index: Int, using rng: inout some RandomNumberGenerator) {
        let dish = categories[category].dishes[index]
        let percent = Int.random(in: -20...30, using: &rng)
        categories[category].dishes[index].priceCents = Swift.max(
            100, dish.priceCents + dish.priceCents * percent / 100)
        categories[category].dishes[index].revision = revision
    }

    private mutating func toggleSoldOut(category: Int, index: Int) {
        var dish = categories[category].dishes.remove(at: index)
        dish.isSoldOut.toggle()
        dish.revision = revision
        let dishes = categories[category].dishes
        let destination = dish.isSoldOut ? dishes.count : dishes.firstIndex(where: \.isSoldOut) ?? dishes.count
        categories[category].dishes.insert(dish, at: destination)
    }

    private mutating func appendRandomReview(using rng: inout some RandomNumberGenerator) {
        reviews.append(Review.random(id: nextReviewID, revision: revision, using: &rng))
        nextReviewID += 1
        headerRevision = revision
    }
}

extension RestaurantMenu.Dish {
    fileprivate static func random(id: Int, using rng: inout some RandomNumberGenerator) -> Self {
        Self(
            id: id,
            name: Words.phrase(from: Words.adjectives, Words.ingredients, Words.forms, using: &rng),
            details: Words.sentence(words: 6...24, using: &rng),
            priceCents: Int.random(in: 4...40, using: &rng) * 100 + Int.random(in: 0...3, using: &rng) * 25,
            isSoldOut: false,
            revision: 0
        )
    }
}

extension RestaurantMenu.Review {
    fileprivate static func random(id: Int, revision: Int, using rng: inout some RandomNumberGenerator) -> Self {
        Self(
            id: id,
            author: Words.names.randomElement(using: &rng)! + " " + String(Words.initials.randomElement(using: &rng)!)
                + ".",
            rating: Int.random(in: 1...5, using: &rng),
            text: Words.sentence(words: 5...40, using: &rng),
            revision: revision
        )
    }
}

/// Vocabulary for generated menus.
private enum Words {
    static let adjectives = [
        "Smoked", "Charred", "Crispy", "Braised", "Wild", "Golden", "Spicy", "Garden", "Slow", "Midnight",
    ]
    static let ingredients = [
        "Leek", "Mushroom", "Salmon", "Chickpea", "Lamb", "Tomato", "Miso", "Fennel", "Pistachio", "Chili",
    ]
    static let forms = [
        "Dumplings", "Noodles", "Tart", "Skewers", "Salad", "Broth", "Flatbread", "Risotto", "Plates", "Bowls",
    ]
    static let names = [
        "Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Gustavo", "Hana", "Ines", "Jonas", "Keiko", "Lior",
    ]
    static let initials = Array("ABCDEFGHJKLMNOPRSTW")
    static let prose = [
        "with", "a", "the", "of", "served", "over", "fresh", "house-made", "lightly", "toasted", "sauce", "and",
        "seasonal", "greens", "butter", "lemon", "garlic", "roasted", "sesame", "crunchy", "tender", "slow-cooked",
        "wonderful", "service", "portions", "generous", "would", "come", "back", "again", "cozy", "place", "friendly",
        "staff", "waited", "minutes", "table", "flavours", "balanced", "perfectly", "highly", "recommended",
    ]

    static func phrase(from lists: [String]..., using rng: inout some RandomNumberGenerator) -> String {
        lists.map { $0.randomElement(using: &rng)! }.joined(separator: " ")
    }

    static func sentence(words: ClosedRange<Int>, using rng: inout some RandomNumberGenerator) -> String {
        let count = Int.random(in: words, using: &rng)
        let body = (0..<count).map { _ in prose.randomElement(using: &rng)! }.joined(separator: " ")
        return body.prefix(1).uppercased() + body.dropFirst() + "."
    }
}
