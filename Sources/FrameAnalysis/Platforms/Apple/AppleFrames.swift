import FrameSupport
@_spi(FramescopeInternals) import FrameTrace

extension AppleRecording {
    /// The producer the reader writes into an Instruments recording's metadata.
    static let producer = "xctrace export"

    /// Whether a trace comes from an Instruments export: the reader says so in its metadata, or
    /// (once converted to another format, whose reader keeps only framescope's metadata) it
    /// holds one of Apple's tables.
    static func isInstruments(_ trace: Trace) -> Bool {
        if trace.metadata.producer == producer { return true }
        let tables = [Names.hitches, Names.surfaces, Names.vsyncs, Names.displays, Names.hangs]
        return tables.contains { trace.symbols.lookup($0) != nil }
    }

    /// The recording's frames as Apple counts them, or `nil` when it has no hitches table and no
    /// frame table of Apple's (the analysis then goes on with its other sources).
    ///
    /// - `spanFrames`: framescope's frame signposts, when the recording has them: they give the
    ///   frames and their work; otherwise the displayed surfaces on the app's display; otherwise
    ///   (hitches alone) each hitch is a frame, and the recording's length is unknown unless the
    ///   TOC gives it.
    /// - With a hitches table, Apple's rows decide which frames were late and by how much: each
    ///   hitch goes to the last frame that began at or before it (the frame it follows), within
    ///   two intervals of that frame's deadline; one that matches no frame becomes a frame of its
    ///   own. The lane that held it is Apple's: render when a `hitches-renders`/`hitches-gpu`
    ///   row covers the hitch's start and no `hitches-updates` row does, or when its Potential
    ///   Issue names the render server; commit otherwise.
    func frames(spanFrames: FrameAnalyzer.FoundFrames?, interval: Int64) -> FrameAnalyzer.FoundFrames? {
        var frames: [FrameReport.Frame]
        var table: FrameReport.AppleFrameTable
        if let spanFrames, !spanFrames.frames.isEmpty {
            frames = spanFrames.frames
            table = .frameSignposts
        } else if !surfaces.isEmpty {
            frames = surfaceFrames(interval: interval)
            table = .displayedSurfaces
        } else if !hitches.isEmpty || systemHitches > 0 {
            frames = []
            table = .hitchesAlone
        } else {
            return nil
        }
        guard !hitches.isEmpty || systemHitches > 0 else {
            var found = FrameAnalyzer.FoundFrames(
                source: spanFrames?.source ?? .instruments,
                detail: spanFrames?.detail
                    ?? .instrumentsHitches(
                        frames: frames.count, frameTable: table, hitches: 0, unmatched: 0, systemHitches: 0),
                frames: frames)
            found.apple = self
            return found
        }
        let (placed, unmatched) = place(into: &frames, interval: interval)
        var found = FrameAnalyzer.FoundFrames(
            source: spanFrames == nil ? .instruments : .frameSpans,
            detail: .instrumentsHitches(
                frames: frames.count, frameTable: table, hitches: hitches.count, unmatched: unmatched,
                systemHitches: systemHitches),
            frames: frames)
        for (index, hitch) in placed {
            found.fallbackHolds[index] = FrameReport.HitchHold(
                lane: lane(of: hitch), stage: hitch.issue, frame: index, start: hitch.start,
                end: hitch.start.addingSaturating(hitch.duration), wasPending: false)
        }
        found.holdsDecided = true
        found.apple = self
        return found
    }

    /// Gives every frame Apple's verdict and adds a frame for each hitch that follows none;
    /// returns each hitch's frame and how many hitches matched no frame.
    private func place(into frames: inout [FrameReport.Frame], interval: Int64) -> ([(Int, Hitch)], Int) {
        for index in frames.indices {
            frames[index].apple = FrameReport.AppleVerdict(
                hitchNanoseconds: 0, potentialIssue: nil, hitchStart: frames[index].vsync)
        }
        var placed: [(Int, Hitch)] = []
        var orphans: [Hitch] = []
        let slack = interval.multipliedSaturating(by: 2)
        for hitch in hitches.sorted(by: { $0.start < $1.start }) {
            // The last frame that began at or before the hitch.
            var low = 0
            var high = frames.count
            while low < high {
                let middle = (low + high) / 2
                if frames[middle].vsync <= hitch.start { low = middle + 1 } else { high = middle }
            }
            let index = low - 1
            guard index >= 0, hitch.start <= frames[index].deadline.addingSaturating(slack),
                frames[index].apple?.hitchNanoseconds == 0
            else {
                orphans.append(hitch)
                continue
            }
            frames[index].apple = FrameReport.AppleVerdict(
                hitchNanoseconds: hitch.duration, potentialIssue: hitch.issue, hitchStart: hitch.start)
            placed.append((index, hitch))
        }
        let unmatched = frames.isEmpty ? 0 : orphans.count
        guard !orphans.isEmpty else { return (placed, 0) }
        // Orphans become frames of their own, and the frames are put back in time order.
        let matched = Dictionary(placed.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        var all = frames.indices.map { (frames[$0], matched[$0]) }
        for hitch in orphans {
            var frame = FrameReport.Frame(
                index: 0, vsync: hitch.start, deadline: hitch.start.addingSaturating(interval), workStart: hitch.start,
                commitEnd: hitch.start.addingSaturating(interval).addingSaturating(hitch.duration))
            frame.apple = FrameReport.AppleVerdict(
                hitchNanoseconds: hitch.duration, potentialIssue: hitch.issue, hitchStart: hitch.start)
            all.append((frame, hitch))
        }
        let order = all.indices.sorted { (all[$0].0.vsync, $0) < (all[$1].0.vsync, $1) }
        frames = []
        placed = []
        for (position, old) in order.enumerated() {
            var frame = all[old].0
            frame.index = position
            frames.append(frame)
            if let hitch = all[old].1 { placed.append((position, hitch)) }
        }
        return (placed, unmatched)
    }

    /// One frame per displayed surface on the app's display (the display its hitches name, else
    /// the first surface's): from the swap, due one interval later.
    private func surfaceFrames(interval: Int64) -> [FrameReport.Frame] {
        let display = hitches.first?.display ?? surfaces.first?.display
        let own = surfaces.filter { display == nil || $0.display == display }
        return own.sorted { $0.start < $1.start }.enumerated().map { index, surface in
            FrameReport.Frame(
                index: index, vsync: surface.start, deadline: surface.start.addingSaturating(interval),
                workStart: surface.start, commitEnd: surface.start.addingSaturating(min(surface.duration, interval)))
        }
    }

    /// The lane that held a hitch, as Apple's tables say.
    private func lane(of hitch: Hitch) -> Lane {
        let covers = { (interval: Interval) in interval.start <= hitch.start && hitch.start < interval.end }
        if updates.contains(where: covers) { return .main }
        if renders.contains(where: covers) { return .render }
        let issue = hitch.issue?.lowercased() ?? ""
        if issue.contains("render") || issue.contains("gpu") { return .render }
        return .main
    }
}
