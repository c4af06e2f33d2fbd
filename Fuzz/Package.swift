// swift-tools-version: 6.1
// libFuzzer harnesses for TrustSuite's parsers. Build and run with Fuzz/run.sh.
import PackageDescription

let package = Package(
    name: "TrustSuiteFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a bare path dependency takes the checkout's folder
        // name as its identity, which breaks clones under another name.
        .package(name: "TrustSuite", path: ".."),
    ],
    targets: ["FuzzCBOR", "FuzzAttestation", "FuzzAssertion", "FuzzReceipt", "FuzzACL"].map { name in
        .executableTarget(name: name, dependencies: [.product(name: "FuzzTargets", package: "TrustSuite")])
    },
    swiftLanguageModes: [.v6]
)
