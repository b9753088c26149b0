import FrameTrace
import FrameTraceReader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `framescope repair`: completes an array-form trace cut off by a crash.
enum RepairCommand: Command {
    static let options: Set<String> = ["out", "max-input-size"]
    static let flags: Set<String> = []
    static let help = """
        USAGE: framescope repair TRACE [--out FILE] [--max-input-size BYTES]

        Completes a trace whose writer was killed mid-write (a TraceStream, or `framescope
        simulate --stream`). An array-form JSON trace keeps every complete event byte for byte,
        drops the one event the cut went through and anything after the last complete event,
        and closes the array. A Perfetto protobuf trace keeps every complete packet and cuts the
        torn last one. Says on stderr how many bytes it dropped. A complete trace is left as it is.

        OPTIONS:
          --out FILE            Where to write the repaired trace (default: replace TRACE, through
                                a temporary file renamed over it; - for standard output).
          \(InputLimit.helpLine)

        EXIT CODES: 0 repaired (or already complete), 2 usage error, 3 unreadable input (not an
                    array-form or Perfetto trace, invalid before the cut, or a Perfetto trace
                    with no whole packet to keep) or unwritable output.
        """

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard arguments.positionals.count == 1, let source = arguments.positionals.first, source != "-" else {
            throw UsageError("repair takes exactly one TRACE file")
        }
        let maximumSize = try InputLimit.maximumSize(arguments)
        let repair: TraceRepair
        do {
            repair = try TraceRepair.repair(try InputFile.bytes(contentsOf: source, maximumSize: maximumSize))
        } catch  where error.code == .tooLarge {
            throw InputError(InputLimit.explain(error))
        } catch  where error.code == .ioError {
            throw InputError(error.description)
        } catch {
            throw InputError("\(source): \(error)")
        }
        let destination = arguments.value("out") ?? source
        let unit = repair.format == .perfetto ? "packets" : "events"
        if repair.wasComplete {
            progress("\(source): complete, \(repair.keptEventCount) \(unit); nothing dropped")
            if destination == source { return .success }
        } else {
            let offset = repair.droppedFromOffset.map { " from byte \($0)" } ?? ""
            let what = repair.format == .perfetto ? "a torn packet" : "a torn event and the missing ']'"
            progress(
                "\(source): kept \(repair.keptEventCount) complete \(unit); dropped \(repair.droppedByteCount) bytes\(offset) (\(what))"
            )
        }
        if destination == "-" {
            StandardOutput.write(repair.bytes)
            return .success
        }
        // Written beside the destination and renamed over it, so a failure leaves the input
        // (or whatever was there) as it was, and a symbolic link there is replaced, not followed.
        do {
            try OutputFile.replace(destination, with: repair.bytes)
        } catch {
            throw InputError("\(error)")
        }
        return .success
    }
}
