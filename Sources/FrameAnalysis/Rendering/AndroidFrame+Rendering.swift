import FrameTrace

// Android's own names for a frame, where the worst-frames tables and the HTML's tooltips print
// them: the vsync id a developer types into Perfetto's UI or trace processor, and FrameTimeline's
// jank and present types, so that a frame in framescope's report is the same frame in Android's
// tools.

extension AndroidFrame {
    /// The frame's jank type and present type as FrameTimeline writes them: `App Deadline
    /// Missed; Late Present`; `-` for a part FrameTimeline left empty.
    /// A frame janky by a later slice says so: `None; On-time Present, then App Deadline Missed;
    /// Late Present`.
    package var verdictPhrase: String {
        func phrase(_ jank: String, _ present: String) -> String {
            "\(jank.isEmpty ? "-" : jank); \(present.isEmpty ? "-" : present)"
        }
        let first = phrase(jankType, presentType)
        return laterJank.map { first + ", then " + phrase($0.jankType, $0.presentType) } ?? first
    }
}

extension ReportTable {
    /// Adds Android's names to the worst-frames table: a `vsync id` column after the frame's
    /// number and, after the cause, a `jank type; present` column. `frames` are the table's rows'
    /// frames, in order. A 100-column terminal (`wide` false) has no room for both: there the
    /// vsync id takes the place of `vsync at`, and the verdict opens the last column, which wraps,
    /// set off from the top spans by ` | ` (ASCII: a terminal line of 100 characters is 100 bytes).
    mutating func addPlatformColumns(_ frames: [FrameReport.WorstFrame], wide: Bool) {
        var names = columns.map(\.name)
        guard let cause = names.firstIndex(of: "cause"), rows.count == frames.count else { return }
        let verdicts = frames.map { $0.frame.android?.verdictPhrase ?? "-" }
        let ids = frames.map { $0.frame.android.map { "\($0.token)" } ?? "-" }
        var kept = columns
        if wide {
            kept.insert((name: "jank type; present", alignment: .left), at: cause + 1)
            for index in rows.indices { rows[index].insert(verdicts[index], at: min(cause + 1, rows[index].count)) }
        } else if let last = names.indices.last {
            kept[last].name = "jank type; present | top spans"
            for index in rows.indices where last < rows[index].count {
                rows[index][last] = verdicts[index] + " | " + rows[index][last]
            }
        }
        kept.insert((name: "vsync id", alignment: .right), at: 1)
        for index in rows.indices { rows[index].insert(ids[index], at: 1) }
        columns = kept
        names = kept.map(\.name)
        if !wide, let at = names.firstIndex(of: "vsync at") { keepColumns(names.indices.filter { $0 != at }) }
    }
}
