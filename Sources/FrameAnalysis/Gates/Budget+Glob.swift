extension Budget {
    /// Whether a file name matches a glob: `*` matches any run of characters (none included),
    /// `?` exactly one, every other character itself. There are no character classes or escapes;
    /// the whole name must match.
    ///
    /// ```swift
    /// Budget.glob("diffable-update--*", matches: "diffable-update--reload.json")   // true
    /// Budget.glob("feed-?.json", matches: "feed-12.json")                          // false
    /// ```
    /// - Parameters:
    ///   - pattern: The glob.
    ///   - name: The name to test, compared character by character.
    /// - Returns: Whether the whole name matches.
    /// - Complexity: O(*p* · *n*) in the worst case; linear for patterns with one `*`.
    package static func glob(_ pattern: String, matches name: String) -> Bool {
        let pattern = Array(pattern)
        let name = Array(name)
        var p = 0
        var n = 0
        // The most recent `*` and the name position it was tried at, for backtracking.
        var star: Int?
        var starName = 0
        while n < name.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == name[n]) {
                p += 1
                n += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                starName = n
                p += 1
            } else if let star {
                // Let the last `*` swallow one more character and retry.
                p = star + 1
                starName += 1
                n = starName
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
