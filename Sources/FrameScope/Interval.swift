import CFrameScope

/// A span begun with ``Recorder/beginInterval(_:category:)`` and not yet ended.
///
/// It cannot be copied, so it can be ended only once: `end()` consumes it. It may be ended on
/// another thread than it began on; such a span is exported as an async `b`/`e` pair.
///
/// ```swift
/// let interval = recorder.beginInterval("decode", category: .imageDecode)
/// queue.async { decode(); interval.end() }   // error: an Interval can't be captured twice
/// ```
public struct Interval: ~Copyable, Sendable {
    let recorder: Recorder?
    let name: StaticString
    let category: Category
    let begin: Recorder.BeginPoint
    #if canImport(os)
        /// The signpost interval's id when the recorder was mirroring to signposts at the begin; 0 otherwise.
        var signpostID: UInt64 = 0
    #endif

    /// Ends the span now.
    public consuming func end() {
        guard let recorder else { return }
        recorder.finishSpan(name, category: category, begin: begin, arguments: [:])
        recorder.openIntervals.subtract(1, ordering: .relaxed)
        #if canImport(os)
            if signpostID != 0 { recorder.endSignpost(name, category: category, id: signpostID) }
        #endif
    }
}

extension Recorder {
    /// Begins a span that cannot be written as a closure; end it with ``Interval/end()``.
    ///
    /// An interval dropped without `end()` records nothing; ``openIntervalCount`` counts it, and
    /// exported traces report the count in their metadata (`open-intervals`).
    /// - Parameters:
    ///   - name: A static name.
    ///   - category: The budget category.
    /// - Returns: The open interval.
    public func beginInterval(_ name: StaticString, category: Category = .other) -> Interval {
        guard isEnabled else {
            return Interval(
                recorder: nil, name: name, category: category, begin: Recorder.BeginPoint(timestamp: 0, serial: 0))
        }
        openIntervals.add(1, ordering: .relaxed)
        #if canImport(os)
            if isMirroringToSignposts {
                let signpost = beginSignpost(name, category: category)
                return Interval(
                    recorder: self, name: name, category: category, begin: beginPoint(), signpostID: signpost)
            }
        #endif
        return Interval(recorder: self, name: name, category: category, begin: beginPoint())
    }

    /// Intervals begun while recording and not ended yet (or dropped without `end()`).
    public var openIntervalCount: Int64 { openIntervals.load(ordering: .relaxed) }
}
