import FrameSupport
@_spi(FramescopeInternals) import FrameTrace

/// Assigns self-time segments to frames: main-thread segments to the frame whose work window
/// contains them, other threads' segments to the frame windows they overlap (from one frame's
/// vsync to the next frame's vsync).
///
/// A frame's main-thread work window runs from its work start to its commit, cut at the next
/// frame's work start, so frames whose windows overlap (a frame Chrome dropped is still pending
/// when the next one begins) never count the same moment twice.
///
/// Frames' times are copied into arrays once, and per-frame sums go to ``Tally``s by category
/// name number and span name symbol: no frame is copied and nothing is hashed per segment.
struct FrameAccounting {
    var mainOutsideFrames: Int64 = 0
    /// Other threads' busy time inside the frame windows, and outside them.
    var backgroundInFrames: Int64 = 0
    var backgroundOutsideFrames: Int64 = 0
    /// Per frame, main-thread busy time inside its work window.
    private(set) var mainNanoseconds: [Int64]
    /// Per frame, main-thread self time inside its work window by category name number
    /// (``CategoryNames``).
    var mainByCategory: Tally
    /// Per frame, main-thread self time inside its work window by span name (symbol raw value):
    /// the three largest, what the frame's top spans need.
    var spanTime: Tally
    /// Per span name symbol, its place in name order: how top spans with equal time are ordered.
    let spanNameRank: [UInt32]
    /// Per frame, other threads' self time inside its window by category name number.
    var backgroundByCategory: Tally
    /// Per frame: its work start, main-thread work window end, vsync, and the end of its window
    /// for other threads (the next frame's vsync; the last frame's commit or deadline).
    private let workStarts: [Int64]
    /// Sorted: frames come in work-start order, and each window ends by the next one's start.
    private let windowEnds: [Int64]
    /// Where the last main-thread segment's search ended.
    private var mainCursor = 0
    private let vsyncs: [Int64]
    private let backgroundEnds: [Int64]

    /// - Parameters:
    ///   - frames: The frames, in order of work start, with no main-thread time counted yet.
    ///   - categoryNameCount: The number of category names.
    ///   - spanNames: The symbols span names are drawn from.
    init(frames: [FrameReport.Frame], categoryNameCount: Int, spanNames: SymbolTable) {
        mainNanoseconds = Array(repeating: 0, count: frames.count)
        mainByCategory = Tally(keyCount: categoryNameCount)
        // Main-thread segments come in time order, and each reaches frames in order from the
        // last frame the previous one reached (windows are sorted and disjoint): frames come to
        // the tally one after another, so it may keep only each frame's top spans.
        spanNameRank = Self.nameOrder(spanNames)
        spanTime = Tally(keyCount: spanNames.count, largestPerGroup: 3, rank: spanNameRank)
        backgroundByCategory = Tally(keyCount: categoryNameCount)
        workStarts = frames.map(\.workStart)
        // Every frame source lists its frames by work start; the main-thread search and the
        // top-spans tally rely on it.
        assert(zip(workStarts, workStarts.dropFirst()).allSatisfy { $0 <= $1 }, "frames must come in work-start order")
        // Other threads' windows run from each frame's vsync to the next one's. A source whose
        // vsyncs are not in work-start order (Android: a frame begun late, after a later vsync's
        // frame) would make windows overlap and count a moment twice, more than the segment
        // lasted: each window starts at the latest vsync so far, so they stay sorted and disjoint.
        var latest = Int64.min
        vsyncs = frames.map { frame in
            latest = max(latest, frame.vsync)
            return latest
        }
        windowEnds = frames.indices.map { index in
            let end = frames[index].commitEnd
            return index + 1 < frames.count ? max(frames[index].workStart, min(end, frames[index + 1].workStart)) : end
        }
        backgroundEnds = frames.indices.map { [vsyncs] index in
            index + 1 < frames.count
                ? vsyncs[index + 1] : max(vsyncs[index], frames[index].commitEnd, frames[index].deadline)
        }
    }

    /// Writes each frame's main-thread time, its main-thread and background time by category
    /// and its top spans (the three span names with the most main-thread self time, the name
    /// first in order on ties) into `frames`, which must have none yet.
    ///
    /// The frames keep slices of the finished tallies (``CategoryTimes``, ``Contributors``), which
    /// share one buffer per tally: nothing is hashed, and no array is allocated, per frame.
    /// - Returns: Per category name number, its main-thread time in each frame it ran in, in
    ///   frame order.
    mutating func finish(
        into frames: inout [FrameReport.Frame], categoryNames: [String], spanNames: SymbolTable, onAllCores: Bool
    ) -> [[Int64]] {
        let count = frames.count
        // The tallies are handed over whole (a copy would copy their entries when finished): on
        // all cores, the category tallies finish beside the span tally.
        let main = Handover(take(&mainByCategory))
        let background = Handover(take(&backgroundByCategory))
        let spans = Handover(take(&spanTime))
        let ((mainSums, backgroundSums), spanSums) = both(onAllCores: onAllCores) {
            var main = main.take()
            var background = background.take()
            return (main.finish(groupCount: count), background.finish(groupCount: count))
        } _: {
            var spans = spans.take()
            return spans.finish(groupCount: count)
        }
        for index in frames.indices {
            frames[index].mainThreadNanoseconds = mainNanoseconds[index]
            frames[index].mainByCategory = mainSums.times(group: index, names: categoryNames)
            frames[index].backgroundByCategory = backgroundSums.times(group: index, names: categoryNames)
            // Each group of the span tally holds the frame's top spans, largest first.
            frames[index].topSpans = Contributors(names: spanNames.strings, entries: spanSums[index])
        }
        return mainSums.valuesByKey(keyCount: categoryNames.count)
    }

    /// `tally`, leaving an empty one in its place.
    private func take(_ tally: inout Tally) -> Tally {
        var taken = Tally(keyCount: 0)
        swap(&taken, &tally)
        return taken
    }

    /// Per symbol, its place when the symbols' names are sorted: the tie-break for top spans, so
    /// that two spans with equal time come out in the same order whatever order a file named them
    /// in (a JSON trace and its Perfetto conversion intern names in different orders).
    static func nameOrder(_ symbols: SymbolTable) -> [UInt32] {
        let sorted = symbols.strings.indices.sorted { symbols.strings[$0] < symbols.strings[$1] }
        var rank = Array(repeating: UInt32(0), count: sorted.count)
        for (place, symbol) in sorted.enumerated() { rank[symbol] = UInt32(place) }
        return rank
    }

    /// Flushes the tallies (``Tally/flush()``), for a merge that reads them without copying.
    mutating func flush() {
        mainByCategory.flush()
        spanTime.flush()
        backgroundByCategory.flush()
    }

    /// The end of the frame's main-thread work window that holds `time` inside it (past its
    /// start, before its end), or `nil` when none does: then the main-thread segments before
    /// `time` and those after it reach no frame in common, and two accountings may take them
    /// apart (see ``merge(_:)``).
    func endOfWindow(holding time: Int64) -> Int64? {
        // Windows are sorted and disjoint: only the first one ending after `time` can hold it.
        let index = windowEnds.partitioningIndex { $0 > time }
        return index < windowEnds.count && workStarts[index] < time ? windowEnds[index] : nil
    }

    /// Adds the sums of `others`, accountings of the same frames that took other segments, for
    /// the sweep split into runs (``SelfTimeSweep``). Every sum is of non-negative values with
    /// saturating additions, so it does not depend on the order of the segments; the top spans
    /// do, since each frame keeps only its largest: each accounting's main-thread segments must
    /// all come after those of the ones before it (this one first), split at times inside no
    /// frame's window (``endOfWindow(holding:)``).
    mutating func merge(_ others: [FrameAccounting]) {
        for other in others {
            mainOutsideFrames = mainOutsideFrames.addingSaturating(other.mainOutsideFrames)
            backgroundInFrames = backgroundInFrames.addingSaturating(other.backgroundInFrames)
            backgroundOutsideFrames = backgroundOutsideFrames.addingSaturating(other.backgroundOutsideFrames)
            for index in mainNanoseconds.indices where other.mainNanoseconds[index] > 0 {
                mainNanoseconds[index] = mainNanoseconds[index].addingSaturating(other.mainNanoseconds[index])
            }
        }
        mainByCategory.merge(others.map(\.mainByCategory))
        spanTime.merge(others.map(\.spanTime))
        backgroundByCategory.merge(others.map(\.backgroundByCategory))
    }

    /// The first frame whose main-thread window ends after `time`. The main thread's segments
    /// come in time order, so the search steps on from where the last one ended; the result is
    /// the binary search's, since `windowEnds` is sorted.
    private mutating func firstWindow(endingAfter time: Int64) -> Int {
        var index = mainCursor
        if index > 0, windowEnds[index - 1] > time {
            index = windowEnds.partitioningIndex { $0 > time }
        } else {
            while index < windowEnds.count, windowEnds[index] <= time { index += 1 }
        }
        mainCursor = index
        return index
    }

    /// Adds one self-time segment of a thread, in category name number `categoryName`.
    mutating func add(_ segment: SelfTime.Segment, categoryName: Int, isMain: Bool) {
        let count = workStarts.count
        guard count > 0 else {
            if isMain {
                mainOutsideFrames = mainOutsideFrames.addingSaturating(segment.duration)
            } else {
                backgroundOutsideFrames = backgroundOutsideFrames.addingSaturating(segment.duration)
            }
            return
        }
        if isMain {
            var covered: Int64 = 0
            var index = firstWindow(endingAfter: segment.start)
            while index < count, workStarts[index] < segment.end {
                let overlap = min(segment.end, windowEnds[index]).subtractingSaturating(
                    max(segment.start, workStarts[index]))
                if overlap > 0 {
                    mainNanoseconds[index] = mainNanoseconds[index].addingSaturating(overlap)
                    mainByCategory.add(overlap, key: categoryName, group: index)
                    spanTime.add(overlap, key: Int(segment.name.rawValue), group: index)
                    covered = covered.addingSaturating(overlap)
                }
                index += 1
            }
            mainOutsideFrames = mainOutsideFrames.addingSaturating(segment.duration.subtractingSaturating(covered))
        } else {
            // The frame whose window holds the segment's start is the last one with vsync <= start.
            var covered: Int64 = 0
            var index = max(0, vsyncs.partitioningIndex { $0 > segment.start } - 1)
            while index < count, vsyncs[index] < segment.end {
                let overlap = min(segment.end, backgroundEnds[index]).subtractingSaturating(
                    max(segment.start, vsyncs[index]))
                if overlap > 0 {
                    backgroundByCategory.add(overlap, key: categoryName, group: index)
                    covered = covered.addingSaturating(overlap)
                }
                index += 1
            }
            backgroundInFrames = backgroundInFrames.addingSaturating(covered)
            backgroundOutsideFrames = backgroundOutsideFrames.addingSaturating(
                max(0, segment.duration.subtractingSaturating(covered)))
        }
    }
}
