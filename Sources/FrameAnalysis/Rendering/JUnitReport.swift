import FrameSupport
import FrameTrace

/// Test results in the JUnit XML format that CI systems (GitHub Actions test reporters, GitLab,
/// Jenkins, Buildkite, CircleCI) read: `<testsuites>` of `<testsuite>`s of `<testcase>`s, a
/// `<failure>` in each failed case.
///
/// Written by hand, with every attribute and text escaped and the characters XML 1.0 cannot hold
/// at all (control characters other than tab, newline and carriage return) left out.
///
/// Checks and comparisons make one (``BudgetCheck/junit()``, ``Comparison/junit()``); its
/// suites and cases are the renderers' own (`package`).
///
/// ```swift
/// let xml = check.junit().xml()   // <?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="framescope check" ...
/// ```
package struct JUnitReport: Sendable, Hashable {
    /// The name of the whole run (`<testsuites name>`).
    package var name: String
    /// The suites.
    package var suites: [Suite]

    /// A group of test cases (`<testsuite>`).
    package struct Suite: Sendable, Hashable {
        /// The suite's name.
        package var name: String
        /// Its cases.
        package var cases: [TestCase]

        /// Creates a suite.
        package init(name: String, cases: [TestCase]) {
            self.name = name
            self.cases = cases
        }

        /// The number of failed cases.
        package var failureCount: Int { cases.filter { $0.failure != nil }.count }
        /// The number of cases that could not run (an unreadable input).
        package var errorCount: Int { cases.filter { $0.error != nil }.count }
        /// The number of cases skipped (nothing to judge).
        package var skippedCount: Int {
            cases.filter { $0.skipped != nil && $0.failure == nil && $0.error == nil }.count
        }
    }

    /// One check (`<testcase>`).
    package struct TestCase: Sendable, Hashable {
        /// The case's name.
        package var name: String
        /// The class it belongs to; CI systems group by it, splitting at dots.
        package var className: String
        /// Why it failed, or `nil` when it passed.
        package var failure: Failure?
        /// Text for `<system-out>`, if any.
        package var output: String?
        /// Why the case could not run (`<error>`), or `nil`.
        package var error: Failure?
        /// Why the case was skipped (`<skipped message>`), or `nil`.
        package var skipped: String?

        /// Creates a case.
        package init(
            name: String, className: String, failure: Failure? = nil, output: String? = nil, error: Failure? = nil,
            skipped: String? = nil
        ) {
            self.name = name
            self.className = className
            self.failure = failure
            self.output = output
            self.error = error
            self.skipped = skipped
        }
    }

    /// A failure (`<failure message type>details</failure>`).
    package struct Failure: Sendable, Hashable {
        /// A one-line summary.
        package var message: String
        /// A machine-readable kind, e.g. `budget-exceeded` or `regression`.
        package var type: String
        /// Further lines.
        package var details: String

        /// Creates a failure.
        package init(message: String, type: String, details: String) {
            self.message = message
            self.type = type
            self.details = details
        }
    }

    /// Creates a report.
    package init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }

    /// The report as an XML document, UTF-8, ending in a newline.
    /// - Complexity: O(*n*) in the length of the text.
    package func xml() -> String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failureCount }
        let errors = suites.reduce(0) { $0 + $1.errorCount }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"\(UntrustedText.xml(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"0\">\n"
        for suite in suites {
            xml +=
                "  <testsuite name=\"\(UntrustedText.xml(suite.name))\" tests=\"\(suite.cases.count)\" "
                + "failures=\"\(suite.failureCount)\" errors=\"\(suite.errorCount)\" skipped=\"\(suite.skippedCount)\" time=\"0\">\n"
            for testCase in suite.cases {
                let open =
                    "    <testcase name=\"\(UntrustedText.xml(testCase.name))\" classname=\"\(UntrustedText.xml(testCase.className))\" time=\"0\""
                guard
                    testCase.failure != nil || testCase.output != nil || testCase.error != nil
                        || testCase.skipped != nil
                else {
                    xml += open + "/>\n"
                    continue
                }
                xml += open + ">\n"
                if let failure = testCase.failure {
                    xml +=
                        "      <failure message=\"\(UntrustedText.xml(failure.message))\" type=\"\(UntrustedText.xml(failure.type))\">"
                        + UntrustedText.xml(failure.details) + "</failure>\n"
                }
                if let error = testCase.error {
                    xml +=
                        "      <error message=\"\(UntrustedText.xml(error.message))\" type=\"\(UntrustedText.xml(error.type))\">"
                        + UntrustedText.xml(error.details) + "</error>\n"
                }
                if let skipped = testCase.skipped, testCase.failure == nil, testCase.error == nil {
                    xml += "      <skipped message=\"\(UntrustedText.xml(skipped))\"/>\n"
                }
                if let output = testCase.output {
                    xml += "      <system-out>" + UntrustedText.xml(output) + "</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// A class name CI systems group well: `prefix.name`, with the name's extension dropped and
    /// its other dots replaced by `_` (they would otherwise split it into packages).
    /// - Parameters:
    ///   - prefix: The dotted prefix, e.g. `framescope.check`.
    ///   - name: A file name such as `feed.v2.json`.
    /// - Returns: For example `framescope.check.feed_v2`.
    package static func className(_ prefix: String, _ name: String) -> String {
        var stem = Substring(name)
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        return prefix + "." + String(stem.map { $0 == "." ? "_" : $0 })
    }
}
