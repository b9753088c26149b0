extension CostModel {
    /// The simulated device that virtual time prices work on: rates fitted by
    /// `swift run -c release framescope-bench calibrate 120` on the 2-core development VM (AMD EPYC
    /// under KVM, release build) on 2026-11-25, from the thread CPU time of every counted piece of
    /// work in every scenario and strategy. Refit it with that command when a workload changes what
    /// it does per unit; the command also prints every run on CPU time beside virtual time, which
    /// shows how close the priced runs come to the measured ones.
    package static let reference = CostModel(
        name: "reference (2-core development VM, calibrated 2026-11-25)",
        rates: [
            .applyDiff: Rate(perCall: 21380, perUnit: 1623.284),
            .backgroundJob: Rate(perCall: 0, perUnit: 7041.000),
            .constraintLayout: Rate(perCall: 93532, perUnit: 10.959),
            .diffSnapshots: Rate(perCall: 0, perUnit: 73.605),
            .downsample: Rate(perCall: 65955, perUnit: 3.456),
            .drawBlend: Rate(perCall: 16168, perUnit: 0.214),
            .drawCopy: Rate(perCall: 7519, perUnit: 0.000),
            .drawCornerOverlay: Rate(perCall: 8622, perUnit: 0.000),
            .drawOffscreen: Rate(perCall: 63630, perUnit: 0.062),
            .interpolateCards: Rate(perCall: 0, perUnit: 27.125),
            .layoutRows: Rate(perCall: 1998, perUnit: 0.000),
            .mainFrame: Rate(perCall: 0, perUnit: 21577.500),
            .makeSnapshot: Rate(perCall: 129098, perUnit: 0.000),
            .manualLayout: Rate(perCall: 6249, perUnit: 7.484),
            .placeImages: Rate(perCall: 2948, perUnit: 0.000),
            .pngDecode: Rate(perCall: 0, perUnit: 16.415),
            .positionSubviews: Rate(perCall: 167, perUnit: 41.909),
            .reloadList: Rate(perCall: 822656, perUnit: 0.000),
            .renderFrame: Rate(perCall: 0, perUnit: 401.000),
            .roundCorners: Rate(perCall: 0, perUnit: 1.312),
            .specLayout: Rate(perCall: 8162, perUnit: 59.020),
            .updateModel: Rate(perCall: 33014, perUnit: 0.000),
        ])
}
