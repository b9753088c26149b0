import FrameScope

@testable import FrameSimulation

/// A recorder on virtual time and the meter that moves its clock: every piece of work the
/// workloads count is priced by the reference cost model, so a test's frames come out the same on
/// any machine, however loaded. Pass the meter to the `DisplayLoop`.
func virtualTime(model: CostModel = .reference) -> (Recorder, WorkMeter) {
    let clock = ManualClock.virtual()
    return (Recorder(clock: .manual(clock)), .pricing(model, clock: clock))
}
