// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The libcbor oracle (the second decoder of the FuzzCBORDifferential harness)
// needs Debian's libcbor-dev, which a machine with only the toolchain lacks:
// it is built in only when TRUSTSUITE_LIBCBOR=1. `.ci/run` and the fuzz
// scripts (Fuzz/options.sh) set it; a plain `swift test` skips its tests and
// says what to install. An environment variable rather than a package trait:
// the nested Fuzz/ package and every script reach it without passing a
// `--traits` flag through each `swift` call, and the manifest already reads
// TRUSTSUITE_WARNINGS_AS_ERRORS the same way.
let environment = ProcessInfo.processInfo.environment

/// `Security` and `LocalAuthentication` are Apple's framework names: on Linux
/// they are this package's modules; on Apple platforms the products point at
/// empty modules of other names, so Apple's frameworks are never shadowed.
func appleAPITarget(_ name: String) -> String {
    #if os(Linux)
    name
    #else
    name + "Unavailable"
    #endif
}
let withLibCBOR = environment["TRUSTSUITE_LIBCBOR"] == "1"

let package = Package(
    name: "TrustSuite",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StrictCBOR", targets: ["StrictCBOR"]),
        // For Benchmarks/ (a separate package): the vectors' JSON and base64 text.
        .library(name: "TrustSuiteSupport", targets: ["TrustSuiteSupport"]),
        .library(name: "AppAttest", targets: ["AppAttest"]),
        .library(name: "DeviceCheckModel", targets: ["DeviceCheckModel"]),
        .library(name: "KeychainAccessControl", targets: ["KeychainAccessControl"]),
        .library(name: "KeychainModel", targets: ["KeychainModel"]),
        .library(name: "LocalAuthorization", targets: ["LocalAuthorization"]),
        .library(name: "OpenSSLOracle", targets: ["OpenSSLOracle"]),
        .library(name: "VectorContract", targets: ["VectorContract"]),
        .library(name: "ConformanceReports", targets: ["ConformanceReports"]),
        .library(name: "AdapterHost", targets: ["AdapterHost"]),
        .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
        // In-process conformance for Swift implementations: the vectors as resources, the suite's grading.
        .library(name: "TrustSuiteTesting", targets: ["TrustSuiteTesting"]),
        .library(name: "ReferenceSubjects", targets: ["ReferenceSubjects"]),
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
        .library(name: "AppAttestDevice", targets: ["AppAttestDevice"]),
        .library(name: "DeviceCheckService", targets: ["DeviceCheckService"]),
        .library(name: "AppAttestProbe", targets: ["AppAttestProbe"]),
        .library(name: "AppAttestExampleServer", targets: ["AppAttestExampleServer"]),
        .executable(name: "trustsuite", targets: ["trustsuite"]),
        // Apple's API on Linux over the keychain models (docs/apple-api.md):
        // on Apple platforms the two products name empty modules, so that
        // Apple's own frameworks answer `import Security`.
        .library(name: "Security", targets: [appleAPITarget("Security")]),
        .library(name: "LocalAuthentication", targets: [appleAPITarget("LocalAuthentication")]),
        // App Attest's and DeviceCheck's client on the software device (docs/apple-api.md).
        .library(name: "DeviceCheck", targets: [appleAPITarget("DeviceCheck")]),
        // The simulation control: device, app, user, clock and logs.
        .library(name: "SecuritySimulation", targets: ["SecuritySimulation"]),
        .executable(name: "trustsuite-apple-api-adapter", targets: ["AppleAPIAdapter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // Pinned: chain validation at a fixed time uses its @_spi(FixedExpiryValidationTime).
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already in the graph through Hummingbird; named for the DeviceCheck
        // service's connection timeouts (NIOHTTPTypes) and bounded shutdown.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The probe's HTTP client (per-request deadlines, no redirects, bounded bodies).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // Support: JSON values, hex/base64 text, atomic files and locks, bounded
        // reads and writes, the checkout's location. Depends on nothing of ours.
        .target(name: "TrustSuiteSupport"),
        // Reference modules: no dependency on the vector contract or the runner.
        .target(name: "StrictCBOR"),
        .target(name: "KeychainAccessControl"),
        .target(
            name: "LocalAuthorization",
            dependencies: ["KeychainAccessControl", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "KeychainModel",
            dependencies: ["KeychainAccessControl", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The DeviceCheck two-bit model, its JSON bodies and its test token.
        .target(name: "DeviceCheckModel", dependencies: ["TrustSuiteSupport"]),
        .target(
            name: "AppAttest",
            dependencies: [
                "StrictCBOR", "TrustSuiteSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The test PKI: an Apple-shaped software CA (attestation and receipt
        // chains, receipts), a DER/TLV writer. Used by the generator, the
        // software device, the fuzz oracles and the tests.
        .target(
            name: "TestPKI",
            dependencies: [
                "AppAttest", "StrictCBOR", "TrustSuiteSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // Builds the app-attest vectors (`trustsuite generate app-attest`) and the
        // real-root ones from the external data (`generate real-app-attest`, YAML); uses no verifier.
        .target(
            name: "AppAttestGenerator",
            dependencies: [
                "AppAttest", "StrictCBOR", "VectorContract", "TestPKI", "TrustSuiteSupport",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // Test doubles for server teams: a software App Attest device…
        .target(
            name: "AppAttestDevice",
            dependencies: [
                "AppAttest", "TestPKI", "DeviceCheckModel", "TrustSuiteSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // What both local HTTP services share: one service per state file,
        // per-connection deadlines and a connection cap.
        .target(
            name: "ServiceGuards",
            dependencies: [
                "TrustSuiteSupport",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // …and a local DeviceCheck service over the DeviceCheck model.
        .target(
            name: "DeviceCheckService",
            dependencies: [
                "DeviceCheckModel", "ServiceGuards", "TrustSuiteSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The server conformance probe (spec/probe.md): the software device
        // drives a running App Attest server over HTTP and grades its answers.
        .target(
            name: "AppAttestProbe",
            dependencies: [
                "AppAttest", "AppAttestDevice", "VectorContract", "ConformanceReports", "TrustSuiteSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // An App Attest server done right, on Hummingbird: what the probe passes against.
        .target(
            name: "AppAttestExampleServer",
            dependencies: [
                "AppAttest", "ServiceGuards", "TrustSuiteSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Independent second opinion for differential tests (libssl via pkg-config).
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "OpenSSLOracle", dependencies: ["COpenSSL"]),
        // prctl(PR_SET_CHILD_SUBREAPER) for the adapter runner (prctl is variadic: not importable).
        .target(name: "CProcessControl"),
        // The vector contract: the model, the typed families, the notes, the
        // loader, the Subject protocol and what an adapter's hello declares.
        .target(
            name: "VectorContract",
            dependencies: ["TrustSuiteSupport", .product(name: "Crypto", package: "swift-crypto")]),
        // Findings and reports: one neutral finding model; JUnit, SARIF and
        // Markdown tables written once, terminal and Markdown text escaping.
        .target(name: "ConformanceReports", dependencies: ["TrustSuiteSupport"]),
        // The adapter host: processes, deadlines, restarts, error maps, adapter lists.
        .target(
            name: "AdapterHost",
            dependencies: ["VectorContract", "CProcessControl", "TrustSuiteSupport"]),
        // The runner and grader: runs, grades, severities, matrices, baselines and their reports.
        .target(
            name: "ConformanceKit",
            dependencies: ["VectorContract", "ConformanceReports", "TrustSuiteSupport"]),
        // The vector files as SwiftPM resources (Bundle.module), and the library that grades with them.
        .target(
            name: "TrustSuiteVectors", path: "Fixtures",
            resources: [
                .copy("cbor"), .copy("app-attest"), .copy("keychain-acl"), .copy("keychain-flow"), .copy("la-right"),
                .copy("apple-api"), .copy("real"), .copy("LICENSE"),
            ]
        ),
        .target(
            name: "TrustSuiteTesting",
            dependencies: ["ConformanceKit", "VectorContract", "TrustSuiteSupport", "TrustSuiteVectors", "AdapterHost"]),
        // Adapts each reference module to the contract's Subject protocol.
        .target(
            name: "ReferenceSubjects",
            dependencies: [
                "VectorContract", "DeviceCheckModel", "TrustSuiteSupport", "StrictCBOR", "AppAttest", "KeychainAccessControl",
                "KeychainModel",
                "LocalAuthorization",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        // Fuzz oracles: called by the libFuzzer harnesses in Fuzz/ and by the replay tests.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "StrictCBOR", "AppAttest", "AppAttestGenerator", "TestPKI", "ReferenceSubjects", "ConformanceKit", "VectorContract",
                "AdapterHost", "DeviceCheckModel", "TrustSuiteSupport", "OpenSSLOracle", "KeychainAccessControl", "KeychainModel",
                "LocalAuthorization",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "trustsuite",
            dependencies: [
                "ReferenceSubjects", "ConformanceKit", "VectorContract", "ConformanceReports", "AdapterHost", "TrustSuiteSupport",
                "StrictCBOR", "AppAttest", "AppAttestGenerator", "KeychainAccessControl", "AppAttestDevice", "DeviceCheckService",
                "AppAttestProbe", "AppAttestExampleServer", "ServiceGuards",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The simulation control over KeychainModel's engine (docs/apple-api.md).
        .target(
            name: "SecuritySimulation",
            dependencies: ["KeychainModel", "KeychainAccessControl", "LocalAuthorization", "AppAttest", "AppAttestDevice"]),
        .target(
            name: "TestSupport",
            dependencies: ["ConformanceKit", "VectorContract", "AdapterHost", "TrustSuiteSupport", "AppAttest", "StrictCBOR"],
            path: "Tests/TestSupport"),
        // Test-only: StrictCBOR frozen before issue 30's speed work, the
        // oracle of FrozenDecoderDifferentialTests (see its README).
        .target(name: "StrictCBORFrozen", path: "Tests/StrictCBORFrozen", exclude: ["README.md"]),
        .testTarget(
            name: "StrictCBORTests",
            dependencies: [
                "StrictCBOR", "StrictCBORFrozen", "TestSupport", "ConformanceKit", "VectorContract", "TrustSuiteSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ConformanceKitTests",
            dependencies: [
                "ConformanceKit", "VectorContract", "ConformanceReports", "AdapterHost", "TrustSuiteSupport", "TestSupport",
            ]),
        .testTarget(
            name: "LocalAuthorizationTests",
            dependencies: [
                "LocalAuthorization", "KeychainAccessControl", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "KeychainModelTests",
            dependencies: [
                "KeychainModel", "KeychainAccessControl", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "KeychainAccessControlTests",
            dependencies: ["KeychainAccessControl", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "AppAttestTests",
            dependencies: [
                "AppAttest", "AppAttestGenerator", "TestPKI", "OpenSSLOracle", "TestSupport", "StrictCBOR", "ConformanceKit",
                "VectorContract",
                "TrustSuiteSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(
            name: "ReferenceSubjectsTests",
            dependencies: [
                "ReferenceSubjects", "ConformanceKit", "ConformanceReports", "VectorContract", "AdapterHost", "DeviceCheckModel",
                "TrustSuiteSupport",
                "TestSupport", "AppAttest",
                "StrictCBOR",
                "KeychainAccessControl", "KeychainModel", "LocalAuthorization",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "FuzzTargetsTests",
            dependencies: [
                "FuzzTargets", "TestSupport", "AppAttest", "AppAttestGenerator", "TestPKI", "ConformanceKit", "VectorContract",
                "AdapterHost", "StrictCBOR",
                "TrustSuiteSupport",
                "OpenSSLOracle",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TestDoublesTests",
            dependencies: [
                "AppAttestDevice", "AppAttest", "DeviceCheckService", "ConformanceKit", "VectorContract", "DeviceCheckModel",
                "TrustSuiteSupport", "TestSupport", "TestPKI", "StrictCBOR",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "AppAttestProbeTests",
            dependencies: [
                "AppAttestProbe", "AppAttestExampleServer", "AppAttestDevice", "AppAttest", "TestSupport", "TrustSuiteSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // TrustSuiteTesting graded on a deliberately trapping decoder: its crashes isolated, listed, the rest graded.
        .testTarget(
            name: "TrustSuiteTestingTests",
            dependencies: ["TrustSuiteTesting", "ReferenceSubjects", "ConformanceKit", "VectorContract", "TrustSuiteSupport"]),
        // Runs the built `trustsuite` binary as a user does (input forms, hostile arguments).
        .testTarget(
            name: "CLITests",
            dependencies: [
                "trustsuite", "TestSupport", "ConformanceKit", "VectorContract", "AdapterHost", "TrustSuiteSupport", "ReferenceSubjects",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
package.targets += [
    // X509 is a dependency for order only: swift-certificates compiles extra
    // code `#if canImport(Security)`, and on Linux this package's Security
    // would be found if it were built first. Building X509 first keeps it
    // from ever seeing this module (SecCertificate also exists here, so a
    // stale build still compiles).
    .target(
        name: "Security",
        dependencies: [
            "SecuritySimulation", "KeychainModel", "KeychainAccessControl", .product(name: "X509", package: "swift-certificates"),
        ]),
    .target(
        name: "LocalAuthentication",
        dependencies: [
            "Security", "SecuritySimulation", "KeychainModel", "KeychainAccessControl", "LocalAuthorization",
        ]),
    .target(name: "DeviceCheck", dependencies: ["SecuritySimulation", "AppAttestDevice"]),
    // The apple-api trace driver, written against Apple's API only (docs/apple-api.md).
    .target(
        name: "AppleAPIDriver",
        dependencies: [
            "Security", "LocalAuthentication", "SecuritySimulation", "KeychainModel", "KeychainAccessControl", "DeviceCheck",
            "AppAttest", "AppAttestDevice", .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
    // The driver as an adapter binary (the same source is an adapter for Apple's own frameworks).
    .executableTarget(name: "AppleAPIAdapter", dependencies: ["AppleAPIDriver", "SecuritySimulation"]),
    // The example of the user's job: a keychain layer in Apple's style, and its tests on the simulation.
    .target(name: "TokenStore", dependencies: ["Security", "LocalAuthentication"], path: "Examples/TokenStore/Sources/TokenStore"),
    .testTarget(
        name: "TokenStoreTests",
        dependencies: [
            "TokenStore", "Security", "SecuritySimulation", .product(name: "Crypto", package: "swift-crypto"),
        ], path: "Examples/TokenStore/Tests/TokenStoreTests"),
    // The App Attest client example (Examples/AttestedClient, a package of its
    // own for users) built here too, so CI runs its tests in this package's
    // build instead of compiling TrustSuite a second time (about 15 minutes).
    .target(
        name: "AttestedClient", dependencies: ["DeviceCheck", .product(name: "Crypto", package: "swift-crypto")],
        path: "Examples/AttestedClient/Sources/AttestedClient"),
    .testTarget(
        name: "AttestedClientTests", dependencies: ["AttestedClient", "DeviceCheck", "SecuritySimulation", "trustsuite"],
        path: "Examples/AttestedClient/Tests/AttestedClientTests"),
    // The outside consumer of TrustSuiteTesting (Examples/ConformanceConsumer,
    // a package of its own for users) built here too, for the same reason
    // (issue 61, item 12): its tests grade its decoder in this `swift test`.
    .target(name: "UIntDecoder", path: "Examples/ConformanceConsumer/Sources/UIntDecoder"),
    .testTarget(
        name: "UIntDecoderTests", dependencies: ["UIntDecoder", "TrustSuiteTesting"],
        path: "Examples/ConformanceConsumer/Tests/UIntDecoderTests", resources: [.copy("expected.json")]),
    // Apple-SDK code in every pattern of docs/apple-api.md, compiled in Swift 6 mode…
    .testTarget(
        name: "AppleAPITests",
        dependencies: [
            "Security", "LocalAuthentication", "DeviceCheck", "SecuritySimulation", "KeychainModel", "KeychainAccessControl",
            "AppAttest", "AppAttestDevice", "DeviceCheckModel",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
    // …and in Swift 5 mode: a regression in compatibility fails the build.
    .testTarget(
        name: "AppleAPISwift5Tests", dependencies: ["Security", "LocalAuthentication", "DeviceCheck"],
        swiftSettings: [.swiftLanguageMode(.v5)]),
]
for target in package.targets where target.name == "ReferenceSubjects" {
    target.dependencies += ["AppleAPIDriver", "SecuritySimulation"]
}
// FuzzSecItemDifferential: SecItem calls through `import Security` against the model.
for target in package.targets where target.name == "FuzzTargets" {
    target.dependencies += ["Security", "SecuritySimulation"]
}
#else
package.targets += [
    .target(name: "SecurityUnavailable", path: "Sources/AppleAPIUnavailable/Security"),
    .target(name: "LocalAuthenticationUnavailable", path: "Sources/AppleAPIUnavailable/LocalAuthentication"),
    .target(name: "DeviceCheckUnavailable", path: "Sources/AppleAPIUnavailable/DeviceCheck"),
    // Where Apple's frameworks exist, the driver and its adapter build against them.
    .target(name: "AppleAPIDriver"),
    .executableTarget(name: "AppleAPIAdapter", dependencies: ["AppleAPIDriver"]),
]
#endif

// As swift-asn1 does: explicit existentials and imports for every module
// used; CI (.ci/run) also sets TRUSTSUITE_WARNINGS_AS_ERRORS=1 so a warning
// fails the build.
let warningsAsErrors = environment["TRUSTSUITE_WARNINGS_AS_ERRORS"] == "1"
// AppleAPISwift5Tests stands for third-party code as its authors wrote it: none of these.
// The AttestedClient and ConformanceConsumer examples are users' packages built here too: their own
// manifest's settings, and warnings as errors.
let userPackageTargets: Set<String> = ["AttestedClient", "AttestedClientTests", "UIntDecoder", "UIntDecoderTests"]
for target in package.targets where target.type != .system && target.name != "AppleAPISwift5Tests" {
    let upcoming: [SwiftSetting] =
        userPackageTargets.contains(target.name)
        ? [] : [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
    target.swiftSettings = (target.swiftSettings ?? []) + upcoming + (warningsAsErrors ? [.unsafeFlags(["-warnings-as-errors"])] : [])
}

if withLibCBOR {
    // libcbor, the second CBOR decoder of the FuzzCBORDifferential harness.
    package.targets.append(.systemLibrary(name: "CLibCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]))
    for target in package.targets where ["FuzzTargets", "FuzzTargetsTests"].contains(target.name) {
        if target.name == "FuzzTargets" { target.dependencies.append("CLibCBOR") }
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("TRUSTSUITE_LIBCBOR")]
    }
}
