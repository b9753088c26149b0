import Foundation
import FrameTrace
import Testing
import FrameTraceReader

/// The benchmark's first stages alone (`FirstStage`): each must cover the whole file, or its time
/// says nothing of the format's share of a read, and must refuse what it did not read to the end.
@Suite("Each format's first stage, alone, as the benchmark times it")
struct FirstStageTests {
    /// A trace of every kind of event the writers write, read from a fixture.
    private func trace() throws -> Trace { try Fixture.read("all-phases.json") }

    @Test("the JSON tokenizer reads every element of either document form, and nothing else")
    func json() throws {
        let document = ChromeTraceWriter.document(for: try trace())
        // Foundation's parser as the oracle for the element count.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
        let elements = try #require(object["traceEvents"] as? [Any]).count
        #expect(elements > 10)
        let objectForm = document.withUnsafeBufferPointer { FirstStage.tokenizeJSONEventArray($0) }
        #expect(objectForm == elements)

        // The array form: the same elements, whitespace around the brackets.
        let array = try JSONSerialization.data(withJSONObject: object["traceEvents"] as Any)
        let arrayForm = Array(" \n".utf8) + Array(array) + Array("\n".utf8)
        #expect(arrayForm.withUnsafeBufferPointer { FirstStage.tokenizeJSONEventArray($0) } == elements)

        for (text, expected) in [("[]", 0 as Int?), (" [ ] ", 0), ("{\"traceEvents\": [ ]}", 0), ("{\"other\":[]}", nil), ("null", nil), ("", nil)] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { FirstStage.tokenizeJSONEventArray($0) } == expected, "\(text)")
        }
        // Cut inside the array: not read to its end.
        let cut = Array(document[..<(document.count / 2)])
        #expect(cut.withUnsafeBufferPointer { FirstStage.tokenizeJSONEventArray($0) } == nil)
    }

    @Test("the protobuf framer counts every packet to the file's end, and refuses a cut file")
    func protobuf() throws {
        let file = PerfettoTraceWriter.document(for: try trace())
        // The oracle: `Trace` fields, each a key byte (field 1, length-delimited: 0x0A) and a
        // varint length, counted here without the reader.
        var fields = 0
        var position = 0
        while position < file.count {
            #expect(file[position] == 0x0A)
            position += 1
            var length = 0
            var shift = 0
            while true {
                let byte = file[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            position += length
            fields += 1
        }
        #expect(position == file.count)
        #expect(fields > 10)
        #expect(file.withUnsafeBufferPointer { FirstStage.framePerfettoPackets($0) } == fields)
        #expect([UInt8]().withUnsafeBufferPointer { FirstStage.framePerfettoPackets($0) } == 0)
        let cut = Array(file.dropLast())
        #expect(cut.withUnsafeBufferPointer { FirstStage.framePerfettoPackets($0) } == nil)
    }
}
