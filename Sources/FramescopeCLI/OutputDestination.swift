import FrameTrace

/// Where a command's output goes: standard output, or the file an option (`--out`,
/// `--summary-out`, `--errors-out`) names, replaced whole when the output is complete.
///
/// Every output `report` writes goes through one: the text, Markdown, HTML and JSON reports,
/// rows line by line and Parquet a row group at a time. A file is opened when the destination is
/// made, before any trace is read, so an unwritable `--out` fails in a moment, not after a long
/// analysis (``ReplacementFile``); the pieces are gathered into writes of about 1 MiB.
///
/// Writing does not throw, so a renderer can hand its pieces over from a closure; the first
/// failure is kept, later pieces are dropped, and ``finish()`` reports it.
final class OutputDestination {
    /// The file, or `nil` for standard output.
    private let file: ReplacementFile?
    /// The option that named the file, for messages (`--out`).
    private let option: String
    private var pending: [UInt8] = []
    private var failure: FileError?

    /// Standard output for `nil` or `-`; otherwise a replacement for the file at `path`.
    /// - Throws: ``InputError`` (exit 3) when the file's folder cannot hold it.
    init(path: String?, option: String = "--out") throws(InputError) {
        self.option = option
        guard let path, path != "-" else {
            file = nil
            return
        }
        do {
            file = try ReplacementFile(path: path)
        } catch {
            throw InputError("cannot write \(option): \(error)")
        }
    }

    /// Whether this is standard output.
    var isStandardOutput: Bool { file == nil }

    /// Appends bytes.
    func write(_ bytes: some Collection<UInt8>) {
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 20 { flush() }
    }

    /// Appends text as UTF-8.
    func write(_ text: String) { write(text.utf8) }

    private func flush() {
        defer { pending.removeAll(keepingCapacity: true) }
        guard let file else { return StandardOutput.write(pending) }
        guard failure == nil else { return }
        do {
            try file.write(pending)
        } catch {
            failure = error
        }
    }

    /// Writes what is left and puts the file in place.
    /// - Throws: ``InputError`` (exit 3) when a write or the replacement failed.
    func finish() throws(InputError) {
        flush()
        guard let file else { return }
        do {
            if let failure { throw failure }
            try file.commit()
        } catch {
            throw InputError("cannot write \(option): \(error)")
        }
    }
}
