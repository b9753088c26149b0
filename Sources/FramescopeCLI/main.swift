import FrameSupport
import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `framescope` command: argument parsing and dispatch, nothing clever. Every number it prints
/// comes from a library function that tests call directly.
let usage = """
    framescope \(FramescopeVersion.current): where every frame's time budget goes.

    USAGE: framescope <command> [options]

    COMMANDS:
      demo        Run every scenario and strategy; print one comparison table.
      simulate    Run one scenario with one strategy; write its trace and report.
      report      Where every frame's budget went in any trace (Chrome JSON, Perfetto).
      check       Check traces against a budget file (a CI gate).
      compare     Compare head runs with base runs, noise-aware (a CI gate).
      convert     Rewrite a trace as Perfetto protobuf or Chrome JSON.
      repair      Complete a trace whose writer was killed mid-write.
      help        Show this help, or a command's help: framescope help <command>.

    OPTIONS:
      -h, --help  Show help.
      --version   Print the version.

    EXIT CODES (every command):
      0  success
      1  a budget was exceeded or a regression was found (check, compare)
      2  usage error: unknown command or option, malformed value
      3  unreadable input or unwritable output: missing file, not a trace, bad budget file

    Open a trace in https://ui.perfetto.dev (Open trace file) or chrome://tracing (Load).
    """

let commands: [String: any Command.Type] = [
    "demo": DemoCommand.self,
    "simulate": SimulateCommand.self,
    "report": ReportCommand.self,
    "check": CheckCommand.self,
    "compare": CompareCommand.self,
    "repair": RepairCommand.self,
    "convert": ConvertCommand.self,
]

@MainActor
func run(_ arguments: [String]) -> ExitCode {
    guard let name = arguments.first else {
        printError(usage)
        return .usage
    }
    switch name {
    case "-h", "--help":
        print(usage)
        return .success
    case "--version":
        print("framescope \(FramescopeVersion.current)")
        return .success
    case "help":
        if arguments.count > 1, let command = commands[arguments[1]] {
            print(command.help)
        } else {
            print(usage)
        }
        return .success
    default:
        guard let command = commands[name] else {
            printError("error: unknown command '\(UntrustedText.terminal(name))'; run 'framescope --help' for the list")
            return .usage
        }
        do {
            let parsed = try ParsedArguments(
                Array(arguments.dropFirst()), options: command.options, flags: command.flags)
            if parsed.has("help") {
                print(command.help)
                return .success
            }
            return try command.run(parsed)
        } catch let error as UsageError {
            printError("error: \(UntrustedText.terminal(error.description)); run 'framescope \(name) --help' for usage")
            return .usage
        } catch let error as InputError {
            printError("error: \(UntrustedText.terminal(error.description))")
            return .input
        } catch {
            printError("error: \(UntrustedText.terminal(String(describing: error)))")
            return .input
        }
    }
}

let status = run(Array(CommandLine.arguments.dropFirst()))
if let failure = StandardOutput.failure {
    printError("error: standard output: \(UntrustedText.terminal(failure))")
    exit(ExitCode.input.rawValue)
}
exit(status.rawValue)
