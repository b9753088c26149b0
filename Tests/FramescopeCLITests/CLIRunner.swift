import Foundation
import FramescopeTestSupport

/// What the built `framescope` printed and how it ended.
typealias CLIResult = ProcessResult

enum CLI {
    /// The `framescope` executable in the build's products folder, beside the test bundle.
    static var executable: URL { ProcessRunner.builtProduct("framescope") }

    /// Runs `framescope` (or another program) with `arguments`, feeding `input` to its standard
    /// input, both pipes drained at once (``ProcessRunner``).
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], program: URL = CLI.executable
    ) throws -> CLIResult {
        try ProcessRunner.run(program, arguments: arguments, input: input, environment: environment)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
