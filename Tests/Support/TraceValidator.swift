public import Foundation

/// `../shared/tools/validate_trace.py` beside the repository, run with `python3` when both exist:
/// the independent check of every trace framescope writes.
public enum TraceValidator {
    /// The script, beside the repository's folder.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "shared/tools/validate_trace.py")

    /// `python3` on `PATH`, or `nil`.
    public static let python: URL? = ProcessRunner.onPath("python3")

    /// Whether the script and an interpreter are there; tests that need them are skipped otherwise,
    /// with this reason.
    public static var isAvailable: Bool { python != nil && FileManager.default.fileExists(atPath: script.path) }

    /// Why a test that needs the validator was skipped.
    public static let missingReason = "python3 or ../shared/tools/validate_trace.py missing: validator check skipped"

    /// Runs the validator on `file` and returns its exit status and everything it printed.
    public static func run(_ file: String, arguments: [String] = []) throws -> (status: Int32, output: String) {
        guard let python else { return (127, "python3 is not on PATH") }
        let result = try ProcessRunner.run(python, arguments: [script.path, file] + arguments)
        return (result.status, result.standardOutput + result.standardError)
    }
}
