// swift-tools-version:6.0
// A researcher's own policy, in a package of its own: BGBench is a
// dependency (here by relative path; from a clone elsewhere, by URL or path
// to it), nothing of BGBench is forked or edited.
import PackageDescription

let package = Package(
    name: "CustomPolicy",
    dependencies: [
        .package(name: "BGBench", path: "../.."),
    ],
    targets: [
        // The policy: what a researcher writes.
        .target(name: "WiFiOrChargingPolicy", dependencies: [
            .product(name: "Policies", package: "BGBench"),
            .product(name: "Device", package: "BGBench"),
            .product(name: "SimCore", package: "BGBench"),
        ]),
        // The whole bgbench command line, with the policy registered.
        .executableTarget(name: "custom-bgbench", dependencies: [
            "WiFiOrChargingPolicy",
            .product(name: "BGBenchCLI", package: "BGBench"),
            .product(name: "Policies", package: "BGBench"),
        ]),
        .testTarget(name: "WiFiOrChargingPolicyTests", dependencies: [
            "WiFiOrChargingPolicy",
            .product(name: "Policies", package: "BGBench"),
            .product(name: "Device", package: "BGBench"),
            .product(name: "SimCore", package: "BGBench"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
