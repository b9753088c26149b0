import Dispatch
import FrameAnalysis
import FrameScope
import FrameTrace
import Foundation

/// `framescope demo`: records a small multi-threaded workload and writes its trace.
enum DemoCommand: Command {
    static let options: Set<String> = ["out", "frames"]
    static let flags: Set<String> = []
    static let help = """
        USAGE: framescope demo [--out PATH] [--frames N]

        Records a small multi-threaded workload: a main thread running frames (input, layout,
        applying decoded images) and two decode workers whose results flow to the main thread.
        Writes a Chrome trace (object form) and prints its path.

        OPTIONS:
          --out PATH    Where to write the trace (default: framescope-demo.json).
          --frames N    Frames to run, 1-10000 (default: 120).
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError("demo takes no positional arguments") }
        let path = arguments.value("out") ?? "framescope-demo.json"
        let frames = try arguments.integer("frames", default: 120, in: 1...10_000)
        let recorder = Recorder()
        DemoWorkload(recorder: recorder, frames: frames).run()
        do {
            try recorder.writeChromeJSON(to: path)
        } catch {
            throw InputError("cannot write trace: \(error)")
        }
        let trace = recorder.snapshot()
        print(FrameAnalyzer.analyze(trace).text(source: path))
        print("wrote \(trace.events.count) events from \(trace.threads.count) threads to \(path)")
        print("open it in https://ui.perfetto.dev or chrome://tracing")
        return .success
    }
}

/// The interim demo workload: real (small) computation on real threads, recorded with spans.
struct DemoWorkload {
    let recorder: Recorder
    let frames: Int

    func run() {
        let results = DecodedQueue()
        let finished = DispatchSemaphore(value: 0)
        let workerCount = 2
        for index in 1...workerCount {
            Thread { [recorder, frames] in
                defer { finished.signal() }
                recorder.nameCurrentThread("decode-worker-\(index)")
                for image in stride(from: index - 1, to: frames, by: 2) {
                    let flow = recorder.makeFlow("decoded image", category: .imageDecode)
                    let pixels = recorder.withSpan("decode image", category: .imageDecode, arguments: ["image": .int(Int64(image))]) {
                        let pixels = DemoWorkload.decode(seed: UInt64(image), size: 96)
                        recorder.startFlow(flow)
                        return pixels
                    }
                    results.push((flow, pixels))
                }
            }.start()
        }
        for frame in 0..<frames {
            recorder.withSpan("frame", category: .frame, arguments: ["index": .int(Int64(frame))]) {
                recorder.instant("touch", category: .input)
                recorder.withSpan("layout rows", category: .layout) { blackHole(DemoWorkload.layoutRows(seed: UInt64(frame))) }
                for (flow, pixels) in results.popAll() {
                    recorder.withSpan("apply image", category: .imageDecode) {
                        recorder.finishFlow(flow)
                        blackHole(pixels.reduce(0, &+))
                    }
                }
            }
        }
        for _ in 0..<workerCount { finished.wait() }
        for (flow, _) in results.popAll() {
            recorder.withSpan("apply image", category: .imageDecode) { recorder.finishFlow(flow) }
        }
    }

    /// Makes a deterministic gradient bitmap and box-filters it to half size: real pixel work.
    static func decode(seed: UInt64, size: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var source = [UInt8](repeating: 0, count: size * size)
        for index in source.indices { source[index] = UInt8(truncatingIfNeeded: index &+ Int(generator.next() & 15)) }
        let half = size / 2
        var output = [UInt8](repeating: 0, count: half * half)
        for y in 0..<half {
            for x in 0..<half {
                let sum = Int(source[2 * y * size + 2 * x]) + Int(source[2 * y * size + 2 * x + 1])
                    + Int(source[(2 * y + 1) * size + 2 * x]) + Int(source[(2 * y + 1) * size + 2 * x + 1])
                output[y * half + x] = UInt8(sum / 4)
            }
        }
        return output
    }

    /// Greedy word wrap of deterministic text into 40-column lines: real layout-like work.
    static func layoutRows(seed: UInt64) -> Int {
        var generator = SeededGenerator(seed: seed)
        var lines = 0
        for _ in 0..<40 {
            var column = 0
            for _ in 0..<30 {
                let word = Int(generator.next() % 9) + 1
                if column + word > 40 {
                    lines += 1
                    column = 0
                }
                column += word + 1
            }
            lines += 1
        }
        return lines
    }
}

/// Decoded results waiting for the main thread; the lock guards `items`.
final class DecodedQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(Flow, [UInt8])] = []

    func push(_ item: (Flow, [UInt8])) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    func popAll() -> [(Flow, [UInt8])] {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items = []
        return taken
    }
}

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
