public import CFrameScope
public import FrameTrace
public import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records spans, instants, counters and flows from any thread, cheaply, and exports them as a
/// `Trace` (FrameTrace's value for a whole trace).
///
/// Each thread records into its own bounded buffer, found through a thread-local slot: the hot
/// path takes no lock and allocates nothing, except once every 256 events, when the buffer takes
/// its next chunk from the recorder's pool (drains hand chunks back). When a buffer is
/// full, further events on that thread are dropped and counted (``droppedEventCounts``, and the
/// trace's metadata); nothing is lost silently. ``drain()`` and ``snapshot()`` are safe while other
/// threads keep recording.
///
/// ```swift
/// let recorder = Recorder()
/// let cell = recorder.withSpan("layout cell", category: .layout) { layout(cell) }
/// try recorder.writeChromeJSON(to: "trace.json")
/// ```
///
/// Make one recorder per test; apps usually use ``shared``.
public final class Recorder: Sendable {
    /// How a recorder is set up.
    public struct Configuration: Sendable {
        /// Events each thread can hold before it drops; rounded up to a power of two.
        ///
        /// Each event takes 32 bytes. A thread's buffer grows to this in chunks of 256 events
        /// (8 KiB) from the recorder's pool as it records, and hands chunks back once they are
        /// drained, so the default 65,536 (2 MiB) is what a thread that records faster than the
        /// drains can take, not what every thread costs.
        public var perThreadCapacity: Int
        /// Events all threads together can hold at once, or `nil` (the default) for no limit
        /// beyond ``perThreadCapacity`` per thread; rounded up to whole chunks of 256 events
        /// (or of ``perThreadCapacity``, when that is smaller).
        ///
        /// A thread that needs a chunk when the pool has none left drops its events and counts
        /// them, like a full thread. Each thread that has recorded keeps one chunk until it
        /// exits and is drained, so allow at least one chunk per thread that records at once.
        public var totalCapacity: Int?
        /// The display's nominal frame rate, whose interval is written into the trace's metadata
        /// for analysis; `nil` (the default) states none, so analysis uses each frame's own
        /// budget, `--fps`, or 60 Hz. Change it while recording through ``Recorder/frameRate``.
        public var frameRate: FrameRate?
        /// The display's nominal frame interval: ``frameRate``'s interval.
        ///
        /// Deprecated: use ``frameRate``; `FrameRate(interval:)` makes one from an interval.
        /// - Precondition: a new value is positive or `nil`.
        @available(*, deprecated, message: "use frameRate; FrameRate(interval:) makes one from an interval")
        public var frameInterval: Duration? {
            get { frameRate?.interval }
            set {
                precondition(newValue.map { $0 > .zero } ?? true, "frameInterval must be positive")
                frameRate = newValue.flatMap(FrameRate.init(interval:))
            }
        }
        /// The process name shown by trace viewers.
        public var processName: String
        /// Whether recording starts enabled.
        public var isEnabled: Bool
        /// The process id the trace gives its threads, or `nil` (the default) for this process's.
        /// A fixed id, with threads that start in a fixed order, lets two runs of a deterministic
        /// program write the same bytes (framescope's simulations on virtual time use 1).
        public var processID: Int64?

        /// Creates a configuration.
        ///
        /// ```swift
        /// let configuration = Recorder.Configuration(perThreadCapacity: 1 << 18, frameRate: FrameRate(hertz: 120))
        /// ```
        /// - Parameters:
        ///   - perThreadCapacity: Events each thread can hold before it drops; rounded up to a
        ///     power of two.
        ///   - totalCapacity: Events all threads together can hold at once, or `nil` for no
        ///     limit beyond `perThreadCapacity` per thread.
        ///   - frameRate: The display's nominal frame rate, or `nil` to state none.
        ///   - processName: The process name trace viewers show.
        ///   - isEnabled: Whether recording starts enabled.
        ///   - processID: The process id the trace gives its threads, or `nil` for this process's.
        /// - Precondition: `perThreadCapacity` and `totalCapacity` are at least 1.
        public init(
            perThreadCapacity: Int = 65_536, totalCapacity: Int? = nil, frameRate: FrameRate? = nil,
            processName: String = "framescope", isEnabled: Bool = true, processID: Int64? = nil
        ) {
            precondition(perThreadCapacity >= 1, "perThreadCapacity must be at least 1")
            precondition(totalCapacity.map { $0 >= 1 } ?? true, "totalCapacity must be at least 1")
            self.perThreadCapacity = perThreadCapacity
            self.totalCapacity = totalCapacity
            self.frameRate = frameRate
            self.processName = processName
            self.isEnabled = isEnabled
            self.processID = processID
        }

        /// Creates a configuration with a frame interval.
        ///
        /// Deprecated: use ``init(perThreadCapacity:totalCapacity:frameRate:processName:isEnabled:processID:)``;
        /// `FrameRate(interval:)` makes a rate from an interval.
        /// - Parameters:
        ///   - perThreadCapacity: Events each thread can hold before it drops; rounded up to a
        ///     power of two.
        ///   - totalCapacity: Events all threads together can hold at once, or `nil` for no
        ///     limit beyond `perThreadCapacity` per thread.
        ///   - frameInterval: The display's nominal frame interval, or `nil` to state none.
        ///   - processName: The process name trace viewers show.
        ///   - isEnabled: Whether recording starts enabled.
        ///   - processID: The process id the trace gives its threads, or `nil` for this process's.
        /// - Precondition: `perThreadCapacity` and `totalCapacity` are at least 1, and
        ///   `frameInterval` is positive.
        @available(
            *, deprecated,
            message:
                "use init(perThreadCapacity:totalCapacity:frameRate:processName:isEnabled:processID:) with FrameRate(interval:)"
        )
        @_disfavoredOverload  // so that a call naming neither frameRate nor frameInterval means the new init
        public init(
            perThreadCapacity: Int = 65_536, totalCapacity: Int? = nil, frameInterval: Duration? = nil,
            processName: String = "framescope", isEnabled: Bool = true, processID: Int64? = nil
        ) {
            precondition(frameInterval.map { $0 > .zero } ?? true, "frameInterval must be positive")
            self.init(
                perThreadCapacity: perThreadCapacity, totalCapacity: totalCapacity,
                frameRate: frameInterval.flatMap(FrameRate.init(interval:)),
                processName: processName, isEnabled: isEnabled, processID: processID)
        }
    }

    /// The process-wide recorder apps use unless they inject their own: made on first use, with
    /// what ``configureShared(_:clock:)`` set before then (the defaults otherwise).
    public static let shared: Recorder = {
        let (configuration, clock) = sharedSetup.withLock { setup in
            setup.isMade = true
            return (setup.configuration, setup.clock)
        }
        return Recorder(configuration: configuration, clock: clock)
    }()

    private static let sharedSetup = Mutex<(configuration: Configuration, clock: RecorderClock, isMade: Bool)>(
        (Configuration(), .fastest, false))

    /// Configures ``shared`` before its first use, for example with a larger buffer or a frame
    /// interval, at the start of `main` or in the app delegate.
    ///
    /// ```swift
    /// Recorder.configureShared(Recorder.Configuration(perThreadCapacity: 1 << 18, frameRate: FrameRate(hertz: 120)))
    /// ```
    /// - Parameters:
    ///   - configuration: The configuration ``shared`` is made with.
    ///   - clock: The clock ``shared`` reads; by default the cheapest invariant counter.
    /// - Returns: `true` when ``shared`` will be made with these; `false`, changing nothing, when
    ///   ``shared`` was already made.
    @discardableResult
    public static func configureShared(_ configuration: Configuration, clock: RecorderClock = .fastest) -> Bool {
        sharedSetup.withLock { setup in
            guard !setup.isMade else { return false }
            setup.configuration = configuration
            setup.clock = clock
            return true
        }
    }

    /// A recorder that never records, for code that takes a `Recorder` when nobody is measuring:
    /// each span costs what a span of a disabled recorder costs (one load and a branch), so
    /// callers need no `Recorder?`. ``setEnabled(_:)`` cannot turn it on.
    ///
    /// ```swift
    /// let engine = LayoutEngine(recorder: profiling ? .shared : .disabled)
    /// ```
    public static let disabled = Recorder(
        configuration: Configuration(isEnabled: false), clock: .monotonic, canEnable: false)

    private static let nextID = Atomic<UInt64>(1)

    /// The recorder's identity in threads' cache slots; never reused.
    @usableFromInline
    let id: UInt64
    /// What the recorder does with an event, in one word so the recording path reads it with one
    /// relaxed load: ``recordingBit`` (record it; ``isEnabled``), and on Apple platforms
    /// ``signpostBit`` (also emit it as a signpost; ``isMirroringToSignposts``), which counts only
    /// together with the recording bit.
    @usableFromInline
    let mode: Atomic<UInt8>
    /// ``mode``'s bits, read with one relaxed load: what the recording paths test.
    @inlinable
    var modeBits: UInt8 { mode.load(ordering: .relaxed) }
    /// The bit of ``mode`` that says the recorder records.
    @usableFromInline
    static var recordingBit: UInt8 { 1 }
    /// The bit of ``mode`` that says recorded events are also emitted as signposts (Apple platforms only).
    @usableFromInline
    static var signpostBit: UInt8 { 2 }
    /// The clock every timestamp comes from.
    public let clock: RecorderClock
    /// The configuration the recorder was made with.
    public let configuration: Configuration
    /// The clock reading when the recorder was made; streamed traces use it as time zero.
    public let startTimestamp: Int64
    let capacity: UInt64
    let processID: Int64
    let buffers = Mutex<ThreadBuffers>(ThreadBuffers())
    /// The chunks threads' rings grow from.
    let pool: BufferPool
    let allocatedRings = Atomic<Int>(0)
    /// Times a thread looked for its buffer under the lock because its cache lacked this recorder.
    let lockedLookups = Atomic<Int>(0)
    /// Whether ``setEnabled(_:)`` may turn recording on; false only for ``disabled``.
    let canEnable: Bool
    let dynamicNames = Mutex<DynamicNames>(DynamicNames())
    let exportState = Mutex<ExportState>(ExportState())
    let nextFlowID = Atomic<UInt64>(1)
    @usableFromInline
    let unattributedDrops = Atomic<Int64>(0)
    let openIntervals = Atomic<Int64>(0)
    /// The serial of the thread traces call `main`: the process's main thread unless another
    /// thread was designated.
    let mainSerial = Atomic<UInt64>(1)
    let annotations = Mutex<[Argument]>([])
    /// The nominal frame rate; `nil` when none is stated. Read only on export, never on the hot path.
    let frameRateStorage: Mutex<FrameRate?>
    #if canImport(os)
        /// The signposters the mirror emits through, one per category (see Recorder+Signposts.swift).
        @usableFromInline
        let signpostMirror: SignpostMirror
    #endif

    /// Creates a recorder.
    /// - Parameters:
    ///   - configuration: Capacity, frame interval, process name and initial state.
    ///   - clock: Where timestamps come from: by default the cheapest invariant counter
    ///     (``RecorderClock/fastest``); `.manual(...)` in tests.
    public convenience init(configuration: Configuration = Configuration(), clock: RecorderClock = .fastest) {
        self.init(configuration: configuration, clock: clock, canEnable: true)
    }

    private init(configuration: Configuration, clock: RecorderClock, canEnable: Bool) {
        self.canEnable = canEnable
        id = Recorder.nextID.add(1, ordering: .relaxed).oldValue
        mode = Atomic(configuration.isEnabled ? Recorder.recordingBit : 0)
        frameRateStorage = Mutex(configuration.frameRate)
        self.clock = clock
        self.configuration = configuration
        var capacity: UInt64 = 1
        while capacity < UInt64(configuration.perThreadCapacity) { capacity <<= 1 }
        self.capacity = capacity
        pool = BufferPool(capacity: capacity, totalCapacity: configuration.totalCapacity)
        processID = configuration.processID ?? Int64(getpid())
        if clock.readsCounter { CounterCalibration.start() }
        startTimestamp = clock.now()
        #if canImport(os)
            signpostMirror = SignpostMirror()
            if canEnable, let subsystem = Recorder.signpostSubsystemFromEnvironment {
                startMirroringToSignposts(subsystem: subsystem)
            }
        #endif
    }

    /// Whether events are being recorded. Reading it costs one relaxed atomic load. Setting it
    /// turns recording on or off; spans already open when recording is turned off still end, and
    /// ``disabled`` stays off.
    ///
    /// ```swift
    /// Recorder.shared.isEnabled = ProcessInfo.processInfo.environment["FRAMESCOPE"] == "1"
    /// ```
    public var isEnabled: Bool {
        @inlinable get { mode.load(ordering: .relaxed) & Recorder.recordingBit != 0 }
        set {
            guard canEnable else { return }
            if newValue {
                mode.bitwiseOr(Recorder.recordingBit, ordering: .relaxed)
            } else {
                mode.bitwiseAnd(~Recorder.recordingBit, ordering: .relaxed)
            }
        }
    }

    /// Turns recording on or off.
    ///
    /// Deprecated: assign ``isEnabled`` instead; like it, this cannot turn ``disabled`` on.
    /// - Parameter isEnabled: Whether to record.
    @available(*, deprecated, renamed: "isEnabled")
    public func setEnabled(_ isEnabled: Bool) { self.isEnabled = isEnabled }

    deinit {
        buffers.withLockAnnounced { $0.releaseSpareRings() }
    }

    // MARK: - The recording path

    /// Appends one record to the calling thread's buffer.
    @inlinable
    @inline(__always)
    func push(start: Int64, end: Int64, name: UInt64, meta: UInt32, extra: UInt32) {
        if let ring = fs_slot_ring(id) ?? attachCurrentThread() {
            if !fs_ring_push(ring, start, end, name, meta, extra), extra != 0 {
                // A dropped record's attachment would never be read or freed.
                discardAttachment(extra)
            }
        } else {
            unattributedDrops.add(1, ordering: .relaxed)
        }
    }

    /// Removes the attachment of a record the calling thread could not push.
    @usableFromInline
    @inline(never)
    func discardAttachment(_ index: UInt32) {
        currentBuffer()?.attachments.withLockAnnounced { $0[index] = nil }
    }

    /// Finds or creates the calling thread's buffer and caches it in the thread's slot.
    @usableFromInline
    @inline(never)
    func attachCurrentThread() -> UnsafeMutablePointer<fs_ring>? {
        currentBuffer()?.ring
    }

    func currentBuffer() -> ThreadBuffer? {
        // Fast path: the thread's cache holds this recorder's buffer, so spans with arguments do
        // not take the recorder-wide lock (which convoys when threads outnumber cores). The
        // pointer is unretained: `buffers` keeps the buffer alive until the thread has exited and
        // its records are drained, recorder ids are never reused, and the thread-exit hook empties
        // the cache, so an entry that matches `id` points at a live buffer.
        if let cached = fs_slot_buffer(id) { return Unmanaged<ThreadBuffer>.fromOpaque(cached).takeUnretainedValue() }
        let serial = fs_thread_serial()
        lockedLookups.add(1, ordering: .relaxed)
        let buffer: ThreadBuffer? = buffers.withLockAnnounced { buffers in
            if let existing = buffers.bySerial[serial] {
                // Recording from a thread-exit destructor that runs after ours: the ring was
                // handed back, so these events count as dropped rather than race its reuse.
                return fs_ring_exited(existing.ring) ? nil : existing
            }
            let ring: UnsafeMutablePointer<fs_ring>
            if let spare = buffers.spare.popLast() {
                ring = spare
            } else {
                guard let created = fs_ring_create(pool.pool, capacity) else { return nil }
                ring = created
                allocatedRings.add(1, ordering: .relaxed)
            }
            fs_ring_adopt(ring)
            let name =
                serial == mainSerial.load(ordering: .relaxed)
                ? "main" : serial == 1 ? "process-main" : Recorder.systemThreadName(serial: serial)
            let buffer = ThreadBuffer(ring: ring, serial: serial, name: name)
            buffers.bySerial[serial] = buffer
            return buffer
        }
        if let buffer { fs_slot_set(id, buffer.ring, Unmanaged.passUnretained(buffer).toOpaque()) }
        return buffer
    }

    /// The record name for a static string: its address, or a dynamic id when it has no pointer.
    @inlinable
    @inline(__always)
    func nameBits(_ name: StaticString) -> (bits: UInt64, length: Int) {
        if name.hasPointerRepresentation, name.utf8CodeUnitCount <= 0xFFFF {
            return (UInt64(UInt(bitPattern: name.utf8Start)), name.utf8CodeUnitCount)
        }
        return (internDynamicName(name.description), 0)
    }

    /// Interns a dynamic name under a lock and returns its tagged id.
    @usableFromInline
    func internDynamicName(_ name: String) -> UInt64 {
        dynamicNames.withLockAnnounced { $0.intern(name) } | dynamicNameTag
    }

    /// Stores arguments (and, for a span that crossed threads, where it began) for the calling
    /// thread's next record; returns the index the record carries, 0 when there is nothing to store.
    @inlinable
    @inline(__always)
    func storeAttachment(_ arguments: SpanArguments, beginSerial: UInt64? = nil, timelineCause: HitchCause? = nil)
        -> UInt32
    {
        guard !arguments.list.isEmpty || beginSerial != nil || timelineCause != nil else { return 0 }
        return storeAttachmentSlowly(arguments, beginSerial: beginSerial, timelineCause: timelineCause)
    }

    @usableFromInline
    @inline(never)
    func storeAttachmentSlowly(_ arguments: SpanArguments, beginSerial: UInt64?, timelineCause: HitchCause? = nil)
        -> UInt32
    {
        guard let buffer = currentBuffer() else { return 0 }
        return buffer.store(
            Attachment(arguments: arguments.list, beginSerial: beginSerial, timelineCause: timelineCause))
    }

    /// The calling thread's serial number, its id in the trace.
    @usableFromInline
    @available(*, noasync, message: "a suspension can move the caller to another thread")
    func currentThreadSerial() -> UInt64 { fs_thread_serial() }

    // MARK: - Threads

    /// Names the calling thread in this recorder's traces, e.g. `layout-worker-1`.
    ///
    /// The main thread is named `main` automatically; other threads default to their system name,
    /// or `thread-N`. Call it on the thread to name, outside `async` code, before or while it
    /// records.
    /// - Parameter name: The name trace viewers show for the calling thread.
    @available(*, noasync, message: "a suspension can move the caller to another thread")
    public func nameCurrentThread(_ name: String) {
        currentBuffer()?.name.withLockAnnounced { $0 = name }
    }

    /// Makes the calling thread the trace's main thread: named `main`, sorted first, and recorded
    /// as the main thread in the metadata analysis reads.
    ///
    /// For programs whose UI-like loop does not run on the process's main thread, such as a
    /// simulated display loop started from a test.
    @available(*, noasync, message: "a suspension can move the caller to another thread")
    public func designateCurrentThreadAsMain() {
        guard let buffer = currentBuffer() else { return }
        let previous = mainSerial.exchange(buffer.serial, ordering: .relaxed)
        if previous != buffer.serial, let old = buffers.withLockAnnounced({ $0.bySerial[previous] }) {
            old.name.withLockAnnounced { if $0 == "main" { $0 = "process-main" } }
        }
        buffer.name.withLockAnnounced { $0 = "main" }
    }

    static func systemThreadName(serial: UInt64) -> String {
        var bytes = [CChar](repeating: 0, count: 64)
        guard fs_thread_own_name(&bytes, bytes.count) else { return "thread-\(serial)" }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Queries

    /// Events dropped so far because a thread's buffer was full, per thread (in trace ids).
    public var droppedEventCounts: [ThreadKey: Int64] {
        let (live, retired) = buffers.withLockAnnounced { (Array($0.bySerial.values), $0.retiredDrops) }
        var counts: [ThreadKey: Int64] = [:]
        for (serial, dropped) in retired { counts[threadKey(serial: serial)] = dropped }
        for buffer in live {
            let dropped = Int64(fs_ring_dropped(buffer.ring))
            if dropped > 0 { counts[threadKey(serial: buffer.serial)] = dropped }
        }
        let unattributed = unattributedDrops.load(ordering: .relaxed)
        if unattributed > 0 { counts[threadKey(serial: 0), default: 0] += unattributed }
        return counts
    }

    /// The per-thread buffers this recorder has allocated: held by live threads, by exited
    /// threads until their events are drained, or kept (empty) for the next new thread. A buffer
    /// holds the chunks of 256 events (8 KiB) it has taken from the recorder's pool and not yet
    /// handed back, up to ``Configuration/perThreadCapacity`` events; a program whose threads come
    /// and go, and that drains, needs about as many as it has threads at once.
    public var threadBufferCount: Int { allocatedRings.load(ordering: .relaxed) }

    /// What the recorder's pool of record chunks holds: chunks allocated, at the peak, and waiting
    /// in the pool. For tests and the benchmark.
    package var bufferPoolStatistics: BufferPoolStatistics { pool.statistics }

    /// The trace id of the main thread.
    public var mainThreadKey: ThreadKey { threadKey(serial: mainSerial.load(ordering: .relaxed)) }

    func threadKey(serial: UInt64) -> ThreadKey {
        ThreadKey(processID: processID, threadID: Int64(serial))
    }
}

/// Dynamic names, interned once each; record names refer to them by index.
struct DynamicNames {
    private(set) var names: [String] = []
    private var index: [String: UInt64] = [:]

    mutating func intern(_ name: String) -> UInt64 {
        if let id = index[name] { return id }
        let id = UInt64(names.count)
        names.append(name)
        index[name] = id
        return id
    }
}
