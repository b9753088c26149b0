import CFrameScope
import FrameTrace

extension Recorder {
    /// Runs `body` inside a span and returns what it returns.
    ///
    /// The span starts and ends on the calling thread, so spans nest by construction. When the
    /// recorder is disabled this costs one load and a branch; the name is a `StaticString`, so
    /// enabled recording allocates nothing either unless `arguments` are given.
    ///
    /// ```swift
    /// let frames = recorder.withSpan("layout feed cell", category: .layout) { engine.layout(cell) }
    /// ```
    /// - Parameters:
    ///   - name: A static name; the trace identifies it by address and interns it once.
    ///   - category: The budget category the time counts against.
    ///   - arguments: Values to attach, evaluated only when recording.
    ///   - body: The work to measure.
    /// - Returns: The body's result.
    /// - Throws: Whatever `body` throws; the span is recorded either way.
    @inlinable
    public func withSpan<Result, Failure: Error>(
        _ name: StaticString, category: Category = .other, arguments: @autoclosure () -> SpanArguments = [:],
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // One load for both bits: with the mirror off this is exactly `isEnabled`'s test.
        let mode = modeBits
        guard mode & Recorder.recordingBit != 0 else { return try body() }
        #if canImport(os)
            if mode & Recorder.signpostBit != 0 {
                return try withMirroredSpan(name, category: category, arguments: arguments(), body)
            }
        #endif
        let argumentIndex = storeAttachment(arguments())
        let start = clock.timestamp()
        do {
            let result = try body()
            recordSpan(name, category: category, start: start, argumentIndex: argumentIndex)
            return result
        } catch {
            recordSpan(name, category: category, start: start, argumentIndex: argumentIndex)
            throw error
        }
    }

    /// Runs `body` inside a span named at run time.
    ///
    /// Dynamic names go through a locked intern table; prefer the `StaticString` overload.
    /// - Parameters:
    ///   - name: The span's name.
    ///   - category: The budget category.
    ///   - arguments: Values to attach, evaluated only when recording.
    ///   - body: The work to measure.
    /// - Returns: The body's result.
    /// - Throws: Whatever `body` throws.
    @inlinable
    public func withSpan<Result, Failure: Error>(
        named name: String, category: Category = .other, arguments: @autoclosure () -> SpanArguments = [:],
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let mode = modeBits
        guard mode & Recorder.recordingBit != 0 else { return try body() }
        #if canImport(os)
            // Declared before the recording `defer`, so it runs after it: the signpost encloses the span.
            let signpost = mode & Recorder.signpostBit != 0 ? beginSignpost(named: name, category: category) : 0
            defer {
                if signpost != 0 { endSignpost(Recorder.dynamicSpanSignpostName, category: category, id: signpost) }
            }
        #endif
        let nameID = internDynamicName(name)
        let argumentIndex = storeAttachment(arguments())
        let start = clock.timestamp()
        defer {
            push(
                start: start, end: clock.timestamp(), name: nameID, meta: packMeta(.span, category, nameLength: 0),
                extra: argumentIndex)
        }
        return try body()
    }

    /// Runs async `body` inside a span.
    ///
    /// If the task resumes on another thread than it started on, the span is exported as an async
    /// `b`/`e` pair from the first thread to the last, never as an `X` that could overlap others.
    /// - Parameters:
    ///   - name: A static name.
    ///   - category: The budget category.
    ///   - arguments: Values to attach, evaluated only when recording.
    ///   - isolation: The caller's isolation, inherited by `body`.
    ///   - body: The work to measure.
    /// - Returns: The body's result.
    /// - Throws: Whatever `body` throws.
    @inlinable
    public func withSpan<Result>(
        _ name: StaticString, category: Category = .other, arguments: @autoclosure () -> SpanArguments = [:],
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let mode = modeBits
        guard mode & Recorder.recordingBit != 0 else { return try await body() }
        #if canImport(os)
            let signpost = mode & Recorder.signpostBit != 0 ? beginSignpost(name, category: category) : 0
            defer { if signpost != 0 { endSignpost(name, category: category, id: signpost) } }
        #endif
        let spanArguments = arguments()
        let begin = beginPoint()
        defer { finishSpan(name, category: category, begin: begin, arguments: spanArguments) }
        return try await body()
    }

    /// Records a span whose start and end the caller already measured on ``clock``.
    ///
    /// For loops that read the clock themselves, such as a display loop that must know exactly
    /// when a frame began to say how late after its vsync it started.
    /// - Parameters:
    ///   - name: A static name.
    ///   - category: The budget category.
    ///   - start: The start, in nanoseconds on this recorder's clock.
    ///   - end: The end; at least `start`.
    ///   - arguments: Values to attach, evaluated only when recording.
    public func recordSpan(
        _ name: StaticString, category: Category = .other, start: Int64, end: Int64,
        arguments: @autoclosure () -> SpanArguments = [:]
    ) {
        let mode = modeBits
        guard mode & Recorder.recordingBit != 0 else { return }
        precondition(end >= start, "a span cannot end before it starts")
        #if canImport(os)
            if mode & Recorder.signpostBit != 0 {
                // Read without moving a virtual clock, so the mirror leaves the recording as it was.
                let message = SignpostMessage.MeasuredSpan(
                    durationNanoseconds: end - start, endedNanosecondsAgo: clock.reading() &- end)
                emitMeasuredSpanSignpost(name, category: category, message: message)
            }
        #endif
        let attachment = storeAttachment(arguments())
        let (bits, length) = nameBits(name)
        push(
            start: start, end: end, name: bits, meta: packMeta(.span, category, nameLength: length) | nanosecondsFlag,
            extra: attachment)
    }

    /// Records an instant: a point in time, such as an input event or a vsync.
    /// - Parameters:
    ///   - name: A static name.
    ///   - category: The budget category.
    ///   - arguments: Values to attach, evaluated only when recording.
    @inlinable
    public func recordInstant(
        _ name: StaticString, category: Category = .other, arguments: @autoclosure () -> SpanArguments = [:]
    ) {
        let mode = modeBits
        guard mode & Recorder.recordingBit != 0 else { return }
        #if canImport(os)
            if mode & Recorder.signpostBit != 0 { emitSignpostEvent(name, category: category) }
        #endif
        let argumentIndex = storeAttachment(arguments())
        let (bits, length) = nameBits(name)
        let now = clock.timestamp()
        push(
            start: now, end: now, name: bits, meta: packMeta(.instant, category, nameLength: length),
            extra: argumentIndex)
    }

    /// Records a sample of a numeric series, such as queue depth or cache hit rate.
    /// - Parameters:
    ///   - name: The series name.
    ///   - value: The sample.
    ///   - category: The budget category.
    @inlinable
    public func recordCounter(_ name: StaticString, value: Double, category: Category = .other) {
        let mode = modeBits
        guard mode & Recorder.recordingBit != 0 else { return }
        #if canImport(os)
            if mode & Recorder.signpostBit != 0 { emitSignpostCounter(name, value: value, category: category) }
        #endif
        let (bits, length) = nameBits(name)
        let now = clock.timestamp()
        push(
            start: now, end: Int64(bitPattern: value.bitPattern), name: bits,
            meta: packMeta(.counter, category, nameLength: length), extra: 0)
    }

    /// Records an instant.
    ///
    /// Deprecated: call ``recordInstant(_:category:arguments:)``, which does the same.
    /// - Parameters:
    ///   - name: A static name.
    ///   - category: The budget category.
    ///   - arguments: Values to attach, evaluated only when recording.
    @available(*, deprecated, renamed: "recordInstant(_:category:arguments:)")
    @inlinable
    public func instant(
        _ name: StaticString, category: Category = .other, arguments: @autoclosure () -> SpanArguments = [:]
    ) {
        recordInstant(name, category: category, arguments: arguments())
    }

    /// Records a sample of a numeric series.
    ///
    /// Deprecated: call ``recordCounter(_:value:category:)``, which does the same.
    /// - Parameters:
    ///   - name: The series name.
    ///   - value: The sample.
    ///   - category: The budget category.
    @available(*, deprecated, renamed: "recordCounter(_:value:category:)")
    @inlinable
    public func counter(_ name: StaticString, value: Double, category: Category = .other) {
        recordCounter(name, value: value, category: category)
    }

    // MARK: - Internals shared by the span forms

    #if canImport(os)
        /// ``withSpan(_:category:arguments:_:)`` with the signpost mirror on: the span recorded as
        /// usual, inside a signpost interval. Out of line, so the mirror adds no code to the common path.
        @usableFromInline
        @inline(never)
        func withMirroredSpan<Result, Failure: Error>(
            _ name: StaticString, category: Category, arguments: SpanArguments, _ body: () throws(Failure) -> Result
        ) throws(Failure) -> Result {
            let signpost = beginSignpost(name, category: category)
            defer { endSignpost(name, category: category, id: signpost) }
            let argumentIndex = storeAttachment(arguments)
            let start = clock.timestamp()
            do {
                let result = try body()
                recordSpan(name, category: category, start: start, argumentIndex: argumentIndex)
                return result
            } catch {
                recordSpan(name, category: category, start: start, argumentIndex: argumentIndex)
                throw error
            }
        }
    #endif

    @inlinable
    @inline(__always)
    func recordSpan(_ name: StaticString, category: Category, start: Int64, argumentIndex: UInt32) {
        let end = clock.timestamp()
        let (bits, length) = nameBits(name)
        push(
            start: start, end: end, name: bits, meta: packMeta(.span, category, nameLength: length),
            extra: argumentIndex)
    }

    /// Where and when a span that may cross threads began.
    @usableFromInline
    struct BeginPoint: Sendable {
        @usableFromInline let timestamp: Int64
        @usableFromInline let serial: UInt64
        @usableFromInline init(timestamp: Int64, serial: UInt64) {
            self.timestamp = timestamp
            self.serial = serial
        }
    }

    @usableFromInline
    func beginPoint() -> BeginPoint {
        BeginPoint(timestamp: clock.timestamp(), serial: fs_thread_serial())
    }

    /// Records a span that began at `begin`: a plain span if it ends on the thread it began on,
    /// otherwise a cross-thread span whose attachment remembers where it began.
    @usableFromInline
    func finishSpan(_ name: StaticString, category: Category, begin: BeginPoint, arguments: SpanArguments) {
        let end = clock.timestamp()
        let (bits, length) = nameBits(name)
        let sameThread = fs_thread_serial() == begin.serial
        let attachment = storeAttachment(arguments, beginSerial: sameThread ? nil : begin.serial)
        let kind: RecordKind = sameThread ? .span : .crossThreadSpan
        push(
            start: begin.timestamp, end: end, name: bits, meta: packMeta(kind, category, nameLength: length),
            extra: attachment)
    }
}
