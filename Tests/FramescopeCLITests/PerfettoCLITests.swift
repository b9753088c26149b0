import Foundation
import Testing

/// Perfetto's format through the CLI: simulate writes it, every command reads it by content,
/// convert goes both ways, repair cuts a torn packet, and malformed bytes are one line, exit 3.
@Suite("framescope and Perfetto protobuf: simulate, report, convert, repair")
struct PerfettoCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FrameTraceReaderTests/Fixtures/perfetto")

    /// A report as JSON, without the input's name; `input` goes to standard input.
    static func report(_ path: String, input: Data? = nil) throws -> [String: Any] {
        let result = try CLI.run(["report", path, "--format", "json"], input: input)
        #expect(result.status == 0, "report \(path): \(result.standardError)")
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        object["source"] = nil
        if var method = object["method"] as? [String: Any] {
            method["source"] = nil
            object["method"] = method
        }
        return object
    }

    static func same(_ a: [String: Any], _ b: [String: Any]) -> Bool { NSDictionary(dictionary: a).isEqual(to: b) }

    @Test(
        "The same simulation written as JSON and as .pftrace reports the same figures; convert round-trips JSON to protobuf to JSON"
    )
    func sameReport() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        for (index, out) in ["a.json", "a.pftrace"].enumerated() {
            let result = try CLI.run([
                "simulate", "diffable-update", "--strategy", "snapshot-diff", "--frames", "30", "--seed", "4", "--out",
                path(out),
            ])
            #expect(result.status == 0, "\(index): \(result.standardError)")
        }
        let json = try Data(contentsOf: URL(fileURLWithPath: path("a.json")))
        let protobuf = try Data(contentsOf: URL(fileURLWithPath: path("a.pftrace")))
        #expect(json.first == UInt8(ascii: "{") && protobuf.first == 0x0A)
        #expect(protobuf.count * 100 <= json.count * 45, "protobuf \(protobuf.count) bytes, JSON \(json.count)")
        let base = try Self.report(path("a.json"))
        #expect(Self.same(base, try Self.report(path("a.pftrace"))))
        // JSON -> protobuf (format from the name) -> JSON (format from --to).
        let there = try CLI.run(["convert", path("a.json"), "--out", path("b.perfetto-trace")])
        #expect(there.status == 0, "\(there.standardError)")
        #expect(there.standardError.contains("as perfetto"))
        let back = try CLI.run(["convert", path("b.perfetto-trace"), "--to", "chrome-json", "--out", path("c.trace")])
        #expect(back.status == 0, "\(back.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("c.trace"))).first == UInt8(ascii: "{"))
        #expect(Self.same(base, try Self.report(path("b.perfetto-trace"))))
        #expect(Self.same(base, try Self.report(path("c.trace"))))
    }

    @Test("report - reads a Perfetto trace from standard input to its end, not only the pipe's first chunk")
    func standardInput() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("long.pftrace").path
        // diffable-update: no photos to draw and encode first, which take the debug build minutes.
        let simulated = try CLI.run(["simulate", "diffable-update", "--frames", "600", "--seed", "2", "--out", path])
        #expect(simulated.status == 0, "\(simulated.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Several pipe buffers (64 KiB each on Linux): the reader must keep reading after the first.
        #expect(bytes.count > 128 << 10, "\(bytes.count) bytes")
        #expect(Self.same(try Self.report("-", input: bytes), try Self.report(path)))
    }

    @Test("--trace-format perfetto writes protobuf whatever the name; a streamed .pftrace reads and reports")
    func traceFormat() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("run.json").path
        let result = try CLI.run([
            "simulate", "diffable-update", "--frames", "12", "--trace-format", "perfetto", "--out", named,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: named)).first == 0x0A)
        let streamed = folder.appendingPathComponent("stream.pftrace").path
        let stream = try CLI.run(["simulate", "diffable-update", "--frames", "25", "--stream", "--out", streamed])
        #expect(stream.status == 0, "\(stream.standardError)")
        let report = try Self.report(streamed)
        #expect((report["summary"] as? [String: Any])?["frames"] as? Int == 25)
        #expect((report["diagnostics"] as? [Any])?.isEmpty == true)
        let bad = try CLI.run([
            "simulate", "diffable-update", "--frames", "2", "--trace-format", "protobuf", "--out", named,
        ])
        #expect(bad.status == 2 && bad.standardError.contains("--trace-format"))
    }

    @Test("Malformed protobuf is one line naming the byte, exit 3; a torn last packet reads, and repair cuts it")
    func hostile() throws {
        let malformed = try CLI.run(["report", Self.fixtures.appendingPathComponent("varint-too-long.pftrace").path])
        #expect(malformed.status == 3)
        let lines = malformed.standardError.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains("byte 56:") && lines[0].contains("varint"),
            "\(malformed.standardError)")

        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let torn = folder.appendingPathComponent("torn.pftrace")
        try Data(contentsOf: Self.fixtures.appendingPathComponent("truncated-last-packet.pftrace")).write(to: torn)
        let report = try Self.report(torn.path)
        let diagnostics = (report["diagnostics"] as? [[String: Any]]) ?? []
        #expect(diagnostics.map { $0["kind"] as? String } == ["truncated"])
        let repair = try CLI.run(["repair", torn.path])
        #expect(repair.status == 0)
        #expect(
            repair.standardError.contains("complete packets") && repair.standardError.contains("from byte 107"),
            "\(repair.standardError)")
        #expect(((try Self.report(torn.path))["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test(
        "No whole packet (2^40 bytes claimed in a 15-byte file, a lone 0x0a) is one line, exit 3, from a file or standard input; a torn last packet after whole ones is exit 0 and a diagnostic"
    )
    func tornFiles() throws {
        let beyond = Self.fixtures.appendingPathComponent("first-packet-beyond-file.pftrace")
        let bytes = try Data(contentsOf: beyond)
        #expect(bytes.count == 15)
        let message =
            "byte 0: the first packet claims 1099511627776 bytes but only 8 follow its length, in an input of 15 bytes: not a whole Perfetto packet"
        for (path, input) in [(beyond.path, nil), ("-", bytes)] {
            let result = try CLI.run(["report", path], input: input)
            #expect(result.status == 3 && result.standardOutput.isEmpty)
            #expect(
                result.standardError == "error: \(path == "-" ? "<stdin>" : path): \(message)\n",
                "\(result.standardError)")
        }
        // Cut inside the first packet's length: no whole packet, so no hint to repair it.
        let cut = try CLI.run(["report", "-"], input: Data([0x0A, 0x80]))
        #expect(cut.status == 3)
        #expect(
            cut.standardError
                == "error: <stdin>: byte 0: the input is 2 bytes and ends inside the first packet's length: not a whole Perfetto packet\n"
        )
        let lineFeed = try CLI.run(["report", "-"], input: Data([0x0A]))
        #expect(lineFeed.status == 3)
        #expect(
            lineFeed.standardError
                == "error: <stdin>: line 1, column 1 (byte 0): the input is 1 byte, a line feed: no JSON value, and too short to hold one Perfetto packet\n"
        )

        let torn = try Data(contentsOf: Self.fixtures.appendingPathComponent("truncated-last-packet.pftrace"))
        for (path, input) in [
            (Self.fixtures.appendingPathComponent("truncated-last-packet.pftrace").path, nil), ("-", torn),
        ] {
            let result = try CLI.run(["report", path, "--format", "json"], input: input)
            #expect(result.status == 0, "\(result.standardError)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let diagnostics = (report["diagnostics"] as? [[String: Any]]) ?? []
            #expect(diagnostics.map { $0["kind"] as? String } == ["truncated"])
            let text = diagnostics.first?["message"] as? String ?? ""
            #expect(
                text.hasPrefix(
                    "the input ends inside the packet that starts at byte 107: it claims 65 bytes and the input has 32, 33 missing"
                ), "\(text)")
        }
    }

    @Test("convert: usage errors exit 2, unreadable input exits 3, and standard output takes the bytes")
    func convertErrors() throws {
        let noOut = try CLI.run(["convert", Self.fixtures.appendingPathComponent("atrace-android-app.pftrace").path])
        #expect(noOut.status == 2 && noOut.standardError.contains("--out"))
        let badFormat = try CLI.run(["convert", "x.json", "--to", "systrace", "--out", "-"])
        #expect(badFormat.status == 2 && badFormat.standardError.contains("perfetto or chrome-json"))
        let missing = try CLI.run(["convert", "/nonexistent/trace.pftrace", "--out", "-"])
        #expect(missing.status == 3)
        let toStdout = try CLI.run([
            "convert", Self.fixtures.appendingPathComponent("atrace-android-app.pftrace").path, "--to", "chrome-json",
            "--out", "-",
        ])
        #expect(toStdout.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(toStdout.standardOutput.utf8)) as? [String: Any]
        let events = (object?["traceEvents"] as? [[String: Any]]) ?? []
        #expect(events.contains { ($0["name"] as? String)?.hasPrefix("Choreographer#doFrame") == true })
    }

    @Test("An Android trace reports its FrameTimeline frames, with Android's hitch causes")
    func androidReport() throws {
        let result = try CLI.run(["report", Self.fixtures.appendingPathComponent("android-app-frames.pftrace").path])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("Android FrameTimeline"))
        for cause in ["commit", "render", "compositor", "display-hal", "prediction-error"] {
            #expect(text.contains(cause), "\(cause)")
        }
        // Buffer stuffing is latency, not a hitch: counted on its own row, never a hitch cause.
        #expect(!text.contains("buffer-stuffing"))
        #expect(
            text.split(separator: "\n").contains {
                $0.hasPrefix("  buffer-stuffed frames") && $0.split(separator: " ").dropFirst(2).first == "1"
            })
        let json = try Self.report(Self.fixtures.appendingPathComponent("android-app-frames.pftrace").path)
        #expect((json["summary"] as? [String: Any])?["stuffed-frames"] as? Int == 1)
        #expect((json["method"] as? [String: Any])?["main-thread-rule"] as? String == "android-ui-thread")
        // Every line fits 100 columns, but the title, which names the input's path as it is.
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 || $0.contains("android-app-frames.pftrace") })
    }
}
