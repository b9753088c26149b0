import Foundation
import FrameTrace
import FrameTraceReader
import FramescopeTestSupport
import Testing

@Suite("Inputs are read up to a size cap, and file errors name the path and the system's reason")
struct InputFileTests {
    @Test("An endless device stops at the cap with too-large, having held no more than the cap and one chunk")
    func endlessDevice() throws {
        let error = try #require(throws: TraceReadError.self) {
            try InputFile.bytes(contentsOf: "/dev/zero", maximumSize: 4096)
        }
        #expect(error.code == .tooLarge)
        #expect(error.description == "/dev/zero: larger than the input size limit of 4096 bytes")
    }

    @Test("A regular file over the cap is refused before it is read; at the cap it is read whole")
    func regularFileCap() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-cap-\(UUID().uuidString).json"
        ).path
        let text = #"[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = text.utf8.count
        let error = try #require(throws: TraceReadError.self) {
            try TraceReader.read(contentsOf: path, maximumSize: size - 1)
        }
        #expect(error.code == .tooLarge)
        #expect(try TraceReader.read(contentsOf: path, maximumSize: size).events.count == 1)
        #expect(try InputFile.bytes(contentsOf: path, maximumSize: size) == Array(text.utf8))
    }

    @Test("A device that does not start a JSON document is rejected at its first byte, not read to the cap")
    func notJSONDevice() throws {
        let error = try #require(throws: TraceReadError.self) { try TraceReader.read(contentsOf: "/dev/zero") }
        #expect(error.code == .notJSON)
        #expect(error.byteOffset == 0)
    }

    @Test("A directory and a missing file are io-errors that name the path and the reason in lower case")
    func fileErrors() throws {
        let directory = try #require(throws: TraceReadError.self) { try InputFile.bytes(contentsOf: "/tmp") }
        #expect(directory.code == .ioError)
        #expect(directory.description == "/tmp: is a directory")
        let trace = try #require(throws: TraceReadError.self) { try TraceReader.read(contentsOf: "/tmp") }
        #expect(trace.description == "/tmp: is a directory")
        let missing = try #require(throws: TraceReadError.self) {
            try InputFile.bytes(contentsOf: "/nonexistent/b.json")
        }
        #expect(missing.description == "/nonexistent/b.json: no such file or directory")
    }

    @Test(
        "Writing to a full device fails with the path and the reason",
        .enabled(if: FullDevice.isAvailable, Comment(rawValue: FullDevice.missingReason)))
    func fullDeviceErrors() throws {
        let full = try OutputFile(path: "/dev/full")
        let error = try #require(throws: FileError.self) { try full.write(Array("x".utf8)) }
        #expect(error.description == "/dev/full: no space left on device")
        #expect(error.code == ENOSPC, "errno is kept")
        #expect(try #require(throws: FileError.self) { try full.write(Array("x".utf8), at: 0) }.code == ENOSPC)
    }

    @Test("Writing to a folder fails with the path and the reason; appending keeps what the file held")
    func outputErrors() throws {
        let directory = try #require(throws: FileError.self) { try OutputFile(path: "/tmp") }
        #expect(directory.description == "/tmp: is a directory" && directory.code == EISDIR)
        // Reading keeps errno too.
        let missing = try #require(throws: TraceReadError.self) {
            try TraceReader.read(contentsOf: "/no/such/trace.json")
        }
        #expect(missing.code == .ioError && missing.systemCode == ENOENT)
        let folder = try #require(throws: TraceReadError.self) { try TraceReader.read(contentsOf: "/tmp") }
        #expect(folder.systemCode == EISDIR)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-append-\(UUID().uuidString).md"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for line in ["one\n", "two\n"] {
            let file = try OutputFile(path: path, appending: true)
            try file.write(Array(line.utf8))
            try file.close()
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\ntwo\n")
    }
}

@Suite("Outputs that cannot be redirected or torn")
struct ReplacedOutputTests {
    @Test(
        "replace writes beside the destination and renames: a planted symbolic link is replaced, its target untouched")
    func replaceDoesNotFollowLinks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-replace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("victim").path
        try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
        let destination = folder.appendingPathComponent("report.xml").path
        try FileManager.default.createSymbolicLink(atPath: destination, withDestinationPath: target)
        try OutputFile.replace(destination, with: Array("<xml/>\n".utf8))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "<xml/>\n")
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: destination)) == nil, "a file now, not a link")
        // Nothing left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["report.xml", "victim"])
        // A folder that does not exist: an error naming the destination, nothing written.
        let missing = folder.appendingPathComponent("no/such/out.xml").path
        let error = try #require(throws: FileError.self) { try OutputFile.replace(missing, with: [1]) }
        #expect(error.path == missing)
        // A device is written to, never replaced (/dev/full: replacedDeviceStaysADevice).
        var status = stat()
        try OutputFile.replace("/dev/null", with: [1])
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        let directory = try #require(throws: FileError.self) { try OutputFile.replace(folder.path, with: [1]) }
        #expect(directory.reason == "is a directory")
    }

    @Test("A replacement written in pieces appears whole on commit; one never committed leaves nothing")
    func replacementInPieces() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-replacement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("rows.parquet").path
        try "old\n".write(toFile: destination, atomically: false, encoding: .utf8)
        do {
            let abandoned = try ReplacementFile(path: destination)
            try abandoned.write(Array("half".utf8))
        }
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rows.parquet"])
        let replacement = try ReplacementFile(path: destination)
        for piece in ["PAR1", "group", "footer"] { try replacement.write(Array(piece.utf8)) }
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "old\n", "not before the commit")
        try replacement.commit()
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "PAR1groupfooter")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rows.parquet"])
        // A folder that does not exist fails when opened, before anything is written.
        let missing = folder.appendingPathComponent("no/rows.parquet").path
        let error = try #require(throws: FileError.self) { try ReplacementFile(path: missing) }
        #expect(error.path == missing && error.code == ENOENT)
    }

    @Test(
        "replace writes into a device instead of replacing it: /dev/full stays a device and reports it is full",
        .enabled(if: FullDevice.isAvailable, Comment(rawValue: FullDevice.missingReason)))
    func replacedDeviceStaysADevice() throws {
        let full = try #require(throws: FileError.self) { try OutputFile.replace("/dev/full", with: [1]) }
        #expect(full.description == "/dev/full: no space left on device")
        var status = stat()
        #expect(lstat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("append keeps appending to a file and refuses a symbolic link")
    func appendRefusesLinks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "framescope-append-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = folder.appendingPathComponent("summary.md").path
        try OutputFile.append(summary, Array("one\n".utf8))
        try OutputFile.append(summary, Array("two\n".utf8))
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "one\ntwo\n")
        let target = folder.appendingPathComponent("victim").path
        try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("link.md").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let error = try #require(throws: FileError.self) { try OutputFile.append(link, Array("x".utf8)) }
        #expect(error.reason == "is a symbolic link; not followed")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    }
}
