import FrameJSON
import FrameTrace

extension Budget {
    /// Reads a budget file.
    ///
    /// The format is documented, key by key, in the FrameScope catalog's Continuous Integration
    /// article (`ContinuousIntegration.md`, "The budget file"):
    ///
    /// ```json
    /// {"version": 1, "fps": 60,
    ///  "limits": {"hitch-time-ratio": 5, "slow-frame-share": 0.05, "frozen-frames": 0,
    ///             "main-thread-ms": {"p95": 12, "max": 40}, "overrun-ms": {"p95": 0}},
    ///  "categories": {"layout": {"main-ms-per-frame": {"p95": 4}, "main-ms-total": 500},
    ///                 "image-decode": {"off-main-thread": true}},
    ///  "traces": [{"match": "diffable-update--*", "limits": {"hitch-time-ratio": 10}}],
    ///  "regression": {"alpha": 0.01, "min-relative": 0.1, "min-absolute-ms": 0.25}}
    /// ```
    ///
    /// Unknown keys, duplicate keys, wrong types and out-of-range values are errors that name the
    /// JSON path (`categories.layout.main-ms-per-frame.p95: expected a number, got a string`).
    /// - Parameter bytes: The file's UTF-8 contents.
    /// - Returns: The budget.
    /// - Throws: ``BudgetError``: with a line and column when the file is not JSON, with a path
    ///   otherwise.
    package static func parse(_ bytes: some Collection<UInt8>) throws(BudgetError) -> Budget {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw BudgetError(syntax: error)
        }
        return try BudgetParser.budget(document)
    }

    /// Reads a budget file from text.
    ///
    /// ```swift
    /// let budget = try Budget.parse(#"{"version": 1, "limits": {"frozen-frames": 0}}"#)
    /// ```
    /// - Parameter text: The JSON text.
    /// - Returns: The budget.
    /// - Throws: ``BudgetError``.
    package static func parse(_ text: String) throws(BudgetError) -> Budget {
        try parse(Array(text.utf8))
    }
}

/// Turns a JSON document into a ``Budget``, naming the JSON path of the first problem.
enum BudgetParser {
    static let rootKeys = [
        "version", "description", "fps", "frame-markers", "limits", "categories", "traces", "regression",
    ]
    static let limitKeys = [
        "hitch-time-ratio", "slow-frame-share", "frozen-frames", "main-thread-ms", "overrun-ms", "lane-ms",
        "hitch-time-ratio-by-cause",
        "delivery-latency-frames",
    ]
    static let categoryKeys = ["main-ms-per-frame", "main-ms-total", "off-main-thread"]
    static let sectionKeys = ["match", "description", "limits", "categories"]
    static let regressionKeys = ["alpha", "min-relative", "min-absolute-ms"]

    static func budget(_ document: JSONValue) throws(BudgetError) -> Budget {
        let root = try object(document, at: "", allowed: rootKeys)
        guard let version = root["version"] else {
            throw BudgetError(
                .missingKey, path: "version", "missing; a budget file says \"version\": \(Budget.supportedVersion)")
        }
        guard let number = version.integerValue, case .int = version else {
            throw BudgetError(
                .wrongType, path: "version", "expected the integer \(Budget.supportedVersion), got \(describe(version))"
            )
        }
        guard number == Int64(Budget.supportedVersion) else {
            throw BudgetError(
                .unsupportedVersion, path: "version",
                "unsupported version \(number); this framescope reads version \(Budget.supportedVersion)")
        }
        if let description = root["description"] { _ = try string(description, at: "description") }
        var budget = Budget()
        if let fps = root["fps"] {
            let value = try numberValue(fps, at: "fps")
            do {
                budget.frameRate = try FrameRate(validating: value)
            } catch {
                throw BudgetError(.invalidValue, path: "fps", error.description)
            }
        }
        if let markers = root["frame-markers"] {
            guard case .array(let elements) = markers else {
                throw BudgetError(
                    .wrongType, path: "frame-markers",
                    "expected an array of span or instant names, got \(describe(markers))")
            }
            for (index, element) in elements.enumerated() {
                let name = try string(element, at: "frame-markers[\(index)]")
                guard !name.isEmpty else {
                    throw BudgetError(
                        .invalidValue, path: "frame-markers[\(index)]",
                        "expected a span or instant name, got an empty string")
                }
                budget.frameMarkers.append(name)
            }
        }
        if let limits = root["limits"] { budget.limits = try self.limits(limits, at: "limits") }
        if let categories = root["categories"] { budget.categories = try self.categories(categories, at: "categories") }
        if let traces = root["traces"] {
            guard case .array(let elements) = traces else {
                throw BudgetError(.wrongType, path: "traces", "expected an array of sections, got \(describe(traces))")
            }
            for (index, element) in elements.enumerated() {
                budget.traceSections.append(try section(element, at: "traces[\(index)]"))
            }
        }
        if let regression = root["regression"] { budget.regression = try self.regression(regression, at: "regression") }
        return budget
    }

    static func limits(_ value: JSONValue, at path: String) throws(BudgetError) -> Budget.Limits {
        let members = try object(value, at: path, allowed: limitKeys)
        var limits = Budget.Limits()
        if let ratio = members["hitch-time-ratio"] {
            limits.hitchTimeRatio = try nonNegative(ratio, at: join(path, "hitch-time-ratio"))
        }
        if let share = members["slow-frame-share"] {
            let sharePath = join(path, "slow-frame-share")
            let value = try numberValue(share, at: sharePath)
            guard (0...1).contains(value) else {
                throw BudgetError(
                    .invalidValue, path: sharePath, "expected a share from 0 to 1 (0.05 is 5%), got \(format(value))")
            }
            limits.slowFrameShare = value
        }
        if let frozen = members["frozen-frames"] {
            let frozenPath = join(path, "frozen-frames")
            guard case .int(let count) = frozen else {
                throw BudgetError(.wrongType, path: frozenPath, "expected an integer, got \(describe(frozen))")
            }
            guard count >= 0, count <= Int64(Int32.max) else {
                throw BudgetError(.invalidValue, path: frozenPath, "expected a count of at least 0, got \(count)")
            }
            limits.frozenFrames = Int(count)
        }
        if let main = members["main-thread-ms"] {
            limits.mainThreadMilliseconds = try percentiles(
                main, at: join(path, "main-thread-ms"), allowNegative: false)
        }
        if let overrun = members["overrun-ms"] {
            limits.overrunMilliseconds = try percentiles(overrun, at: join(path, "overrun-ms"), allowNegative: true)
        }
        if let lanes = members["lane-ms"] {
            let lanesPath = join(path, "lane-ms")
            for (key, body) in try object(lanes, at: lanesPath, allowed: Lane.allCases.map(\.identifier)) {
                limits.laneMilliseconds[Lane(rawValue: key)!] = try percentiles(
                    body, at: join(lanesPath, key), allowNegative: false)
            }
        }
        if let causes = members["hitch-time-ratio-by-cause"] {
            let causesPath = join(path, "hitch-time-ratio-by-cause")
            let allowed = HitchCause.allCases.filter { $0 != .none }.map(\.identifier)
            for (key, limit) in try object(causes, at: causesPath, allowed: allowed) {
                limits.hitchTimeRatioByCause[HitchCause(rawValue: key)!] = try nonNegative(
                    limit, at: join(causesPath, key))
            }
        }
        if let latency = members["delivery-latency-frames"] {
            limits.deliveryLatencyFrames = try percentiles(
                latency, at: join(path, "delivery-latency-frames"), allowNegative: false)
        }
        return limits
    }

    static func categories(_ value: JSONValue, at path: String) throws(BudgetError) -> [Budget.CategoryLimits] {
        guard case .object(let members) = value else {
            throw BudgetError(.wrongType, path: path, "expected an object of categories, got \(describe(value))")
        }
        try rejectDuplicates(members, at: path)
        var result: [Budget.CategoryLimits] = []
        for (name, body) in members {
            let categoryPath = join(path, name)
            guard !name.isEmpty else {
                throw BudgetError(.invalidValue, path: categoryPath, "a category name cannot be empty")
            }
            let keys = try object(body, at: categoryPath, allowed: categoryKeys)
            var category = Budget.CategoryLimits(name: name)
            if let perFrame = keys["main-ms-per-frame"] {
                category.mainMillisecondsPerFrame = try percentiles(
                    perFrame, at: join(categoryPath, "main-ms-per-frame"), allowNegative: false)
            }
            if let total = keys["main-ms-total"] {
                category.mainMillisecondsTotal = try nonNegative(total, at: join(categoryPath, "main-ms-total"))
            }
            if let offMain = keys["off-main-thread"] {
                guard case .bool(let flag) = offMain else {
                    throw BudgetError(
                        .wrongType, path: join(categoryPath, "off-main-thread"),
                        "expected true or false, got \(describe(offMain))")
                }
                category.offMainThread = flag
            }
            result.append(category)
        }
        return result
    }

    static func section(_ value: JSONValue, at path: String) throws(BudgetError) -> Budget.TraceSection {
        let members = try object(value, at: path, allowed: sectionKeys)
        guard let match = members["match"] else {
            throw BudgetError(
                .missingKey, path: join(path, "match"), "missing; a trace section needs a glob on the trace's file name"
            )
        }
        let pattern = try string(match, at: join(path, "match"))
        guard !pattern.isEmpty else {
            throw BudgetError(.invalidValue, path: join(path, "match"), "expected a glob, got an empty string")
        }
        if let description = members["description"] { _ = try string(description, at: join(path, "description")) }
        var section = Budget.TraceSection(match: pattern)
        if let limits = members["limits"] { section.limits = try self.limits(limits, at: join(path, "limits")) }
        if let categories = members["categories"] {
            section.categories = try self.categories(categories, at: join(path, "categories"))
        }
        return section
    }

    static func regression(_ value: JSONValue, at path: String) throws(BudgetError) -> RegressionThresholds {
        let members = try object(value, at: path, allowed: regressionKeys)
        var thresholds = RegressionThresholds.defaults
        if let alpha = members["alpha"] {
            let value = try numberValue(alpha, at: join(path, "alpha"))
            guard value > 0, value < 1 else {
                throw BudgetError(
                    .invalidValue, path: join(path, "alpha"),
                    "expected a significance level between 0 and 1 (exclusive), got \(format(value))")
            }
            thresholds.alpha = value
        }
        if let relative = members["min-relative"] {
            thresholds.minimumRelativeEffect = try nonNegative(relative, at: join(path, "min-relative"))
        }
        if let absolute = members["min-absolute-ms"] {
            thresholds.minimumAbsoluteMilliseconds = try nonNegative(absolute, at: join(path, "min-absolute-ms"))
        }
        return thresholds
    }

    static func percentiles(_ value: JSONValue, at path: String, allowNegative: Bool) throws(BudgetError) -> [Budget
        .Percentile: Double]
    {
        let members = try object(value, at: path, allowed: Budget.Percentile.allCases.map(\.rawValue))
        var result: [Budget.Percentile: Double] = [:]
        for (key, limit) in members {
            let percentile = Budget.Percentile(rawValue: key)!
            result[percentile] =
                allowNegative
                ? try numberValue(limit, at: join(path, key)) : try nonNegative(limit, at: join(path, key))
        }
        return result
    }

    // MARK: - Values

    /// The members of an object whose keys are all in `allowed` and unique, keyed for lookup.
    static func object(_ value: JSONValue, at path: String, allowed: [String]) throws(BudgetError) -> [String:
        JSONValue]
    {
        guard case .object(let members) = value else {
            throw BudgetError(
                .wrongType, path: path,
                path.isEmpty
                    ? "a budget file is a JSON object, got \(describe(value))"
                    : "expected an object, got \(describe(value))")
        }
        try rejectDuplicates(members, at: path)
        var result: [String: JSONValue] = [:]
        for (key, member) in members {
            guard allowed.contains(key) else {
                throw BudgetError(
                    .unknownKey, path: join(path, key),
                    "unknown key; expected one of \(allowed.joined(separator: ", "))")
            }
            result[key] = member
        }
        return result
    }

    static func rejectDuplicates(_ members: [(String, JSONValue)], at path: String) throws(BudgetError) {
        var seen = Set<String>()
        for (key, _) in members where !seen.insert(key).inserted {
            throw BudgetError(.duplicateKey, path: join(path, key), "duplicate key; each key may appear once")
        }
    }

    static func numberValue(_ value: JSONValue, at path: String) throws(BudgetError) -> Double {
        guard let number = value.doubleValue else {
            throw BudgetError(.wrongType, path: path, "expected a number, got \(describe(value))")
        }
        guard number.isFinite else { throw BudgetError(.invalidValue, path: path, "expected a finite number") }
        return number
    }

    static func nonNegative(_ value: JSONValue, at path: String) throws(BudgetError) -> Double {
        let number = try numberValue(value, at: path)
        guard number >= 0 else {
            throw BudgetError(.invalidValue, path: path, "expected a number of at least 0, got \(format(number))")
        }
        return number
    }

    static func string(_ value: JSONValue, at path: String) throws(BudgetError) -> String {
        guard case .string(let text) = value else {
            throw BudgetError(.wrongType, path: path, "expected a string, got \(describe(value))")
        }
        return text
    }

    /// The JSON type of a value, for messages: `a number`, `an object`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Appends a key to a JSON path: `.key`, or `["key"]` for keys that would be ambiguous.
    static func join(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && !key.contains { $0 == "." || $0 == "[" || $0 == "]" || $0 == "\"" || $0 == " " }
        if plain { return path.isEmpty ? key : path + "." + key }
        return path + "[" + JSONValue.string(key).description + "]"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
