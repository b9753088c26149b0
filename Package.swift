// swift-tools-version: 6.0
// framescope: where every frame's time budget goes.
// Zero package dependencies by design: only the toolchain's own modules and one small C target
// for the recording hot path (thread-local storage and atomics the hot path needs inline).
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "framescope",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "FrameScope", targets: ["FrameScope"]),
        .library(name: "FrameTrace", targets: ["FrameTrace"]),
        .library(name: "FrameAnalysis", targets: ["FrameAnalysis"]),
        .library(name: "FrameWorkloads", targets: ["FrameWorkloads"]),
        .executable(name: "framescope", targets: ["FramescopeCLI"]),
        .executable(name: "framescope-bench", targets: ["FramescopeBench"]),
    ],
    targets: [
        .target(name: "CFrameScope"),
        .target(name: "FrameTrace", swiftSettings: strict),
        .target(name: "FrameScope", dependencies: ["FrameTrace", "CFrameScope"], swiftSettings: strict),
        .target(name: "FrameAnalysis", dependencies: ["FrameTrace"], swiftSettings: strict),
        .target(name: "FrameWorkloads", dependencies: ["FrameScope", "FrameTrace"], swiftSettings: strict),
        .executableTarget(
            name: "FramescopeCLI",
            dependencies: ["FrameScope", "FrameTrace", "FrameAnalysis", "FrameWorkloads"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FramescopeBench",
            dependencies: ["FrameScope", "FrameTrace", "FrameAnalysis", "FrameWorkloads"],
            swiftSettings: strict
        ),
        .testTarget(name: "FrameTraceTests", dependencies: ["FrameTrace"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FrameScopeTests", dependencies: ["FrameScope", "FrameTrace"], resources: [.copy("Golden")]),
        .testTarget(name: "FrameAnalysisTests", dependencies: ["FrameAnalysis", "FrameTrace", "FrameScope"], exclude: ["Golden", "Fixtures"]),
        .testTarget(
            name: "FrameWorkloadsTests", dependencies: ["FrameWorkloads", "FrameScope", "FrameTrace", "FrameAnalysis"], resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "FramescopeCLITests", dependencies: ["FrameTrace", "FramescopeCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
