import CFrameScope
import FrameTrace

/// An arrow from the span that produces a result to the span that consumes it, such as an image
/// decoded on a background thread and applied in a later frame's commit.
///
/// ```swift
/// let flow = recorder.makeFlow("decoded image", category: .imageDecode)
/// worker.async { recorder.withSpan("decode", category: .imageDecode) { decode(); recorder.startFlow(flow) } }
/// // later, on the main thread:
/// recorder.withSpan("apply image", category: .imageDecode) { recorder.finishFlow(flow); apply() }
/// ```
///
/// Call ``Recorder/startFlow(_:)`` and ``Recorder/finishFlow(_:)`` inside the producing and the
/// consuming span: each end binds to the span that encloses it. The exported trace contains a flow
/// only once both ends are recorded.
public struct Flow: Sendable, Hashable {
    /// The flow's id, unique within its recorder.
    public let id: UInt64
    let name: StaticString
    let category: Category

    /// Whether two values are the same flow: flows compare by ``id`` alone.
    /// - Parameters:
    ///   - lhs: A flow.
    ///   - rhs: Another flow.
    /// - Returns: `true` when both have the same ``id``.
    public static func == (lhs: Flow, rhs: Flow) -> Bool { lhs.id == rhs.id }
    /// Feeds the flow's ``id``, the only part that takes part in equality, into `hasher`.
    /// - Parameter hasher: The hasher to combine the id into.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension Recorder {
    /// Makes a new flow; record its ends with ``startFlow(_:)`` and ``finishFlow(_:)``.
    ///
    /// Making a flow records nothing, so it costs the same whether or not the recorder is enabled:
    /// an atomic increment for the id.
    /// - Parameters:
    ///   - name: A static name for the arrow, such as `"decoded image"`.
    ///   - category: The budget category the arrow is exported in.
    /// - Returns: A flow with an id no other flow of this recorder has.
    public func makeFlow(_ name: StaticString, category: Category = .other) -> Flow {
        Flow(id: nextFlowID.add(1, ordering: .relaxed).oldValue, name: name, category: category)
    }

    /// Records the producing end of a flow, bound to the span enclosing this call.
    ///
    /// Does nothing while the recorder is disabled.
    /// - Parameter flow: A flow from ``makeFlow(_:category:)``.
    public func startFlow(_ flow: Flow) { recordFlow(flow, kind: .flowStart) }

    /// Records the consuming end of a flow, bound to the span enclosing this call.
    ///
    /// Does nothing while the recorder is disabled.
    /// - Parameter flow: The flow whose producing end ``startFlow(_:)`` recorded.
    public func finishFlow(_ flow: Flow) { recordFlow(flow, kind: .flowEnd) }

    private func recordFlow(_ flow: Flow, kind: RecordKind) {
        guard isEnabled else { return }
        let (bits, length) = nameBits(flow.name)
        push(
            start: clock.timestamp(), end: Int64(bitPattern: flow.id), name: bits,
            meta: packMeta(kind, flow.category, nameLength: length), extra: 0)
    }
}
