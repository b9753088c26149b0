import Foundation
import FrameTrace
import Testing

@testable import FrameAnalysis

@Suite("Per-frame rows (framescope.frames v1)")
struct FrameRowsTests {
    static func sketch() -> TraceSketch {
        var sketch = TraceSketch(interval: ms(10))
        sketch.trace.metadata.extra = [
            Argument("scenario", .string("feed, scroll")), Argument("seed", .int(7)),
            Argument("hit-rate", .double(0.5)),
        ]
        sketch.span("frame", "frame", from: 0, to: 4)
        sketch.span("layout", "layout", from: 1, to: 3)
        sketch.span("frame", "frame", from: 10, to: 22.5)
        sketch.span("decode", "image-decode", from: 11, to: 22)
        return sketch
    }

    static func rows(_ format: FrameRows.Format) -> [String] {
        let sketch = sketch()
        let report = FrameAnalyzer.analyze(sketch.trace)
        var lines: [String] = []
        FrameRows.write(
            report, trace: "t.json", labels: [("branch", "main")], metadata: sketch.trace.metadata, format: format
        ) {
            lines.append($0)
        }
        return lines
    }

    @Test("JSON Lines: one object per frame with the schema, labels, metadata and exact milliseconds")
    func jsonLines() throws {
        let lines = Self.rows(.jsonLines)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasSuffix("}\n") && !$0.dropLast().contains("\n") })
        let row = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(row["schema"] as? String == "framescope.frames")
        #expect(row["version"] as? Int == 1)
        #expect(row["trace"] as? String == "t.json")
        #expect(row["label_branch"] as? String == "main")
        #expect(row["meta_scenario"] as? String == "feed, scroll")
        #expect(row["meta_seed"] as? Int == 7)
        #expect(row["meta_hit-rate"] as? Double == 0.5)
        #expect(row["frame_source"] as? String == "frame-spans")
        #expect(row["index"] as? Int == 1)
        #expect(row["vsync_ns"] as? Int == Int(ms(10)))
        #expect(row["deadline_ns"] as? Int == Int(ms(20)))
        #expect(row["main_ms"] as? Double == 12.5)
        #expect(row["overrun_ms"] as? Double == 2.5)
        #expect(row["missed_vsyncs"] as? Int == 1)
        #expect(row["outcome"] as? String == "measured")
        let categories = try #require(row["main_by_category_ms"] as? [String: Double])
        #expect(categories == ["image-decode": 11, "(unattributed)": 1.5])
        #expect(lines[0].contains("\"overrun_ms\":-6.000000"))
    }

    @Test("CSV: a header, one line per frame, a column per category, quoted where needed")
    func csv() {
        let lines = Self.rows(.csv)
        #expect(lines.count == 3)
        #expect(
            lines[0]
                == "schema,version,trace,label_branch,meta_scenario,meta_seed,meta_hit-rate,frame_source,frame_interval_ms,index,vsync_ns,deadline_ns,main_ms,overrun_ms,missed_vsyncs,outcome,hitch_cause,held_by_frame,hitch_stage,render_ms,background_ms,category:(unattributed),category:image-decode,category:layout\n"
        )
        #expect(
            lines[2]
                == "framescope.frames,1,t.json,main,\"feed, scroll\",7,0.5,frame-spans,10.000000,1,10000000,20000000,12.500000,2.500000,1,measured,commit,1,,,,1.500000,11.000000,0.000000\n"
        )
    }

    @Test("CSV: the empty category's column is category:(none), apart from a trace's category named (none)")
    func csvEmptyCategory() throws {
        var sketch = TraceSketch(interval: ms(10))
        sketch.span("frame", "frame", from: 0, to: 8)
        sketch.span("untagged", "", from: 1, to: 3)
        sketch.span("odd", "(none)", from: 4, to: 5)
        let report = FrameAnalyzer.analyze(sketch.trace)
        var lines: [String] = []
        FrameRows.write(report, trace: "t.json", labels: [], metadata: sketch.trace.metadata, format: .csv) {
            lines.append($0)
        }
        let header = try #require(lines.first).dropLast().split(separator: ",", omittingEmptySubsequences: false)
        let columns = header.filter { $0.contains("category:") }
        #expect(columns == ["category:(none)", #""category:""(none)""""#, "category:(unattributed)"])
    }

    @Test("Milliseconds are exact for any nanosecond count, negative ones included")
    func exactMilliseconds() {
        #expect(FrameRows.exactMilliseconds(0) == "0.000000")
        #expect(FrameRows.exactMilliseconds(-1) == "-0.000001")
        #expect(FrameRows.exactMilliseconds(16_666_667) == "16.666667")
        #expect(FrameRows.exactMilliseconds(.min) == "-9223372036854.775808")
    }
}
