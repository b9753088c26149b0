import FrameSupport
import FrameTrace

/// Writes a Chrome trace (array form) of `events` events that looks like a scrolling app recorded
/// by framescope next to Chrome-style tracing:
/// - process and thread metadata (`M`);
/// - per frame on the main thread: a vsync instant, the frame as a `B`/`E` pair, `X` spans for
///   input, cell layout (with the row), draw and commit, and a memory counter (`C`) every other
///   frame;
/// - Chrome-style `X` tasks whose `args` repeat a few `src_file`/`src_func` pairs, carry `tdur`
///   and `tts`, or nest a `data` object (devtools.timeline), and `{}` args;
/// - image decodes on four worker threads, each with a flow (`s` on main, `f` with `bp: "e"` on
///   the worker) and a URL and byte count;
/// - a network request every 30 frames as an async `b`/`e` pair with `id2`.
///
/// Timestamps are microseconds with three decimals, as framescope writes them; the same seed
/// gives the same bytes.
func makeSyntheticTrace(events target: Int, seed: UInt64) -> [UInt8] {
    var trace = SyntheticTrace(target: target, seed: seed)
    trace.writeMetadata()
    var now: Int64 = 1_000_000_000
    var frame = 0
    while !trace.isComplete {
        frame += 1
        now = trace.writeFrame(frame, start: now)
    }
    trace.out.append(contentsOf: "\n]\n".utf8)
    return trace.out
}

/// The synthetic trace ``makeSyntheticTrace(events:seed:)`` writes, one frame at a time: its
/// bytes so far, its random numbers and the ids it has handed out.
struct SyntheticTrace {
    let target: Int
    var rng: SeededGenerator
    var out: [UInt8] = []
    var count = 0
    /// The next image decode's flow id and the next network request's number.
    var flow = 1
    var request = 1

    static let pid = 4242
    static let mainThread = "\"pid\":\(pid),\"tid\":1"
    static let workers = (7...10).map { "\"pid\":\(pid),\"tid\":\($0)" }
    static let cells = ["FeedCell", "PhotoCell", "CommentCell", "HeaderCell", "AdCell"]
    static let hosts = ["img.example.com", "cdn.example.net", "static.example.org"]
    static let tasks = [
        ("../../cc/trees/layer_tree_host.cc", "ScheduleAnimation"),
        ("../../cc/scheduler/scheduler.cc", "BeginImplFrame"),
        ("../../ui/events/gesture_detection/gesture_provider.cc", "OnTouchEvent"),
        ("../../third_party/blink/renderer/core/frame/local_frame_view.cc", "UpdateLifecyclePhases"),
        ("../../base/task/sequence_manager/task_queue_impl.cc", "PostTask"),
    ]

    init(target: Int, seed: UInt64) {
        self.target = target
        rng = SeededGenerator(seed: seed)
        out.reserveCapacity(target * 150)
    }

    /// Whether the trace has all its events.
    var isComplete: Bool { count >= target }

    /// Appends an event object with these members, unless the trace is complete.
    mutating func event(_ body: String) {
        guard count < target else { return }
        out.append(contentsOf: (count == 0 ? "[\n{" : ",\n{").utf8)
        out.append(contentsOf: body.utf8)
        out.append(UInt8(ascii: "}"))
        count += 1
    }

    /// Nanoseconds as microseconds with three decimals.
    func micros(_ nanoseconds: Int64) -> String {
        let fraction = String(nanoseconds % 1000)
        return "\(nanoseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
    mutating func span(_ low: Int64, _ high: Int64) -> Int64 { Int64.random(in: low...high, using: &rng) }

    /// The process's and threads' names and the main thread's sort index.
    mutating func writeMetadata() {
        let (pid, mainThread) = (Self.pid, Self.mainThread)
        event(#""ph":"M","name":"process_name","pid":\#(pid),"tid":0,"args":{"name":"ScrollingApp"}"#)
        event(#""ph":"M","name":"thread_name",\#(mainThread),"args":{"name":"main"}"#)
        event(#""ph":"M","name":"thread_sort_index",\#(mainThread),"args":{"sort_index":0}"#)
        for (index, worker) in Self.workers.enumerated() {
            event(#""ph":"M","name":"thread_name",\#(worker),"args":{"name":"image-decode-\#(index)"}"#)
        }
    }

    /// One frame from its vsync at `start`; returns the next frame's vsync.
    mutating func writeFrame(_ frame: Int, start: Int64) -> Int64 {
        let mainThread = Self.mainThread
        var t = start + span(20_000, 80_000)
        event(#""ph":"i","name":"vsync","cat":"frame","s":"t",\#(mainThread),"ts":\#(micros(start))"#)
        event(
            #""ph":"B","name":"frame","cat":"frame",\#(mainThread),"ts":\#(micros(start)),"args":{"frame":\#(frame)}"#)
        t = writeTask(frame, at: t)
        for _ in 0..<Int.random(in: 1...4, using: &rng) { t = writeLayout(frame, at: t) }
        if frame % 3 == 0 {
            event(
                #""ph":"X","name":"UpdateLayerTree","cat":"devtools.timeline",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(120_000)),"tdur":100,"tts":\#(frame * 17),"args":{"data":{"frame":"F\#(frame % 7)","layerIds":[1,2,3,5,8],"rect":{"x":0,"y":\#(frame),"w":390,"h":844}}}"#
            )
            t += 125_000
        }
        if frame % 30 == 0 { writeRequest(at: t) }
        t = writeDrawAndCommit(at: t)
        event(#""ph":"E","name":"frame","cat":"frame",\#(mainThread),"ts":\#(micros(t)),"args":{}"#)
        if frame % 2 == 0 {
            event(
                #""ph":"C","name":"memory","cat":"memory",\#(mainThread),"ts":\#(micros(t)),"args":{"resident-mb":\#(Double(Int.random(in: 18_000...26_000, using: &rng)) / 100),"images":\#(Int.random(in: 10...90, using: &rng))}"#
            )
        }
        let interval = FrameRate.standard.intervalNanoseconds
        return start + max(interval, (t - start + interval - 1) / interval * interval)
    }

    /// A Chrome-style task and the input it handles; returns the time after them.
    mutating func writeTask(_ frame: Int, at t: Int64) -> Int64 {
        let mainThread = Self.mainThread
        let (file, function) = pick(Self.tasks)
        let task = span(200_000, 900_000)
        event(
            #""ph":"X","name":"ThreadControllerImpl::RunTask","cat":"toplevel",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(task)),"tdur":\#(task / 1000 - 3),"tts":\#(frame * 311),"args":{"src_file":"\#(file)","src_func":"\#(function)"}"#
        )
        let input = span(50_000, 150_000)
        event(
            #""ph":"X","name":"handle input","cat":"input",\#(mainThread),"ts":\#(micros(t + 10_000)),"dur":\#(micros(input)),"args":{"touches":1,"phase":"\#(pick(["moved", "moved", "moved", "ended"]))"}"#
        )
        return t + task + 10_000
    }

    /// A cell's layout and, one time in three, an image decode it requests on a worker; returns
    /// the time after the layout.
    mutating func writeLayout(_ frame: Int, at start: Int64) -> Int64 {
        let mainThread = Self.mainThread
        var t = start
        let layout = span(30_000, 900_000)
        event(
            #""ph":"X","name":"layout \#(pick(Self.cells))","cat":"layout",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(layout)),"args":{"row":\#(frame * 3 + Int.random(in: 0...8, using: &rng))}"#
        )
        t += layout + 5_000
        guard Int.random(in: 0..<3, using: &rng) == 0 else { return t }
        let worker = pick(Self.workers)
        event(#""ph":"s","name":"decode request","cat":"image","id":\#(flow),\#(mainThread),"ts":\#(micros(t))"#)
        let decodeStart = t + span(20_000, 200_000)
        let decode = span(400_000, 6_000_000)
        event(
            #""ph":"f","name":"decode request","cat":"image","bp":"e","id":\#(flow),\#(worker),"ts":\#(micros(decodeStart))"#
        )
        event(
            #""ph":"X","name":"decode image","cat":"image",\#(worker),"ts":\#(micros(decodeStart)),"dur":\#(micros(decode)),"args":{"url":"https://\#(pick(Self.hosts))/photos/\#(Int.random(in: 100_000...999_999, using: &rng)).jpg","bytes":\#(Int.random(in: 20_000...900_000, using: &rng))}"#
        )
        event(
            #""ph":"X","name":"round corners","cat":"image",\#(worker),"ts":\#(micros(decodeStart + decode + 10_000)),"dur":\#(micros(span(50_000, 400_000))),"args":{"radius":12,"opaque":true}"#
        )
        flow += 1
        return t
    }

    /// A network request as an async pair with `id2`, 40 ms long.
    mutating func writeRequest(at t: Int64) {
        let mainThread = Self.mainThread
        let id = "0x\(String(request, radix: 16))"
        request += 1
        event(
            #""ph":"b","name":"fetch page","cat":"network","id2":{"local":"\#(id)"},\#(mainThread),"ts":\#(micros(t)),"args":{}"#
        )
        event(
            #""ph":"e","name":"fetch page","cat":"network","id2":{"local":"\#(id)"},\#(mainThread),"ts":\#(micros(t + 40_000_000)),"args":{"status":200}"#
        )
    }

    /// The frame's draw and commit; returns the time after them.
    mutating func writeDrawAndCommit(at start: Int64) -> Int64 {
        let mainThread = Self.mainThread
        var t = start
        let draw = span(300_000, 3_000_000)
        event(
            #""ph":"X","name":"draw","cat":"draw",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(draw)),"args":{}"#)
        t += draw
        let commit = span(100_000, 900_000)
        event(
            #""ph":"X","name":"commit","cat":"commit",\#(mainThread),"ts":\#(micros(t)),"dur":\#(micros(commit)),"args":{"layers":\#(Int.random(in: 20...40, using: &rng))}"#
        )
        return t + commit
    }
}
