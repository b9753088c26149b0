import Foundation
package import FrameScope
package import FrameTrace

/// How the simulated display runs.
package struct DisplayConfiguration: Sendable {
    /// The display's refresh rate: 60 Hz by default, 120 Hz for ProMotion-style displays.
    package var frameRate: FrameRate
    /// Frames to run.
    package var frameCount: Int
    /// Background worker threads; the machine's core count by default.
    package var workerCount: Int
    /// Whether each frame first waits until the background work submitted before it has
    /// finished, so every result is applied in the frame after the one that asked for it whatever
    /// the machine's speed: for tests. Off by default: results arrive when the work ends.
    package var waitsForBackgroundWork: Bool

    /// Creates a configuration.
    /// - Precondition: `frameRate` is within ``FrameTrace/FrameRate/acceptedHertz`` (1 to 1,000 Hz),
    ///   `frameCount` and `workerCount` at least 1.
    package init(
        frameRate: FrameRate = .standard, frameCount: Int = 120, workerCount: Int? = nil,
        waitsForBackgroundWork: Bool = false
    ) {
        let workerCount = workerCount ?? ProcessInfo.processInfo.activeProcessorCount
        precondition(FrameRate.acceptedHertz.contains(frameRate.hertz), "frameRate must be 1-1000 Hz")
        precondition(frameCount >= 1 && workerCount >= 1, "frameCount and workerCount must be at least 1")
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.workerCount = workerCount
        self.waitsForBackgroundWork = waitsForBackgroundWork
    }
}

/// A workload the display loop runs frame by frame: a scrolling feed, a list receiving updates, a
/// gesture-driven transition. Adding one does not touch the loop.
///
/// The loop calls ``frame(_:)`` on the main thread once per frame, inside the frame's span. The
/// scenario does that frame's main-thread work there (input, applying layout, display), hands
/// background work to ``FrameContext/inBackground(_:category:work:then:)`` and render-server work
/// to ``FrameContext/onRenderServer(_:work:)``.
package protocol Scenario: AnyObject {
    /// The main-thread work of one frame.
    func frame(_ context: FrameContext)
}

/// What a scenario can do during one frame. Main thread only.
package final class FrameContext {
    /// The recorder every span goes to.
    package let recorder: Recorder
    /// The frame's position in the run, from 0.
    package let frameIndex: Int
    /// The vsync the frame started on (recorder clock, nanoseconds).
    package let vsync: Int64
    /// The frame's commit deadline: the next vsync.
    package let deadline: Int64
    /// The frame interval `P`, in nanoseconds.
    package let interval: Int64
    unowned let loop: DisplayLoop

    init(loop: DisplayLoop, frameIndex: Int, vsync: Int64) {
        self.loop = loop
        recorder = loop.recorder
        self.frameIndex = frameIndex
        self.vsync = vsync
        interval = loop.configuration.frameRate.intervalNanoseconds
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
    package func inBackground<Result: Sendable>(
        _ name: StaticString, category: FrameScope.Category, work: @escaping @Sendable () -> Result,
        then: @escaping (Result) -> Void
    ) {
        loop.submit(name, category: category, work: work, then: then)
    }

    /// Queues work for the render server's lane, where it runs after this frame's commit inside a
    /// `render`-category span, as compositing and offscreen passes do on a device.
    package func onRenderServer(_ name: StaticString, work: @escaping @Sendable () -> Void) {
        loop.renderJobs.append((name, work))
    }

    /// Whether the frame has already used up its budget.
    package var isPastDeadline: Bool { recorder.clock.now() >= deadline }
}

/// Runs a scenario on a simulated display: a vsync grid at the configured refresh rate drives the
/// main thread, a worker pool runs background work, and a render-server thread renders each
/// committed frame against a deadline of its own, as Apple's render loop does.
///
/// Time is the recorder's clock: on a real clock the loop waits for each vsync, and work takes what
/// it takes; on a manual clock (``FrameScope/RecorderClock/manualClock``) waiting for a vsync moves
/// the clock to it, and work takes what the scenario advances the clock by. When a frame's work
/// runs past its deadline, the vsyncs it covered are missed, as on a device: the next frame
/// starts at the first vsync at or after the work ends. Every frame is recorded with the public frame
/// API, ``FrameScope/Recorder/withFrame(vsync:deadline:index:_:)``, as an app would record its
/// own, so analysis finds the same vsync and deadline after timestamps are rebased.
///
/// **The lanes of a frame.** Frame `N` starts on vsync `V` and must commit by `D = V + P` (the
/// main lane). Its commit goes to the render-server thread, whose `composite` span (category
/// `render`) starts when the commit has arrived and the render server is free. The render deadline
/// is `R = S + P`, where `S` is the first vsync at or after the commit ended (`S = D` when the
/// commit was on time); the frame is presented at the first vsync at or after both the render's
/// end and `R`. The `composite` span carries, from ``FrameTrace/FrameContract/Key``:
/// `frame` (the frame span's `index`), `until-deadline-ns` (`R` minus the span's start, negative
/// when it began after `R`) and `until-present-ns` (the presentation minus the span's end, never
/// negative). A frame presented after `V + 2P` is late, and its hitch cause is the lane that
/// missed first: `commit` when the commit ended after `D`, else `render` when the render ended
/// after `R`. Each frame is also recorded on the frame timeline tracks
/// (``FrameScope/Recorder/recordFrameTimeline(_:)``): expected from `V` to `V + 2P`, actual from
/// the start of its work to its presentation, and one track per lane: the main lane from the start
/// of its work to its commit, the render lane over its render pass.
///
/// **Back-pressure: double buffering.** The render server holds at most two frames: before frame
/// `N` starts, the render of frame `N − 2` must have ended; if it has not by `N`'s vsync, the loop
/// waits for it and starts `N` at the first vsync at or after that render's end. The vsyncs
/// skipped so are counted in ``Summary/vsyncsWaitedForRender``. A render server that is always too
/// slow therefore slows the main thread to its pace instead of queueing without bound.
///
/// **Background jobs** record when they were requested: a job's span carries `since-request-ns`,
/// the time from the request (``FrameContext/inBackground(_:category:work:then:)``) to the span's
/// start, and a flow leads from it to the `apply` span of the frame that used its result.
///
/// On a manual clock the lanes are simulated one at a time so that runs are the same on every
/// machine: a render or background job runs on its thread while the main thread waits, starting at
/// the simulated time its lane would (the commit's end or the render server's last end; the
/// request or, of the `workerCount` simulated workers, the one free first — each on a thread of
/// its own, `worker-1` … `worker-N`), taking what its work advances the clock by; then the clock
/// returns to the main thread's time. A background result is applied by the first frame that
/// starts at or after the job's simulated end.
///
/// **Virtual time.** With a pricing ``WorkMeter`` on a manual clock (``FrameScope/ManualClock/virtual(start:)``)
/// the same simulation runs real workloads, and each piece of work takes what the meter's cost
/// model prices the work it counted at: frames, lanes and deadlines follow from the work alone, so
/// the same seed gives the same timeline on any host. On a thread-CPU-time clock
/// (``FrameScope/ManualClock/threadCPUTime(start:)``) each piece takes its thread's CPU time
/// instead, which moves a few percent with the host's load. The loop makes its meter current on
/// every thread it runs work on, and counts each frame's, render's and job's own work as well.
///
/// ```swift
/// let loop = DisplayLoop(recorder: recorder, configuration: DisplayConfiguration(frameCount: 120))
/// let summary = loop.run(FeedScrollScenario(strategy: .manualLayout, seed: 1))
/// ```
package final class DisplayLoop {
    /// The recorder every span goes to.
    package let recorder: Recorder
    /// How the display runs.
    package let configuration: DisplayConfiguration
    /// The background workers: one pool of `workerCount` threads on a real clock; on a manual
    /// clock, one single-thread pool per simulated worker, so each simulated worker's jobs stay on
    /// one thread of the trace.
    private let workers: [WorkerPool]
    private let renderServer: WorkerPool
    private let completed = CompletedJobs()
    private let renderLane = RenderLane()
    private var grid: VsyncGrid
    private var pending: [UInt64: (any Sendable) -> Void] = [:]
    private var nextJobID: UInt64 = 1
    /// On a manual clock: when each simulated worker is free again.
    private var simulatedWorkerFree: [Int64]
    fileprivate var renderJobs: [(StaticString, @Sendable () -> Void)] = []
    /// Counts the work on every lane, when given: on virtual time it moves the clock by the
    /// work's price.
    package let meter: WorkMeter?

    /// Creates a loop and starts its worker and render-server threads.
    /// - Parameters:
    ///   - recorder: Where every span goes.
    ///   - configuration: How the display runs.
    ///   - meter: Made current on every thread the loop runs work on (see ``WorkMeter``); for
    ///     virtual time, a pricing meter on the recorder's manual clock.
    package init(recorder: Recorder, configuration: DisplayConfiguration, meter: WorkMeter? = nil) {
        self.recorder = recorder
        self.configuration = configuration
        self.meter = meter
        if recorder.clock.manualClock != nil {
            workers = (1...configuration.workerCount).map {
                WorkerPool(count: 1, name: "worker", recorder: recorder, firstIndex: $0)
            }
        } else {
            workers = [WorkerPool(count: configuration.workerCount, name: "worker", recorder: recorder)]
        }
        simulatedWorkerFree = Array(repeating: .min, count: configuration.workerCount)
        renderServer = WorkerPool(count: 1, name: "render-server", recorder: recorder)
        let interval = configuration.frameRate.intervalNanoseconds
        grid = VsyncGrid(origin: recorder.clock.now() + interval, interval: interval)
    }

    deinit {
        for pool in workers { pool.shutDown() }
        renderServer.shutDown()
    }

    /// What a run did, as the loop saw it.
    package struct Summary: Sendable, Hashable {
        /// Frames run.
        package var frames: Int
        /// Vsyncs skipped because a frame's work ran past its deadline.
        package var missedVsyncs: Int
        /// Vsyncs skipped because the render server still held two frames (double buffering):
        /// the frame waited for the render of the frame two before it.
        package var vsyncsWaitedForRender: Int
        /// Frames presented after their expected presentation, by hitch cause.
        package var lateFramesByCause: [HitchCause: Int]
        /// Background results never applied because the run ended first.
        package var unappliedResults: Int
        /// Wall time from the first vsync to the end of the last frame, in nanoseconds.
        package var elapsedNanoseconds: Int64
    }

    /// Runs `scenario` for the configured number of frames on the calling thread, which becomes
    /// the trace's main thread (see ``FrameScope/Recorder/designateCurrentThreadAsMain()``).
    /// - Parameters:
    ///   - scenario: The workload.
    ///   - progress: Called after every frame with the number of frames done.
    /// - Returns: What the loop saw.
    @discardableResult
    package func run(_ scenario: some Scenario, progress: (Int) -> Void = { _ in }) -> Summary {
        WorkMeter.withCurrent(meter) { runFrames(scenario, progress: progress) }
    }

    private func runFrames(_ scenario: some Scenario, progress: (Int) -> Void) -> Summary {
        recorder.designateCurrentThreadAsMain()
        let interval = configuration.frameRate.intervalNanoseconds
        grid = VsyncGrid(origin: recorder.clock.now() + interval, interval: interval)
        let origin = grid.origin
        var tick: Int64 = 0
        var missed: Int64 = 0
        var waitedForRender = 0
        var lastEnd = origin
        for index in 0..<configuration.frameCount {
            var vsync = origin + tick * interval
            if index >= 2 {
                // Double buffering: frame N starts only once the render of frame N - 2 has ended.
                let free = grid.vsync(atOrAfter: renderLane.waitUntilRendered(frame: index - 2).end)
                if free > vsync {
                    waitedForRender += Int((free - vsync) / interval)
                    tick = (free - origin) / interval
                    vsync = free
                }
            }
            if configuration.waitsForBackgroundWork { for pool in workers { pool.waitUntilIdle() } }
            waitUntil(vsync)
            let context = FrameContext(loop: self, frameIndex: index, vsync: vsync)
            let start = recorder.clock.now()
            recorder.withFrame(vsync: vsync, deadline: vsync + interval, index: index) {
                WorkMeter.measure(.mainFrame, units: 1) {
                    applyCompletedJobs(at: start)
                    scenario.frame(context)
                    recorder.withSpan("commit", category: .commit) {
                        commitToRenderServer(frame: index, vsync: vsync, start: start)
                    }
                }
            }
            lastEnd = recorder.clock.now()
            // Missed as the analysis counts them (FrameRate.missedVsyncs); the next frame starts
            // at the first vsync at or after the work ended.
            let late = FrameRate.missedVsyncs(lateness: lastEnd - (vsync + interval), interval: interval)
            missed += late
            tick += 1 + late
            progress(index + 1)
        }
        for pool in workers { pool.waitUntilIdle() }
        renderServer.waitUntilIdle()
        let unapplied = completed.takeAll().count
        pending.removeAll()
        var late: [HitchCause: Int] = [:]
        for frame in renderLane.takeAll() where frame.cause != .none { late[frame.cause, default: 0] += 1 }
        return Summary(
            frames: configuration.frameCount, missedVsyncs: Int(clamping: missed),
            vsyncsWaitedForRender: waitedForRender, lateFramesByCause: late,
            unappliedResults: unapplied, elapsedNanoseconds: lastEnd - origin)
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
        let requested = recorder.clock.now()
        let manual = recorder.clock.manualClock
        // On a manual clock the job goes to the simulated worker that is free first.
        let slot =
            manual == nil
            ? 0 : simulatedWorkerFree.indices.min { simulatedWorkerFree[$0] < simulatedWorkerFree[$1] } ?? 0
        let simulatedStart = max(requested, simulatedWorkerFree[slot])
        let meter = meter
        workers[slot].submit {
            WorkMeter.withCurrent(meter) {
                // On a manual clock the job starts when the simulated worker would.
                manual?.set(nanoseconds: simulatedStart)
                let result = recorder.withSpan(name, category: category) {
                    let result = WorkMeter.measure(.backgroundJob, units: 1, work)
                    recorder.startFlow(flow)
                    return result
                } argumentsAtEnd: { start, _ in
                    [FrameContract.Key.sinceRequest: .int(start - requested)]
                }
                completed.push(
                    CompletedJob(id: id, flow: flow, category: category, result: result, end: recorder.clock.now()))
            }
        }
        if let manual {
            workers[slot].waitUntilIdle()
            simulatedWorkerFree[slot] = manual.nanoseconds
            manual.set(nanoseconds: requested)
        }
    }

    /// Applies the results that are ready when the frame starts at `start`: every finished job on
    /// a real clock; on a manual clock, those whose simulated end is not after `start`.
    private func applyCompletedJobs(at start: Int64) {
        let isManual = recorder.clock.manualClock != nil
        for job in completed.takeAll(readyAt: isManual ? start : .max) {
            guard let apply = pending.removeValue(forKey: job.id) else { continue }
            recorder.withSpan("apply", category: job.category) {
                recorder.finishFlow(job.flow)
                apply(job.result)
            }
        }
    }

    /// Hands the frame's render work to the render server, which renders it against the render
    /// deadline and records the frame's timeline (see the type's discussion).
    private func commitToRenderServer(frame index: Int, vsync: Int64, start frameStart: Int64) {
        let jobs = renderJobs
        renderJobs.removeAll(keepingCapacity: true)
        let recorder = recorder
        let grid = grid
        let lane = renderLane
        let manual = recorder.clock.manualClock
        let commitEnd = recorder.clock.now()
        let commitDeadline = vsync + grid.interval
        // S: the first vsync at or after the commit; the render is due one interval later.
        let renderDeadline = grid.vsync(atOrAfter: commitEnd) + grid.interval
        let meter = meter
        renderServer.submit {
            WorkMeter.withCurrent(meter) {
                // On a manual clock the render starts when the commit has arrived and the server is free.
                manual?.set(nanoseconds: max(commitEnd, lane.lastEnd))
                var span = (start: recorder.clock.now(), end: Int64.min)
                recorder.withSpan("composite", category: .render) {
                    WorkMeter.measure(.renderFrame, units: 1) {
                        for (name, work) in jobs {
                            recorder.withSpan(name, category: .render) { work() }
                        }
                    }
                } argumentsAtEnd: { start, end in
                    span = (start, end)
                    let presented = grid.vsync(atOrAfter: max(end, renderDeadline))
                    return [
                        FrameContract.Key.renderedFrame: .int(Int64(index)),
                        FrameContract.Key.untilDeadline: .int(renderDeadline - start),
                        FrameContract.Key.untilPresent: .int(presented - end),
                    ]
                }
                if span.end == .min { span.end = max(span.start, recorder.clock.now()) }  // not recording
                let presented = grid.vsync(atOrAfter: max(span.end, renderDeadline))
                let cause: HitchCause =
                    commitEnd > commitDeadline ? .commit : span.end > renderDeadline ? .render : .none
                recorder.recordFrameTimeline(
                    FrameTimelineEntry(
                        index: index, vsync: vsync, expectedPresentation: commitDeadline + grid.interval,
                        start: frameStart,
                        presentation: presented, cause: cause,
                        lanes: [
                            .init(lane: .main, start: frameStart, end: commitEnd, deadline: commitDeadline),
                            .init(lane: .render, start: span.start, end: span.end, deadline: renderDeadline),
                        ]))
                lane.finish(
                    frame: index, RenderedFrame(start: span.start, end: span.end, presentation: presented, cause: cause)
                )
            }
        }
        if let manual {
            renderServer.waitUntilIdle()
            manual.set(nanoseconds: commitEnd)
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
                var request = timespec(
                    tv_sec: Int(remaining - 200_000) / 1_000_000_000, tv_nsec: Int(remaining - 200_000) % 1_000_000_000)
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
    /// When the job ended, on the recorder's clock.
    var end: Int64
}

/// The display's vsync grid: ticks at `origin + k·interval`.
private struct VsyncGrid: Sendable {
    var origin: Int64
    var interval: Int64

    /// The first vsync at or after `time` (the first one for any earlier time).
    func vsync(atOrAfter time: Int64) -> Int64 {
        guard time > origin else { return origin }
        return origin + (time - origin + interval - 1) / interval * interval
    }
}

/// What the render server did with one frame's commit.
private struct RenderedFrame: Sendable {
    var start: Int64
    var end: Int64
    var presentation: Int64
    var cause: HitchCause
}

/// The frames the render server has finished, for the main thread's double buffering and the
/// run's summary; `condition` guards both fields.
private final class RenderLane: @unchecked Sendable {
    private let condition = NSCondition()
    private var frames: [Int: RenderedFrame] = [:]
    private var last: Int64 = .min

    /// The end of the last render, or `Int64.min` before the first.
    var lastEnd: Int64 {
        condition.lock()
        defer { condition.unlock() }
        return last
    }

    func finish(frame index: Int, _ frame: RenderedFrame) {
        condition.lock()
        frames[index] = frame
        last = max(last, frame.end)
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until frame `index` has been rendered.
    func waitUntilRendered(frame index: Int) -> RenderedFrame {
        condition.lock()
        defer { condition.unlock() }
        while frames[index] == nil { condition.wait() }
        return frames[index]!
    }

    func takeAll() -> [RenderedFrame] {
        condition.lock()
        defer { condition.unlock() }
        let taken = Array(frames.values)
        frames.removeAll()
        return taken
    }
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

    func takeAll() -> [CompletedJob] { takeAll(readyAt: .max) }

    /// Takes the jobs that ended at or before `time`, in the order they finished.
    func takeAll(readyAt time: Int64) -> [CompletedJob] {
        lock.lock()
        defer { lock.unlock() }
        let taken = jobs.filter { $0.end <= time }
        jobs.removeAll { $0.end <= time }
        return taken
    }
}
