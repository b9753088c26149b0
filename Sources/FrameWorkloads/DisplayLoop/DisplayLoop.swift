import Foundation
public import FrameScope

/// How the simulated display runs.
public struct DisplayConfiguration: Sendable {
    /// Vsyncs per second: 60 by default, 120 for ProMotion-style displays.
    public var refreshRate: Int
    /// Frames to run.
    public var frameCount: Int
    /// Background worker threads; the machine's core count by default.
    public var workerCount: Int
    /// Whether each frame first waits until the background work submitted before it has
    /// finished, so every result is applied in the frame after the one that asked for it whatever
    /// the machine's speed: for tests. Off by default: results arrive when the work ends.
    public var waitsForBackgroundWork: Bool

    /// Creates a configuration.
    /// - Precondition: `refreshRate` is 1 to 1,000, `frameCount` and `workerCount` at least 1.
    public init(refreshRate: Int = 60, frameCount: Int = 120, workerCount: Int? = nil, waitsForBackgroundWork: Bool = false) {
        let workerCount = workerCount ?? ProcessInfo.processInfo.activeProcessorCount
        precondition((1...1000).contains(refreshRate), "refreshRate must be 1-1000 Hz")
        precondition(frameCount >= 1 && workerCount >= 1, "frameCount and workerCount must be at least 1")
        self.refreshRate = refreshRate
        self.frameCount = frameCount
        self.workerCount = workerCount
        self.waitsForBackgroundWork = waitsForBackgroundWork
    }

    /// The frame interval `P` in nanoseconds.
    public var frameIntervalNanoseconds: Int64 { Int64((1e9 / Double(refreshRate)).rounded()) }
}

/// A workload the display loop runs frame by frame: a scrolling feed, a list receiving updates, a
/// gesture-driven transition. Adding one does not touch the loop.
///
/// The loop calls ``frame(_:)`` on the main thread once per frame, inside the frame's span. The
/// scenario does that frame's main-thread work there (input, applying layout, display), hands
/// background work to ``FrameContext/inBackground(_:category:work:then:)`` and render-server work
/// to ``FrameContext/onRenderServer(_:work:)``.
public protocol Scenario: AnyObject {
    /// The main-thread work of one frame.
    func frame(_ context: FrameContext)
}

/// What a scenario can do during one frame. Main thread only.
public final class FrameContext {
    /// The recorder every span goes to.
    public let recorder: Recorder
    /// The frame's position in the run, from 0.
    public let frameIndex: Int
    /// The vsync the frame started on (recorder clock, nanoseconds).
    public let vsync: Int64
    /// The frame's commit deadline: the next vsync.
    public let deadline: Int64
    /// The frame interval `P`, in nanoseconds.
    public let interval: Int64
    unowned let loop: DisplayLoop

    init(loop: DisplayLoop, frameIndex: Int, vsync: Int64) {
        self.loop = loop
        recorder = loop.recorder
        self.frameIndex = frameIndex
        self.vsync = vsync
        interval = loop.configuration.frameIntervalNanoseconds
        deadline = vsync + interval
    }

    /// Runs `work` on a background worker inside a span, then `then` with its result on the main
    /// thread at the start of the first frame after it finishes, inside an `apply` span. A flow
    /// arrow links the two in the trace.
    /// - Parameters:
    ///   - name: The background span's name.
    ///   - category: The budget category of both the work and its application.
    ///   - work: The computation; it must not touch main-thread state.
    ///   - then: The application of the result, on the main thread.
    public func inBackground<Result: Sendable>(
        _ name: StaticString, category: FrameScope.Category, work: @escaping @Sendable () -> Result,
        then: @escaping (Result) -> Void
    ) {
        loop.submit(name, category: category, work: work, then: then)
    }

    /// Queues work for the render server's lane, where it runs after this frame's commit inside a
    /// `render`-category span, as compositing and offscreen passes do on a device.
    public func onRenderServer(_ name: StaticString, work: @escaping @Sendable () -> Void) {
        loop.renderJobs.append((name, work))
    }

    /// Whether the frame has already used up its budget.
    public var isPastDeadline: Bool { recorder.clock.now() >= deadline }
}

/// Runs a scenario on a simulated display: a vsync grid at the configured refresh rate drives the
/// main thread, a worker pool runs background work, and a render-server thread composites each
/// committed frame.
///
/// Time is the recorder's clock: on a real clock the loop waits for each vsync, and work takes what
/// it takes; on a manual clock (``FrameScope/RecorderClock/manualClock``) waiting for a vsync moves
/// the clock to it, and work takes what the scenario advances the clock by. When a frame's work
/// runs past its deadline, the vsyncs it covered are missed, as on a device: the next frame
/// starts at the first vsync after the work ends. Every frame is recorded with the public frame
/// API, ``FrameScope/Recorder/withFrame(vsync:deadline:index:_:)``, as an app would record its
/// own, so analysis finds the same vsync and deadline after timestamps are rebased.
///
/// ```swift
/// let loop = DisplayLoop(recorder: recorder, configuration: DisplayConfiguration(frameCount: 120))
/// let summary = loop.run(FeedScrollScenario(strategy: .manualLayout, seed: 1))
/// ```
public final class DisplayLoop {
    /// The recorder every span goes to.
    public let recorder: Recorder
    /// How the display runs.
    public let configuration: DisplayConfiguration
    private let workers: WorkerPool
    private let renderServer: WorkerPool
    private let completed = CompletedJobs()
    private var pending: [UInt64: (any Sendable) -> Void] = [:]
    private var nextJobID: UInt64 = 1
    fileprivate var renderJobs: [(StaticString, @Sendable () -> Void)] = []

    /// Creates a loop and starts its worker and render-server threads.
    public init(recorder: Recorder, configuration: DisplayConfiguration) {
        self.recorder = recorder
        self.configuration = configuration
        workers = WorkerPool(count: configuration.workerCount, name: "worker", recorder: recorder)
        renderServer = WorkerPool(count: 1, name: "render-server", recorder: recorder)
    }

    deinit {
        workers.shutDown()
        renderServer.shutDown()
    }

    /// What a run did, as the loop saw it.
    public struct Summary: Sendable, Hashable {
        /// Frames run.
        public var frames: Int
        /// Vsyncs skipped because a frame's work ran past its deadline.
        public var missedVsyncs: Int
        /// Background results never applied because the run ended first.
        public var unappliedResults: Int
        /// Wall time from the first vsync to the end of the last frame, in nanoseconds.
        public var elapsedNanoseconds: Int64
    }

    /// Runs `scenario` for the configured number of frames on the calling thread, which becomes
    /// the trace's main thread (see ``FrameScope/Recorder/designateCurrentThreadAsMain()``).
    /// - Parameters:
    ///   - scenario: The workload.
    ///   - progress: Called after every frame with the number of frames done.
    /// - Returns: What the loop saw.
    @discardableResult
    public func run(_ scenario: some Scenario, progress: (Int) -> Void = { _ in }) -> Summary {
        recorder.designateCurrentThreadAsMain()
        let interval = configuration.frameIntervalNanoseconds
        let origin = recorder.clock.now() + interval
        var tick: Int64 = 0
        var missed = 0
        var lastEnd = origin
        for index in 0..<configuration.frameCount {
            let vsync = origin + tick * interval
            if configuration.waitsForBackgroundWork { workers.waitUntilIdle() }
            waitUntil(vsync)
            let context = FrameContext(loop: self, frameIndex: index, vsync: vsync)
            recorder.withFrame(vsync: vsync, deadline: vsync + interval, index: index) {
                applyCompletedJobs()
                scenario.frame(context)
                recorder.withSpan("commit", category: .commit) { commitToRenderServer() }
            }
            lastEnd = recorder.clock.now()
            let nextTick = max(tick + 1, (lastEnd - origin) / interval + 1)
            missed += Int(nextTick - tick - 1)
            tick = nextTick
            progress(index + 1)
        }
        workers.waitUntilIdle()
        renderServer.waitUntilIdle()
        let unapplied = completed.takeAll().count
        pending.removeAll()
        return Summary(frames: configuration.frameCount, missedVsyncs: missed, unappliedResults: unapplied, elapsedNanoseconds: lastEnd - origin)
    }

    fileprivate func submit<Result: Sendable>(
        _ name: StaticString, category: FrameScope.Category, work: @escaping @Sendable () -> Result,
        then: @escaping (Result) -> Void
    ) {
        let id = nextJobID
        nextJobID += 1
        let flow = recorder.makeFlow("background result", category: category)
        pending[id] = { result in then(result as! Result) }
        let recorder = recorder
        let completed = completed
        workers.submit {
            let result = recorder.withSpan(name, category: category) {
                let result = work()
                recorder.startFlow(flow)
                return result
            }
            completed.push(CompletedJob(id: id, flow: flow, category: category, result: result))
        }
    }

    private func applyCompletedJobs() {
        for job in completed.takeAll() {
            guard let apply = pending.removeValue(forKey: job.id) else { continue }
            recorder.withSpan("apply", category: job.category) {
                recorder.finishFlow(job.flow)
                apply(job.result)
            }
        }
    }

    private func commitToRenderServer() {
        let jobs = renderJobs
        renderJobs.removeAll(keepingCapacity: true)
        let recorder = recorder
        renderServer.submit {
            recorder.withSpan("composite", category: .render) {
                for (name, work) in jobs {
                    recorder.withSpan(name, category: .render) { work() }
                }
            }
        }
    }

    /// Waits for a vsync: sleeps most of the way, then yields until the clock reaches it.
    private func waitUntil(_ target: Int64) {
        if let manual = recorder.clock.manualClock {
            if manual.nanoseconds < target { manual.set(nanoseconds: target) }
            return
        }
        while true {
            let remaining = target - recorder.clock.now()
            if remaining <= 0 { return }
            if remaining > 300_000 {
                var request = timespec(tv_sec: Int(remaining - 200_000) / 1_000_000_000, tv_nsec: Int(remaining - 200_000) % 1_000_000_000)
                nanosleep(&request, nil)
            } else {
                sched_yield()
            }
        }
    }
}

/// A finished background job waiting for the main thread.
private struct CompletedJob: Sendable {
    var id: UInt64
    var flow: Flow
    var category: FrameScope.Category
    var result: any Sendable
}

/// Finished jobs handed from workers to the main thread; the lock guards `jobs`.
private final class CompletedJobs: @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [CompletedJob] = []

    func push(_ job: CompletedJob) {
        lock.lock()
        jobs.append(job)
        lock.unlock()
    }

    func takeAll() -> [CompletedJob] {
        lock.lock()
        defer { lock.unlock() }
        let taken = jobs
        jobs.removeAll()
        return taken
    }
}
