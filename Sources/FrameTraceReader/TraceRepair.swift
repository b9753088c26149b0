import FrameJSON
package import FrameTrace

/// Turns an array-form trace cut off by a crash into a complete one, dropping only the event the
/// cut went through.
///
/// A writer killed in the middle of a write (``TraceStream`` in a flush, or any tool that
/// streams the array form) leaves `[{...},{...},{"ph":"X","na` — every event before the cut
/// complete, then part of one. Viewers differ on such files (Catapult rejects them whole); the
/// repair keeps every complete event byte for byte, drops the torn one and whatever follows the
/// last complete event, and closes the array.
///
/// ```swift
/// let repair = try TraceRepair.repair(bytes)
/// print("dropped \(repair.droppedByteCount) bytes")
/// try OutputFile(path: "fixed.json").write(repair.bytes)
/// ```
package struct TraceRepair: Sendable, Hashable {
    /// The complete trace.
    package var bytes: [UInt8]
    /// Complete events kept.
    package var keptEventCount: Int
    /// Bytes of the input after the last complete event that were dropped (a torn event, a
    /// trailing comma, whitespace); 0 when the input was already complete.
    package var droppedByteCount: Int
    /// Where the dropped bytes began in the input, when any were dropped.
    package var droppedFromOffset: Int?
    /// Whether the input was already a complete trace (it is returned unchanged).
    package var wasComplete: Bool
    /// The trace's format: for ``FrameTrace/TraceFormat/perfetto`` the counts are of packets.
    package var format: TraceFormat = .chromeJSON

    /// Repairs an array-form trace.
    ///
    /// - Parameter input: The trace's bytes: `[` then events, possibly cut off anywhere.
    /// - Returns: The repaired trace; unchanged bytes when the array was already closed.
    /// - Throws: ``TraceReadError`` when the input is not an array-form trace, or is invalid
    ///   before the cut (the repair removes a torn tail, not errors in the middle); for a
    ///   Perfetto trace, also when no packet is whole or the torn one claims 2 GiB or more (the
    ///   reader's errors for the same input).
    /// - Complexity: O(*n*) in the input's size.
    package static func repair(_ input: [UInt8]) throws(TraceReadError) -> TraceRepair {
        let result: Result<TraceRepair, TraceReadError> = input.withUnsafeBufferPointer { buffer in
            do throws(TraceReadError) {
                return .success(try repair(buffer, input: input))
            } catch {
                return .failure(error.located(in: buffer))
            }
        }
        return try result.get()
    }

    private static func repair(_ buffer: UnsafeBufferPointer<UInt8>, input: [UInt8]) throws(TraceReadError)
        -> TraceRepair
    {
        if PerfettoImporter.looksLikePerfetto(buffer) { return try repairPerfetto(buffer, input: input) }
        var scanner = TraceScanner(buffer)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "[") else {
            throw TraceReadError(
                .notATrace, "only the array form ([{...},...) can be repaired; this input does not start with '['",
                at: scanner.position)
        }
        scanner.position += 1
        var events = 0
        var lastEventEnd = scanner.position  // just after `[` until an event is complete
        while true {
            scanner.skipWhitespace()
            if scanner.isAtEnd { break }
            if scanner.current == UInt8(ascii: "]") {
                let close = scanner.position
                scanner.position += 1
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw scanner.unexpected(expecting: "the end of the input after ']'") }
                // A trailing comma before `]` is tolerated by readers but not by JSON itself.
                let between = buffer[lastEventEnd..<close]
                if between.allSatisfy({
                    $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
                        || $0 == UInt8(ascii: "\t")
                }) {
                    return TraceRepair(
                        bytes: input, keptEventCount: events, droppedByteCount: 0, droppedFromOffset: nil,
                        wasComplete: true)
                }
                break
            }
            if events > 0 {
                guard scanner.current == UInt8(ascii: ",") else {
                    throw scanner.unexpected(expecting: "',' or ']' after an event")
                }
                scanner.position += 1
                scanner.skipWhitespace()
                if scanner.isAtEnd || scanner.current == UInt8(ascii: "]") { continue }
            }
            do throws(TraceReadError) {
                try scanner.skipValue()
            } catch {
                guard error.isEndOfInput else { throw error }
                break  // the torn event
            }
            events += 1
            lastEventEnd = scanner.position
        }
        var bytes = Array(input[..<lastEventEnd])
        bytes += Array("\n]\n".utf8)
        let dropped = input.count - lastEventEnd
        return TraceRepair(
            bytes: bytes, keptEventCount: events, droppedByteCount: dropped,
            droppedFromOffset: dropped > 0 ? lastEventEnd : nil,
            wasComplete: false)
    }

    /// A Perfetto trace keeps its complete packets, byte for byte; a torn last packet (its
    /// length runs past the end of the file) is cut. Packets are self-contained, so what is
    /// kept reads. Anything malformed before the cut is an error, as for JSON; so is a cut in
    /// the first packet (nothing to keep) or a length no packet can have, as the reader says
    /// (``TornPacket``).
    private static func repairPerfetto(_ buffer: UnsafeBufferPointer<UInt8>, input: [UInt8]) throws(TraceReadError)
        -> TraceRepair
    {
        var cursor = ProtobufInput(buffer)
        var packets = 0
        var lastPacketEnd = 0
        while true {
            do throws(TraceReadError) {
                guard let (field, type) = try cursor.nextField() else { break }
                try cursor.skip(type)
                if field == PerfettoSchema.Trace.packet { packets += 1 }
                lastPacketEnd = cursor.position
            } catch {
                guard error.isEndOfInput else { throw error }
                // The torn packet starts where the last whole field ended.
                if let error = TornPacket(in: buffer, at: lastPacketEnd).error { throw error }
                break
            }
        }
        let dropped = input.count - lastPacketEnd
        return TraceRepair(
            bytes: dropped == 0 ? input : Array(input[..<lastPacketEnd]), keptEventCount: packets,
            droppedByteCount: dropped,
            droppedFromOffset: dropped > 0 ? lastPacketEnd : nil, wasComplete: dropped == 0, format: .perfetto)
    }
}
