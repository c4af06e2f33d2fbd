// swift-tools-version: 6.1
// Benchmarks, kept out of the root package so that `swift test` does not
// build them (as swift-asn1 and swift-certificates keep theirs). From the
// repository root:
//   swift package --package-path Benchmarks benchmark      (ordo-one/benchmark)
//   swift package --package-path Benchmarks benchmark --target DeviceCheckServiceBenchmarks
//   swift package --package-path Benchmarks benchmark --target KeychainBenchmarks
//   Benchmarks/compare.sh                                  (side by side with cbor2 and openssl)
import PackageDescription

let package = Package(
    name: "TrustSuiteBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TrustSuite", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // The measured workloads, shared by both executables.
        .target(
            name: "BenchmarkInputs",
            dependencies: [
                .product(name: "AppAttest", package: "TrustSuite"),
                .product(name: "StrictCBOR", package: "TrustSuite"),
                .product(name: "ConformanceKit", package: "TrustSuite"),
                .product(name: "VectorContract", package: "TrustSuite"),
                .product(name: "ReferenceSubjects", package: "TrustSuite"),
                .product(name: "TrustSuiteSupport", package: "TrustSuite"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "TrustSuiteBenchmarks",
            dependencies: [
                "BenchmarkInputs",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StrictCBOR", package: "TrustSuite"),
            ],
            path: "Benchmarks/TrustSuiteBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // `serve devicecheck` under load: 8 loopback HTTP clients, 0 and 200,000 stored devices.
        .executableTarget(
            name: "DeviceCheckServiceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DeviceCheckService", package: "TrustSuite"),
                .product(name: "AppAttest", package: "TrustSuite"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/DeviceCheckServiceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // SecItem through `import Security` with 1,000 and 100,000 stored items (Linux).
        .executableTarget(
            name: "KeychainBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Security", package: "TrustSuite"),
                .product(name: "SecuritySimulation", package: "TrustSuite"),
            ],
            path: "Benchmarks/KeychainBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // StrictCBOR's timing loops for compare.sh's side-by-side table and
        // the callgrind driver: StrictCBOR alone, so it builds in a minute.
        .executableTarget(
            name: "cbor-timing",
            dependencies: [.product(name: "StrictCBOR", package: "TrustSuite")],
            path: "Sources/CBORTiming"
        ),
        // Plain timing loops for compare.sh (no benchmark framework, so the
        // same loop shape as the Python side).
        .executableTarget(
            name: "compare-timing",
            dependencies: ["BenchmarkInputs", .product(name: "StrictCBOR", package: "TrustSuite")],
            path: "Sources/CompareTiming"
        ),
    ],
    swiftLanguageModes: [.v6]
)
