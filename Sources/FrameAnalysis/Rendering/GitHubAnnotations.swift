import FrameSupport
import FrameTrace

/// One finding to show as a GitHub Actions annotation (`::error title=...::message`).
package struct GitHubAnnotation: Sendable, Hashable {
    /// The annotation's level, worst first.
    package enum Level: String, Sendable, Hashable, Comparable {
        /// A failure: a budget exceeded, a regression.
        case error
        /// Worth a look, but passing: a value near its limit, a change too noisy to confirm.
        case warning
        /// Information.
        case notice

        /// Orders levels from error to notice.
        package static func < (lhs: Level, rhs: Level) -> Bool {
            let order: [Level] = [.error, .warning, .notice]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// Error, warning or notice.
    package var level: Level
    /// The annotation's title.
    package var title: String
    /// The message; one line reads best.
    package var message: String
    /// How bad the finding is within its level, larger being worse, for ordering.
    package var severity: Double

    /// Creates an annotation.
    package init(level: Level, title: String, message: String, severity: Double = 0) {
        self.level = level
        self.title = title
        self.message = message
        self.severity = severity
    }

    /// The workflow command: `::error title=T::M`, with `%`, CR and LF escaped everywhere and `:`
    /// and `,` escaped in the title, as the Actions runner expects, and control and format
    /// characters as visible escapes (``UntrustedText/annotationMessage(_:)``).
    package var line: String {
        "::\(level.rawValue) title=\(UntrustedText.annotationProperty(title))::\(UntrustedText.annotationMessage(message))"
    }
}

/// Renders findings as GitHub Actions workflow commands, worst first and capped, so a long list
/// does not drown the pull request (GitHub shows only the first 10 of each level per step anyway).
///
/// ```swift
/// for line in GitHubAnnotations.lines(check.annotations()) { print(line) }
/// // ::error title=framescope check%3A hitch-time-ratio::reload.json: hitch time ratio is 99.23 ms/s, ...
/// ```
package enum GitHubAnnotations {
    /// How many annotations ``lines(_:limit:)`` prints by default.
    package static let defaultLimit = 10

    /// The annotations as workflow-command lines: errors before warnings before notices, the
    /// most severe first within a level (ties keep their order), at most `limit`, then one
    /// `::notice` line saying how many more there are.
    /// - Parameters:
    ///   - annotations: The findings, in any order.
    ///   - limit: The most annotations to print.
    /// - Returns: At most `limit + 1` lines.
    package static func lines(_ annotations: [GitHubAnnotation], limit: Int = defaultLimit) -> [String] {
        precondition(limit >= 0, "limit must not be negative")
        let ordered = annotations.enumerated().sorted { a, b in
            if a.element.level != b.element.level { return a.element.level < b.element.level }
            if a.element.severity != b.element.severity { return a.element.severity > b.element.severity }
            return a.offset < b.offset
        }.map(\.element)
        var lines = ordered.prefix(limit).map(\.line)
        let rest = ordered.dropFirst(limit)
        if !rest.isEmpty {
            let errors = rest.filter { $0.level == .error }.count
            let warnings = rest.filter { $0.level == .warning }.count
            let notices = rest.count - errors - warnings
            var kinds: [String] = []
            if errors > 0 { kinds.append("\(errors) error\(errors == 1 ? "" : "s")") }
            if warnings > 0 { kinds.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
            if notices > 0 { kinds.append("\(notices) notice\(notices == 1 ? "" : "s")") }
            let notice = GitHubAnnotation(
                level: .notice, title: "framescope",
                message:
                    "\(rest.count) more finding\(rest.count == 1 ? "" : "s") not annotated (\(kinds.joined(separator: ", "))); "
                    + "the report and the step summary list every rule")
            lines.append(notice.line)
        }
        return lines
    }
}
