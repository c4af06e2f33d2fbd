// swift-tools-version: 6.1
// The example of the user's job for App Attest (docs/apple-api.md, "Testing
// your app's App Attest flow"): an app's attestation client in Apple's style
// (DeviceCheck and Foundation's URL loading), and its own `swift test`
// running the whole flow on Linux against `trustsuite serve appattest`. It
// depends on TrustSuite by path (by URL in real life); on Apple platforms
// Apple's DeviceCheck answers the import. CI builds and tests it (.ci/run).
import PackageDescription

let linux = TargetDependencyCondition.when(platforms: [.linux])

let package = Package(
    name: "AttestedClient",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TrustSuite", path: "../.."),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        .target(
            name: "AttestedClient",
            dependencies: [
                .product(name: "DeviceCheck", package: "TrustSuite", condition: linux),
                .product(name: "Crypto", package: "swift-crypto", condition: linux),
            ]),
        .testTarget(
            name: "AttestedClientTests",
            dependencies: [
                "AttestedClient",
                .product(name: "SecuritySimulation", package: "TrustSuite", condition: linux),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
