@_spi(FramescopeInternals) import FrameTrace

/// A `Trace` field as the framer found it: a packet (its bytes and whether it has the common
/// shape, whose decoded fields are in the batch's ``PacketFramer/Batch/commons``) or another
/// field, skipped. A plain value, so batches of them are written over without being destroyed.
struct FramedPacket {
    /// The offset of the field's key in the file.
    var start = 0
    /// A packet's bytes (after its length).
    var payload = 0..<0
    /// 0 for a packet; otherwise the number of the `Trace` field skipped here.
    var skippedField = 0
    /// Whether the batch's ``PacketFramer/Batch/commons`` holds the packet's fields at the same
    /// index (else the general reader reads it).
    var isCommon = false
}

/// The first stage of reading a Perfetto trace: it finds the packets in the file and decodes
/// those of the common shape (``CommonPacketDecoder``), in batches, on a worker thread for a
/// large file (``BatchPipeline``) or on the calling thread. What a packet means is decided by
/// the parser, in order; the framer only reads bytes.
struct PacketFramer: BatchFilling {
    /// How a file ended, after the last packet of a batch.
    enum Ending {
        /// After a whole packet: the file is read.
        case complete
        /// Inside a packet (or its key or length): a file cut off mid-write, whose packets
        /// before it are whole, unless ``TornPacket/error`` says otherwise.
        case truncated(TornPacket)
        /// A malformed key or length.
        case failed(TraceReadError)
    }

    final class Batch {
        /// Packets per batch: enough that handing one over costs nothing per packet, few enough
        /// that three batches (about 1.5 MB) stay in the second-level cache.
        static let capacity = 2048
        let packets = UnsafeMutablePointer<FramedPacket>.allocate(capacity: Batch.capacity)
        /// The decoded fields of the packets of the common shape, by the same index: apart, so
        /// that the decoder writes them and the parser reads them in place, never copied.
        let commons = UnsafeMutablePointer<CommonPacket>.allocate(capacity: Batch.capacity)
        var count = 0
        /// How the file ended, when it did in or after this batch.
        var ending: Ending?

        init() {
            // Elements are written over without being destroyed: they must hold no references.
            assert(_isPOD(FramedPacket.self) && _isPOD(CommonPacket.self))
            packets.initialize(repeating: FramedPacket(), count: Batch.capacity)
            commons.initialize(repeating: CommonPacket(), count: Batch.capacity)
        }

        deinit {
            packets.deallocate()
            commons.deallocate()
        }
    }

    static let batchCount = 3

    private var input: ProtobufInput
    private let decoder: CommonPacketDecoder

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        input = ProtobufInput(buffer)
        decoder = CommonPacketDecoder(buffer: buffer)
    }

    /// Frames (and, where it can, decodes) packets into `batch` until it is full or the file
    /// ends; `true` when the file has ended.
    mutating func fill(_ batch: Batch) -> Bool {
        batch.count = 0
        batch.ending = nil
        while batch.count < Batch.capacity {
            // Written in place, field by field: a decoded packet is about 180 bytes, not built
            // aside and copied (the batch's memory holds packets from the start, see `Batch.init`).
            let framed = batch.packets + batch.count
            framed.pointee.start = input.position
            framed.pointee.skippedField = 0
            framed.pointee.isCommon = false
            do throws(TraceReadError) {
                guard let (field, type) = try input.nextField() else {
                    batch.ending = .complete
                    return true
                }
                if field == PerfettoSchema.Trace.packet, type == .lengthDelimited {
                    framed.pointee.payload = try input.lengthDelimited()
                    framed.pointee.isCommon = decoder.decode(
                        framed.pointee.payload, into: &batch.commons[batch.count])
                } else {
                    try input.skip(type)
                    framed.pointee.skippedField = field
                }
            } catch  where error.code == .unexpectedEnd {
                batch.ending = .truncated(TornPacket(in: input.buffer, at: framed.pointee.start))
                return true
            } catch {
                batch.ending = .failed(error)
                return true
            }
            batch.count += 1
        }
        return false
    }
}

extension PerfettoParser {
    /// The framing stage's state on the parser's side: the file's pages already applied, handed
    /// back when it is mapped (the framer itself, ``PacketFramer``, lives for one read).
    struct Framing {
        var readPages: ReadPageRelease
    }

    /// Reads every packet: framed and decoded by a ``PacketFramer`` on a worker thread when
    /// `pipelined` and one can be started, else on this thread; applied here, in file order,
    /// either way, so the trace is the same.
    mutating func parseTrace(pipelined: Bool = false) throws(TraceReadError) {
        var packets = 0
        #if canImport(Glibc) || canImport(Darwin)
            if pipelined {
                let pipeline = BatchPipeline(
                    filler: PacketFramer(buffer),
                    batches: (0..<PacketFramer.batchCount).map { _ in PacketFramer.Batch() })
                if pipeline.start() {
                    defer {
                        pipeline.cancel()  // when the read stops early; after the end it changes nothing
                        _ = pipeline.finish()
                    }
                    while true {
                        let batch = pipeline.takeFilled()
                        let ended = try apply(batch, packets: &packets)
                        pipeline.recycle(batch)
                        if ended { return }
                    }
                }
            }
        #endif
        var framer = PacketFramer(buffer)
        let batch = PacketFramer.Batch()
        while true {
            _ = framer.fill(batch)
            if try apply(batch, packets: &packets) { return }
        }
    }

    /// Applies a batch's packets in order; `true` when the read is over (the file ended, or it
    /// must be read again: ``Pairing/needsSecondPass``).
    private mutating func apply(_ batch: PacketFramer.Batch, packets: inout Int) throws(TraceReadError) -> Bool {
        for index in 0..<batch.count {
            // Through pointers: a decoded packet is about 180 bytes, not copied out.
            let framed = batch.packets + index
            guard framed.pointee.skippedField == 0 else {
                skipped.skippedFields["Trace field \(framed.pointee.skippedField)", default: 0] += 1
                continue
            }
            packets += 1
            if !(framed.pointee.isCommon
                && applyCommon(batch.commons + index, offset: framed.pointee.start))
            {
                var packet = ProtobufInput(buffer).input(over: framed.pointee.payload)
                try parsePacket(&packet, offset: framed.pointee.start)
            }
            if pairing.needsSecondPass { return true }
            if packets == 4096 { reserveCapacity(readSoFar: framed.pointee.payload.upperBound) }
        }
        // Nothing read later refers back to a packet's bytes once it is applied.
        if batch.count > 0 { framing.readPages.release(before: batch.packets[batch.count - 1].payload.upperBound) }
        switch batch.ending {
        case nil:
            return false
        case .complete?:
            return true
        case .truncated(let torn)?:
            // Running out of the file inside a packet after whole ones is a file cut off
            // mid-write (a killed TraceStream): the packets before it are whole, and read. In the
            // first packet, or with a length no protobuf message has, it is no trace.
            if let error = torn.error { throw error }
            trace.log.add(.truncated, nil, torn.diagnostic(packetsRead: packets))
            return true
        case .failed(let error)?:
            throw error
        }
    }
}
