import Testing

@testable import FrameTraceReader

/// The benchmark's first stages alone (`FirstStage`): each must cover the whole file, over many
/// batches, or its time says nothing of the format's share of a read, and must refuse what it did
/// not read to the end.
@Suite("Each format's first stage, alone, as the benchmark times it")
struct FirstStageTests {
    private func tokenize(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { FirstStage.tokenizeJSONEventArray($0) }
    }

    @Test("the JSON tokenizer reads every element of either document form, and nothing else")
    func json() {
        // Elements of every kind the reader meets (a number among them), over several batches.
        let count = ChromeJSONImporter.EventPipeline.batchSize * 2 + 17
        let array = ReaderPipelineTests.largeTrace(count)
        #expect(tokenize(array) == count)
        #expect(tokenize(#"{"traceEvents":"# + array + #","metadata":{"producer":"x"}}"#) == count)
        #expect(tokenize(" \n { \"traceEvents\" : " + array + "}") == count)

        for (text, expected) in [
            ("[]", 0 as Int?), (" [ ] ", 0), (#"{"traceEvents": [ ]}"#, 0), (#"{"other":[]}"#, nil), ("null", nil),
            ("", nil),
        ] {
            #expect(tokenize(text) == expected, "\(text)")
        }
        // Cut inside the array: not read to its end.
        #expect(tokenize(String(array.prefix(array.utf8.count / 2))) == nil)
    }

    @Test("the protobuf framer counts every packet to the file's end, and refuses a cut file")
    func protobuf() {
        // Several batches of packets; the oracle walks their keys and lengths without the reader.
        let file = PerfettoPipelineTests.large
        let packets = PerfettoPipelineTests.packetStarts(file).count
        #expect(packets > 2 * PacketFramer.Batch.capacity)
        #expect(file.withUnsafeBufferPointer { FirstStage.framePerfettoPackets($0) } == packets)
        #expect([UInt8]().withUnsafeBufferPointer { FirstStage.framePerfettoPackets($0) } == 0)
        let cut = Array(file.dropLast())
        #expect(cut.withUnsafeBufferPointer { FirstStage.framePerfettoPackets($0) } == nil)
    }
}
