/// Each format's first stage alone, for the benchmark (`framescope-bench perfetto`): the part of
/// a read that only the format decides, before either reader builds the same ``Trace``.
///
/// - JSON: the event tokenizer over a top-level event array (member names, numbers, string
///   bounds, scalar arguments), as the worker thread runs it.
/// - Perfetto: the packet framer (finding packets and decoding those of the common shape), as
///   its worker thread runs it.
///
/// What a read costs beyond its first stage is the trace model (events, argument lists,
/// interning, pairing), which both formats pay. So the first stages' ratio bounds how much
/// faster one format can be read than the other when both build that model.
package enum FirstStage {
    /// Tokenizes every element of the event array of `bytes`: a JSON document that is an event
    /// array, or an object whose first member is `traceEvents` (as framescope writes it).
    /// - Returns: The number of elements, or `nil` when the document has neither form or its
    ///   array does not tokenize to its closing `]`.
    package static func tokenizeJSONEventArray(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var tokenizer = ChromeJSONImporter.EventTokenizer(scanner: TraceScanner(bytes))
        // Whitespace, then `token` exactly.
        func skip(_ token: String) -> Bool {
            tokenizer.scanner.skipWhitespace()
            for byte in token.utf8 {
                guard !tokenizer.scanner.isAtEnd, tokenizer.scanner.current == byte else { return false }
                tokenizer.scanner.position += 1
            }
            return true
        }
        guard skip("[") || skip("{") && skip("\"traceEvents\"") && skip(":") && skip("[") else { return nil }
        tokenizer.scanner.skipWhitespace()
        if !tokenizer.scanner.isAtEnd, tokenizer.scanner.current == UInt8(ascii: "]") { return 0 }
        let batch = ChromeJSONImporter.EventPipeline.Batch()
        var elements = 0
        while true {
            tokenizer.fillEvents(batch)
            elements += batch.count
            guard let ending = batch.ending else { continue }
            guard case .closed = ending else { return nil }
            return elements
        }
    }

    /// Frames every packet of `bytes`, a Perfetto trace, and decodes those of the common shape.
    /// - Returns: The number of `Trace` fields (packets and others), or `nil` when the file does
    ///   not end after a whole packet.
    package static func framePerfettoPackets(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var framer = PacketFramer(bytes)
        let batch = PacketFramer.Batch()
        var fields = 0
        while true {
            let ended = framer.fill(batch)
            fields += batch.count
            guard ended else { continue }
            guard case .complete = batch.ending else { return nil }
            return fields
        }
    }
}
