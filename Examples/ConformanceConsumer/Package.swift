// swift-tools-version: 6.1
// A consumer of TrustSuiteTesting, as an outside Swift project would be:
// it depends on TrustSuite by path (by URL in real life), wraps its own
// implementation and grades it against the suite's vectors in its own
// `swift test` (docs/adopting.md). CI builds and tests it.
import PackageDescription

let package = Package(
    name: "ConformanceConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TrustSuite", path: "../..")
    ],
    targets: [
        .target(name: "UIntDecoder"),
        .testTarget(
            name: "UIntDecoderTests",
            dependencies: ["UIntDecoder", .product(name: "TrustSuiteTesting", package: "TrustSuite")],
            resources: [.copy("expected.json")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
