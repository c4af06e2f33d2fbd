import Benchmark
import BenchmarkInputs
import Foundation
import StrictCBOR

// ordo-one/benchmark suite: `swift package --package-path Benchmarks benchmark`.
// The workloads are BenchmarkInputs', shared with compare.sh's timing loops.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3), maxIterations: 100_000)

    // CBOR decode of every committed payload, in the mode App Attest uses
    // (ctap2: the attestation object) and in wellFormed (the integer arrays;
    // ctap2 refuses their nesting and size on purpose).
    for name in Locations.cborPayloads {
        let bytes = Locations.payload(name)
        let mode: CBORMode = name == "attestation.cbor" ? .ctap2 : .wellFormed
        let big = bytes.count > 500_000
        Benchmark(
            "CBOR decode \(name) (\(mode.rawValue), \(bytes.count) bytes)",
            configuration: .init(maxDuration: .seconds(big ? 5 : 3), maxIterations: big ? 200 : 100_000)
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try? CBORDecoder(mode: mode).decode(bytes)) }
        }
    }

    if let assertion = AssertionWorkload() {
        Benchmark("Assertion: raw ECDSA P-256 verification (the floor)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(assertion.raw.verify()) }
        }
        Benchmark("Assertion: full verification") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(assertion.verify()) }
        }
    }

    if let attestation = AttestationWorkload() {
        Benchmark("Attestation: its \(attestation.rawChecks.count) raw signature verifications") { benchmark in
            for _ in benchmark.scaledIterations {
                for check in attestation.rawChecks { blackHole(check.verify()) }
            }
        }
        Benchmark("Attestation: full verification (receipt included)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(await attestation.verify()) }
        }
    }

    if let receipt = ReceiptWorkload() {
        Benchmark("Receipt: full verification") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(await receipt.verify()) }
        }
    }

    Benchmark(
        "Runner: every committed vector, in process",
        configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(await RunnerWorkload.inProcess()) }
    }

    // Through the protocol: set TRUSTSUITE_ADAPTER to e.g. "$(pwd)/.build/release/trustsuite adapter".
    if let command = ProcessInfo.processInfo.environment["TRUSTSUITE_ADAPTER"] {
        Benchmark(
            "Runner: every committed vector through `trustsuite adapter`",
            configuration: .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 20)
        ) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(await RunnerWorkload.throughAdapter(command)) }
        }
    }
}
