import FrameJSON
@_spi(FramescopeInternals) import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChromeJSONImporter {
    /// The state of one read: the scanner, the trace being built, and what pairs events up.
    ///
    /// Reading goes in stages, one file each, as Perfetto's tokenizer → sorter → parser:
    /// 1. FrameJSON's `JSONScanner` tokenizes: strings, numbers and literals as byte ranges of the input,
    ///    with line and column for every error.
    /// 2. `+Document` walks the document and `+EventBuilder` reads each event object's members
    ///    into a ``RawEvent``; `+Events` turns it into trace values by phase (interning names,
    ///    finding threads, converting arguments, counting what it drops).
    /// 3. ``BeginEndPairer`` pairs each thread's `B` and `E` events once all are read, and
    ///    `+Finish` closes what is still open, reports overlaps and assembles the ``Trace``.
    struct Parser {
        /// Reads each event object's members (stage one of an event); it owns the scanner, and
        /// on a large input it runs on a thread of its own (`+Pipeline`).
        var tokenizer: EventTokenizer
        /// The input's pages already read, released when it is a private file mapping.
        var readPages: ReadPageRelease
        /// The argument keys kept (``TraceReader/ArgumentSelection``); `nil` keeps all.
        let argumentKeys: ArgumentKeyMatcher?
        /// When the event array is read with a worker thread (`+Pipeline`).
        let pipelining: TraceReader.Pipelining
        var hasReservedCapacity = false

        /// The trace being built, as the Perfetto importer builds it.
        var trace = TraceAssembly()
        /// The input index of each event in `trace.events`, for diagnostics found after reading.
        var inputIndexes: [UInt32] = []

        // Interning without making a String per occurrence.
        var symbolCache = JSONStringInterner()
        var argumentCache = ArgumentCache()
        var stringCache = JSONStringInterner()
        var cachedStrings: [String] = []
        /// How many lookups in `stringCache` found their string.
        var stringCacheHits = 0
        var shortStrings = [ShortString](repeating: ShortString(), count: 256)
        var recentSymbols = [RecentSymbol](repeating: RecentSymbol(), count: 256)

        // State across events.
        var eventIndex = 0
        var threadSlots = ThreadSlots()
        /// The latest end of any timed event: where unclosed `B` events are closed.
        var lastTimestamp: Int64 = .min
        /// What is open and waits for its other half: per-thread `B`/`E`, async spans, flows.
        var pairing = Pairing()
        /// What was skipped or out of order, for the summary diagnostics.
        var skipped = SkipSummary()
        var sawEventArray = false
        var isTruncated = false

        init(
            _ input: UnsafeBufferPointer<UInt8>, releasesInput: Bool, arguments: TraceReader.ArgumentSelection = .all,
            pipelining: TraceReader.Pipelining = .automatic
        ) {
            tokenizer = EventTokenizer(scanner: TraceScanner(input))
            self.pipelining = pipelining
            readPages = ReadPageRelease(input, isFileMapping: releasesInput)
            argumentKeys = arguments.keys.map { ArgumentKeyMatcher($0) }
        }

        // The tokenizer's state, as the rest of the parser reads and writes it.
        var scanner: TraceScanner {
            @inline(__always) _read { yield tokenizer.scanner }
            @inline(__always) _modify { yield &tokenizer.scanner }
        }
        var event: RawEvent {
            @inline(__always) _read { yield tokenizer.event }
            @inline(__always) _modify { yield &tokenizer.event }
        }
        var arguments: [ScratchArgument] {
            @inline(__always) _read { yield tokenizer.arguments }
        }
        var argumentCount: Int { @inline(__always) get { tokenizer.argumentCount } }
        var scratchBytes: [UInt8] {
            @inline(__always) _read { yield tokenizer.scratchBytes }
            @inline(__always) _modify { yield &tokenizer.scratchBytes }
        }
        var syntheticNames: [String] { tokenizer.syntheticNames }
    }

    /// Stage one of an event: reads an event object's members into a ``RawEvent`` and its scalar
    /// arguments, touching nothing of the trace being built, so that it can run ahead of the
    /// parser on another thread. It names string thread ids (synthetic ids in order of first
    /// appearance), since it sees every event in input order.
    struct EventTokenizer {
        var scanner: TraceScanner
        // The event being read.
        var event = RawEvent()
        /// The event's scalar arguments are the first `argumentCount`; the slots past it are
        /// left from earlier events and reused, so clearing costs nothing.
        var arguments: [ScratchArgument] = []
        var argumentCount = 0
        var scratchBytes: [UInt8] = []
        /// ``TraceEvent/timeLimitNanoseconds``, the largest magnitude a time may have.
        let timeLimit = TraceEvent.timeLimitNanoseconds.magnitude
        var syntheticIDs = JSONStringInterner()
        var syntheticNames: [String] = []

        init(scanner: TraceScanner) { self.scanner = scanner }
    }

    /// What one event object said, before it becomes trace values.
    struct RawEvent {
        /// A `ph` that is present but not a string.
        static let invalidPhase: UInt8 = 0x01
        /// A `ph` of more than one character; its text is in `phaseToken`.
        static let otherPhase: UInt8 = 0xFF

        enum ThreadPart: Equatable {
            case missing, invalid
            case number(Int64)
        }

        enum Time: Equatable {
            case missing, invalid
            case value(Int64)
        }

        /// The `ph` byte; 0 when absent.
        var phase: UInt8 = 0
        var phaseToken = JSONStringToken(start: 0, end: 0, hasEscapes: false)
        var name: JSONStringToken?
        var category: JSONStringToken?
        var processID = ThreadPart.missing
        var threadID = ThreadPart.missing
        var timestamp = Time.missing
        var duration = Time.missing
        var id: UInt64?
        var id2: UInt64?
        var id2IsLocal = false
        var scope: UInt64?
        var instantScope = InstantScope.thread
        var bindingPoint = BindingPoint.unspecified
        var bindID: UInt64?
        var flowIn = false
        var flowOut = false
        /// The byte range of the `args` object, for the rare event that needs it whole.
        var argumentsStart = 0
        var argumentsEnd = 0
        var nestedArguments = 0
    }

    /// One scalar member of an event's `args`, located but not yet converted.
    struct ScratchArgument {
        enum Kind: UInt8 {
            case string, number, bool, null
            /// An array, or an object nested deeper than one level: `string` holds the bounds of
            /// its text, parsed only when a selection names its key.
            case nested
        }

        var key: JSONStringToken
        /// The key of the object this member was nested in, if it was.
        var prefix: JSONStringToken? = nil
        var kind: Kind
        var string = JSONStringToken(start: 0, end: 0, hasEscapes: false)
        var number = JSONNumberToken(start: 0)
        var bool = false
    }

    /// An entry of the parser's table of recent short argument strings (length -1: empty).
    struct ShortString {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length = -1
        var string = ""
    }

    /// An entry of the parser's table of recent short names and their symbols (length -1: empty).
    struct RecentSymbol {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length = -1
        var value: UInt32 = 0
    }

    /// How an event array ended.
    enum ArrayEnding {
        /// At its `]`.
        case closed
        /// The input ended after a complete element (a top-level array may end so).
        case endOfInput
        /// The input ended inside an element.
        case truncated
        /// A syntax error.
        case failed(TraceReadError)
    }
}
