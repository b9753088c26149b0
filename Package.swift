// swift-tools-version: 6.0
// framescope: where every frame's time budget goes.
// Zero package dependencies by design: only the toolchain's own modules and one small C target
// for the recording hot path (thread-local storage and atomics the hot path needs inline).
import PackageDescription

// One list of settings for every target, tests included, applied in a loop at the end (as
// swift-log and swift-distributed-tracing do), so a new target cannot be left out.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The privacy manifests (PrivacyInfo.xcprivacy in FrameScope and FrameTrace) are resources only
// when this manifest is evaluated on a Mac, which is where Xcode and `swift build` build for Apple
// platforms: the manifest runs on the host, so `os(macOS)` here means "building on a Mac", for any
// destination. A target with resources gets a generated `Bundle.module` accessor that imports
// Foundation; on Apple platforms Foundation is part of the system and already loaded by every app,
// but on Linux it would link Foundation, FoundationInternationalization and Dispatch into every
// program that records (measured: each FrameScope object then autolinks them). Linux, where App
// Store privacy reports do not exist, excludes the files instead.
#if os(macOS)
    let privacyManifest: (resources: [Resource], exclude: [String]) = ([.copy("PrivacyInfo.xcprivacy")], [])
#else
    let privacyManifest: (resources: [Resource], exclude: [String]) = ([], ["PrivacyInfo.xcprivacy"])
#endif

let package = Package(
    name: "framescope",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // Library products are what apps link, and their API is the compatibility promise (checked in
    // CI against a baseline, see README "Compatibility"). The reader, the analysis and the
    // simulation are the command-line tool's engine: targets, not products, free to change.
    products: [
        .library(name: "FrameScope", targets: ["FrameScope"]),
        .library(name: "FrameScopeTesting", targets: ["FrameScopeTesting"]),
        .library(name: "FrameTrace", targets: ["FrameTrace"]),
        .executable(name: "framescope", targets: ["FramescopeCLI"]),
        .executable(name: "framescope-bench", targets: ["FramescopeBench"]),
    ],
    targets: [
        .target(name: "CFrameScope"),
        .target(
            name: "FrameTrace", exclude: privacyManifest.exclude, resources: privacyManifest.resources),
        // What the reader, the analysis and the simulation share and apps never need: huge-page
        // advice, returning freed memory, the usable core count, the seeded generator, and the
        // escaping of trace text for each output (UntrustedText). A target, not a product, so
        // FrameTrace (which apps link) does not carry it; it uses FrameTrace's hidden-scalar
        // predicate, the one its JSON writer escapes with.
        .target(name: "FrameSupport", dependencies: ["FrameTrace"]),
        // JSON on its own: the scanner, numbers and JSONValue.parse, which the Chrome reader and
        // the budget parser share, so reading a budget links no trace reader.
        .target(name: "FrameJSON", dependencies: ["FrameTrace"]),
        .target(
            name: "FrameTraceReader", dependencies: ["FrameTrace", "FrameJSON", "FrameSupport"]),
        .target(
            name: "FrameScope", dependencies: ["FrameTrace", "CFrameScope"], exclude: privacyManifest.exclude,
            resources: privacyManifest.resources),
        // Test doubles, and budgets checked in `swift test`: the analysis and the reader come in
        // through internal imports, so this product's API shows only its own types and apps,
        // which link FrameScope alone, carry none of it.
        .target(
            name: "FrameScopeTesting", dependencies: ["FrameScope", "FrameTrace", "FrameAnalysis", "FrameTraceReader"]),
        // The Parquet writer: the format on its own, no framescope types, so it tests alone.
        .target(name: "FrameParquet"),
        // The report page's script and style are files of their own, for a linter and an editor, and
        // are compiled in as byte arrays (`PackageResources`): no bundle, nothing to find at run time.
        .target(
            name: "FrameAnalysis", dependencies: ["FrameTrace", "FrameJSON", "FrameSupport", "FrameParquet"],
            resources: [.embedInCode("Rendering/Page/report.js"), .embedInCode("Rendering/Page/report.css")]),
        // The simulation does not depend on the analysis, so the two largest modules build side by
        // side; FrameRuns joins them (a run's trace analysed, the demo's table).
        .target(
            name: "FrameSimulation", dependencies: ["FrameScope", "FrameTrace", "FrameSupport"]),
        .target(
            name: "FrameRuns",
            dependencies: [
                "FrameSimulation", "FrameAnalysis", "FrameScope", "FrameTrace", "FrameTraceReader", "FrameSupport",
            ]),
        .executableTarget(
            name: "FramescopeCLI",
            dependencies: [
                "FrameScope", "FrameTrace", "FrameTraceReader", "FrameAnalysis", "FrameSimulation", "FrameRuns",
                "FrameSupport",
            ]),
        .executableTarget(
            name: "FramescopeBench",
            dependencies: [
                "FrameScope", "FrameTrace", "FrameJSON", "FrameTraceReader", "FrameAnalysis", "FrameSimulation",
                "FrameRuns", "FrameSupport",
            ]),
        // What several test targets share: running programs (both pipes drained), the
        // independent trace validator, real CPU work. A target, never a product.
        .target(name: "FramescopeTestSupport", dependencies: ["FrameTrace"], path: "Tests/Support"),
        .testTarget(name: "FrameJSONTests", dependencies: ["FrameJSON", "FrameTrace"]),
        // A Parquet reader written from the spec apart from the writer, for the tests that read
        // back what FrameParquet wrote. A target, never a product.
        .target(name: "ParquetTestSupport", path: "Tests/ParquetSupport"),
        .testTarget(name: "FrameParquetTests", dependencies: ["FrameParquet", "ParquetTestSupport"]),
        // The trace values and writers; PerfettoWriterTests reads its output back with the reader.
        .testTarget(name: "FrameTraceTests", dependencies: ["FrameTrace", "FrameTraceReader", "FrameSupport"]),
        // The reader's suites and their fixtures (tools/make_perfetto_fixtures.py writes Fixtures/perfetto).
        .testTarget(
            name: "FrameTraceReaderTests",
            dependencies: ["FrameTrace", "FrameJSON", "FrameTraceReader", "FrameSupport", "FramescopeTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "FrameSupportTests", dependencies: ["FrameSupport", "FrameTrace"]),
        .testTarget(
            name: "FrameScopeTests",
            dependencies: ["FrameScope", "FrameTrace", "FrameTraceReader", "FramescopeTestSupport"],
            resources: [.copy("Golden")]),
        .testTarget(
            name: "FrameAnalysisTests",
            dependencies: [
                "FrameAnalysis", "FrameTrace", "FrameJSON", "FrameTraceReader", "FrameScope", "FrameSupport",
                "ParquetTestSupport",
            ], exclude: ["Golden", "Fixtures"]),
        .testTarget(
            name: "FrameSimulationTests",
            dependencies: [
                "FrameSimulation", "FrameRuns", "FrameScope", "FrameTrace", "FrameTraceReader", "FrameAnalysis",
                "FramescopeTestSupport", "FrameSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FrameRunsTests",
            dependencies: ["FrameRuns", "FrameSimulation", "FrameAnalysis", "FrameTrace", "FrameTraceReader"]),
        .testTarget(
            name: "FramescopeCLITests",
            dependencies: [
                "FrameTrace", "FrameTraceReader", "FramescopeCLI", "FramescopeTestSupport", "ParquetTestSupport",
            ], exclude: ["Fixtures"]),
        // What an app links: FrameScope alone. This target must build without the reader module.
        .testTarget(name: "AppLinkTests", dependencies: ["FrameScope"]),
        // FramescopeCLI so that the built `framescope` is there to compare verdicts with.
        .testTarget(
            name: "FrameScopeTestingTests",
            dependencies: ["FrameScopeTesting", "FrameScope", "FrameTrace", "FramescopeCLI", "FramescopeTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strict
}
