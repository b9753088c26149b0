import Foundation

/// Runs the built `framescope` binary, as a user would, and captures what it prints.
struct CLIResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum CLI {
    /// The `framescope` executable next to the test bundle in the build's products folder.
    static var executable: URL {
        var directory = Bundle.main.bundleURL
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("framescope")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "framescope")
    }

    /// Runs `framescope` (or another program) with `arguments`, feeding `input` to its standard input.
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], program: URL = CLI.executable
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), error = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Both pipes are drained at once, standard error on a thread of its own, before waiting:
        // a child that fills either pipe while the other is read would otherwise block forever.
        let errorReader = PipeReader(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorReader.finish()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// What the pipe held, once it is closed.
    func finish() -> Data {
        done.wait()
        return data
    }
}
