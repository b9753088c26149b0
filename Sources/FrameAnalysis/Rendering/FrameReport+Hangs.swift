import FrameSupport
import FrameTrace

extension FrameReport {
    /// The hangs an Instruments recording found, apart from its hitches: when each began (from
    /// the first frame's vsync, or the first hang when it came earlier), how long it lasted,
    /// Apple's kind and the thread. `nil` without hangs.
    var hangsTable: ReportTable? {
        guard !hangs.isEmpty else { return nil }
        typealias F = ReportFormat
        let origin = min(frames.first?.vsync ?? hangs[0].start, hangs[0].start)
        var table = ReportTable(
            title: "Hangs (Instruments' potential-hangs: the main run loop unresponsive; not hitches)",
            columns: [("at", .right), ("for", .right), ("kind", .left), ("thread", .left)])
        for hang in hangs {
            table.rows.append([
                F.milliseconds(hang.start.subtractingSaturating(origin)), F.milliseconds(hang.duration), hang.type,
                "\(hang.threadName ?? "(unnamed)") (\(hang.thread))",
            ])
        }
        return table
    }
}
