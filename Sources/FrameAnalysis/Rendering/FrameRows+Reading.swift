import FrameJSON
import FrameTrace

/// Why frames rows could not be read, and where: the 1-based line of the row, and the column
/// (the JSON member) when one is at fault.
///
/// ```swift
/// do {
///     _ = try FrameRows.readRun(Array(#"{"schema": "framescope.report"}"#.utf8))
/// } catch {
///     print(error)   // line 1: schema 'framescope.report', expected 'framescope.frames'
/// }
/// ```
package struct FrameRowsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, stable for tests and tools; a struct so that a new code is not a
    /// breaking change.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier, e.g. `missing-column`.
        package let rawValue: String
        /// Creates a code from its identifier.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        package var description: String { rawValue }

        /// The line is not one JSON object.
        package static let invalidJSON = Code(rawValue: "invalid-json")
        /// The row's `schema` is not `framescope.frames`.
        package static let wrongSchema = Code(rawValue: "wrong-schema")
        /// The row's `version` is not one this framescope reads.
        package static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// A column the comparison needs is absent.
        package static let missingColumn = Code(rawValue: "missing-column")
        /// A column holds the wrong JSON type.
        package static let wrongType = Code(rawValue: "wrong-type")
        /// A value of the right type that is out of range: milliseconds finer than a nanosecond
        /// or beyond 64-bit nanoseconds, a negative index, an unknown frame source.
        package static let invalidValue = Code(rawValue: "invalid-value")
    }

    /// What went wrong.
    package var code: Code
    /// The 1-based line of the row.
    package var line: Int
    /// The column (JSON member) at fault, or empty for the row itself.
    package var column: String
    /// A one-line explanation.
    package var message: String

    /// Creates an error.
    package init(_ code: Code, line: Int, column: String = "", _ message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line 3: column 'main_ms': expected a number of milliseconds, got a string`.
    package var description: String {
        "line \(line): " + (column.isEmpty ? "" : "column \(JSONValue.string(column).description): ") + message
    }
}

extension FrameRows {
    /// Reads one file of frames rows (schema `framescope.frames`, version ``version``, JSON
    /// Lines) as one run of a comparison: each row's frame values, the lanes the rows have, the
    /// frame sources, and a chart of the main-thread costs.
    ///
    /// Each line is one row; blank lines are allowed only after the last row. A row needs
    /// `schema`, `version`, `trace`, `frame_source`, `frame_interval_ms`, `index`, `vsync_ns`,
    /// `deadline_ns`, `main_ms`, `overrun_ms`, `render_ms`, `background_ms` and
    /// `main_by_category_ms`; other columns (labels, metadata, outcomes) are not read, and a lane
    /// column (`compositor_ms`, ...) may be absent. Milliseconds are read exactly into integer
    /// nanoseconds from the number's digits (`1.500001` is 1,500,001 ns), never through a
    /// `Double`; a value finer than a nanosecond or beyond 64-bit nanoseconds is an error. A lane
    /// belongs to the run when any row has a number in its column (`null` is no such lane); a row
    /// with `null` there counts 0, as a frame without work in a lane does.
    ///
    /// ```swift
    /// let run = try FrameRows.readRun(try InputFile.bytes(contentsOf: "head.jsonl"))
    /// ```
    /// - Parameter bytes: The file's UTF-8 text.
    /// - Returns: The run; no frames for an empty file. It has no summary: rows carry none.
    /// - Throws: ``FrameRowsError`` for the first bad row, naming its line and column.
    /// - Complexity: O(*n*) in the file's length.
    package static func readRun(_ bytes: [UInt8]) throws(FrameRowsError) -> ComparedRuns {
        var run = ComparedRuns()
        var chartCosts: [Int64] = []
        var chartInterval: Int64 = 0
        var blankLine: Int?
        var lineNumber = 0
        var lineStart = 0
        // A byte-order mark opens the file, not a row.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = 3 }
        try bytes.withUnsafeBufferPointer { (buffer) throws(FrameRowsError) in
            while lineStart < buffer.count {
                lineNumber += 1
                let lineEnd = buffer[lineStart...].firstIndex(of: 0x0A) ?? buffer.count
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd])
                lineStart = lineEnd + 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    blankLine = blankLine ?? lineNumber
                    continue
                }
                if let blankLine {
                    throw FrameRowsError(
                        .invalidJSON, line: blankLine, "a blank line between rows (blank lines may only end the file)")
                }
                let row = try Row(line, line: lineNumber)
                let frame = try row.frame()
                for cost in frame.laneNanoseconds { run.lanes.insert(cost.lane) }
                let source = try row.frameSource()
                if !run.frameSources.contains(source) { run.frameSources.append(source) }
                if chartCosts.isEmpty { chartInterval = try row.interval() } else { _ = try row.interval() }
                chartCosts.append(frame.mainNanoseconds)
                run.frames.append(frame)
            }
        }
        if !chartCosts.isEmpty {
            run.chart = FrameChart(mainThreadNanoseconds: chartCosts, intervalNanoseconds: chartInterval)
        }
        return run
    }

    /// One row's members as scanned: numbers kept as their digits, so that milliseconds convert
    /// exactly.
    private struct Row {
        enum Value {
            case null
            case bool
            case number(JSONNumberToken)
            case string(String)
            /// `main_by_category_ms`: names and numbers.
            case categories([(String, JSONNumberToken)])
            /// `main_by_category_ms` with a category that is not a number: its name and what it is.
            case categoryNotNumber(String, kind: String)
            /// An array, or an object in another column: not read.
            case container

            var kind: String {
                switch self {
                case .null: "null"
                case .bool: "a Boolean"
                case .number: "a number"
                case .string: "a string"
                case .categories, .categoryNotNumber, .container: "an array or object"
                }
            }
        }

        let line: Int
        var members: [String: Value] = [:]

        /// Scans one line: exactly one JSON object, with its members' values.
        init(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(FrameRowsError) {
            self.line = line
            var scanner = JSONScanner<JSONParseError>(bytes)
            do throws(JSONParseError) {
                guard try scanner.peekValue("a row: a JSON object") == 0x7B else {
                    throw scanner.unexpected(expecting: "a row: a JSON object")
                }
                scanner.position += 1
                if try scanner.peekValue("a column name or '}'") == 0x7D {
                    scanner.position += 1
                } else {
                    while true {
                        guard try scanner.peekValue("a column name") == 0x22 else {
                            throw scanner.unexpected(expecting: "a column name in quotes")
                        }
                        let name = scanner.string(try scanner.scanString())
                        try scanner.expect(0x3A, "':' after a column name")
                        // A repeated column: the last value wins, as a JSON reader takes a repeated member.
                        members[name] = try Self.value(&scanner, isCategories: name == "main_by_category_ms")
                        let next = try scanner.peekValue("',' or '}' after a column")
                        scanner.position += 1
                        if next == 0x7D { break }
                        guard next == 0x2C else {
                            throw scanner.unexpected(expecting: "',' or '}' after a column", at: scanner.position - 1)
                        }
                    }
                }
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw scanner.unexpected(expecting: "the end of the line after the row") }
            } catch {
                let column = JSONParseError.position(of: error.byteOffset, in: bytes).column
                throw FrameRowsError(.invalidJSON, line: line, "not a JSON object: column \(column): \(error.message)")
            }
        }

        private static func value(_ scanner: inout JSONScanner<JSONParseError>, isCategories: Bool)
            throws(JSONParseError) -> Value
        {
            switch try scanner.peekValue("a value") {
            case 0x22: return .string(scanner.string(try scanner.scanString()))
            case 0x2D, 0x30...0x39: return .number(try scanner.scanNumber())
            case 0x74, 0x66, 0x6E: return try scanner.scanLiteral() == nil ? .null : .bool
            case 0x7B where isCategories:
                scanner.position += 1
                var categories: [(String, JSONNumberToken)] = []
                // The first category that is not a number; the object is still scanned to its
                // end, so that a syntax error after it is reported as one.
                var notNumber: Value?
                if try scanner.peekValue("a category name or '}'") == 0x7D {
                    scanner.position += 1
                    return .categories(categories)
                }
                while true {
                    guard try scanner.peekValue("a category name") == 0x22 else {
                        throw scanner.unexpected(expecting: "a category name in quotes")
                    }
                    let name = scanner.string(try scanner.scanString())
                    try scanner.expect(0x3A, "':' after a category name")
                    let value = try Self.value(&scanner, isCategories: false)
                    if case .number(let token) = value {
                        categories.append((name, token))
                    } else if notNumber == nil {
                        notNumber = .categoryNotNumber(name, kind: value.kind)
                    }
                    let next = try scanner.peekValue("',' or '}' after a category")
                    scanner.position += 1
                    if next == 0x7D { return notNumber ?? .categories(categories) }
                    guard next == 0x2C else {
                        throw scanner.unexpected(expecting: "',' or '}' after a category", at: scanner.position - 1)
                    }
                }
            default:
                _ = try scanner.skipValue()
                return .container
            }
        }

        func error(_ code: FrameRowsError.Code, _ column: String, _ message: String) -> FrameRowsError {
            FrameRowsError(code, line: line, column: column, message)
        }

        /// A column's value; a missing column is an error.
        func required(_ column: String) throws(FrameRowsError) -> Value {
            guard let value = members[column] else {
                throw FrameRowsError(
                    .missingColumn, line: line, "missing column \(JSONValue.string(column).description)")
            }
            return value
        }

        func string(_ column: String) throws(FrameRowsError) -> String {
            let value = try required(column)
            guard case .string(let text) = value else {
                throw error(.wrongType, column, "expected a string, got \(value.kind)")
            }
            return text
        }

        func integer(_ column: String) throws(FrameRowsError) -> Int64 {
            let value = try required(column)
            guard case .number(let token) = value else {
                throw error(.wrongType, column, "expected an integer, got \(value.kind)")
            }
            guard token.isInteger, let integer = token.exactInteger else {
                throw error(token.isInteger ? .invalidValue : .wrongType, column, "expected an integer within 64 bits")
            }
            return integer
        }

        /// A lane's milliseconds, exactly, as nanoseconds: `nil` for `null`, or for an absent
        /// column that is not `required`.
        func nanoseconds(_ column: String, required isRequired: Bool) throws(FrameRowsError) -> Int64? {
            guard let value = members[column] else {
                if isRequired { _ = try required(column) }
                return nil
            }
            switch value {
            case .null: return nil
            case .number(let token): return try Self.nanoseconds(token, column: column, line: line)
            default: throw error(.wrongType, column, "expected a number of milliseconds or null, got \(value.kind)")
            }
        }

        /// Milliseconds that must be a number.
        func milliseconds(_ column: String) throws(FrameRowsError) -> Int64 {
            let value = try required(column)
            guard case .number(let token) = value else {
                throw error(.wrongType, column, "expected a number of milliseconds, got \(value.kind)")
            }
            return try Self.nanoseconds(token, column: column, line: line)
        }

        /// A number of milliseconds as exact nanoseconds: its digits times 10^6, which must be a
        /// whole number within `Int64`.
        static func nanoseconds(_ token: JSONNumberToken, column: String, line: Int) throws(FrameRowsError) -> Int64 {
            let power = token.exponent + 6
            // Digits beyond the 19th, or below a nanosecond, cannot be held exactly.
            var isWhole = token.isExact
            if isWhole, token.mantissa != 0, power < 0 {
                isWhole = power >= -19 && token.mantissa % JSONNumberToken.powerOfTen(-power) == 0
            }
            guard isWhole else {
                throw FrameRowsError(.invalidValue, line: line, column: column, "milliseconds finer than a nanosecond")
            }
            guard let nanoseconds = token.scaledInteger(shift: 6, rounding: .towardZero) else {
                throw FrameRowsError(
                    .invalidValue, line: line, column: column, "milliseconds beyond 64-bit nanoseconds")
            }
            return nanoseconds
        }

        /// The comparison's values of the row's frame, after checking its identity columns.
        func frame() throws(FrameRowsError) -> ComparedRuns.Frame {
            let schema = try string("schema")
            guard schema == FrameRows.schema else {
                throw FrameRowsError(
                    .wrongSchema, line: line,
                    "schema \(JSONValue.string(schema).description), expected \(JSONValue.string(FrameRows.schema).description)"
                )
            }
            let version = try integer("version")
            guard version == FrameRows.version else {
                throw FrameRowsError(
                    .unsupportedVersion, line: line,
                    "version \(version) of \(FrameRows.schema), expected \(FrameRows.version)")
            }
            _ = try string("trace")
            guard try integer("index") >= 0 else { throw error(.invalidValue, "index", "a negative frame index") }
            let vsync = try integer("vsync_ns")
            let deadline = try integer("deadline_ns")
            let categoriesValue = try required("main_by_category_ms")
            if case .categoryNotNumber(let name, let kind) = categoriesValue {
                throw error(.wrongType, "main_by_category_ms." + name, "expected a number of milliseconds, got \(kind)")
            }
            guard case .categories(let tokens) = categoriesValue else {
                throw error(
                    .wrongType, "main_by_category_ms",
                    "expected an object of milliseconds by category, got \(categoriesValue.kind)")
            }
            var mainByCategory: [String: Int64] = [:]
            for (name, token) in tokens {
                mainByCategory[name] = try Self.nanoseconds(token, column: "main_by_category_ms." + name, line: line)
            }
            var lanes: [ComparedRuns.LaneCost] = []
            for lane in Lane.allCases where lane != .main {
                // render_ms and background_ms are in every row (null without the lane); the
                // other lanes' columns only in rows of traces that have them.
                if let cost = try nanoseconds(lane.identifier + "_ms", required: lane == .render || lane == .background)
                {
                    lanes.append(ComparedRuns.LaneCost(lane: lane, nanoseconds: cost))
                }
            }
            return ComparedRuns.Frame(
                mainNanoseconds: try milliseconds("main_ms"), overrunNanoseconds: try milliseconds("overrun_ms"),
                budgetNanoseconds: deadline.subtractingSaturating(vsync), laneNanoseconds: lanes,
                mainByCategory: CategoryTimes(mainByCategory))
        }

        func frameSource() throws(FrameRowsError) -> FrameReport.FrameSource {
            let text = try string("frame_source")
            guard let source = FrameReport.FrameSource(rawValue: text) else {
                throw error(.invalidValue, "frame_source", "unknown frame source \(JSONValue.string(text).description)")
            }
            return source
        }

        /// `frame_interval_ms`, which must be positive.
        func interval() throws(FrameRowsError) -> Int64 {
            let interval = try milliseconds("frame_interval_ms")
            guard interval > 0 else {
                throw error(.invalidValue, "frame_interval_ms", "a frame interval of at most 0 ms")
            }
            return interval
        }
    }
}
