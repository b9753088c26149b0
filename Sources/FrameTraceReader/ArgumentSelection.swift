import FrameJSON
import FrameTrace

extension TraceReader {
    /// Which event arguments a read keeps: all of them, or only those with given keys.
    ///
    /// A program that reads only a few keys (framescope's analysis reads 15) saves the time and
    /// memory of converting and storing the rest: in a large trace most argument lists are
    /// source locations, URLs and row numbers nobody looks at. Keys are matched after escapes are
    /// decoded; a member of an object nested in `args` has the key `outer.inner`.
    ///
    /// Scalar values are arguments of their own. A nested value (an array, or an object nested
    /// deeper than `outer.inner`) is one argument, a ``FrameTrace/JSONValue`` tree, parsed only
    /// when kept: by ``all``, or by `only` naming its key (the analysis names Chrome's
    /// `data.frames` list in `TracingStartedInBrowser`), so a selection's reads pay nothing for
    /// a trace's stack traces and URL lists. Values nested more than
    /// ``TraceReader/keptNestingDepth`` levels deep are never kept, whatever the
    /// selection, and are counted in the ``FrameTrace/TraceDiagnostic/Kind/skippedArgument``
    /// summary.
    /// Everything else a read does is the same for every selection: arguments that `M` events
    /// carry (thread and process names, sort indexes) fill the trace's threads and processes as
    /// always. The trace says what it kept in ``FrameTrace/Trace/keptArgumentKeys``.
    ///
    /// ```swift
    /// let trace = try TraceReader.read(contentsOf: "run.json", arguments: .only(["frame", "budget"]))
    /// ```
    package struct ArgumentSelection: Sendable {
        /// The keys kept; `nil` keeps every argument.
        package let keys: Set<String>?

        /// Keeps every argument, nested values whole.
        package static let all = ArgumentSelection(keys: nil)

        /// Keeps only the arguments whose key is in `keys`, nested values whole.
        package static func only(_ keys: Set<String>) -> ArgumentSelection { ArgumentSelection(keys: keys) }

        private init(keys: Set<String>?) { self.keys = keys }
    }
}

extension TraceReader {
    /// How deep a nested argument value may be to be kept whole (its own arrays and objects).
    package static let keptNestingDepth = 64
}

extension ChromeJSONImporter.Parser {
    /// Whether a scratch argument's key (`outer.inner` for a nested member) is kept; every key
    /// is when the read keeps every argument.
    @inline(__always)
    mutating func isKept(_ argument: ChromeJSONImporter.ScratchArgument) -> Bool {
        guard let matcher = argumentKeys else { return true }
        let key = argument.key
        // The common case, a plain top-level key, is decided from the input's bytes.
        if argument.prefix == nil, !key.hasEscapes { return matcher.matches(scanner.rawBytes(key)) }
        // Escaped or nested keys: decoded (and joined) into the scratch bytes first.
        scratchBytes.removeAll(keepingCapacity: true)
        if let prefix = argument.prefix {
            scanner.decode(prefix, into: &scratchBytes)
            scratchBytes.append(UInt8(ascii: "."))
        }
        scanner.decode(key, into: &scratchBytes)
        return scratchBytes.withUnsafeBufferPointer { matcher.matches($0) }
    }

    /// Whether any of the event's arguments is kept.
    @inline(__always)
    mutating func keepsAnyArgument() -> Bool {
        guard argumentKeys != nil else { return argumentCount > 0 }
        for position in 0..<argumentCount where isKept(arguments[position]) { return true }
        return false
    }
}
