package import FrameScope

/// The recorder's manual clock is what a pricing meter advances under virtual time.
extension ManualClock: AdvancingClock {}
