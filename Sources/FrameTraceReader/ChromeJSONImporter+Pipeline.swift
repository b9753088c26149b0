import FrameJSON
import FrameSupport
import FrameTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a large event array on two cores: a worker thread runs the tokenizer (stage one of
/// each event: member names, numbers, string bounds, arguments) ahead of the parser, which
/// commits the tokenized events (stage two: interning, threads, pairing, diagnostics) in input
/// order as they arrive, in batches of ``EventPipeline/batchSize``.
///
/// The parser sees exactly the events, arguments and positions the sequential loop would give
/// it, in the same order, and every decision that depends on more than one event stays in the
/// parser; so the trace, its diagnostics and any error are the same either way (a test reads
/// every corpus trace both ways). The worker names string thread ids, which depends only on the
/// order of the events, and hands its tokenizer back when the array ends. Memory is bounded:
/// three batches circulate between the two threads.
extension ChromeJSONImporter.Parser {
    /// Whether to read the rest of the event array with a worker thread.
    func usesPipeline() -> Bool { pipelining.usesWorker(for: scanner.count - scanner.position) }

    /// Reads the event array from its first element to its end, as `readEvents()` does, with the
    /// tokenizer on a worker thread. Returns how the array ended; the scanner and the event count
    /// are then where `readEvents()` would have left them.
    /// - Returns: `nil` when no thread could be started (nothing has been read then).
    mutating func readEventsPipelined() -> ChromeJSONImporter.ArrayEnding? {
        #if !(canImport(Glibc) || canImport(Darwin))
            return nil  // no threads here: `usesPipeline()` is false
        #else
            let pipeline = BatchPipeline(
                filler: tokenizer,
                batches: (0..<ChromeJSONImporter.EventPipeline.batchCount).map { _ in
                    ChromeJSONImporter.EventPipeline.Batch()
                })
            guard pipeline.start() else { return nil }
            var ending = ChromeJSONImporter.ArrayEnding.closed
            while true {
                let batch = pipeline.takeFilled()
                let arguments = UnsafePointer(batch.arguments)
                for element in 0..<batch.count {
                    let index = eventIndex
                    eventIndex += 1
                    if batch.isObject[element] {
                        tokenizer.load(batch, element, arguments: arguments)
                        commit(index)
                    } else {
                        trace.log.add(.invalidEvent, index, "the event is not an object")
                    }
                    tokenizer.scanner.position = batch.ends[element]
                    releaseReadInput()
                }
                let last = batch.ending
                pipeline.recycle(batch)
                if let last {
                    ending = last
                    break
                }
            }
            // The worker has stopped: its tokenizer (position, synthetic ids) is the parser's again.
            tokenizer = pipeline.finish()
            // `readEvents()` counts the element cut off before its read fails; the worker's batches hold
            // complete elements only.
            if case .truncated = ending { eventIndex += 1 }
            return ending
        #endif
    }
}

extension ChromeJSONImporter.EventTokenizer {
    /// Makes element `element` of `batch` the event being read.
    @inline(__always)
    mutating func load(
        _ batch: ChromeJSONImporter.EventPipeline.Batch, _ element: Int,
        arguments source: UnsafePointer<ChromeJSONImporter.ScratchArgument>
    ) {
        event = batch.events[element]
        argumentCount = 0
        let start = element == 0 ? 0 : batch.argumentEnds[element - 1]
        for position in start..<batch.argumentEnds[element] { appendArgument(source[position]) }
    }

    /// Reads elements of the event array into `batch` until it is full or the array ends, as
    /// `readEvents()` does: the element, then what follows it.
    mutating func fillEvents(_ batch: ChromeJSONImporter.EventPipeline.Batch) {
        var count = 0
        var argumentsUsed = 0
        defer {
            batch.count = count
            batch.argumentCount = argumentsUsed
        }
        batch.ending = nil
        while count < ChromeJSONImporter.EventPipeline.batchSize {
            let isObject: Bool
            do throws(TraceReadError) {
                isObject = try readEvent()
            } catch {
                batch.ending = error.isEndOfInput ? .truncated : .failed(error)
                return
            }
            (batch.events + count).initialize(to: isObject ? event : ChromeJSONImporter.RawEvent())
            if isObject, argumentCount > 0 {
                batch.reserveArguments(argumentsUsed + argumentCount, keeping: argumentsUsed)
                arguments.withUnsafeBufferPointer {
                    (batch.arguments + argumentsUsed).initialize(from: $0.baseAddress!, count: argumentCount)
                }
                argumentsUsed += argumentCount
            }
            batch.argumentEnds[count] = argumentsUsed
            batch.ends[count] = scanner.position
            batch.isObject[count] = isObject
            count += 1
            if let ending = skipSeparator() {
                batch.ending = ending
                return
            }
        }
    }

    /// Steps past what follows an element of the event array: `nil` after a `,` with another
    /// element behind it, else how the array ended. A trailing comma before `]` is accepted, as
    /// viewers accept it.
    @inline(__always)
    mutating func skipSeparator() -> ChromeJSONImporter.ArrayEnding? {
        // The usual case, a comma and the next event's brace with at most a line feed between
        // them, is stepped over here; the general path below would end at the same brace.
        let at = scanner.position
        if at &+ 2 < scanner.count, scanner.base[at] == UInt8(ascii: ",") {
            if scanner.base[at &+ 1] == UInt8(ascii: "{") {
                scanner.position = at &+ 1
                return nil
            }
            if scanner.base[at &+ 1] == UInt8(ascii: "\n"), scanner.base[at &+ 2] == UInt8(ascii: "{") {
                scanner.position = at &+ 2
                return nil
            }
        }
        return skipSeparatorGenerally()
    }

    private mutating func skipSeparatorGenerally() -> ChromeJSONImporter.ArrayEnding? {
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { return .endOfInput }
        let next = scanner.current
        if next == UInt8(ascii: ",") {
            scanner.position += 1
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { return .endOfInput }
            guard scanner.current == UInt8(ascii: "]") else { return nil }
            scanner.position += 1
            return .closed
        }
        guard next == UInt8(ascii: "]") else {
            return .failed(scanner.unexpected(expecting: "',' or ']' after an event"))
        }
        scanner.position += 1
        return .closed
    }
}

extension ChromeJSONImporter.EventTokenizer: BatchFilling {
    mutating func fill(_ batch: ChromeJSONImporter.EventPipeline.Batch) -> Bool {
        fillEvents(batch)
        return batch.ending != nil
    }
}

extension ChromeJSONImporter {
    /// The batches the tokenizer fills on the worker thread (``BatchPipeline``) and their sizes.
    enum EventPipeline {

        /// Elements per batch: large enough that handing one over costs nothing per event, small
        /// enough that three stay in cache-sized memory.
        static let batchSize = 2048
        static let batchCount = 3

        /// Tokenized elements of the event array, in input order, in memory of its own: a
        /// class's array properties are checked for exclusive access at run time on every use,
        /// which cost a third of the worker's time, and its pointers are not. (The elements are
        /// plain values, without references, so they are written over without being destroyed.)
        final class Batch {
            let events = UnsafeMutablePointer<RawEvent>.allocate(capacity: EventPipeline.batchSize)
            /// Per element, the end of its arguments in `arguments` (they start where the
            /// previous element's end).
            let argumentEnds = UnsafeMutablePointer<Int>.allocate(capacity: EventPipeline.batchSize)
            /// Per element, the scanner's position after it.
            let ends = UnsafeMutablePointer<Int>.allocate(capacity: EventPipeline.batchSize)
            /// Per element, whether it was an object (anything else was skipped).
            let isObject = UnsafeMutablePointer<Bool>.allocate(capacity: EventPipeline.batchSize)
            private(set) var arguments = UnsafeMutablePointer<ScratchArgument>.allocate(capacity: 1024)
            private var argumentCapacity = 1024
            /// Elements and arguments in use.
            var count = 0
            var argumentCount = 0
            /// How the array ended, in the batch's last element or just after it.
            var ending: ArrayEnding?

            init() {
                // Elements are written over without being destroyed: they must hold no references.
                assert(_isPOD(RawEvent.self) && _isPOD(ScratchArgument.self))
            }

            deinit {
                events.deallocate()
                argumentEnds.deallocate()
                ends.deallocate()
                isObject.deallocate()
                arguments.deallocate()
            }

            /// Makes room for `needed` arguments, keeping the first `used`.
            @inline(__always)
            func reserveArguments(_ needed: Int, keeping used: Int) {
                guard needed > argumentCapacity else { return }
                let capacity = max(needed, argumentCapacity * 2)
                let larger = UnsafeMutablePointer<ScratchArgument>.allocate(capacity: capacity)
                larger.moveInitialize(from: arguments, count: used)
                arguments.deallocate()
                arguments = larger
                argumentCapacity = capacity
            }
        }
    }
}
