import Foundation
import Testing

@Suite("framescope simulate --stream and framescope repair")
struct StreamCommandTests {
    @Test("simulate --stream writes a complete trace as it runs that reads back with no diagnostic")
    func simulateStream() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("stream.json").path
        let result = try CLI.run(["simulate", "diffable-update", "--stream", "--frames", "25", "--out", path])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("25 spans in category \"frame\" on the main thread"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("[\n{\""))
        #expect(text.hasSuffix("\n]\n"))
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [Any])
        let report = try CLI.run(["report", path, "--format", "json"])
        #expect(report.status == 0)
        #expect(report.standardOutput.contains(#""diagnostics":[]"#))
    }

    @Test("repair drops the torn event, says how many bytes, and writes a trace that reads with no diagnostic")
    func repairTornStream() throws {
        let directory = try CLI.temporaryDirectory()
        let torn = directory.appendingPathComponent("stream-killed-mid-write.json").path
        let complete =
            #"[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},{"ph":"X","cat":"frame","name":"frame","pid":1,"tid":1,"ts":0,"dur":9000}"#
        let tornEvent = #",{"ph":"X","cat":"frame","name":"fr"#
        try Data((complete + tornEvent).utf8).write(to: URL(fileURLWithPath: torn))
        let before = try CLI.run(["report", torn])
        #expect(before.status == 0)
        #expect(before.standardOutput.contains("truncated"))

        let out = directory.appendingPathComponent("repaired.json").path
        let result = try CLI.run(["repair", torn, "--out", out])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(
            result.standardError
                == "\(torn): kept 2 complete events; dropped \(tornEvent.utf8.count) bytes from byte \(complete.utf8.count) (a torn event and the missing ']')\n"
        )
        #expect(try String(contentsOfFile: out, encoding: .utf8) == complete + "\n]\n")
        let after = try CLI.run(["report", out, "--format", "json"])
        #expect(after.standardOutput.contains(#""diagnostics":[]"#))

        // In place, and then a second repair finds nothing to do.
        let inPlace = try CLI.run(["repair", torn])
        #expect(inPlace.status == 0)
        #expect(try String(contentsOfFile: torn, encoding: .utf8) == complete + "\n]\n")
        let again = try CLI.run(["repair", torn])
        #expect(again.standardError == "\(torn): complete, 2 events; nothing dropped\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "repaired.json", "stream-killed-mid-write.json",
            ])
    }

    @Test("repair of something that is not an array-form trace is exit 3 with one line")
    func repairRefuses() throws {
        let path = try ShippedTraces.write(#"{"traceEvents": [{"ph":"i""#, name: "object.json")
        let result = try CLI.run(["repair", path])
        #expect(result.status == 3)
        #expect(result.standardError.hasPrefix("error: \(path): line 1, column 1"))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }
}
