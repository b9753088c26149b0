import FrameTrace

/// The self-time sweep of every thread's spans (``SelfTime``), summed per category, per thread
/// and per frame: on the calling thread for a small trace, in runs on all cores for a large one.
///
/// A thread's spans are cut into runs only before a span that starts after every earlier span
/// has ended: no span is open there, so the runs' sweeps give exactly the segments, in the same
/// order, that the thread's whole sweep gives. The main thread's spans are cut only at a time
/// inside no frame's work window as well, so that no frame's top spans (each frame keeps only its
/// largest) draw on two runs. Each run sums into its own ``Sums``, and the runs' sums are merged
/// in run order (thread slots in order, each thread's runs in time order): every sum adds
/// non-negative values with saturating addition, which no order changes, and the frames' top
/// spans come frame by frame as one sweep gives them. The report is the same either way.
struct SelfTimeSweep {
    let spans: SpanIndex
    let mainSlot: Int?
    /// Per category number, the number of its name (``CategoryNames``).
    let nameOfCategory: [Int]
    /// The measured time, from the first frame's vsync to the last frame's end: main-thread self
    /// time inside it counts toward a category's budget share.
    let measureStart: Int64
    let measureEnd: Int64

    /// What the sweep sums.
    struct Sums {
        /// Per category number, its totals over the trace.
        var totals: [CategoryTotals]
        /// Per thread slot, self time by category number.
        var byThread: Tally
        /// The frames' self time.
        var accounting: FrameAccounting

        /// Flushes the tallies (``Tally/flush()``), for a merge that reads them without copying.
        mutating func flush() {
            byThread.flush()
            accounting.flush()
        }

        /// Adds the sums of the runs after the one these sums took, in order (see
        /// ``SelfTimeSweep``).
        mutating func merge(_ others: [Sums]) {
            for other in others {
                for number in totals.indices { totals[number].merge(other.totals[number]) }
            }
            byThread.merge(others.map(\.byThread))
            accounting.merge(others.map(\.accounting))
        }
    }

    /// A run of one thread's spans: positions in its slot's spans.
    struct Run {
        var slot: Int
        var spans: Range<Int>
    }

    /// Sweeps every thread's spans into `sums` (with nothing summed yet), on all cores when
    /// `onAllCores`, else on the calling thread.
    func sweep(into sums: Sums, onAllCores: Bool) -> Sums {
        guard onAllCores else {
            var sums = sums
            for slot in spans.threads.indices {
                sweep(Run(slot: slot, spans: spans.spans(inSlot: slot).indices), into: &sums)
            }
            return sums
        }
        // About eight runs: enough for two to eight cores to share evenly when one thread holds
        // most spans, as a UI main thread does, and few enough that merging costs little.
        let runs = runs(spansPerRun: max(1, spans.spanCount / 8), accounting: sums.accounting)
        var parts = concurrentMap(runs.count) { index in
            var part = sums
            sweep(runs[index], into: &part)
            part.flush()
            return part
        }
        // Taken out of `parts`, so that merging into it copies nothing.
        var merged = parts.isEmpty ? sums : parts.removeFirst()
        merged.merge(parts)
        return merged
    }

    /// Sweeps one run of spans into `sums`.
    func sweep(_ run: Run, into sums: inout Sums) {
        let threadSpans = spans.spans(inSlot: run.slot)[run.spans]
        let isMain = run.slot == mainSlot
        SelfTime.sweep(threadSpans) { segment in
            let category = spans.categories.number(of: segment.category)
            let duration = segment.duration
            sums.totals[category].add(duration, isMain: isMain)
            if isMain {
                let inside = min(segment.end, measureEnd).subtractingSaturating(max(segment.start, measureStart))
                if inside > 0 {
                    sums.totals[category].mainMeasured = sums.totals[category].mainMeasured.addingSaturating(inside)
                }
            }
            sums.byThread.add(duration, key: category, group: run.slot)
            sums.accounting.add(segment, categoryName: nameOfCategory[category], isMain: isMain)
        }
        for span in threadSpans { sums.totals[spans.categories.number(of: span.category)].spanCount += 1 }
    }

    /// Every thread's spans in runs of at least `spansPerRun` spans where the spans allow a cut
    /// (see ``SelfTimeSweep``), threads in slot order and each thread's runs in time order.
    func runs(spansPerRun: Int, accounting: FrameAccounting) -> [Run] {
        var runs: [Run] = []
        for slot in spans.threads.indices {
            let threadSpans = spans.spans(inSlot: slot)
            guard !threadSpans.isEmpty else { continue }
            var start = 0
            // The latest end of the spans before `index`, and for the main thread the end of the
            // frame window that last stopped a cut: no cut before either.
            var openUntil = Int64.min
            var windowEnd = Int64.min
            for index in threadSpans.indices {
                let time = threadSpans[index].start
                if index - start >= spansPerRun, openUntil <= time, windowEnd <= time {
                    if slot == mainSlot, let end = accounting.endOfWindow(holding: time) {
                        windowEnd = end
                    } else {
                        runs.append(Run(slot: slot, spans: start..<index))
                        start = index
                    }
                }
                openUntil = max(openUntil, threadSpans[index].end)
            }
            runs.append(Run(slot: slot, spans: start..<threadSpans.count))
        }
        return runs
    }
}

extension CategoryTotals {
    /// Adds the totals of other spans of the same category.
    mutating func merge(_ other: CategoryTotals) {
        spanCount += other.spanCount
        main = main.addingSaturating(other.main)
        background = background.addingSaturating(other.background)
        mainMeasured = mainMeasured.addingSaturating(other.mainMeasured)
    }
}
