import FrameTrace

extension ChromeJSONImporter {
    /// What the event builder skips or finds out of order, counted as it reads and reported as
    /// one summary diagnostic per kind when reading ends (``report(into:)``): phases the model
    /// has no place for, argument values nested too deep to keep, and `B`/`E` events earlier than
    /// the one before on their thread.
    struct SkipSummary {
        /// Per single-byte phase, how many events were skipped and the first one's input index.
        private var phaseCounts = [Int](repeating: 0, count: 256)
        private var phaseFirst = [Int](repeating: -1, count: 256)
        /// Multi-letter phases, counted apart up to ``maximumOtherPhases``, then as `(other)`.
        private var otherPhases: [String: (count: Int, first: Int)] = [:]
        private var outOfOrderCount = 0
        private var outOfOrderFirst = -1
        private var outOfOrderThreads: Set<ThreadKey> = []
        private var nestedArgumentCount = 0
        private var nestedArgumentFirst = -1

        /// How many distinct multi-letter phases are listed apart, so a hostile file cannot make
        /// the list of summaries grow with its size.
        static let maximumOtherPhases = 32
        /// How many threads with out-of-order events are told apart.
        static let maximumOutOfOrderThreads = 1000

        /// Counts a skipped event of a single-byte phase.
        mutating func countPhase(_ phase: UInt8, index: Int) {
            let phase = Int(phase)
            phaseCounts[phase] += 1
            if phaseFirst[phase] < 0 { phaseFirst[phase] = index }
        }

        /// Counts a skipped event of a multi-letter phase.
        mutating func countPhase(named letters: String, index: Int) {
            var letters = letters
            if otherPhases[letters] == nil, otherPhases.count >= Self.maximumOtherPhases { letters = "(other)" }
            otherPhases[letters, default: (0, index)].count += 1
        }

        /// Counts a `B` or `E` event earlier than the one before it on `thread`.
        @inline(__always)
        mutating func countOutOfOrder(thread: ThreadKey, index: Int) {
            outOfOrderCount += 1
            if outOfOrderFirst < 0 { outOfOrderFirst = index }
            if outOfOrderThreads.count < Self.maximumOutOfOrderThreads { outOfOrderThreads.insert(thread) }
        }

        /// Counts an event's argument values nested too deep to keep.
        mutating func countNestedArguments(_ count: Int, index: Int) {
            nestedArgumentCount += count
            if nestedArgumentFirst < 0 { nestedArgumentFirst = index }
        }

        /// One diagnostic per skipped phase, one for skipped arguments, one for out-of-order
        /// events.
        func report(into log: inout DiagnosticLog) {
            for phase in 0..<256 where phaseCounts[phase] > 0 {
                let count = phaseCounts[phase]
                let letter = String(decoding: [UInt8(phase)], as: UTF8.self)
                log.addSummary(
                    .skippedPhase, phaseFirst[phase],
                    "phase \"\(letter)\": \(count) event\(count == 1 ? "" : "s") skipped (not modelled)", count: count)
            }
            for (letter, skipped) in otherPhases.sorted(by: { $0.value.first < $1.value.first }) {
                log.addSummary(
                    .skippedPhase, skipped.first,
                    "phase \"\(letter)\": \(skipped.count) event\(skipped.count == 1 ? "" : "s") skipped (not modelled)",
                    count: skipped.count)
            }
            if nestedArgumentCount > 0 {
                log.addSummary(
                    .skippedArgument, nestedArgumentFirst,
                    "\(nestedArgumentCount) argument value\(nestedArgumentCount == 1 ? "" : "s") nested more than \(TraceReader.keptNestingDepth) levels deep skipped",
                    count: nestedArgumentCount)
            }
            if outOfOrderCount > 0 {
                let threadCount = outOfOrderThreads.count
                log.addSummary(
                    .outOfOrder, outOfOrderFirst,
                    "\(outOfOrderCount) begin/end event\(outOfOrderCount == 1 ? "" : "s") \(outOfOrderCount == 1 ? "is" : "are") earlier than the begin/end event before on the same thread (\(threadCount)\(threadCount >= Self.maximumOutOfOrderThreads ? "+" : "") thread\(threadCount == 1 ? "" : "s"))",
                    count: outOfOrderCount)
            }
        }
    }
}
