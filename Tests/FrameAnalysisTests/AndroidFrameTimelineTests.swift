import Foundation
import FrameJSON
import FrameTrace
import FrameTraceReader
import Testing

@testable import FrameAnalysis

/// Android's frames from Perfetto traces: FrameTimeline's verdicts as trace processor's diff tests
/// expect them, with lanes from the app's own slices. The fixtures and their expected files come
/// from `tools/make_perfetto_fixtures.py` (see `Tests/FrameTraceReaderTests/Fixtures/perfetto`).
@Suite("Android frames from FrameTimeline: causes, lanes and missed frames as Perfetto counts them")
struct AndroidFrameTimelineTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FrameTraceReaderTests/Fixtures/perfetto")

    static func read(_ name: String) throws -> Trace {
        try TraceReader.read(contentsOf: folder.appendingPathComponent("\(name).pftrace").path)
    }

    static func expected(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: folder.appendingPathComponent("\(name).expected.json"))))
    }

    /// What each jank type and overrunning lane mean as a framescope cause: written out here from
    /// the issue's mapping, not taken from the code under test.
    static func expectedCause(jank: String, lane: String?) -> HitchCause {
        switch jank {
        case "None": .none
        case "App Deadline Missed": lane == "render" ? .render : .commit
        case "SurfaceFlinger CPU Deadline Missed", "SurfaceFlinger GPU Deadline Missed": .compositor
        case "Buffer Stuffing": .none  // a state, not a jank: latency, not a hitch
        case "Display HAL": .displayHAL
        case "Prediction Error": .predictionError
        default: .unknown
        }
    }

    @Test("android-app-frames: one frame per token, lanes from doFrame and DrawFrames, the cause FrameTimeline gives")
    func appFrames() throws {
        let report = FrameAnalyzer.analyze(try Self.read("android-app-frames"))
        let expected = try Self.expected("android-app-frames")
        let frames = expected["frames"]?.arrayValue ?? []
        #expect(report.method.frameSource == .frameTimeline)
        #expect(report.frames.count == frames.count)
        for (frame, want) in zip(report.frames, frames) {
            let token = want["token"]?.integerValue ?? -1
            let jank = want["jank_type"]?.stringValue ?? ""
            #expect(frame.vsync == want["vsync_ts"]?.integerValue, "token \(token)")
            #expect(frame.deadline == want["deadline_ts"]?.integerValue, "token \(token)")
            #expect(
                frame.lane(.main)?.costNanoseconds == want["doFrame"]?["dur"]?.integerValue, "token \(token): main lane"
            )
            #expect(
                frame.lane(.render)?.costNanoseconds == want["DrawFrames"]?["dur"]?.integerValue,
                "token \(token): render lane")
            let interval = report.method.frameRate.intervalNanoseconds
            // Android's overrun, for every frame: the actual frame's end minus the expected one's.
            #expect(
                frame.overrun == (want["app_work_end_ts"]?.integerValue ?? 0)
                    - (want["deadline_ts"]?.integerValue ?? 0),
                "token \(token)")
            #expect(frame.android?.jankType == jank, "token \(token)")
            #expect(frame.android?.jankTag == want["jank_tag"]?.stringValue, "token \(token)")
            #expect(frame.android?.presentType == want["present_type"]?.stringValue, "token \(token)")
            if jank == "Dropped Frame" {
                #expect(frame.outcome == .dropped, "token \(token)")
                #expect(frame.isLate(interval: interval) && frame.hitchCause == .unknown, "token \(token)")
            } else {
                let cause = Self.expectedCause(jank: jank, lane: want["overrun_lane"]?.stringValue)
                #expect(frame.hitchCause == cause, "token \(token) (\(jank)): \(frame.hitchCause)")
                #expect(
                    frame.isLate(interval: interval) == (cause != .none),
                    "token \(token): late exactly when Android calls it janky")
            }
            #expect(frame.android?.isStuffed == (jank == "Buffer Stuffing"), "token \(token)")
            if frame.hitchCause == .commit || frame.hitchCause == .render {
                // The hold names the app slice that overran.
                #expect(frame.hitchHold?.lane == frame.hitchCause.lane)
                #expect(
                    frame.hitchHold?.stage == (frame.hitchCause == .commit ? "Choreographer#doFrame" : "DrawFrames"))
            }
        }
        // The report's text says where the frames came from and what the lanes are.
        let text = report.text(source: "android-app-frames.pftrace")
        #expect(text.contains("Android FrameTimeline"))
        #expect(text.contains("SurfaceFlinger, due at"))
    }

    /// One figure compared over every frame: how many agree, of how many compared.
    struct Tally: CustomStringConvertible {
        var agree = 0
        var compared = 0
        var description: String { "\(agree)/\(compared)" }
    }

    @Test(
        "android-frames-stdlib: every frame's figures equal trace processor's android_frames tables (frames_tests.py)")
    func standardLibrary() throws {
        let name = "android-frames-stdlib"
        let trace = try Self.read(name)
        let expected = try Self.expected(name)
        let app = try #require(expected["app_pid"]?.integerValue)
        let report = FrameAnalyzer.analyze(trace)
        #expect(report.method.frameSource == .frameTimeline)
        #expect(report.method.mainThread == ThreadKey(processID: app, threadID: app), "the UI thread: tid = pid")
        let frames = Dictionary(
            report.frames.compactMap { frame in frame.android.map { ($0.token, frame) } },
            uniquingKeysWith: { a, _ in a })
        let want = expected["frames"]?.arrayValue ?? []
        #expect(report.frames.count == want.count, "one frame per frame id of the app with an actual surface frame")
        #expect(Set(frames.keys) == Set(want.compactMap { $0["frame_id"]?.integerValue }))
        // The test's own expected tables (its .out files), by frame id: the figures each names.
        func table(_ key: String) -> [Int64: JSONValue] {
            var rows: [Int64: JSONValue] = [:]
            for row in expected[key]?.arrayValue ?? [] {
                if let id = row["frame_id"]?.integerValue, rows[id] == nil { rows[id] = row }
            }
            return rows
        }
        let overrun = table("android_frames_overrun")
        let delay = table("android_app_vsync_delay_per_frame")
        let cpu = table("android_cpu_time_per_frame")
        let stats = table("android_frame_stats")
        var tallies: [String: Tally] = [:]
        func check(_ figure: String, _ actual: Int64?, _ wanted: Int64?, _ id: Int64) {
            tallies[figure, default: Tally()].compared += 1
            if actual == wanted { tallies[figure, default: Tally()].agree += 1 }
            #expect(actual == wanted, "frame \(id): \(figure)")
        }
        for row in want {
            let id = try #require(row["frame_id"]?.integerValue)
            let frame = try #require(frames[id], "frame \(id)")
            let android = try #require(frame.android)
            check("expected start", android.expectedStart, row["expected_start"]?.integerValue, id)
            check("expected end", android.expectedEnd, row["expected_end"]?.integerValue, id)
            check("actual start", android.actualStart, row["actual_start"]?.integerValue, id)
            check("actual end", android.actualEnd, row["actual_end"]?.integerValue, id)
            check("layers", Int64(android.layers), Int64(row["layers"]?.arrayValue?.count ?? -1), id)
            check("doFrame", android.doFrameNanoseconds, row["do_frame_dur"]?.integerValue, id)
            check("DrawFrames summed", android.drawFrameNanoseconds, row["draw_frame_dur"]?.integerValue, id)
            // trace processor's own tables, where they have the frame.
            if let tp = overrun[id] {
                check("overrun (android_frames_overrun)", android.overrun, tp["overrun"]?.integerValue, id)
                check("overrun (report)", frame.overrun, tp["overrun"]?.integerValue, id)
            }
            if let tp = delay[id] {
                check("app vsync delay", android.appVsyncDelay, tp["app_vsync_delay"]?.integerValue, id)
            }
            if let tp = cpu[id] {
                check("cpu time", android.cpuTime, tp["cpu_time"]?.integerValue, id)
                check("draw_frame_dur", android.drawFrameNanoseconds, tp["draw_frame_dur"]?.integerValue, id)
                check("do_frame_dur", android.doFrameNanoseconds, tp["do_frame_dur"]?.integerValue, id)
            }
            if let tp = stats[id] { check("ui time", android.doFrameNanoseconds, tp["ui_time"]?.integerValue, id) }
            // Strings trace processor prints, and the lanes built from the same slices.
            #expect(android.jankType == row["jank_type"]?.stringValue, "frame \(id): jank type")
            #expect(android.jankTag == row["jank_tag"]?.stringValue, "frame \(id): jank tag")
            #expect(android.presentType == row["present_type"]?.stringValue, "frame \(id): present type")
            #expect(
                android.onTimeFinish == ((row["on_time_finish"]?.integerValue ?? 0) != 0), "frame \(id): on time finish"
            )
            #expect(frame.deadline == android.expectedEnd, "frame \(id): the deadline is the expected frame's end")
            #expect(
                frame.lane(.render)?.costNanoseconds == android.drawFrameNanoseconds,
                "frame \(id): the render lane sums DrawFrames")
            // Late exactly when Android calls the frame janky; buffer stuffing adds latency only.
            // Any of the token's actual slices counts, on any of the app's layers.
            let jankTypes = (row["layers"]?.arrayValue ?? []).compactMap { $0["jank_type"]?.stringValue }
            let reasons = Set(
                ([row["jank_type"]?.stringValue ?? ""] + jankTypes).flatMap { $0.split(separator: ",") }.map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            let janky = !reasons.isDisjoint(with: [
                "App Deadline Missed", "App Resynced Jitter", "SurfaceFlinger CPU Deadline Missed",
                "SurfaceFlinger GPU Deadline Missed",
                "SurfaceFlinger Scheduling", "Prediction Error", "Display HAL", "Dropped Frame",
            ])
            #expect(
                frame.isLate(interval: report.method.frameRate.intervalNanoseconds) == janky,
                "frame \(id): late when janky")
        }
        // Frame 130: its first slice on time, its second (the same layer, 550-556 ms) App Deadline
        // Missed. Janky by the second, as android_jank_cuj counts it; the overrun stays the first
        // slice's (android_frames_overrun: -18 ms); the hitch is the second's end past 520 ms.
        let frame130 = try #require(frames[130])
        #expect(frame130.android?.overrun == -18_000_000)
        #expect(frame130.android?.isJanky == true)
        #expect(frame130.android?.lateness == 36_000_000)
        #expect(frame130.hitchCause == .commit, "doFrame 130 ran 550-555 ms, past its 520 ms deadline")
        #expect(frame130.android?.verdictPhrase == "None; On-time Present, then App Deadline Missed; Late Present")
        // android_jank_cuj's own verdicts (its .out: the SHADE_ROW_EXPAND CUJ's 13 frames), token by
        // token. The CUJ follows one layer: a token is missed exactly when framescope finds a janky
        // slice of it on that layer; the app's frame is janky (and late) when any layer is.
        let cuj = expected["android_jank_cuj_frames"]?.arrayValue ?? []
        #expect(cuj.map { $0["vsync"]?.integerValue } == [10, 20, 30, 40, 60, 90, 100, 110, 120, 130, 140, 145, 150])
        let cujLayer = "TX - NotificationShade#0"
        for row in cuj {
            let vsync = try #require(row["vsync"]?.integerValue)
            let missed = row["app_missed"]?.boolValue == true || row["sf_missed"]?.boolValue == true
            let android = try #require(frames[vsync]?.android, "android_jank_cuj frame \(vsync)")
            #expect(
                android.jankyLayers.contains(cujLayer) == missed, "android_jank_cuj frame \(vsync): missed \(missed)")
            #expect(android.isJanky == !android.jankyLayers.isEmpty, "frame \(vsync): janky when any layer is")
        }
        // Frame 110: on time on the CUJ's layer, App Deadline Missed on the app's other layer.
        #expect(frames[110]?.android?.jankyLayers == ["TX - JankyLayer#1"])
        #expect(frames[110]?.android?.isJanky == true)
        #expect(cuj.filter { $0["app_missed"]?.boolValue == true || $0["sf_missed"]?.boolValue == true }.count == 8)
        // Buffer stuffing (frame 120) and SurfaceFlinger stuffing (145): counted, no hitch.
        #expect(report.summary.stuffedFrames == 2)
        #expect(report.summary.stuffingLatency?.max == 41_000_000, "frame 120's overrun is its added latency")
        print(
            "android-frames-stdlib, frames agreeing / compared:",
            tallies.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    @Test(
        "FrameTimeline diff tests: per process, every frame's figures are its first actual row's and its expected row's",
        arguments: [
            "frame-timeline-events", "frame-timeline-metric", "frame-timeline-power-mode", "android-app-frames",
        ])
    func framesFromRows(_ name: String) throws {
        let trace = try Self.read(name)
        let expected = try Self.expected(name)
        // trace processor's rows, in its id order (ts, then creation: the order the file lists them).
        let actual = (expected["actual_frame_timeline_slice"]?.arrayValue ?? []).filter {
            $0["surface_frame_token"]?.integerValue != nil
        }
        let expectedRows = (expected["expected_frame_timeline_slice"]?.arrayValue ?? []).filter {
            $0["surface_frame_token"]?.integerValue != nil
        }
        var tallies: [String: Tally] = [:]
        for pid in Set(actual.compactMap { $0["pid"]?.integerValue }).sorted() {
            var options = AnalysisOptions()
            options.processID = pid
            let report = FrameAnalyzer.analyze(trace, options: options)
            let mine = actual.filter { $0["pid"]?.integerValue == pid }
            var tokens: [Int64] = []
            for row in mine {
                if let token = row["surface_frame_token"]?.integerValue, !tokens.contains(token) {
                    tokens.append(token)
                }
            }
            #expect(report.frames.count == tokens.count, "\(name) pid \(pid): one frame per token")
            for token in tokens {
                let rows = mine.filter { $0["surface_frame_token"]?.integerValue == token }
                let first = rows[0]
                let frame = try #require(
                    report.frames.first { $0.android?.token == token }, "\(name) pid \(pid) token \(token)")
                let android = try #require(frame.android)
                let start = try #require(first["ts"]?.integerValue)
                let dur = try #require(first["dur"]?.integerValue)
                let wanted = expectedRows.first {
                    $0["pid"]?.integerValue == pid && $0["surface_frame_token"]?.integerValue == token
                }
                let wantedEnd = wanted.flatMap { row in
                    row["ts"]?.integerValue.map { $0 + (row["dur"]?.integerValue ?? 0) }
                }
                func check(_ figure: String, _ a: AnyHashable?, _ b: AnyHashable?) {
                    tallies[figure, default: Tally()].compared += 1
                    if a == b { tallies[figure, default: Tally()].agree += 1 }
                    #expect(a == b, "\(name) pid \(pid) token \(token): \(figure)")
                }
                check("actual start", android.actualStart, start)
                check("actual end", android.actualEnd, start + dur)
                check("expected start", android.expectedStart, wanted?["ts"]?.integerValue)
                check("expected end", android.expectedEnd, wantedEnd)
                check("overrun", android.overrun, wantedEnd.map { start + dur - $0 })
                check("layers", android.layers, rows.count)
                check("jank type", android.jankType, first["jank_type"]?.stringValue)
                check("jank tag", android.jankTag, first["jank_tag"]?.stringValue)
                check("present type", android.presentType, first["present_type"]?.stringValue)
                check("on time finish", android.onTimeFinish, (first["on_time_finish"]?.integerValue ?? 0) != 0)
            }
        }
        print(
            "\(name), frames agreeing / compared:",
            tallies.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    @Test("Frame rows carry Android's strings and a stuffed frame's added latency, null for every other frame")
    func rows() throws {
        let trace = try Self.read("android-frames-stdlib")
        let report = FrameAnalyzer.analyze(trace)
        var lines: [String] = []
        FrameRows.write(report, trace: "t", labels: [], metadata: trace.metadata, format: .jsonLines) {
            lines.append($0)
        }
        #expect(lines.count == report.frames.count)
        for (line, frame) in zip(lines, report.frames) {
            let row = try JSONValue.parse(Array(line.utf8))
            let android = try #require(frame.android)
            #expect(row["jank_type"]?.stringValue == android.jankType)
            #expect(row["jank_tag"]?.stringValue == android.jankTag)
            #expect(row["present_type"]?.stringValue == android.presentType)
            // Frames 120 (Buffer Stuffing, 41 ms past its expected end) and 145 (SurfaceFlinger Stuffing, 0).
            let latency = row["stuffing_latency_ms"]?.doubleValue
            switch android.token {
            case 120: #expect(latency == 41)
            case 145: #expect(latency == 0)
            default: #expect(row["stuffing_latency_ms"] == .null, "frame \(android.token)")
            }
        }
    }

    @Test(
        "An expected frame that never ended: its deadline is one interval after its vsync, never before it (found by the pipeline fuzzer)"
    )
    func unendedExpectedFrame() throws {
        var trace = try Self.read("android-app-frames")
        let expectedName = try #require(trace.symbols.lookup("Expected Timeline"))
        let firstEnd = try #require(trace.events.firstIndex { $0.phase == .asyncEnd && $0.name == expectedName })
        trace.events.remove(at: firstEnd)
        let report = FrameAnalyzer.analyze(trace)
        let interval = report.method.frameRate.intervalNanoseconds
        #expect(report.frames.count == 8)
        for frame in report.frames {
            #expect(frame.deadline >= frame.vsync, "frame \(frame.index)")
        }
        let torn = try #require(
            report.frames.first { $0.deadline == $0.vsync + interval && $0.android?.expectedEnd == $0.vsync - 1 })
        // trace processor reads the unended slice's end as its start - 1, and so does Android's overrun here.
        #expect(torn.overrun == torn.android!.actualEnd - (torn.vsync - 1))
    }

    @Test(
        "frame-timeline-metric: per process, framescope's late frames and causes agree with trace processor's frame timeline metric"
    )
    func metric() throws {
        let trace = try Self.read("frame-timeline-metric")
        let expected = try Self.expected("frame-timeline-metric")
        let processes = expected["metric"]?["process"]?.arrayValue ?? []
        #expect(processes.count == 4)
        var missedApp = 0
        for process in processes {
            let pid = try #require(process["pid"]?.integerValue)
            var options = AnalysisOptions()
            options.processID = pid
            let report = FrameAnalyzer.analyze(trace, options: options)
            let frames = report.frames
            let late = frames.filter { $0.isLate(interval: report.method.frameRate.intervalNanoseconds) }
            // The app's misses: a lane of the app's, or Android's own words when the trace has none.
            let app = late.filter { [.commit, .render, .appDeadlineMissed].contains($0.hitchCause) }.count
            let surfaceFlinger = late.filter { [.compositor, .displayHAL, .predictionError].contains($0.hitchCause) }
                .count
            #expect(report.method.frameSource == .frameTimeline)
            #expect(
                frames.count == process["total_frames"]?.integerValue.map(Int.init),
                "process \(pid): frames (distinct tokens)")
            #expect(late.count == process["missed_frames"]?.integerValue.map(Int.init), "process \(pid): missed frames")
            #expect(
                app == process["missed_app_frames"]?.integerValue.map(Int.init), "process \(pid): missed app frames")
            #expect(
                surfaceFlinger == process["missed_sf_frames"]?.integerValue.map(Int.init),
                "process \(pid): missed SurfaceFlinger frames")
            #expect(
                frames.filter { $0.outcome == .dropped }.count == process["dropped_frames"]?.integerValue.map(Int.init),
                "process \(pid): dropped")
            missedApp += app
        }
        #expect(missedApp == expected["metric"]?["missed_app_frames"]?.integerValue.map(Int.init))
    }

    @Test("frame-timeline-events: without --process the app with the most surface frames is analysed, and named")
    func choosesTheApp() throws {
        let report = FrameAnalyzer.analyze(try Self.read("frame-timeline-events"))
        #expect(report.method.frameSource == .frameTimeline)
        guard
            case .androidFrameTimeline(let frames, let processID, _, let mainSliceName, _, _) = report.method
                .frameSourceDetail
        else {
            Issue.record("frames from FrameTimeline, not \(report.method.frameSourceDetail)")
            return
        }
        #expect(processID == 1000)
        #expect(frames == report.frames.count)
        #expect(mainSliceName == "Choreographer#doFrame")
        // Every frame FrameTimeline calls on time is on time; every late one has a cause.
        for frame in report.frames {
            #expect(
                frame.isLate(interval: report.method.frameRate.intervalNanoseconds) == (frame.hitchCause != .none),
                "frame \(frame.index)")
        }
    }

    @Test("A FrameTimeline trace converted to JSON and read back gives the same frames")
    func throughJSON() throws {
        let trace = try Self.read("android-app-frames")
        let json = try TraceReader.read(bytes: trace.chromeJSON())
        let direct = FrameAnalyzer.analyze(trace)
        let converted = FrameAnalyzer.analyze(json)
        #expect(converted.method.frameSource == .frameTimeline)
        #expect(converted.frames.map(\.hitchCause) == direct.frames.map(\.hitchCause))
        #expect(converted.frames.map(\.overrun) == direct.frames.map(\.overrun))
        #expect(converted.summary == direct.summary)
    }
}
