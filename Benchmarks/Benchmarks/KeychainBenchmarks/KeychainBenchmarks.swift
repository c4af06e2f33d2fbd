import Benchmark
import Foundation
import Security
import SecuritySimulation

// SecItem through `import Security` on Linux (issue 40 item 7): add, copy by
// primary key, update and delete with 1,000 and 100,000 items already in the
// keychain. Each iteration is 1,000 calls on random stored items (adds and
// deletes on fresh accounts), so with scalingFactor .kilo the throughput is
// calls per second; lookups by primary key must not grow with the item count.
//   swift package --package-path Benchmarks benchmark --target KeychainBenchmarks
let benchmarks: @Sendable () -> Void = {
    for stored in [1_000, 100_000] {
        let load = KeychainLoad(stored: stored)
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo,
            maxDuration: .seconds(10), maxIterations: 30,
            setup: { load.fill() })
        Benchmark("SecItemCopyMatching by primary key, \(stored) items", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(load.copy()) }
        }
        Benchmark("SecItemUpdate by primary key, \(stored) items", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(load.update()) }
        }
        Benchmark("SecItemAdd then SecItemDelete, \(stored) items", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(load.addAndDelete()) }
        }
    }
}

/// A keychain of `stored` generic passwords (service "bench", accounts "user-N").
final class KeychainLoad: @unchecked Sendable {
    let stored: Int
    private var next = 0
    private var generator = SystemRandomNumberGenerator()

    init(stored: Int) { self.stored = stored }

    static func query(_ account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench", kSecAttrAccount as String: account]
    }

    func fill() {
        Simulation.shared.reset()
        for index in 0..<stored {
            var item = Self.query("user-\(index)")
            item[kSecValueData as String] = Data("secret-\(index)".utf8)
            SecItemAdd(item as CFDictionary, nil)
        }
    }

    private func randomAccount() -> String { "user-\(Int.random(in: 0..<stored, using: &generator))" }

    func copy() -> OSStatus {
        var query = Self.query(randomAccount())
        query[kSecReturnData as String] = true
        var result: CFTypeRef?
        return SecItemCopyMatching(query as CFDictionary, &result)
    }

    func update() -> OSStatus {
        SecItemUpdate(Self.query(randomAccount()) as CFDictionary, [kSecValueData as String: Data("new".utf8)] as CFDictionary)
    }

    func addAndDelete() -> OSStatus {
        next += 1
        var item = Self.query("fresh-\(next)")
        item[kSecValueData as String] = Data("x".utf8)
        let added = SecItemAdd(item as CFDictionary, nil)
        let deleted = SecItemDelete(Self.query("fresh-\(next)") as CFDictionary)
        return added | deleted
    }
}
