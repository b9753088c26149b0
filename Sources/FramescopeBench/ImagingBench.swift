import Foundation
import FrameSimulation
import FrameSupport
import FrameTrace

/// Imaging figures: inflate throughput beside Python's zlib on the same bytes, decode and
/// downsample cost per image size, corner rounding cost per strategy per frame, and the rounded
/// image cache's hit rate over a simulated feed. Reads the PNG fixtures, so run it from the
/// repository root.
func runImagingBenchmarks() {
    let fixtures = URL(fileURLWithPath: "Tests/FrameSimulationTests/Fixtures/PNG")
    func fixture(_ name: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: fixtures.appendingPathComponent(name + ".png")) else {
            fatalError("cannot read fixture \(name).png; run framescope-bench from the repository root")
        }
        return [UInt8](data)
    }
    benchmarkInflate(png: fixture("photo-1200x900"))
    benchmarkDecode(fixtures: [
        ("avatar-rgba-96x96", fixture("avatar-rgba-96x96"), 48, 48),
        ("palette-300x300", fixture("palette-300x300"), 150, 150),
        ("photo-640x480", fixture("photo-640x480"), 320, 240),
        ("photo-1200x900", fixture("photo-1200x900"), 375, 281),
    ])
    let photo = try! PNGDecoder.decode(fixture("photo-1200x900"))
    benchmarkRounding(photo: photo)
    benchmarkCache(avatarPNG: fixture("avatar-rgba-96x96"))
}

private func benchmarkInflate(png: [UInt8]) {
    let stream = try! PNGDecoder.compressedImageData(of: png)
    let outputSize = try! Inflater().inflate(stream).count
    let repetitions = 30
    section(
        "Imaging: inflate photo-1200x900's IDAT (\(stream.count) bytes in, \(outputSize) out; median of \(repetitions))"
    )
    let timing = measure(repetitions: repetitions, operations: 1) { blackHole(try! Inflater().inflate(stream)) }
    let swiftRate = Double(outputSize) / timing.median * 1e3
    figure("framescope Inflater", swiftRate, "MB/s", note: "\(formatFixed(timing.median / 1e6, decimals: 2)) ms")
    guard let pythonNanoseconds = pythonZlibNanoseconds(stream, repetitions: repetitions) else {
        print("python3 with zlib not found: skipping the zlib comparison")
        return
    }
    let pythonRate = Double(outputSize) / pythonNanoseconds * 1e3
    figure(
        "Python zlib.decompress (C zlib)", pythonRate, "MB/s",
        note: "\(formatFixed(pythonNanoseconds / 1e6, decimals: 2)) ms")
    figure("framescope / zlib", swiftRate / pythonRate, "x")
}

/// Times `zlib.decompress` on `stream` inside a python3 process (the timing excludes start-up).
/// - Returns: The median nanoseconds per call, or nil when python3 cannot run.
private func pythonZlibNanoseconds(_ stream: [UInt8], repetitions: Int) -> Double? {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("framescope-bench-idat-\(getpid()).zlib")
    defer { try? FileManager.default.removeItem(at: file) }
    let script = """
        import sys, time, zlib
        data = open(sys.argv[1], 'rb').read()
        zlib.decompress(data)
        samples = []
        for _ in range(int(sys.argv[2])):
            start = time.perf_counter_ns()
            zlib.decompress(data)
            samples.append(time.perf_counter_ns() - start)
        samples.sort()
        print(samples[len(samples) // 2])
        """
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, file.path, String(repetitions)]
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
        try Data(stream).write(to: file)
        try process.run()
    } catch {
        return nil
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
}

private func benchmarkDecode(fixtures: [(name: String, png: [UInt8], width: Int, height: Int)]) {
    section("Imaging: decode + downsample to display size (ms per image; median of 20)")
    for fixture in fixtures {
        let decode = measure(repetitions: 20, operations: 1) { blackHole(try! PNGDecoder.decode(fixture.png)) }
        figure("\(fixture.name) decode", decode.median / 1e6, "ms", note: "\(fixture.png.count) bytes")
        for filter in ResamplingFilter.allCases {
            let total = measure(repetitions: 20, operations: 1) {
                blackHole(
                    try! PNGDecoder.decode(fixture.png).downsampled(
                        toWidth: fixture.width, height: fixture.height, filter: filter))
            }
            figure("  + \(filter) to \(fixture.width)×\(fixture.height)", total.median / 1e6, "ms")
        }
    }
}

private func benchmarkRounding(photo: Bitmap) {
    let white = Pixel(red: 255, green: 255, blue: 255)
    section(
        "Imaging: corner rounding (µs; one-time preparation, then per frame into a 750×1334 framebuffer; median of 200)"
    )
    var framebuffer = Bitmap(width: 750, height: 1334, filledWith: white)
    for (label, width, height, radius) in [("avatar 120×120 r60", 120, 120, 60.0), ("photo 600×400 r16", 600, 400, 16)]
    {
        let image = photo.downsampled(toWidth: width, height: height)
        for strategy in CornerRoundingStrategy.allCases {
            let prepare = measure(repetitions: 50, operations: 1) {
                blackHole(RoundedImage(image: image, cornerRadius: radius, strategy: strategy, background: white))
            }
            let rounded = RoundedImage(image: image, cornerRadius: radius, strategy: strategy, background: white)
            let work = rounded.draw(into: &framebuffer, atX: 40, y: 300)
            let frame = measure(repetitions: 200, operations: 1) {
                blackHole(rounded.draw(into: &framebuffer, atX: 40, y: 300))
            }
            figure(
                "\(label) \(strategy) per frame", frame.median / 1e3, "µs",
                note:
                    "prepare \(formatFixed(prepare.median / 1e3, decimals: 1)) µs; copied \(work.copiedPixels), blended \(work.blendedPixels), offscreen \(work.offscreenPixels) px"
            )
        }
    }
}

/// A feed of 600 cell appearances drawn from 40 people's avatars: the first appearance of each
/// decodes, downsamples and pre-renders; every later one is a cache hit.
private func benchmarkCache(avatarPNG: [UInt8]) {
    section("Imaging: rounded avatar cache over a simulated feed (600 appearances, 40 people)")
    let white = Pixel(red: 255, green: 255, blue: 255)
    let cache = RoundedImageCache(capacity: 100)
    var rng = SeededGenerator(seed: 1)
    var missNanoseconds: UInt64 = 0
    var hitNanoseconds: UInt64 = 0
    for _ in 0..<600 {
        let person = Int.random(in: 0..<40, using: &rng)
        let key = RoundedImageCache.Key(
            imageID: "avatar/\(person)", width: 64, height: 64, cornerRadius: 32, strategy: .prerenderedOpaque,
            background: white)
        let missesBefore = cache.statistics.misses
        let start = benchNow()
        blackHole(
            cache.roundedImage(for: key) {
                let decoded = try! PNGDecoder.decode(avatarPNG).downsampled(toWidth: 64, height: 64)
                return RoundedImage(image: decoded, cornerRadius: 32, strategy: .prerenderedOpaque, background: white)
            })
        let elapsed = benchNow() - start
        if cache.statistics.misses > missesBefore { missNanoseconds += elapsed } else { hitNanoseconds += elapsed }
    }
    let statistics = cache.statistics
    figure("hit rate", statistics.hitRate * 100, "%", note: "\(statistics.hits) hits, \(statistics.misses) misses")
    figure(
        "miss: decode + downsample + pre-render", Double(missNanoseconds) / Double(max(statistics.misses, 1)) / 1e3,
        "µs")
    figure("hit: lookup", Double(hitNanoseconds) / Double(max(statistics.hits, 1)) / 1e3, "µs")
}
