import Foundation
import FrameScope
import FrameTrace
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Helpers shared by the FrameScope suites: real threads, JSON parse-back, stable thread ids for
// goldens, temporary files and the independent validator.

// MARK: - Threads

/// Runs `body` on `count` new threads at once (real threads, not the cooperative pool) and returns
/// when every one has finished. `body` receives the thread's index.
///
/// Plain pthreads, joined: ThreadSanitizer sees that everything a thread did happens before the
/// join, so results handed back through the threads' captures need no further synchronisation.
func runOnNewThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    var threads: [pthread_t] = []
    for index in 0..<count {
        let start = Unmanaged.passRetained(ThreadStart { body(index) }).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            let result = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue().run()
                    return nil
                }, start)
            precondition(result == 0, "pthread_create failed: \(result)")
            threads.append(thread!)
        #else
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, start)
            precondition(result == 0, "pthread_create failed: \(result)")
            threads.append(thread)
        #endif
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// What a new thread runs.
private final class ThreadStart: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Runs `body` on one new thread and waits for it.
func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
    runOnNewThreads(1) { _ in body() }
}

/// Hands a value (such as a non-copyable ``Interval``) from one thread to another, exactly once.
final class Handoff<Value: ~Copyable & Sendable>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: consuming Value) { slot = Mutex(Optional(value)) }

    /// The value, the first time; `nil` afterwards.
    func take() -> Value? { slot.withLock { $0.take() } }
}

// MARK: - JSON parse-back

/// A parsed Chrome trace: the event objects, and the `metadata` object of the object form.
struct ParsedTrace {
    var events: [[String: Any]]
    var metadata: [String: Any]?

    /// Events of one phase letter.
    func events(phase: String) -> [[String: Any]] { events.filter { $0["ph"] as? String == phase } }

    /// Non-metadata events with this name.
    func events(named name: String) -> [[String: Any]] {
        events.filter { $0["name"] as? String == name && $0["ph"] as? String != "M" }
    }

    /// The one non-metadata event with this name.
    func event(named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let matches = events(named: name)
        try #require(
            matches.count == 1, "expected one event named \(name), found \(matches.count)",
            sourceLocation: sourceLocation)
        return matches[0]
    }

    /// `thread_name` metadata by tid.
    var threadNames: [Int: String] {
        var names: [Int: String] = [:]
        for event in events(phase: "M") where event["name"] as? String == "thread_name" {
            if let tid = event["tid"] as? Int, let args = event["args"] as? [String: Any],
                let name = args["name"] as? String
            {
                names[tid] = name
            }
        }
        return names
    }

    /// `thread_sort_index` metadata by tid.
    var threadSortIndexes: [Int: Int] {
        var indexes: [Int: Int] = [:]
        for event in events(phase: "M") where event["name"] as? String == "thread_sort_index" {
            if let tid = event["tid"] as? Int, let args = event["args"] as? [String: Any],
                let index = args["sort_index"] as? Int
            {
                indexes[tid] = index
            }
        }
        return indexes
    }
}

enum ParseError: Error { case notATrace }

/// Parses a document of either form with Foundation's JSONSerialization.
func parseTrace(_ bytes: [UInt8]) throws -> ParsedTrace {
    let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    if let array = object as? [[String: Any]] {
        return ParsedTrace(events: array, metadata: nil)
    }
    guard let document = object as? [String: Any], let events = document["traceEvents"] as? [[String: Any]] else {
        throw ParseError.notATrace
    }
    return ParsedTrace(events: events, metadata: document["metadata"] as? [String: Any])
}

extension Dictionary where Key == String, Value == Any {
    /// The event's `args` object (empty when absent).
    var args: [String: Any] { self["args"] as? [String: Any] ?? [:] }
}

// MARK: - Stable ids for goldens

extension Trace {
    /// The trace with its process id replaced by `processID` and its thread ids replaced by 1, 2, 3...
    /// in the order of the recorder's thread serials (the main thread, serial 1, stays 1).
    ///
    /// The real process id and the serials of worker threads depend on the process and on which
    /// other tests created threads first; everything else in a manual-clock recording is
    /// deterministic. Sort indexes equal to a thread's old id follow it.
    func withStableThreadIDs(processID: Int64 = 4242) -> Trace {
        var keys = Set(threads.keys)
        for event in events { keys.insert(event.thread) }
        if let main = metadata.mainThread { keys.insert(main) }
        keys.formUnion(metadata.droppedEvents.keys)
        var mapping: [ThreadKey: ThreadKey] = [:]
        for (index, key) in keys.sorted().enumerated() {
            mapping[key] = ThreadKey(processID: processID, threadID: Int64(index + 1))
        }
        var result = self
        for index in result.events.indices {
            result.events[index].thread = mapping[result.events[index].thread]!
        }
        result.threads = [:]
        for (key, thread) in threads {
            let newKey = mapping[key]!
            let sortIndex = thread.sortIndex == key.threadID ? newKey.threadID : thread.sortIndex
            result.threads[newKey] = TraceThread(key: newKey, name: thread.name, sortIndex: sortIndex)
        }
        result.processes = [:]
        for process in processes.values {
            result.processes[processID] = TraceProcess(
                processID: processID, name: process.name, sortIndex: process.sortIndex)
        }
        result.metadata.mainThread = metadata.mainThread.map { mapping[$0]! }
        result.metadata.droppedEvents = Dictionary(
            uniqueKeysWithValues: metadata.droppedEvents.map { (mapping[$0.key]!, $0.value) })
        return result
    }
}

// MARK: - Files

/// The repository root, found from this file's path (`<root>/Tests/FrameScopeTests/TestSupport.swift`).
func repositoryRoot(filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// A new empty directory under the system's temporary directory, removed by `cleanup()`.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

func readBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
