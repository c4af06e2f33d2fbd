import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport

/// Files the benchmarks read: the committed payloads (Benchmarks/Payloads)
/// and the committed vectors (Fixtures/), found from this file's path.
public enum Locations {
    /// The Benchmarks folder.
    public static let benchmarks = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let payloads = benchmarks.appendingPathComponent("Payloads")
    public static let fixtures = benchmarks.deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The bytes of a payload file, e.g. `ints-1m.cbor`, or of any file
    /// given by a path with a slash; empty when missing.
    public static func payload(_ name: String) -> [UInt8] {
        let url = name.contains("/") ? URL(fileURLWithPath: name) : payloads.appendingPathComponent(name)
        return (try? Data(contentsOf: url)).map { Array($0) } ?? []
    }

    /// The CBOR payloads, smallest first.
    public static let cborPayloads = [
        "attestation.cbor", "ints-1k.cbor", "ints-100k.cbor", "ints-1m.cbor", "ints-10m.cbor", "nesting-10m.cbor",
    ]

    /// One vector of a committed app-attest file.
    public static func vector(_ file: String, _ id: String) -> Vector? {
        let path = fixtures.appendingPathComponent("app-attest").appendingPathComponent(file).path
        return (try? VectorLoader.loadFile(path))?.vectors.first { $0.id == id }
    }

    /// Every committed vector.
    public static func allVectors() -> [Vector] {
        ((try? VectorLoader.load(paths: [fixtures.path])) ?? []).flatMap(\.vectors)
    }
}

extension Vector {
    /// A base64 input field's bytes; empty when missing.
    public func bytes(_ key: String) -> [UInt8] {
        input[key]?.stringValue.flatMap(BinaryText.base64) ?? []
    }
}

/// Wall-clock timing of a closure: the best of several rounds, each long
/// enough to swamp the clock's resolution.
public enum Timing {
    /// Nanoseconds per call of `body`, the minimum over `rounds` rounds of
    /// about `roundSeconds` each.
    public static func nanoseconds(rounds: Int = 5, roundSeconds: Double = 0.3, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        // Calibrate: how many calls make one round.
        var calls = 1
        while true {
            let start = clock.now
            for _ in 0..<calls { body() }
            let elapsed = seconds(clock.now - start)
            if elapsed >= roundSeconds / 4 || calls >= 1 << 24 {
                calls = max(1, Int(Double(calls) * roundSeconds / max(elapsed, 1e-9)))
                break
            }
            calls *= 4
        }
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = clock.now
            for _ in 0..<calls { body() }
            best = min(best, seconds(clock.now - start) / Double(calls))
        }
        return best * 1e9
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
