public import Foundation

/// What a child process printed and how it ended.
public struct ProcessResult: Sendable {
    /// The exit status (or the signal, for a child killed by one).
    public var status: Int32
    /// Everything written to standard output.
    public var standardOutput: String
    /// Everything written to standard error.
    public var standardError: String

    /// A result, as a test that runs a program another way makes one.
    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// Runs programs for tests: the built `framescope`, the independent validator. One runner for
/// every test target, so each drains both pipes the same way.
public enum ProcessRunner {
    /// The executable `name` (a product of this package, such as `framescope`) in the build's
    /// products folder: the nearest folder above the test bundle that holds it; the bare name
    /// (looked up on `PATH` by nobody, so a run fails clearly) when none does.
    public static func builtProduct(_ name: String) -> URL {
        var directory = Bundle.main.bundleURL
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: name)
    }

    /// Runs `program` with `arguments`, feeding `input` to its standard input, and waits for it.
    ///
    /// The input is written on a thread of its own while both output pipes are drained at once,
    /// standard error on another thread: a child that fills one pipe while another is written or
    /// read would otherwise block forever, and so would a child that stops reading its input
    /// early and then writes more than a pipe holds (the writer then stops, as `cat` would).
    public static func run(
        _ program: URL, arguments: [String], input: Data? = nil, environment: [String: String] = [:]
    ) throws -> ProcessResult {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            // Apps cannot start programs: `Foundation.Process` does not exist here. Tests that run one
            // (the built `framescope`, the validator) are macOS and Linux only; this keeps the support
            // target, and the test targets that use it for other things, building for iOS.
            throw CocoaError(.featureUnsupported)
        #else
            let process = Process()
            process.executableURL = program
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            let error = Pipe()
            let stdin = Pipe()
            process.standardOutput = output
            process.standardError = error
            process.standardInput = stdin
            try process.run()
            let writer = PipeWriter(stdin.fileHandleForWriting, input ?? Data())
            let errorReader = PipeReader(error.fileHandleForReading)
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = errorReader.finish()
            writer.finish()
            process.waitUntilExit()
            return ProcessResult(
                status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                standardError: String(decoding: errorData, as: UTF8.self))
        #endif
    }

    /// The first `name` on `PATH` that is executable, or `nil`.
    public static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `done` is signalled, and
    // read only after waiting on `done`.
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

/// Writes bytes to a pipe and closes it, on a thread of its own, so that the test can read the
/// other end meanwhile. A reader that stops before the end makes the write fail (the thread
/// blocks SIGPIPE, which would otherwise end the test process), and the rest is dropped.
public final class PipeWriter: @unchecked Sendable {
    // @unchecked: the thread owns the handle and the data; `done` is a semaphore.
    private let done = DispatchSemaphore(value: 0)

    /// Starts writing `data` to `handle`, which it closes at the end.
    public init(_ handle: FileHandle, _ data: Data) {
        Thread.detachNewThread { [done] in
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(handle.fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0, errno == EINTR { continue }
                    if written <= 0 { break }
                    offset += written
                }
            }
            try? handle.close()
            done.signal()
        }
    }

    /// Waits until the data is written (or the reader stopped) and the pipe closed.
    public func finish() { done.wait() }
}
