#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The first stage of a read, run on a worker thread: it fills batches with what it decodes from
/// the input, in input order, until the input ends.
protocol BatchFilling {
    /// Memory the worker fills and the reading thread reads, handed between them whole.
    associatedtype Batch: AnyObject
    /// Fills `batch` from where the last call stopped; `true` when the input has ended (the
    /// batch says how).
    mutating func fill(_ batch: Batch) -> Bool
}

/// Reading on two cores: a worker thread runs a ``BatchFilling`` stage ahead of the calling
/// thread, which takes the filled batches in input order and does the rest of the read; both
/// readers (JSON events, Perfetto packets) use it.
///
/// Batches go from the worker to the reader filled and come back empty, so memory is bounded by
/// the batches made at the start. One mutex and one condition guard the two queues and the
/// filler. The reader may stop early (``cancel()``): the worker then stops at its next batch.
final class BatchPipeline<Filler: BatchFilling>: PipelineThread, @unchecked Sendable {
    // @unchecked: every field below is read and written only while `mutex` is held, except a
    // batch's contents, which belong to whichever thread took it from a queue.
    #if canImport(Glibc) || canImport(Darwin)
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var emptyBatches: [Filler.Batch]
        private var filledBatches: [Filler.Batch] = []
        private var filler: Filler
        private var workerDone = false
        private var cancelled = false
        #if canImport(Darwin)
            private var thread: pthread_t?
        #else
            private var thread = pthread_t()
        #endif
        private var started = false

        /// A pipeline that will run `filler` on the worker, with `batches` to fill.
        init(filler: Filler, batches: [Filler.Batch]) {
            precondition(!batches.isEmpty, "a pipeline needs a batch to fill")
            self.filler = filler
            self.emptyBatches = batches
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        /// Starts the worker; `false` when the system would not start a thread (nothing has been
        /// read then).
        func start() -> Bool {
            let context = Unmanaged.passRetained(self as PipelineThread).toOpaque()
            let result = pthread_create(
                &thread, nil,
                { context in
                    let pointer: UnsafeMutableRawPointer? = context
                    Unmanaged<PipelineThread>.fromOpaque(pointer!).takeRetainedValue().run()
                    return nil
                }, context)
            guard result == 0 else {
                Unmanaged<PipelineThread>.fromOpaque(context).release()
                return false
            }
            started = true
            return true
        }

        /// The worker: fills free batches until the input ends or the reader cancels.
        override func run() {
            var filler = locked { self.filler }
            while true {
                let next = locked { () -> Filler.Batch? in
                    while emptyBatches.isEmpty, !cancelled { pthread_cond_wait(condition, mutex) }
                    return cancelled ? nil : emptyBatches.removeLast()
                }
                guard let batch = next else {
                    locked {
                        self.filler = filler
                        workerDone = true
                        pthread_cond_broadcast(condition)
                    }
                    return
                }
                let ended = filler.fill(batch)
                locked {
                    filledBatches.append(batch)
                    if ended {
                        self.filler = filler
                        workerDone = true
                    }
                    pthread_cond_broadcast(condition)
                }
                if ended { return }
            }
        }

        /// The next filled batch, in input order; waits for the worker. Call only until a batch
        /// says the input ended.
        func takeFilled() -> Filler.Batch {
            locked {
                while filledBatches.isEmpty { pthread_cond_wait(condition, mutex) }
                return filledBatches.removeFirst()
            }
        }

        /// Hands a read batch back to the worker.
        func recycle(_ batch: Filler.Batch) {
            locked {
                emptyBatches.append(batch)
                pthread_cond_broadcast(condition)
            }
        }

        /// Asks the worker to stop at its next batch: the reader stops early (an error, or a read
        /// that must start again another way). Then call ``finish()``.
        func cancel() {
            locked {
                cancelled = true
                pthread_cond_broadcast(condition)
            }
        }

        /// Waits for the worker to end and returns its filler, as the input's end or ``cancel()``
        /// left it. Call after taking the batch that carried the end, or after cancelling.
        func finish() -> Filler {
            if started {
                #if canImport(Darwin)
                    if let thread { pthread_join(thread, nil) }
                #else
                    pthread_join(thread, nil)
                #endif
                started = false
            }
            return locked {
                precondition(workerDone, "the worker ends with the batch that carries the end, or when cancelled")
                return filler
            }
        }

        @inline(__always)
        private func locked<Result>(_ body: () -> Result) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }
    #endif
}

/// What a worker thread's entry point calls: a C function cannot name a generic type, so it
/// calls ``run()`` on this base class, which ``BatchPipeline`` overrides.
class PipelineThread {
    func run() {}
}
