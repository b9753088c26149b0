// An interface stub of Apple's `os` module: only the declarations framescope's Darwin branches
// use, with the labels, types and defaults Apple documents, so that `tools/check_darwin.sh` can
// type-check the Swift inside `#if canImport(os)` on Linux. Nothing here runs: every body traps.
//
// Transcribed from Apple's documentation of the `os` framework (developer.apple.com/documentation/os:
// OSSignposter, OSSignpostID, OSSignpostIntervalState, Message Argument Formatters; availability
// macOS 12, iOS 15 and later for OSSignposter) and, for the interpolation that builds an
// `OSLogMessage`, the Swift project's own sources of the same API (swiftlang/swift
// stdlib/private/OSLog: OSLogMessage.swift, OSLogStringTypes.swift, OSLogIntegerTypes.swift,
// OSLogFloatingPointTypes.swift). Apple's documentation now spells the message parameter
// `SignpostMetadata`; the symbols' mangled names say the type is `OSLogMessage`, declared here with
// `SignpostMetadata` as its alias.
//
// What a stub cannot check: the os_log compiler pass (`@_semantics("oslog.requires_constant_arguments")`:
// privacy and format options must be literals, a message is built at compile time), availability
// (`@available` is not transcribed: the package's platforms are above every version used), and
// anything about linking or running.

// MARK: - Messages (OSLogMessage and its interpolation)

/// The privacy of an interpolated value. (Apple: `OSLogPrivacy`.)
public struct OSLogPrivacy: Equatable, Sendable {
    /// Whether a value is redacted; how the stub's storage is kept is not Apple's.
    private let level: Int
    private init(level: Int) { self.level = level }
    /// The system decides: scalars public, strings and objects private.
    public static var auto: OSLogPrivacy { OSLogPrivacy(level: 0) }
    /// Always shown.
    public static var `public`: OSLogPrivacy { OSLogPrivacy(level: 1) }
    /// Always redacted.
    public static var `private`: OSLogPrivacy { OSLogPrivacy(level: 2) }
    /// Always redacted, for sensitive information.
    public static var sensitive: OSLogPrivacy { OSLogPrivacy(level: 3) }
}

/// The alignment and minimum width of an interpolated value. (Apple: `OSLogStringAlignment`.)
public struct OSLogStringAlignment: Sendable {
    private init() {}
    /// No alignment.
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
    /// Right-aligned in at least `columns` columns.
    public static func right(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment()
    }
    /// Left-aligned in at least `columns` columns.
    public static func left(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment()
    }
}

/// How an interpolated integer is written. (Apple: `OSLogIntegerFormatting`.)
public struct OSLogIntegerFormatting: Sendable {
    private init() {}
    /// Base 10.
    public static var decimal: OSLogIntegerFormatting { OSLogIntegerFormatting() }
    /// Base 16.
    public static var hex: OSLogIntegerFormatting { OSLogIntegerFormatting() }
    /// Base 8.
    public static var octal: OSLogIntegerFormatting { OSLogIntegerFormatting() }
}

/// How an interpolated floating-point number is written. (Apple: `OSLogFloatFormatting`.)
public struct OSLogFloatFormatting: Sendable {
    private init() {}
    /// Fixed-point, `%f`.
    public static var fixed: OSLogFloatFormatting { OSLogFloatFormatting() }
    /// Fixed-point with `precision` digits after the point.
    public static func fixed(precision: @autoclosure @escaping () -> Int) -> OSLogFloatFormatting {
        OSLogFloatFormatting()
    }
    /// Exponential, `%e`.
    public static var exponential: OSLogFloatFormatting { OSLogFloatFormatting() }
    /// Fixed or exponential, whichever is shorter, `%g`.
    public static var hybrid: OSLogFloatFormatting { OSLogFloatFormatting() }
}

/// The string interpolation of a log or signpost message. (Apple: `OSLogInterpolation`.)
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) {}

    /// A `String`; private unless told otherwise.
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}

    /// Any fixed-width integer.
    public mutating func appendInterpolation<T: FixedWidthInteger>(
        _ number: @autoclosure @escaping () -> T, format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}

    /// A `Double`.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Double, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}

    /// A `Float`.
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Float, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}

    /// A value described by `CustomStringConvertible`; private unless told otherwise.
    public mutating func appendInterpolation<T: CustomStringConvertible>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}
}

/// A log or signpost message, made from a string literal or interpolation. (Apple: `OSLogMessage`.)
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public let interpolation: OSLogInterpolation
    public init(stringInterpolation: OSLogInterpolation) { interpolation = stringInterpolation }
    public init(stringLiteral value: String) {
        interpolation = OSLogInterpolation(literalCapacity: 1, interpolationCount: 0)
    }
}

/// The name Apple's documentation gives a signpost's message parameter.
public typealias SignpostMetadata = OSLogMessage

// MARK: - Signposts

/// An identifier you use to distinguish signposts with the same name and log. (Apple: `os_signpost_id_t`.)
public typealias os_signpost_id_t = UInt64

/// An identifier that disambiguates signposted intervals. (Apple: `OSSignpostID`.)
public struct OSSignpostID: Sendable {
    /// The signpost ID's raw value.
    public let rawValue: os_signpost_id_t
    /// A signpost ID from an arbitrary 64-bit integer value.
    public init(_ value: UInt64) { rawValue = value }
    /// The ID for intervals that can never overlap.
    public static let exclusive = OSSignpostID(0xEEEE_B0B5_B17E_EEEE)  // OS_SIGNPOST_ID_EXCLUSIVE
    /// The ID a disabled signposter returns.
    public static let null = OSSignpostID(0)
    /// The ID that signals an error.
    public static let invalid = OSSignpostID(~0)
}

/// An object that tracks the state of a signposted interval. (Apple: `class OSSignpostIntervalState`, `Codable`.)
public final class OSSignpostIntervalState: Codable {
    /// The ID of the interval this state belongs to.
    public let signpostID: OSSignpostID
    private init(signpostID: OSSignpostID) { self.signpostID = signpostID }
    public init(from decoder: any Decoder) throws { fatalError("os stub: not callable") }
    public func encode(to encoder: any Encoder) throws { fatalError("os stub: not callable") }
    /// Recreates interval state from the specified signpost ID.
    public static func beginState(id: OSSignpostID) -> OSSignpostIntervalState {
        OSSignpostIntervalState(signpostID: id)
    }
}

/// An object for measuring task performance using the unified logging system. (Apple: `struct OSSignposter`.)
public struct OSSignposter: @unchecked Sendable {
    /// A signposter for `subsystem` and `category`.
    public init(subsystem: String, category: String) { fatalError("os stub: not callable") }
    /// A signposter that emits nothing.
    public static var disabled: OSSignposter { fatalError("os stub: not callable") }
    /// Whether signposts are being recorded.
    public var isEnabled: Bool { fatalError("os stub: not callable") }

    /// A new signpost ID, unique for this signposter's log.
    public func makeSignpostID() -> OSSignpostID { fatalError("os stub: not callable") }
    /// A signpost ID derived from `object`.
    public func makeSignpostID(from object: AnyObject) -> OSSignpostID { fatalError("os stub: not callable") }

    /// Marks a point of interest in time.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive) {}
    /// Marks a point of interest in time and attaches the specified message.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) {}

    /// Begins a signposted interval.
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive) -> OSSignpostIntervalState {
        .beginState(id: id)
    }
    /// Begins a signposted interval and attaches the specified message.
    public func beginInterval(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
    ) -> OSSignpostIntervalState { .beginState(id: id) }
    /// Begins a signposted interval for measuring an animation, and attaches a message.
    public func beginAnimationInterval(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
    ) -> OSSignpostIntervalState { .beginState(id: id) }

    /// Ends the signposted interval that corresponds to the specified name and state.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
    /// Ends a signposted interval and attaches the specified message.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata) {}

    /// Measures the execution of the specified closure.
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: OSSignpostID = .exclusive, around task: () throws -> T
    ) rethrows -> T { try task() }
    /// Measures the execution of the specified closure and attaches a message.
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata, around task: () throws -> T
    ) rethrows -> T { try task() }
}
