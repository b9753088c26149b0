import FrameSupport
import FrameTrace

/// Main-thread cost per frame against the budget, downsampled for a Markdown page: a Mermaid
/// `xychart-beta` block, which GitHub renders in pull-request comments and step summaries.
///
/// ```swift
/// print(FrameChart(report: report).mermaid(title: "scroll.json"))
/// ```
package struct FrameChart: Sendable, Hashable {
    /// At most this many points: a chart stays a few kilobytes whatever the frame count.
    package static let maximumPoints = 200

    /// Per point, the largest main-thread cost of its frames, in nanoseconds.
    package var points: [Int64]
    /// Frames per point (the last point may have fewer).
    package var framesPerPoint: Int
    /// Frames charted.
    package var frameCount: Int
    /// The frame interval `P`: the budget line.
    package var intervalNanoseconds: Int64

    /// Charts a report's frames.
    /// - Parameters:
    ///   - report: The report.
    ///   - maximumPoints: The most points to draw; groups of frames share one point beyond it.
    package init(report: FrameReport, maximumPoints: Int = FrameChart.maximumPoints) {
        self.init(
            mainThreadNanoseconds: report.frames.map(\.mainThreadNanoseconds),
            intervalNanoseconds: report.method.frameRate.intervalNanoseconds,
            maximumPoints: maximumPoints)
    }

    /// Charts frames given by their main-thread costs, as frames rows carry them.
    /// - Parameters:
    ///   - costs: Each frame's main-thread cost, in order.
    ///   - intervalNanoseconds: The frame interval `P`.
    ///   - maximumPoints: The most points to draw.
    package init(
        mainThreadNanoseconds costs: [Int64], intervalNanoseconds: Int64, maximumPoints: Int = FrameChart.maximumPoints
    ) {
        precondition(maximumPoints > 0, "maximumPoints must be positive")
        frameCount = costs.count
        self.intervalNanoseconds = intervalNanoseconds
        let group = max(1, (costs.count + maximumPoints - 1) / maximumPoints)
        framesPerPoint = group
        points = stride(from: 0, to: costs.count, by: group).map { start in
            costs[start..<min(costs.count, start + group)].max() ?? 0
        }
    }

    /// The chart as a fenced Mermaid block (bars: main-thread ms per frame, or the largest of
    /// each group of frames; line: the budget `P`), or an empty string without frames.
    /// - Parameter title: What the chart shows, e.g. the trace's name.
    package func mermaid(title: String) -> String {
        guard !points.isEmpty else { return "" }
        func ms(_ nanoseconds: Int64) -> String { ReportFormat.fixed(Double(nanoseconds) / 1e6, decimals: 2) }
        let top = Double(max(points.max() ?? 0, intervalNanoseconds)) * 1.1 / 1e6
        let what =
            framesPerPoint == 1
            ? "main-thread ms per frame" : "main-thread ms, the largest of each \(framesPerPoint) frames"
        let safeTitle = UntrustedText.mermaidString("\(title): \(what); line: budget \(ms(intervalNanoseconds)) ms")
        var lines = ["```mermaid", "xychart-beta", "    title \"\(safeTitle)\""]
        lines.append("    x-axis \"frame\" 0 --> \(max(1, frameCount - 1))")
        lines.append("    y-axis \"ms\" 0 --> \(ReportFormat.fixed(top, decimals: 1))")
        lines.append("    bar [" + points.map(ms).joined(separator: ", ") + "]")
        lines.append(
            "    line [" + Array(repeating: ms(intervalNanoseconds), count: points.count).joined(separator: ", ") + "]")
        lines.append("```")
        return lines.joined(separator: "\n") + "\n"
    }
}
