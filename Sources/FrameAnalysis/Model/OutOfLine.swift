/// A value kept behind one pointer, with value semantics: for the large parts of a frame that most
/// frames lack (Android's figures, a hitch's hold, a background feed), so that a frame's inline
/// size, what a large trace's tens of thousands of frames allocate, zero and copy, stays small.
///
/// An `Optional<OutOfLine<T>>` is one pointer wide; assigning a new value allocates a new box.
indirect enum OutOfLine<Value: Sendable & Hashable>: Sendable, Hashable {
    case value(Value)

    init(_ value: Value) { self = .value(value) }

    var value: Value {
        switch self {
        case .value(let value): value
        }
    }
}
