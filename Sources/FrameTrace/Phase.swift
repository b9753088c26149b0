/// The kind of a trace event: the `ph` field of the Chrome Trace Event Format, spelled out.
///
/// The raw value is the ASCII byte the format uses, so readers and writers convert without a table.
public enum Phase: UInt8, Sendable, CaseIterable, Hashable {
    /// `X`: a span with a start and a duration.
    case complete = 0x58
    /// `B`: the start of a span closed by a later `end` on the same thread.
    case begin = 0x42
    /// `E`: the end of the innermost open `begin` on the same thread.
    case end = 0x45
    /// `i` (legacy `I`): a point in time.
    case instant = 0x69
    /// `C`: a sample of one or more numeric series.
    case counter = 0x43
    /// `M`: metadata that is not a process or thread name or sort index.
    case metadata = 0x4D
    /// `b`: the start of a nestable async span, matched by id.
    case asyncBegin = 0x62
    /// `n`: a point inside a nestable async span.
    case asyncInstant = 0x6E
    /// `e`: the end of a nestable async span.
    case asyncEnd = 0x65
    /// `s`: the start of a flow arrow.
    case flowStart = 0x73
    /// `t`: an intermediate step of a flow arrow.
    case flowStep = 0x74
    /// `f`: the end of a flow arrow.
    case flowEnd = 0x66

    /// The phase's letter as the format writes it.
    public var letter: Character { Character(Unicode.Scalar(rawValue)) }

    /// Creates a phase from the format's letter; `I` reads as `instant`.
    /// - Parameter byte: The ASCII byte of the `ph` field.
    /// - Returns: The phase, or `nil` for phases framescope does not model.
    public init?(byte: UInt8) {
        if byte == 0x49 {
            self = .instant
            return
        }
        self.init(rawValue: byte)
    }
}

/// Where a flow event binds: to the slice enclosing it, or to the next slice that starts.
public enum BindingPoint: UInt8, Sendable, Hashable {
    /// No `bp` field: the format's default, which binds `f` to the next slice.
    case unspecified = 0
    /// `"bp":"e"`: bind to the enclosing slice.
    case enclosing = 1
    /// `"bp":"n"`: bind to the next slice.
    case next = 2
}

/// The scope an instant event covers (`s` field): one thread, one process or everything.
public enum InstantScope: UInt8, Sendable, Hashable {
    /// `"s":"t"`, the default.
    case thread = 0
    /// `"s":"p"`.
    case process = 1
    /// `"s":"g"`.
    case global = 2
}
