@_spi(FramescopeInternals) import FrameTrace

/// The last stage of reading a Perfetto trace, finishing: events still waiting are placed, lanes
/// paired, FrameTimeline and flows placed in time order, process-scoped events given their main
/// thread, and what was skipped reported once (``SkipSummary``), before ``TraceAssembly`` makes
/// the trace.
extension PerfettoParser {
    /// What the reader skips or drops, counted as it reads and reported when reading ends.
    struct SkipSummary {
        /// How many kinds of skipped field are listed one per line.
        static let listedSkippedKinds = 32

        /// Skipped fields, packets and events by kind (`TrackEvent field 12`, a legacy phase).
        var skippedFields: [String: Int] = [:]
        /// Packets dropped for needing incremental state their sequence never set.
        var droppedPackets = 0
        /// Debug annotation values nested deeper than ``TraceReader/keptNestingDepth``.
        var skippedArguments = 0
        /// Events dropped for a missing time or one beyond the limit.
        var droppedTimes = 0

        /// Adds the summary diagnostics: one line per kind of field skipped, the most frequent
        /// first, at most ``listedSkippedKinds`` (a hostile file can use every field number), the
        /// rest in one line; then the annotation values nested too deep.
        func report(into log: inout DiagnosticLog) {
            let skipped = skippedFields.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            for (what, count) in skipped.prefix(Self.listedSkippedKinds) {
                log.addSummary(
                    .skippedPhase, nil,
                    "\(what): \(count) skipped (framescope does not read \(count == 1 ? "it" : "them"))", count: count)
            }
            if skipped.count > Self.listedSkippedKinds {
                let rest = skipped.dropFirst(Self.listedSkippedKinds)
                let count = rest.reduce(0) { $0 + $1.value }
                log.addSummary(
                    .skippedPhase, nil, "\(count) values of \(rest.count) more kinds of field skipped", count: count)
            }
            if skippedArguments > 0 {
                log.addSummary(
                    .skippedArgument, nil,
                    "\(skippedArguments) debug annotation value\(skippedArguments == 1 ? "" : "s") nested more than \(TraceReader.keptNestingDepth) levels deep skipped",
                    count: skippedArguments)
            }
        }
    }

    mutating func finish() -> Trace {
        placeDeferredEvents()
        pairLanes()
        placeFrameTimeline()
        settleFlows()
        attributeProcessEvents()
        skipped.report(into: &trace.log)
        return trace.finished(keptArgumentKeys: building.argumentKeys?.keys)
    }
}
