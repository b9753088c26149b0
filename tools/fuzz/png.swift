// fuzz-sources: Sources/FrameSimulation/Imaging Sources/FrameSimulation/DisplayLoop/WorkMeter.swift Sources/FrameTrace/ThreadCPUTime.swift
// fuzz-seeds: Tests/FrameSimulationTests/Fixtures/PNG
// fuzz-merge-modules: FrameTrace
// libFuzzer target for the imaging workloads: the inflater (raw DEFLATE and zlib), the PNG
// decoder with a small pixel limit, and, for inputs that decode, downsampling and every corner
// rounding strategy. The Imaging sources and the work meter they report to import only the
// standard library, Foundation, Synchronization and one FrameTrace function, so they compile into
// this one module with the harness (internal symbols stay reachable).
//
// Checksums would stop almost every mutation at the first chunk, so each input is decoded three
// ways: as it is; with every chunk's CRC-32 recomputed (reaching the chunk rules and the
// inflater); and as raw scanlines wrapped into a valid PNG with stored zlib blocks and a correct
// Adler-32 (reaching unfiltering, palettes and pixel conversion with arbitrary data).
//
// Run with tools/fuzz.sh png SECONDS: it copies the sources listed above without their imports of
// FrameTrace and compiles them with this harness into one module (FUZZ_OPT=-Onone for the
// debug-only checks below).
// -Onone keeps the debug-only bounds checks of unsafe buffers; -O runs about three times faster.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let inflater = Inflater(maxOutputBytes: 1 << 20)
    _ = try? inflater.inflateRaw(bytes)
    _ = try? inflater.inflate(bytes)
    for candidate in [bytes, withChunkCRCsFixed(bytes), pngWrappingScanlines(bytes)] {
        if let bitmap = try? PNGDecoder.decode(candidate, maxPixels: 1 << 16) {
            exerciseRounding(bitmap, knobs: bytes)
        }
    }
    return 0
}

/// Recomputes the CRC-32 of every complete chunk after the signature.
private func withChunkCRCsFixed(_ bytes: [UInt8]) -> [UInt8] {
    var fixed = bytes
    var offset = 8
    while offset + 12 <= fixed.count {
        let length = fixed[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= fixed.count - offset - 12 else { break }
        var crc = CRC32()
        crc.update(fixed[offset + 4..<offset + 8 + length])
        for index in 0..<4 { fixed[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc.value >> (24 - 8 * index)) }
        offset += 12 + length
    }
    return fixed
}

/// Builds a valid PNG around the input: byte 0 picks the colour type, bytes 1–2 the size,
/// byte 3 the palette length, and the rest, padded with zeros, are the filtered scanlines.
private func pngWrappingScanlines(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count >= 4 else { return [] }
    let colorType = PNGColorType.allCases[Int(bytes[0]) % PNGColorType.allCases.count]
    let width = 1 + Int(bytes[1] % 64)
    let height = 1 + Int(bytes[2] % 64)
    let paletteCount = 1 + Int(bytes[3])
    var scanlines = Array(bytes.dropFirst(4).prefix(height * (1 + width * colorType.channels)))
    scanlines += [UInt8](repeating: 0, count: height * (1 + width * colorType.channels) - scanlines.count)

    var stream: [UInt8] = [0x78, 0x01]
    var remaining = scanlines[...]
    repeat {
        let block = remaining.prefix(65535)
        remaining = remaining.dropFirst(block.count)
        let length = UInt16(block.count)
        stream += [remaining.isEmpty ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        stream += block
    } while !remaining.isEmpty
    var adler = Adler32()
    scanlines.withUnsafeBufferPointer { adler.update($0) }
    stream += bigEndian(adler.value)

    var png = PNGDecoder.signature
    func appendChunk(_ type: String, _ body: [UInt8]) {
        let typeAndBody = Array(type.utf8) + body
        var crc = CRC32()
        crc.update(typeAndBody[...])
        png += bigEndian(UInt32(body.count)) + typeAndBody + bigEndian(crc.value)
    }
    appendChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colorType.rawValue, 0, 0, 0])
    if colorType == .palette {
        appendChunk("PLTE", (0..<paletteCount * 3).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        appendChunk("tRNS", (0..<paletteCount / 2).map { UInt8(truncatingIfNeeded: $0 &* 11) })
    }
    appendChunk("IDAT", stream)
    appendChunk("IEND", [])
    return png
}

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// Downsamples and rounds a decoded image, with sizes, radius and position taken from the input.
private func exerciseRounding(_ bitmap: Bitmap, knobs: [UInt8]) {
    let knob = Int(knobs[knobs.count - 1])
    let width = 1 + knob % bitmap.width
    let height = 1 + (knob / 7) % bitmap.height
    let filter: ResamplingFilter = knob % 2 == 0 ? .box : .bilinear
    let shown = bitmap.downsampled(toWidth: width, height: height, filter: filter)
    let radius = Double(knobs[knobs.count / 2] % 64) / 2
    let background = Pixel(red: 12, green: 34, blue: 56)
    var framebuffer = Bitmap(width: 48, height: 48, filledWith: background)
    for strategy in CornerRoundingStrategy.allCases {
        let rounded = RoundedImage(image: shown, cornerRadius: radius, strategy: strategy, background: background)
        rounded.draw(into: &framebuffer, atX: knob % 80 - 40, y: (knob / 3) % 80 - 40)
    }
}
