// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TrustSuite",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StrictCBOR", targets: ["StrictCBOR"]),
        .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
        .library(name: "ReferenceSubjects", targets: ["ReferenceSubjects"]),
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
        .executable(name: "trustsuite", targets: ["trustsuite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Reference modules: no dependency on ConformanceKit.
        .target(name: "StrictCBOR"),
        // Vector model, runner and reports: imports no reference module.
        .target(name: "ConformanceKit"),
        // Adapts each reference module to ConformanceKit's Subject protocol.
        .target(name: "ReferenceSubjects", dependencies: ["ConformanceKit", "StrictCBOR"]),
        // Fuzz oracles: called by the libFuzzer harnesses in Fuzz/ and by the replay tests.
        .target(name: "FuzzTargets", dependencies: ["StrictCBOR"]),
        .executableTarget(
            name: "trustsuite",
            dependencies: [
                "ReferenceSubjects", "ConformanceKit", "StrictCBOR",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["ConformanceKit"], path: "Tests/TestSupport"),
        .testTarget(
            name: "StrictCBORTests",
            dependencies: [
                "StrictCBOR", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "ConformanceKitTests", dependencies: ["ConformanceKit"]),
        .testTarget(name: "ReferenceSubjectsTests", dependencies: ["ReferenceSubjects", "ConformanceKit", "TestSupport"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
