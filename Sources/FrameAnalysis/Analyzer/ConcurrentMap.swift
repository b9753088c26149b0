import Dispatch

/// `body(index)` for every index in `0..<count`, in index order, computed on all cores by
/// `DispatchQueue.concurrentPerform`: the calling thread and workers of Dispatch's global pool,
/// which Dispatch sizes by the cores rather than by the calls, so that analyses already running
/// on that pool (`check --jobs`) create no threads of their own.
func concurrentMap<Result: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    let results = ConcurrentResults<Result>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in results.store(body(index), at: index) }
    return results.take()
}

/// `first()` and `second()`: at once on two threads when `onAllCores`, else one after the other.
func both<First: Sendable, Second: Sendable>(
    onAllCores: Bool, _ first: @Sendable () -> First, _ second: @Sendable () -> Second
) -> (First, Second) {
    guard onAllCores else { return (first(), second()) }
    let firstResult = ConcurrentResults<First>(count: 1)
    let secondResult = ConcurrentResults<Second>(count: 1)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 { firstResult.store(first(), at: 0) } else { secondResult.store(second(), at: 0) }
    }
    return (firstResult.take()[0], secondResult.take()[0])
}

/// Where ``concurrentMap(_:_:)``'s iterations leave their results. Unchecked: each iteration
/// writes only its own slot, once, so no two writes touch the same memory, and the results are
/// read only after `concurrentPerform` has returned, which waits for every iteration.
private final class ConcurrentResults<Value: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ value: consuming Value, at index: Int) { slots[index] = value }

    /// The results in index order, moved out of the slots.
    func take() -> [Value] { slots.indices.map { slots[$0].take()! } }
}

/// `body(index)` for every index in `0..<count`, in index order: on all cores when `onAllCores`,
/// in a few ranges of indices (``concurrentMap(_:_:)``), else in one loop on the calling thread.
func map<Result: Sendable>(_ count: Int, onAllCores: Bool, _ body: @Sendable (Int) -> Result) -> [Result] {
    guard onAllCores, count > 1 else { return (0..<count).map(body) }
    let parts = min(count, 16)
    let results = concurrentMap(parts) { part in (count * part / parts..<count * (part + 1) / parts).map(body) }
    return Array(results.joined())
}

/// A value handed to the one thread that takes it, without a copy: a non-copyable move across a
/// `@Sendable` closure, for values whose buffers must stay uniquely referenced (``Tally``).
/// Unchecked: `take()` is called once, by one thread, after `init` on the thread that made it.
final class Handover<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: consuming Value) { self.value = value }

    /// The value; a second call traps.
    func take() -> Value { value.take()! }
}
