@_spi(FramescopeInternals) package import FrameTrace

extension FrameAnalyzer {
    /// Finds a trace's input events and measures how long each waited for a frame to reflect it.
    ///
    /// The convention, which framescope's display-loop scenarios write and any producer can follow:
    ///
    /// - An **input event** is any event whose category is `input` (or a comma-separated list that
    ///   contains `input`): an instant (`i`/`I`) or a span (`X`, or a `B`/`E` pair), on any thread.
    /// - Its **input time** is the event's `ts`, unless it has a numeric, non-negative argument
    ///   `since-input-ns`: the nanoseconds between the user's input and the event (a touch
    ///   sampled before the frame that handles it). Then the input time is `ts − since-input-ns`,
    ///   as `since-vsync-ns` places a `frame` span's vsync.
    /// - An event whose argument `ignored` is `true` (or the number 1) is an **ignored** input: the
    ///   app dropped it, for example because the gesture was disabled during a fixed animation.
    ///   It is counted and has no latency.
    /// - Any other input is **reflected** by the frame whose main-thread work `[workStart,
    ///   commitEnd)` contains the event's `ts`, or else by the first frame starting after it. Its
    ///   **latency** is that frame's `commitEnd` minus the input time. An input after the last
    ///   frame's end is **unreflected**: counted, no latency.
    ///
    /// ```swift
    /// let figures = FrameAnalyzer.inputFigures(of: trace, frames: report.frames)
    /// figures?.latency?.p95   // nanoseconds from touch to the commit that shows it
    /// ```
    /// - Parameters:
    ///   - trace: The trace.
    ///   - frames: Its frames in time order, as ``analyze(_:options:)`` finds them.
    /// - Returns: The figures, or `nil` when the trace has no input events.
    /// - Complexity: O(*n* + *k* log *f*) for *n* events, *k* inputs and *f* frames.
    package static func inputFigures(of trace: Trace, frames: [FrameReport.Frame]) -> FrameReport.InputFigures? {
        // Per symbol (by raw value), whether it is an input category: an array, not a set, so
        // that testing an event costs no hash.
        var isInputCategory = Array(repeating: false, count: trace.symbols.count)
        let input = FrameContract.inputCategory
        for (index, name) in trace.symbols.strings.enumerated() where name.contains(input) {
            if name == input || name.split(separator: ",").contains(where: { $0.trimmingSpaces == input }) {
                isInputCategory[index] = true
            }
        }
        guard isInputCategory.contains(true) else { return nil }
        // The frames' commits, read once: a frame read in the search below would be copied.
        let commitEnds = frames.indices.map { frames[$0].commitEnd }
        var inputs = 0
        var ignored = 0
        var unreflected = 0
        var latencies: [Int64] = []
        for event in trace.events where event.phase == .instant || event.phase == .complete {
            let category = Int(event.category.rawValue)
            guard category < isInputCategory.count, isInputCategory[category] else { continue }
            inputs += 1
            let arguments = trace.argumentLists[Int(event.arguments)]
            if isTrue(arguments[FrameContract.Key.ignored]) {
                ignored += 1
                continue
            }
            // The reflecting frame is the first whose work ends after the input's ts: either it
            // contains ts or it is the first to start after it (frames do not overlap).
            let low = commitEnds.partitioningIndex { $0 > event.timestamp }
            guard low < commitEnds.count else {
                unreflected += 1
                continue
            }
            var inputTime = event.timestamp
            if let since = sinceInput(arguments[FrameContract.Key.sinceInput]), since >= 0 {
                inputTime = inputTime.subtractingSaturating(since)
            }
            latencies.append(commitEnds[low].subtractingSaturating(inputTime))
        }
        guard inputs > 0 else { return nil }
        return FrameReport.InputFigures(
            inputs: inputs, ignored: ignored, unreflected: unreflected, latency: PercentileSummary(latencies))
    }

    private static func isTrue(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag): flag
        case .some(let value): value.doubleValue == 1
        case nil: false
        }
    }

    private static func sinceInput(_ value: JSONValue?) -> Int64? {
        guard let value else { return nil }
        if let integer = value.integerValue { return integer }
        guard let number = value.doubleValue, number.isFinite, abs(number) < 9e18 else { return nil }
        return Int64(number.rounded())
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
