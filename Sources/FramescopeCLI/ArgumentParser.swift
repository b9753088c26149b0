import FrameTrace

/// A usage error: the command line itself is wrong. Exits with ``ExitCode/usage``.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The documented exit codes, the same for every command.
enum ExitCode: Int32 {
    /// The command did what was asked (and, for `check`/`compare`, every rule passed).
    case success = 0
    /// `check` found a budget exceeded, or `compare` found a regression.
    case gateFailed = 1
    /// The command line is wrong: unknown command or option, missing or malformed value.
    case usage = 2
    /// An input could not be read or is not what it should be: a missing file, a file that is
    /// not a trace, an invalid budget file. Also a failure to write an output file.
    case input = 3
}

/// Command-line arguments split into options and positionals, checked against what a command
/// accepts. Options take `--name value` or `--name=value`; flags take no value.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` for a command that accepts `options` (taking a value) and `flags`.
    init(_ arguments: [String], options: Set<String>, flags: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositionals, argument.hasPrefix("-"), argument != "-", argument != "-h" {
                    throw UsageError("unknown option '\(argument)'")
                }
                if argument == "-h" {
                    self.flags.insert("help")
                    continue
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) || name == "help" {
                guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
                self.flags.insert(name)
            } else if options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("option '--\(name)' needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value of an option, if given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option within `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "option '--\(name)' expects an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A frame rate option (`--fps 120`, `--fps 59.94`) within `range` hertz, or `nil` when absent.
    /// Anything else (not a number, NaN, zero, out of range) is a usage error naming the range.
    func frameRate(_ name: String, in range: ClosedRange<Double> = FrameRate.acceptedHertz) throws(UsageError)
        -> FrameRate?
    {
        guard let text = value(name) else { return nil }
        do {
            return try FrameRate(validating: Double(text) ?? .nan, in: range)
        } catch {
            throw UsageError("option '--\(name)' expects a frame rate \(error.expectedRange), got '\(text)'")
        }
    }

    /// A choice among fixed words, or `defaultValue` when absent.
    func choice(_ name: String, among choices: [String], default defaultValue: String) throws(UsageError) -> String {
        guard let text = value(name) else { return defaultValue }
        guard choices.contains(text) else {
            throw UsageError("option '--\(name)' expects one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }

    /// The value of `--name` as one of `choices` (by raw value), or `defaultValue` when absent;
    /// anything else is a usage error that lists the choices.
    func choice<Choice: RawRepresentable>(_ name: String, among choices: [Choice], default defaultValue: Choice)
        throws(UsageError) -> Choice
    where Choice.RawValue == String {
        let text = try choice(name, among: choices.map(\.rawValue), default: defaultValue.rawValue)
        return choices.first { $0.rawValue == text } ?? defaultValue
    }
}

/// What `--format` asks a command to print; each command accepts the ones it can write.
enum OutputFormat: String, CaseIterable {
    case text
    case markdown
    case json
    case html
    case framesJSONL = "frames-jsonl"
    case framesCSV = "frames-csv"
    case framesParquet = "frames-parquet"
    case summaryJSONL = "summary-jsonl"
    case summaryParquet = "summary-parquet"

    /// Binary output, which a terminal must not receive.
    var isParquet: Bool { self == .framesParquet || self == .summaryParquet }
}
