import Foundation
import FrameScope

/// A fixed pool of named background threads that run jobs in submission order.
///
/// Jobs are `@Sendable` closures; each runs inside whatever spans it records itself. The pool is
/// the "background queue" of the techniques: layout specs, decodes and snapshot diffs run here so
/// that only their cheap application touches the main thread.
final class WorkerPool: Sendable {
    private let state = JobQueue()
    let threadCount: Int

    /// Starts `count` threads named `name-firstIndex` … `name-(firstIndex + count - 1)` in
    /// `recorder`'s traces, one at a time: each has its trace id before the next starts, so the
    /// ids follow the names and the same run writes the same trace.
    init(count: Int, name: String, recorder: Recorder, firstIndex: Int = 1) {
        precondition(count >= 1, "a worker pool needs at least one thread")
        threadCount = count
        for index in firstIndex..<(firstIndex + count) {
            let state = state
            let registered = DispatchSemaphore(value: 0)
            let thread = Thread {
                recorder.nameCurrentThread("\(name)-\(index)")
                registered.signal()
                var hasFinishedJob = false
                while let job = state.next(afterFinishingJob: hasFinishedJob) {
                    job()
                    hasFinishedJob = true
                }
                state.threadExited()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
            registered.wait()
        }
    }

    /// Queues a job.
    func submit(_ job: @escaping @Sendable () -> Void) { state.push(job) }

    /// Waits until every queued job has run.
    func waitUntilIdle() { state.waitUntilIdle() }

    /// Lets the threads finish their queued jobs and exit; waits for them.
    func shutDown() { state.close(threads: threadCount) }
}

/// The pool's queue; `condition` guards every field.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var running = 0
    private var isClosed = false
    private var exited = 0

    func push(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        precondition(!isClosed, "submit after shutDown")
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// The next job, or nil when the queue is closed and empty. Marks the calling thread's previous
    /// job done when it had one: a thread's first call must not, or a thread that starts late
    /// would count another thread's running job as finished and let `waitUntilIdle` return early.
    func next(afterFinishingJob hasFinishedJob: Bool) -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        if hasFinishedJob {
            precondition(running > 0, "a job finished that was not running")
            running -= 1
            condition.broadcast()
        }
        while head == jobs.count, !isClosed { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        running += 1
        if head > 1024, head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    func waitUntilIdle() {
        condition.lock()
        while head < jobs.count || running > 0 { condition.wait() }
        condition.unlock()
    }

    func threadExited() {
        condition.lock()
        exited += 1
        condition.broadcast()
        condition.unlock()
    }

    func close(threads: Int) {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while exited < threads { condition.wait() }
        condition.unlock()
    }
}
