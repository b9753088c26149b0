import FrameTrace

/// The work kind of every span of a trace whose categories a platform's table of names replaces
/// (``ChromeWorkKind``, ``AndroidWorkKind``), built once per analysis.
struct WorkKindTable {
    /// Per name symbol (by raw value), its kind's symbol, or `nil` when its kind is inherited.
    var kindOfName: [Symbol?]
    /// The symbol of the platform's `other` kind, the kind of an unknown span with no known span
    /// around it.
    var other: Symbol

    /// The table of a platform's kinds: every kind's identifier interned into `trace`'s symbols,
    /// and every string of the table looked up once by `kindOfName`.
    /// - Parameters:
    ///   - trace: The trace whose spans will get the kinds; its symbols gain the identifiers.
    ///   - identifier: The name a kind is written as (its category name in every output).
    ///   - other: The kind of a span that neither its name nor a span around it gives one.
    ///   - kindOfName: The platform's table: a name's kind, or `nil` when it inherits one.
    /// - Complexity: O(*s*) calls of `kindOfName` for *s* distinct strings in the trace.
    init<Kind: Hashable & CaseIterable>(
        interningInto trace: inout Trace, identifier: (Kind) -> String, other: Kind, kindOfName: (String) -> Kind?
    ) {
        var kindSymbols: [Kind: Symbol] = [:]
        for kind in Kind.allCases { kindSymbols[kind] = trace.symbols.intern(identifier(kind)) }
        self.kindOfName = trace.symbols.strings.map { kindOfName($0).flatMap { kindSymbols[$0] } }
        self.other = trace.symbols.intern(identifier(other))
    }

    /// Replaces each span's category with its kind: its name's kind, else the kind of the innermost
    /// span around it on the same thread, else `other`. `spans` must be sorted by start, longer first.
    func assignKinds(to spans: inout [Span]) {
        var open: [(end: Int64, kind: Symbol)] = []
        for index in spans.indices {
            let span = spans[index]
            while let top = open.last, top.end <= span.start { open.removeLast() }
            let raw = Int(span.name.rawValue)
            let kind = (raw < kindOfName.count ? kindOfName[raw] : nil) ?? open.last?.kind ?? other
            spans[index].category = kind
            open.append((span.end, kind))
        }
    }
}
