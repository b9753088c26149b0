import FrameTrace

/// Where a Perfetto input ends inside a top-level field (its key, its length or its bytes), read
/// again from the field's key once the framer ran out of bytes there; and what that means.
///
/// One rule, shared by the reader and ``TraceRepair``:
/// - After at least one whole packet, the torn field is what a writer killed mid-packet leaves:
///   the trace loads with a ``TraceDiagnostic/Kind/truncated`` diagnostic naming the packet's
///   byte and how many of its bytes are missing (``diagnostic(packetsRead:)``), and `repair`
///   cuts it.
/// - In the first packet (byte 0 is always one: ``PerfettoImporter/looksLikePerfetto(_:)``)
///   nothing whole can be read, so the input is no Perfetto trace: ``error`` says so, and where.
/// - A declared length of 2 GiB or more is never a packet cut off: protobuf's encoding allows no
///   message that large, so no writer, Perfetto's or any other, can have been writing one. It is
///   a corrupt length, and an error wherever it is (``lengthLimit``).
struct TornPacket: Hashable {
    /// Where in the field the input ends.
    enum Cut: Hashable {
        /// Inside the field's key.
        case key
        /// Inside a varint: a length-delimited value's length (`isLength`), or a varint value. How
        /// many bytes are missing is not known.
        case varint(isLength: Bool)
        /// Inside a value whose size is known (a declared length, or 8 or 4 bytes for a fixed
        /// value): `present` of its `declared` bytes are in the input.
        case value(declared: UInt64, present: Int)
    }

    /// Protobuf's limit on a message, 2 GiB: a length this large or larger is corrupt.
    static let lengthLimit: UInt64 = 1 << 31

    /// The offset of the field's key.
    let start: Int
    /// The input's size in bytes.
    let inputSize: Int
    /// The field's number; 0 when its key is cut.
    let field: Int
    /// Whether the field is a packet (`Trace.packet`, length-delimited).
    let isPacket: Bool
    let cut: Cut

    /// Reads the field that starts at `start` again, as far as `buffer` goes.
    /// - Precondition: Reading the field from `start` runs past the end of `buffer`.
    init(in buffer: UnsafeBufferPointer<UInt8>, at start: Int) {
        self.start = start
        inputSize = buffer.count
        var input = ProtobufInput(buffer).input(over: start..<buffer.count)
        guard let (field, type) = try? input.nextField() else {
            (self.field, isPacket, cut) = (0, false, .key)
            return
        }
        self.field = field
        isPacket = field == PerfettoSchema.Trace.packet && type == .lengthDelimited
        let valueStart = input.position
        switch type {
        case .varint:
            cut = .varint(isLength: false)
        case .fixed64:
            cut = .value(declared: 8, present: buffer.count - valueStart)
        case .fixed32:
            cut = .value(declared: 4, present: buffer.count - valueStart)
        case .lengthDelimited:
            if let length = try? input.varint() {
                cut = .value(declared: length, present: buffer.count - input.position)
            } else {
                cut = .varint(isLength: true)
            }
        }
    }

    /// The error when the input cannot be a trace whose last packet a killed writer tore: the
    /// cut is in the first packet, or the length is one no protobuf message has. `nil` when the
    /// trace loads with ``diagnostic(packetsRead:)``.
    var error: TraceReadError? {
        var impossibleLength: UInt64?
        if case .value(let length, _) = cut, length >= Self.lengthLimit { impossibleLength = length }
        guard start == 0 || impossibleLength != nil else { return nil }
        let message =
            start == 0
            ? firstFieldMessage
            : "\(subject) claims \(impossibleLength ?? 0) bytes, and no protobuf message is 2 GiB or more: a corrupt length, not a packet cut off mid-write"
        var error = TraceReadError(impossibleLength == nil ? .unexpectedEnd : .invalidProtobuf, message, at: start)
        error.isBinaryPosition = true
        return error
    }

    /// Why no whole packet can be read.
    private var firstFieldMessage: String {
        if inputSize == 1 { return "the input is 1 byte: too short to hold one Perfetto packet" }
        switch cut {
        case .value(let declared, let present) where isPacket:
            return
                "the first packet claims \(declared) bytes but only \(present) follow its length, in an input of \(inputSize) bytes: not a whole Perfetto packet"
        case .varint(isLength: true) where isPacket:
            return
                "the input is \(inputSize) bytes and ends inside the first packet's length: not a whole Perfetto packet"
        case .key:
            return "the input is \(inputSize) bytes and ends inside its first field's key: not a whole Perfetto packet"
        default:
            return
                "the input is \(inputSize) bytes and ends inside its first field, Trace field \(field): not a whole Perfetto packet"
        }
    }

    /// What the field is, as the subject of a sentence.
    private var subject: String { isPacket ? "the packet" : "Trace field \(field)" }

    /// The ``TraceDiagnostic/Kind/truncated`` diagnostic's message, when ``error`` is `nil`.
    /// - Parameter packetsRead: The whole packets before the torn field.
    func diagnostic(packetsRead: Int) -> String {
        let read =
            "the \(packetsRead) packet\(packetsRead == 1 ? "" : "s") before it \(packetsRead == 1 ? "was" : "were") read"
        switch cut {
        case .key:
            return "the input ends inside the key of the Trace field that starts at byte \(start); \(read)"
        case .varint(isLength: true):
            return
                "the input ends inside the length of \(subject) that starts at byte \(start), so how many bytes are missing is not known; \(read)"
        case .varint(isLength: false):
            return "the input ends inside the value of \(subject) that starts at byte \(start); \(read)"
        case .value(let declared, let present):
            return
                "the input ends inside \(subject) that starts at byte \(start): it claims \(declared) bytes and the input has \(present), \(declared - UInt64(present)) missing; \(read)"
        }
    }

    /// The error for an empty input given to the Perfetto reader itself (the format-neutral
    /// entry reads an empty input as JSON and says it is empty).
    static var emptyInputError: TraceReadError {
        var error = TraceReadError(.unexpectedEnd, "the input is empty: no Perfetto packet", at: 0)
        error.isBinaryPosition = true
        return error
    }
}
