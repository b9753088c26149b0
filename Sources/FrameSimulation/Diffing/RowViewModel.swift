/// A bound and measured row of the restaurant list: the texts a cell shows and its height.
///
/// Making one is the per-row work a list update pays for: formatting the strings from the
/// model ("binding" the cell) and measuring the wrapped text for the row height. A full reload
/// makes one for every row; applying a snapshot diff makes one only for inserted and
/// reconfigured rows.
///
/// ```swift
/// let row = RowViewModel(binding: menu, at: ListIndexPath(section: 1, item: 0))
/// row.title    // "Smoked Leek Dumplings"
/// row.height   // points, from wrapping the texts to the cell width
/// ```
package struct RowViewModel: Equatable, Sendable {
    /// The identifier of the row.
    package var id: RestaurantMenu.RowID
    /// The first line, in the title font.
    package var title: String
    /// The second line, in the subtitle font.
    package var subtitle: String
    /// The body text, in the detail font, wrapped over as many lines as it needs.
    package var detail: String
    /// The row height in points.
    package var height: Double

    /// Binds and measures the row at an index path of a menu's list.
    /// - Parameters:
    ///   - menu: The menu the list shows.
    ///   - path: An index path of the list (see ``RestaurantMenu``).
    package init(binding menu: RestaurantMenu, at path: ListIndexPath) {
        switch menu.row(at: path) {
        case .header:
            id = .header
            title = menu.name
            subtitle = menu.address
            detail = "\(menu.categories.count) categories · \(menu.reviews.count) reviews"
        case .dish(let dish):
            id = .dish(dish.id)
            title = dish.name
            subtitle = Self.price(cents: dish.priceCents) + (dish.isSoldOut ? " · Sold out" : "")
            detail = dish.details
        case .review(let review):
            id = .review(review.id)
            title = review.author
            subtitle = String(repeating: "★", count: review.rating) + String(repeating: "☆", count: 5 - review.rating)
            detail = review.text
        }
        height =
            Self.padding * 2 + Self.lineSpacing * 2
            + Self.textHeight(title, fontSize: 17) + Self.textHeight(subtitle, fontSize: 15)
            + Self.textHeight(detail, fontSize: 13)
    }

    private static let padding = 12.0
    private static let lineSpacing = 4.0
    /// A 375-point-wide screen less 16-point margins.
    private static let textWidth = 343.0

    private static func price(cents: Int) -> String {
        let fraction = cents % 100
        return "$\(cents / 100)." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// The height of `text` wrapped at word boundaries to the text width, from a per-character
    /// advance table (a stand-in for a font's metrics: enough to make measuring cost real work
    /// that depends on the text).
    private static func textHeight(_ text: String, fontSize: Double) -> Double {
        guard !text.isEmpty else { return 0 }
        var lines = 1
        var lineWidth = 0.0
        var wordWidth = 0.0
        func placeWord() {
            if lineWidth > 0 && lineWidth + wordWidth > textWidth {
                lines += 1
                lineWidth = wordWidth
            } else {
                lineWidth += wordWidth
            }
            wordWidth = 0
        }
        for scalar in text.unicodeScalars {
            let advance = advanceInEms(scalar) * fontSize
            if scalar == " " {
                placeWord()
                lineWidth += advance
            } else {
                wordWidth += advance
            }
        }
        placeWord()
        return Double(lines) * fontSize * 1.2
    }

    private static func advanceInEms(_ scalar: Unicode.Scalar) -> Double {
        switch scalar {
        case " ", "i", "l", "j", "t", "f", ".", ",", ";", ":", "'", "!", "|": 0.28
        case "m", "w", "M", "W", "@": 0.85
        case "A"..."Z": 0.66
        case "0"..."9": 0.56
        case _ where scalar.isASCII: 0.5
        default: 1.0
        }
    }
}
