import FrameSupport
import FrameTrace
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checked writes to standard output.
///
/// Every `print` in this module resolves to the function below (it shadows the standard
/// library's), which writes straight to file descriptor 1 and retries short writes. The first
/// failure — a full disk, `/dev/full`, a closed descriptor — is remembered and later output is
/// dropped; ``StandardOutput/failure`` is checked when the command ends, and turns its exit code
/// into 3 with one line on stderr, so output is never lost silently.
enum StandardOutput {
    private static let firstFailure = Mutex<String?>(nil)

    /// Why writing to standard output failed, if it did.
    static var failure: String? { firstFailure.withLock { $0 } }

    /// Writes all of `bytes` to standard output, unless an earlier write failed.
    static func write(_ bytes: some Collection<UInt8>) {
        firstFailure.withLock { failure in
            guard failure == nil else { return }
            // Written in place when the bytes are contiguous (an array, a string's UTF-8), else
            // copied once.
            let written: Void? = bytes.withContiguousStorageIfAvailable {
                writeAll(UnsafeRawBufferPointer($0), &failure)
            }
            if written == nil { Array(bytes).withUnsafeBytes { writeAll($0, &failure) } }
        }
    }

    /// Writes the whole buffer to file descriptor 1 (``writeFully``); records the failure.
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, _ failure: inout String?) {
        guard let code = writeFully(1, buffer) else { return }
        failure = code == 0 ? "the system accepted none of \(buffer.count) bytes" : systemReason(code)
    }
}

/// Writes the items to standard output, checked (see ``StandardOutput``); the same signature as
/// the standard library's `print`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    var text = ""
    for (index, item) in items.enumerated() {
        if index > 0 { text += separator }
        text += String(describing: item)
    }
    text += terminator
    StandardOutput.write(text.utf8)
}

/// Writes rendered text (a text or Markdown report) to standard output, checked, with every line
/// that would begin with `::` made harmless (``UntrustedText/neutralizingWorkflowCommands(_:)``):
/// only framescope's own annotations, printed with ``print(_:separator:terminator:)``, may be
/// GitHub workflow commands.
func printUntrusted(_ text: String, terminator: String = "\n") {
    print(UntrustedText.neutralizingWorkflowCommands(text), terminator: terminator)
}
