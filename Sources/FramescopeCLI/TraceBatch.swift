import Foundation
import FrameAnalysis
import FrameSupport
import FrameTrace

/// Reads and analyses the traces `check` and `compare` are given, several at a time: a trace is
/// read and analysed on one thread, so a fleet of traces scales with the cores instead.
enum TraceBatch {
    /// The default for `--jobs`: one trace per core the process may use (its CPU affinity and
    /// quota counted), at most four, since each trace being read holds its events in memory
    /// (about the file's size at its peak).
    static var defaultJobs: Int { max(1, min(AvailableProcessors.count, 4)) }

    /// The option's line in a command's help.
    static let helpLine = """
        --jobs N              Traces read and analysed at once, 1-64 (default: one per core,
                                at most 4: \(defaultJobs) here). Each peaks near its file's size in memory.
        """

    /// `--jobs N` of a command's arguments (1–64; default ``defaultJobs``).
    static func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.integer("jobs", default: defaultJobs, in: 1...64)
    }

    /// Reads and analyses every source, at most `jobs` at a time. Each trace is handed to
    /// `analyze` to keep, so that it can free the trace's events as soon as it is done with them.
    /// - Returns: One result per source, in the order given: what `analyze` returned (the
    ///   report, or the report and what else of the trace the caller needs), or why the trace
    ///   could not be read.
    static func analyze<Value: Sendable>(
        _ sources: [String], jobs: Int, maximumSize: Int, analyze: @escaping @Sendable (consuming Trace) -> Value
    ) -> [Result<Value, InputError>] {
        let shared = Shared<Value>(count: sources.count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, sources.count)) {
            DispatchQueue.global().async(group: group) {
                while true {
                    guard let index = shared.takeNext() else { return }
                    let result: Result<Value, InputError>
                    do throws(InputError) {
                        result = .success(
                            analyze(try ReportCommand.readTrace(sources[index], maximumSize: maximumSize)))
                    } catch {
                        result = .failure(error)
                    }
                    shared.store(result, at: index)
                }
            }
        }
        group.wait()
        return shared.finished()
    }

    /// The workers' shared state: the next source to take, and the results by source. An
    /// `NSLock` (a pthread mutex) guards both, which ThreadSanitizer understands; the standard
    /// library's `Mutex` waits inside uninstrumented code on Linux and reads as a race to it.
    private final class Shared<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var results: [Result<Value, InputError>?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        /// The next source's index, or `nil` when every source has been taken.
        func takeNext() -> Int? {
            lock.withLock {
                guard next < results.count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func store(_ result: Result<Value, InputError>, at index: Int) {
            lock.withLock { results[index] = result }
        }

        /// The results in source order; call once every worker has finished.
        func finished() -> [Result<Value, InputError>] { lock.withLock { results.map { $0! } } }
    }
}
