// swift-tools-version: 6.1
// libFuzzer harnesses for TrustSuite's parsers. Build and run with Fuzz/run.sh.
import Foundation
import PackageDescription

// One executable per folder of Sources/: the harness registry is `Harness` in
// FuzzTargets, and a test checks these folders against it.
let harnesses =
    ((try? FileManager.default.contentsOfDirectory(
        atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Sources").path)) ?? [])
    .filter { $0.hasPrefix("Fuzz") }.sorted()

let package = Package(
    name: "TrustSuiteFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a bare path dependency takes the checkout's folder
        // name as its identity, which breaks clones under another name.
        .package(name: "TrustSuite", path: "..")
    ],
    targets: harnesses.map { name in
        .executableTarget(name: name, dependencies: [.product(name: "FuzzTargets", package: "TrustSuite")])
    },
    swiftLanguageModes: [.v6]
)
