// swift-tools-version:6.0
// BGBench: a research harness for background-task scheduling on phones.
//
// Dependency direction (an arrow means "may import"):
//   CGSL  <- Stats
//   SimCore                       (imports nothing)
//   Traces      -> SimCore, Stats
//   Device      -> SimCore, Traces
//   Policies    -> Device (and SimCore for time types)
//   Experiments -> all of the above
//   BGBenchCLI  -> Experiments, Policies (the commands, as a library; takes a policy registry)
//   bgbench     -> BGBenchCLI     (the executable: one call)
// Only the CLI imports Experiments; only the executable imports the CLI; SimCore knows nothing of statistics.
import PackageDescription

/// Internal invariant checks (heap order, time monotonicity, ...) compile in
/// only where `BGBENCH_INVARIANTS` is defined: debug builds and the tests.
let invariantChecks: [SwiftSetting] = [
    .define("BGBENCH_INVARIANTS", .when(configuration: .debug)),
]

let package = Package(
    name: "BGBench",
    products: [
        .library(name: "Stats", targets: ["Stats"]),
        .library(name: "SimCore", targets: ["SimCore"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "Device", targets: ["Device"]),
        .library(name: "Policies", targets: ["Policies"]),
        .library(name: "Experiments", targets: ["Experiments"]),
        .library(name: "BGBenchCLI", targets: ["BGBenchCLI"]),
        .executable(name: "bgbench", targets: ["bgbench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        .target(name: "Stats", dependencies: ["CGSL"], swiftSettings: invariantChecks),
        .target(name: "SimCore", swiftSettings: invariantChecks),
        .target(name: "Traces", dependencies: ["SimCore", "Stats"], swiftSettings: invariantChecks),
        .target(name: "Device", dependencies: ["SimCore", "Traces"], swiftSettings: invariantChecks),
        .target(name: "Policies", dependencies: ["Device", "SimCore"], swiftSettings: invariantChecks),
        .target(
            name: "Experiments",
            dependencies: ["Stats", "SimCore", "Traces", "Device", "Policies"],
            swiftSettings: invariantChecks
        ),
        .target(name: "BGBenchCLI", dependencies: ["Experiments", "Policies"]),
        .executableTarget(name: "bgbench", dependencies: ["BGBenchCLI"]),
        .executableTarget(
            name: "BGBenchmarks",
            dependencies: ["SimCore", "Stats", "Traces", "Device", "Policies", "Experiments"],
            path: "Benchmarks/BGBenchmarks"
        ),

        // Shared helpers for the test targets (fixtures, temporary directories).
        .target(name: "TestSupport", dependencies: ["Stats", "SimCore"], path: "Tests/TestSupport"),
        .testTarget(name: "StatsTests", dependencies: ["Stats", "TestSupport"]),
        .testTarget(name: "SimCoreTests", dependencies: ["SimCore", "TestSupport"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "TestSupport"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "TestSupport"]),
        .testTarget(name: "PoliciesTests", dependencies: ["Policies", "Device", "TestSupport"]),
        .testTarget(name: "ExperimentsTests", dependencies: ["Experiments", "Policies", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
