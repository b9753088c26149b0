@_spi(FramescopeInternals) import FrameTrace

/// Stage two of reading a Perfetto trace, interning and tracks: each packet sequence's interned
/// names, categories, annotation names and string values with its defaults, and the tracks its
/// descriptors describe. The packet parser (`PerfettoImporter.swift`) fills them from
/// `interned_data`, `trace_packet_defaults` and descriptors; the event builder looks them up.
extension PerfettoParser {
    /// The interning stage's state.
    struct Interning {
        /// Each packet sequence's state, by slot (``slot(of:)``): mutated in place, never copied.
        var sequences: [Sequence] = []
        var sequenceSlots: [UInt64: Int] = [:]
        /// The last sequence looked up and its slot: packets of one sequence come in runs.
        var lastSequence: (id: UInt64, slot: Int) = (.max, -1)
        /// The generation ``newGeneration()`` gives next.
        private var nextGeneration: UInt64 = 1
        var tracks: [UInt64: Track] = [:] {
            didSet { counterTracks = [:] }  // a descriptor may rename a track or change its parent
        }
        /// Counter tracks' names and owners, as ``PerfettoParser/appendCounter(_:uuid:timestamp:offset:)``
        /// last worked them out from ``tracks``.
        var counterTracks: [UInt64: (name: Symbol, owner: ThreadKey)] = [:]

        /// The slot of a sequence's state, made on first use. Inlined for the usual case, a
        /// packet of the same sequence as the last; the rest is ``lookUpSlot(of:)``.
        @inline(__always)
        mutating func slot(of sequence: UInt64) -> Int {
            lastSequence.id == sequence ? lastSequence.slot : lookUpSlot(of: sequence)
        }

        /// ``slot(of:)`` for a sequence other than the last one's.
        @inline(never)
        private mutating func lookUpSlot(of sequence: UInt64) -> Int {
            let slot: Int
            if let known = sequenceSlots[sequence] {
                slot = known
            } else {
                slot = sequences.count
                sequences.append(makeSequence())
                sequenceSlots[sequence] = slot
            }
            lastSequence = (sequence, slot)
            return slot
        }

        /// A new sequence state with a generation of its own.
        mutating func makeSequence(isValid: Bool = false) -> Sequence {
            Sequence(isValid: isValid, generation: newGeneration())
        }

        /// A ``Sequence/generation`` not given before in this read.
        mutating func newGeneration() -> UInt64 {
            defer { nextGeneration += 1 }
            return nextGeneration
        }
    }

    /// Interned strings and defaults of one packet sequence, read and changed in place in
    /// ``Interning/sequences`` (never copied out: that would retain every table).
    struct Sequence {
        var isValid: Bool
        /// Which version of interned annotation names and string values this is, unique across
        /// the read (``makeSequence(isValid:)``, ``parseInternedData(_:slot:)``): events of the
        /// same version whose annotation bytes are the same read as the same arguments.
        var generation: UInt64 = 0
        var names = InternTable()
        var categories = InternTable()
        var annotationNames = InternTable()
        var stringValues = InternTable()
        var defaultTrack: UInt64?
        var legacyThread: ThreadKey?

        fileprivate init(isValid: Bool, generation: UInt64) {
            self.isValid = isValid
            self.generation = generation
        }
    }

    /// A described track.
    enum Track {
        case process(Int64)
        case thread(ThreadKey)
        case counter(name: String, parent: UInt64?)
        case other(name: String?, parent: UInt64?)
    }
}

/// Interned values by iid: dense for ids that come in order (producers count from 1), a
/// dictionary for the rest, so memory follows the entries a file defines, never the size of the
/// ids it names (a hostile iid of 2^40, or 65,535 on each of many sequences, costs one entry).
struct InternTable {
    private var dense: [UInt32] = []
    private var sparse: [UInt64: UInt32] = [:]
    /// How far past the dense part an id may be and still extend it.
    private static let denseGap: UInt64 = 1024

    subscript(iid: UInt64) -> UInt32? {
        @inline(__always) get {
            if iid < UInt64(dense.count), dense[Int(iid)] != .max { return dense[Int(iid)] }
            // An id set while it was past the dense part stays in the dictionary.
            return sparse.isEmpty ? nil : sparse[iid]
        }
        set {
            guard let newValue else { return }
            if iid < UInt64(dense.count) {
                dense[Int(iid)] = newValue
            } else if iid - UInt64(dense.count) <= Self.denseGap {
                dense.append(contentsOf: repeatElement(.max, count: Int(iid) - dense.count + 1))
                dense[Int(iid)] = newValue
                sparse[iid] = nil
            } else {
                sparse[iid] = newValue
            }
        }
    }
}
