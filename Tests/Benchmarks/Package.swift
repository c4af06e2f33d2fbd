// swift-tools-version: 6.1
// Benchmarks (ordo-one/benchmark), kept out of the root package so that
// `swift test` does not build them. Run from the repository root:
//   swift package --package-path Tests/Benchmarks benchmark
import PackageDescription

let package = Package(
    name: "TrustSuiteBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TrustSuite", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "TrustSuiteBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AppAttest", package: "TrustSuite"),
                .product(name: "StrictCBOR", package: "TrustSuite"),
                .product(name: "ConformanceKit", package: "TrustSuite"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/TrustSuiteBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
