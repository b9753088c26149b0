import FrameSupport
import FrameTrace

extension FrameAnalyzer {
    /// Every argument key the analysis reads: frame spans' vsync, budget and index, render and
    /// job spans' links to frames, input events' flags, and Chrome's frame events. A step that
    /// reads another key must add it here, or it finds the key missing in ``analyze(_:options:)``;
    /// a test (`everyLookupIsDeclared`) reads the module's sources and fails on a lookup of a key
    /// this set does not name. A program that reads traces only to analyse them can read just
    /// these (`TraceReader.read(contentsOf:arguments: .only(FrameAnalyzer.argumentKeys))`,
    /// as the CLI does) and skip converting the rest.
    package static let argumentKeys: Set<String> = [
        FrameContract.Key.index, FrameContract.Key.sinceVsync, FrameContract.Key.budget, FrameContract.Key.sinceInput,
        FrameContract.Key.ignored, FrameContract.Key.renderedFrame, FrameContract.Key.untilDeadline,
        FrameContract.Key.untilPresent,
        FrameContract.Key.sinceRequest, ChromeFrameEvents.stateKey, ChromeFrameEvents.frameTypeKey,
        ChromeFrameEvents.sequenceKey,
        ChromeFrameEvents.layerTreeHostKey, ChromeFrameEvents.affectsSmoothnessKey, ChromeFrameEvents.legacySequenceKey,
        ChromeFrameEvents.legacyLayerTreeKey, ChromeRenderers.framesKey, ChromeRenderers.processIDKey,
        ChromeRenderers.parentKey, ChromeRenderers.outermostKey,
        AndroidFrameTimeline.surfaceTokenKey, AndroidFrameTimeline.displayTokenKey, AndroidFrameTimeline.presentTypeKey,
        AndroidFrameTimeline.jankTypeKey, AndroidFrameTimeline.layerKey, AndroidFrameTimeline.jankTagKey,
        AndroidFrameTimeline.onTimeFinishKey, AppleRecording.Names.durationKey, AppleRecording.Names.isSystemKey,
        AppleRecording.Names.issueKey, AppleRecording.Names.displayKey, AppleRecording.Names.displayNameKey,
        AppleRecording.Names.refreshRateKey, AppleRecording.Names.mainDisplayKey, AppleRecording.Names.hangTypeKey,
        AppleRecording.Names.deviceNameKey,
    ]

    /// Tells the keys in ``argumentKeys`` from the rest, mostly by first byte and length.
    static let argumentKeyMatcher = ArgumentKeyMatcher(argumentKeys)

    /// Traces with at least this many argument lists have the C heap trimmed once their lists
    /// are narrowed: below it, what trimming could return is not worth a walk over the heap.
    static let trimmedArgumentListCount = 1 << 16

    /// Narrows `trace`'s argument lists to the arguments the analysis reads (``argumentKeys``),
    /// keeping every list's index, so that the lists' memory is freed before the spans and
    /// frames are built instead of after.
    ///
    /// A list with none of those keys becomes empty; the others are copied with only those keys.
    /// On the generated 1,000,000-event trace 72,732 of its 321,753 lists keep something (the
    /// frame spans' `frame` numbers), the process's resident memory falls from 108 to 77 MiB
    /// here, and `framescope report` peaks while reading instead of while finding frames. A
    /// caller that keeps its trace keeps its lists whole (this changes the analysis's copy) and
    /// pays for the narrowed copies beside them.
    /// - Complexity: O(*a*) in the trace's arguments.
    static func keepAnalysisArguments(_ trace: inout Trace) {
        let count = trace.argumentLists.count
        guard count > 1 else { return }
        // A trace read with only these keys (as the CLI reads) has nothing more to drop.
        if let kept = trace.keptArgumentKeys, kept.isSubset(of: argumentKeys) { return }
        var kept: [[Argument]] = []
        kept.reserveCapacity(count)
        let matcher = argumentKeyMatcher
        for list in trace.argumentLists {
            // Kept lists are copied, not shared: the old ones lie scattered among the dropped
            // ones, and a page that still holds one small live block stays resident. The copies
            // come from fresh memory while the old lists are alive, so the old ones' pages end
            // up wholly free.
            var narrowed: [Argument] = []
            for argument in list where matcher.matches(argument.key) {
                if narrowed.isEmpty { narrowed.reserveCapacity(list.count) }
                narrowed.append(argument)
            }
            kept.append(narrowed)
        }
        trace.argumentLists = kept
        if count >= trimmedArgumentListCount { FreedMemory.returnToSystem() }
    }
}
